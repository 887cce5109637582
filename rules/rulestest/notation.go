// Package rulestest holds the checks that every game's tests share.
package rulestest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arcade/arcade/rules"
)

// Move is a game's move as its package types it: comparable, and written in the game's notation
// by String.
type Move interface {
	comparable
	fmt.Stringer
}

// Notation checks a game's notation, for its fuzz targets: every move of legal is written as text
// that parse reads back as the same move; and text, anything at all, either fails with an error
// wrapping rules.ErrBadNotation or parses to a move whose writing parses back to it.
func Notation[M Move](t testing.TB, parse func(string) (M, error), legal []M, text string) {
	t.Helper()
	for _, m := range legal {
		if again, err := parse(m.String()); err != nil || again != m {
			t.Fatalf("legal %+v is written %q, which parses to %+v, %v", m, m.String(), again, err)
		}
	}
	m, err := parse(text)
	if err != nil {
		if !errors.Is(err, rules.ErrBadNotation) {
			t.Fatalf("%q: %v does not wrap ErrBadNotation", text, err)
		}
		return
	}
	if again, err := parse(m.String()); err != nil || again != m {
		t.Fatalf("%q parses to %+v, written %q, which parses to %+v, %v", text, m, m.String(), again, err)
	}
}
