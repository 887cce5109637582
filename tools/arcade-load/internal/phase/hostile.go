package phase

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Sizes of what the churn phase sends.
const (
	pasteSize   = 256 << 10 // a huge paste
	garbageSize = 64 << 10  // the garbage a broken client types
)

// hugeWindows are window sizes no terminal has, reported as they are: 2^31 and 2^32-1 columns or
// rows, ten million columns, zero.
var hugeWindows = [][2]uint32{
	{1 << 31, 1 << 31}, {1 << 31, 24}, {80, 1 << 31}, {1<<32 - 1, 1<<32 - 1},
	{10_000_000, 50}, {0, 0}, {1, 1}, {1000, 1000},
}

// randomWindow returns a window size a terminal could have.
func randomWindow(rng *rand.Rand) (w, h uint32) {
	return uint32(20 + rng.IntN(300)), uint32(5 + rng.IntN(100))
}

// stormWindow returns the i-th size of a storm: huge ones and ordinary ones, mixed.
func stormWindow(rng *rand.Rand) (w, h uint32) {
	if rng.IntN(2) == 0 {
		s := hugeWindows[rng.IntN(len(hugeWindows))]
		return s[0], s[1]
	}
	return randomWindow(rng)
}

// garbage returns about n bytes of what a broken or hostile terminal sends: random bytes, control
// characters, invalid UTF-8, escape sequences cut short, overlong or with huge numbers, size and
// mouse reports, a bracketed paste that never ends, strings (OSC, DCS) that are never terminated.
func garbage(rng *rand.Rand, n int) []byte {
	var b []byte
	digits := func(k int) string {
		var s strings.Builder
		for range k {
			s.WriteByte(byte('0' + rng.IntN(10)))
		}
		return s.String()
	}
	for len(b) < n {
		switch rng.IntN(10) {
		case 0:
			for range 1 + rng.IntN(64) {
				b = append(b, byte(rng.IntN(256)))
			}
		case 1:
			for range 1 + rng.IntN(16) {
				b = append(b, byte(rng.IntN(32)))
			}
		case 2:
			b = append(b, "\xff\xfe\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80"[rng.IntN(4):]...)
		case 3:
			b = fmt.Appendf(b, "\x1b[%s;%s%c", digits(1+rng.IntN(12)), digits(rng.IntN(5)), byte(0x40+rng.IntN(0x3f)))
		case 4:
			b = fmt.Appendf(b, "\x1b[8;%d;%dt", rng.Uint32(), rng.Uint32()) // a size report
		case 5:
			b = fmt.Appendf(b, "\x1b[<%d;%d;%dM", rng.IntN(256), rng.Uint32(), rng.Uint32()) // a mouse report
		case 6:
			b = append(b, "\x1b[200~"...) // a paste that never ends
		case 7:
			b = append(b, "\x1b]52;c;"...) // a clipboard string, never terminated
			b = append(b, digits(rng.IntN(200))...)
		case 8:
			b = append(b, "\x1bP"...)
			b = append(b, digits(rng.IntN(200))...)
		default:
			b = append(b, '\x1b', '[')
			b = append(b, digits(rng.IntN(2000))...)
		}
	}
	return b
}

// paste returns a paste of n bytes. Bracketed, it is any printable text and line breaks between
// the markers of a bracketed paste, which a line input takes whole and never submits. Raw, it is
// letters and spaces only, so that typed into a move prompt it neither submits nor closes it.
func paste(rng *rand.Rand, n int, bracketed bool) string {
	var s strings.Builder
	if bracketed {
		s.WriteString("\x1b[200~")
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ     "
	for range n {
		switch {
		case !bracketed:
			s.WriteByte(letters[rng.IntN(len(letters))])
		case rng.IntN(60) == 0:
			s.WriteString("\r\n")
		default:
			s.WriteByte(byte(0x20 + rng.IntN(0x5f)))
		}
	}
	if bracketed {
		s.WriteString("\x1b[201~")
	}
	return s.String()
}

// rawPaste returns n bytes of printable text and line breaks, unbracketed: what a terminal without
// bracketed paste sends, where every character is a key.
func rawPaste(rng *rand.Rand, n int) string {
	var s strings.Builder
	for range n {
		if rng.IntN(60) == 0 {
			s.WriteByte('\r')
		} else {
			s.WriteByte(byte(0x20 + rng.IntN(0x5f)))
		}
	}
	return s.String()
}
