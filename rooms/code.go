package rooms

import (
	"crypto/rand"
	"strings"
)

// CodeAlphabet is the alphabet of room codes: no 0, O, 1, I or L, which are easily confused.
const CodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// CodeLen is the length of a room code.
const CodeLen = 5

// newCode returns a random room code from crypto/rand.
func newCode() string {
	const n = len(CodeAlphabet)
	const limit = 256 / n * n // reject bytes >= limit so that every letter is equally likely
	var b [CodeLen]byte
	var buf [16]byte
	for i := 0; i < CodeLen; {
		rand.Read(buf[:])
		for _, x := range buf {
			if i == CodeLen {
				break
			}
			if int(x) < limit {
				b[i] = CodeAlphabet[int(x)%n]
				i++
			}
		}
	}
	return string(b[:])
}

// NormalizeCode returns code as the hub stores it: trimmed and upper case. It reports false when the
// result cannot be a room code.
func NormalizeCode(code string) (string, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != CodeLen {
		return code, false
	}
	for i := 0; i < len(code); i++ {
		if strings.IndexByte(CodeAlphabet, code[i]) < 0 {
			return code, false
		}
	}
	return code, true
}
