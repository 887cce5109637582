package phase

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPaste: a raw paste holds nothing that submits or closes a prompt; a bracketed one holds no
// escape between its markers, so it cannot end early.
func TestPaste(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	raw := paste(rng, 10000, false)
	if len(raw) != 10000 || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r >= 0x7f }) {
		t.Errorf("raw paste: %d bytes, or a control character", len(raw))
	}
	b := paste(rng, 10000, true)
	inner, ok := strings.CutPrefix(b, "\x1b[200~")
	inner, ok2 := strings.CutSuffix(inner, "\x1b[201~")
	if !ok || !ok2 || len(inner) < 10000 || strings.Contains(inner, "\x1b") {
		t.Errorf("bracketed paste: markers %v %v, %d bytes inside, or an escape inside", ok, ok2, len(inner))
	}
	if g := garbage(rng, garbageSize); len(g) < garbageSize {
		t.Errorf("garbage: %d bytes, want at least %d", len(g), garbageSize)
	}
}
