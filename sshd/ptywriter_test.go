package sshd

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"charm.land/ssh"
)

// upstreamPtyWrite is what charm.land/ssh's ptyWriter wrote before third_party/ssh's patch.
func upstreamPtyWrite(p []byte) []byte {
	p = bytes.ReplaceAll(p, []byte{'\n'}, []byte{'\r', '\n'})
	return bytes.ReplaceAll(p, []byte{'\r', '\r', '\n'}, []byte{'\r', '\n'})
}

// TestPtyWriterAsUpstream: the patched ptyWriter (it writes a frame as it is when every newline
// already follows a carriage return) sends the same bytes as the original, on random text made of
// newlines, carriage returns and letters, and on frames that need no change it makes no copy.
func TestPtyWriterAsUpstream(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("\r\nab")
	for i := range 20000 {
		p := make([]byte, r.IntN(12))
		for j := range p {
			p[j] = alphabet[r.IntN(len(alphabet))]
		}
		var got bytes.Buffer
		n, err := ssh.NewPtyWriter(&got).Write(p)
		if err != nil || n != len(p) {
			t.Fatalf("case %d: wrote %d of %d, %v", i, n, len(p), err)
		}
		if want := upstreamPtyWrite(p); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("case %d: %q became %q, upstream %q", i, p, got.Bytes(), want)
		}
	}
	frame := bytes.Repeat([]byte("\x1b[3;1H\x1b[1mtext\x1b[m\r\n"), 40)
	var sink bytes.Buffer
	w := ssh.NewPtyWriter(&sink)
	if allocs := testing.AllocsPerRun(100, func() { sink.Reset(); _, _ = w.Write(frame) }); allocs > 0 {
		t.Errorf("a frame with no bare newline cost %.0f allocations, want 0", allocs)
	}
}
