package sanitize

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// The name rule. A player's name is 1 to MaxName characters, each a lower-case ASCII letter
// (a-z), a digit (0-9), '-' or '_'; it starts and ends with a letter or digit, and never holds
// two of '-' and '_' in a row. Upper-case ASCII letters are folded to lower case (Alice is alice:
// names compare without regard to case anyway); nothing else is folded or dropped, so a
// lookalike (a full-width ａｌｉｃｅ, a Cyrillic а) is refused, not turned into the name it imitates.
// Every name bound to a key keeps to the rule: ParseName checks a name asked for.
const (
	// MaxName is the longest name, in characters.
	MaxName = 16
	// NameRule states the rule in one sentence, for messages.
	NameRule = "a name is 1 to 16 of a-z, 0-9, - and _, starting and ending with a letter or digit"
)

var (
	// ErrBadName is wrapped by every error of ParseName: the name breaks the rule.
	ErrBadName = errors.New("the name is not allowed")
	// ErrNameTaken is the error of binding a name that another key holds. Whatever binds names
	// (storage) returns it, so that whatever reports the refusal (sshd) can tell it apart.
	ErrNameTaken = errors.New("that name belongs to another key")
)

// ParseName returns s as a name, its upper-case ASCII letters folded to lower case, or an error
// wrapping ErrBadName that says what breaks the rule (a character outside it is named by its code
// point, since a lookalike cannot be told apart on screen).
func ParseName(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("%w: it is empty", ErrBadName)
	}
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%w: it is not valid UTF-8", ErrBadName)
	}
	name := foldASCII(s)
	for _, r := range name {
		if !nameChar(r) {
			return "", fmt.Errorf("%w: it holds %s, which is not one of a-z, 0-9, - and _", ErrBadName, describe(r))
		}
	}
	switch {
	case len(name) > MaxName:
		return "", fmt.Errorf("%w: it is longer than %d characters", ErrBadName, MaxName)
	case separator(rune(name[0])) || separator(rune(name[len(name)-1])):
		return "", fmt.Errorf("%w: it starts or ends with - or _", ErrBadName)
	}
	for i := 1; i < len(name); i++ {
		if separator(rune(name[i-1])) && separator(rune(name[i])) {
			return "", fmt.Errorf("%w: it holds two of - and _ in a row", ErrBadName)
		}
	}
	return name, nil
}

// ValidName reports whether s is a name as ParseName returns them (folded already).
func ValidName(s string) bool {
	n, err := ParseName(s)
	return err == nil && n == s
}

// foldASCII returns s with A-Z as a-z; other characters are left as they are.
func foldASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// nameChar reports whether r may be in a name.
func nameChar(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || separator(r)
}

func separator(r rune) bool { return r == '-' || r == '_' }

// describe names r for a message: its code point, and the character itself when printable.
func describe(r rune) string {
	if s := Line(string(r), 1); s != "" && r != ' ' {
		return fmt.Sprintf("%U (%s)", r, s)
	}
	return fmt.Sprintf("%U", r)
}
