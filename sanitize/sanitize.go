// Package sanitize makes user text (names, chat, typed moves) safe to show on other players'
// terminals: no escape sequences, no control characters, no invalid UTF-8, bounded length. It also
// holds the name rule (name.go), which every layer that binds or shows a player's name applies.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line of printable text of at most max runes (max <= 0 means no bound).
// Escape sequences (CSI, OSC, DCS and the like) are removed whole, other control characters and
// invalid bytes are dropped, runs of white space become one space, and the ends are trimmed.
func Line(s string, max int) string {
	s = stripEscapes(s)
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case !unicode.IsPrint(r) || isBidiControl(r):
			continue
		}
		if space {
			if max > 0 && n+1 >= max {
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		if max > 0 && n >= max {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Text returns s without escape sequences, control characters (tabs and newlines included),
// bidirectional controls and invalid bytes, and at most max runes (max <= 0 means no bound). Unlike
// Line it keeps spaces as they are: it is for text being typed, one key at a time.
func Text(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range stripEscapes(s) {
		if max > 0 && n >= max {
			break
		}
		if r == utf8.RuneError || !unicode.IsPrint(r) || isBidiControl(r) {
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// stripEscapes removes ANSI escape sequences: ESC followed by a CSI ('['), OSC (']'), DCS ('P'),
// SOS/PM/APC ('X', '^', '_') string, or a single following byte; and the 8-bit C1 forms.
func stripEscapes(s string) string {
	if !strings.ContainsAny(s, "\x1b\u009b\u009d\u0090") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		var kind rune
		switch r {
		case 0x1b:
			if i+1 >= len(rs) {
				continue
			}
			i++
			kind = rs[i]
		case 0x9b:
			kind = '['
		case 0x9d:
			kind = ']'
		case 0x90:
			kind = 'P'
		default:
			b.WriteRune(r)
			continue
		}
		switch kind {
		case '[': // CSI: parameters and intermediates, then one final byte in 0x40..0x7e.
			for i+1 < len(rs) {
				i++
				if rs[i] >= 0x40 && rs[i] <= 0x7e {
					break
				}
			}
		case ']', 'P', 'X', '^', '_': // string: up to BEL or ST (ESC \ or 0x9c).
			for i+1 < len(rs) {
				i++
				if rs[i] == 0x07 || rs[i] == 0x9c {
					break
				}
				if rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '\\' {
					i++
					break
				}
			}
		}
	}
	return b.String()
}

// isBidiControl reports bidirectional formatting characters, which can make text appear other
// than it is.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f
}
