package sshd

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// TestIdleConnHandshakeDeadline: before a session opens, the handshake's deadline applies even
// though the idle timeout is long.
func TestIdleConnHandshakeDeadline(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	ic := &idleConn{Conn: a, idle: time.Hour, stall: time.Hour, handshake: time.Now().Add(50 * time.Millisecond)}
	_, err := ic.Read(make([]byte, 1))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read before the session opened: %v, want a deadline error", err)
	}
}

// TestIdleConnOpen: once a session opened, a past handshake deadline no longer closes the
// connection; the idle one does.
func TestIdleConnOpen(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	ic := &idleConn{Conn: a, idle: time.Hour, stall: time.Hour, handshake: time.Now().Add(-time.Second)}
	ic.open.Store(true)
	go func() {
		time.Sleep(20 * time.Millisecond)
		b.Write([]byte("x"))
	}()
	if n, err := ic.Read(make([]byte, 1)); n != 1 || err != nil {
		t.Fatalf("read after the session opened: %d, %v", n, err)
	}
	ic.idle = 30 * time.Millisecond
	if _, err := ic.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read on an idle connection: %v, want a deadline error", err)
	}
	if err := ic.SetDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
}

// TestIdleConnStalledWrite: a write the other end does not take in within the stall timeout
// fails and closes the connection, though reads would still wait for the idle timeout.
func TestIdleConnStalledWrite(t *testing.T) {
	a, b := net.Pipe() // unbuffered: a write completes only when b reads it
	defer b.Close()
	ic := &idleConn{Conn: a, idle: time.Hour, stall: 30 * time.Millisecond, handshake: time.Now()}
	ic.open.Store(true)
	if _, err := ic.Write([]byte("x")); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("write no one reads: %v, want a deadline error", err)
	}
	if _, err := ic.Read(make([]byte, 1)); !errors.Is(err, io.ErrClosedPipe) { // net.Pipe's closed
		t.Fatalf("read after a stalled write: %v, want the connection closed", err)
	}
}
