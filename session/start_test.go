package session

import (
	"strings"
	"testing"
)

// TestParseNewErrorsReadAlike: the errors of `new` say what to try as the other commands' do
// (sshd: "no game \"x\"; try one of ..."), one clause after a semicolon.
func TestParseNewErrorsReadAlike(t *testing.T) {
	for args, want := range map[string]string{
		"":      "new needs a game; try one of stonetowers",
		"chess": `no game "chess"; try one of stonetowers`,
	} {
		_, err := ParseNew(strings.Fields(args), testGames)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("new %s: %v, want %q", args, err, want)
		}
	}
}
