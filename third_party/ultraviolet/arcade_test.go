package uv

// Tests of the arcade's patch (third_party/ultraviolet.md): key tables shared among readers,
// sendBytes's two read buffers used in turn, and sendEvents's stop when its context is done.

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestArcadeSharedKeyTables: readers of the same TERM and flags share one key table, equal to
// one built for a reader alone; other TERMs get their own; past maxSharedTables TERMs a table is
// built for its reader alone.
func TestArcadeSharedKeyTables(t *testing.T) {
	ptr := func(m map[string]Key) uintptr { return reflect.ValueOf(m).Pointer() }
	a := NewTerminalReader(strings.NewReader(""), "xterm-256color")
	b := NewTerminalReader(strings.NewReader(""), "xterm-256color")
	if ptr(a.table) != ptr(b.table) {
		t.Error("two readers of the same TERM have tables of their own")
	}
	if own := newKeysTable(a.Legacy, "xterm-256color", a.UseTerminfo); !reflect.DeepEqual(own, a.table) {
		t.Error("the shared table differs from one built alone")
	}
	if c := NewTerminalReader(strings.NewReader(""), "screen"); ptr(c.table) == ptr(a.table) {
		t.Error("readers of different TERMs share a table")
	}
	for i := range maxSharedTables + 1 {
		NewTerminalReader(strings.NewReader(""), fmt.Sprintf("arcade-test-%d", i))
	}
	sharedTables.RLock()
	n := len(sharedTables.m)
	sharedTables.RUnlock()
	if n > maxSharedTables {
		t.Errorf("%d shared tables, at most %d", n, maxSharedTables)
	}
	x := NewTerminalReader(strings.NewReader(""), "arcade-test-beyond")
	y := NewTerminalReader(strings.NewReader(""), "arcade-test-beyond")
	if ptr(x.table) == ptr(y.table) {
		t.Error("past the bound, two readers share a table")
	}
}

// pieces returns its chunks, one a read, as fast as they are asked for, then io.EOF.
type pieces []string

func (p *pieces) Read(b []byte) (int, error) {
	if len(*p) == 0 {
		return 0, io.EOF
	}
	n := copy(b, (*p)[0])
	if n == len((*p)[0]) {
		*p = (*p)[1:]
	} else {
		(*p)[0] = (*p)[0][n:]
	}
	return n, nil
}

// TestArcadeReadBuffers: reads that come faster than their events are taken (the reader fills
// one buffer while the last is decoded) arrive intact and in order, and a paste longer than a
// buffer, read in several pieces, arrives whole.
func TestArcadeReadBuffers(t *testing.T) {
	var chunks []string
	var want []Event
	for i := range 3000 {
		c := rune('a' + i%26)
		chunks = append(chunks, string(c))
		want = append(want, KeyPressEvent{Code: c, Text: string(c)})
	}
	paste := strings.Repeat("0123456789", 3*sendBufSize/10+7)
	chunks = append(chunks, "\x1b[200~"+paste+"\x1b[201~", "z")
	want = append(want, PasteStartEvent{}, PasteEvent{Content: paste}, PasteEndEvent{},
		KeyPressEvent{Code: 'z', Text: "z"})

	r := pieces(chunks)
	d := NewTerminalReader(&r, "xterm-256color")
	d.EscTimeout = time.Hour
	events := make(chan Event)
	done := make(chan error, 1)
	go func() { done <- d.StreamEvents(context.Background(), events) }()
	var got []Event
	for {
		select {
		case ev := <-events:
			got = append(got, ev)
			continue
		case err := <-done:
			if err != nil {
				t.Fatalf("StreamEvents returned %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("StreamEvents did not end within 10 s; %d events", len(got))
		}
		break
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("event %d: %#v, want %#v", i, got[i], want[i])
		}
	}
}

// TestArcadeStreamEventsStopsWhenNobodyReceives: a reader with input left to send, whose receiver
// has gone (a Bubble Tea program that ended during a paste), returns once its context is done
// instead of waiting for good to send the rest.
func TestArcadeStreamEventsStopsWhenNobodyReceives(t *testing.T) {
	d := NewTerminalReader(strings.NewReader(strings.Repeat("pasted text ", 1000)), "xterm-256color")
	eventc := make(chan Event) // never received from after the first event
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.StreamEvents(ctx, eventc) }()
	<-eventc
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("StreamEvents still sending 10 s after its context was done")
	}
}
