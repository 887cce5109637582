package sshd

import (
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// TestLimitEnv: environment variables past the count or the size bound are refused, not passed
// on; every other request is passed on in order.
func TestLimitEnv(t *testing.T) {
	in := make(chan *gossh.Request, 200)
	env := func(k, v string) *gossh.Request {
		return &gossh.Request{Type: "env", Payload: gossh.Marshal(struct{ Key, Value string }{k, v})}
	}
	in <- env("BIG", strings.Repeat("x", maxEnvBytes)) // over the size bound on its own
	for range maxEnvVars + 10 {
		in <- env("LANG", "C.UTF-8")
	}
	in <- &gossh.Request{Type: "env", Payload: []byte{1, 2}} // malformed
	in <- &gossh.Request{Type: "shell"}
	close(in)
	out := make(chan *gossh.Request)
	go limitEnv(in, out)
	var envs, shells int
	for req := range out {
		switch req.Type {
		case "env":
			envs++
		case "shell":
			shells++
		}
	}
	if envs != maxEnvVars || shells != 1 {
		t.Errorf("passed on %d env and %d shell requests, want %d and 1", envs, shells, maxEnvVars)
	}
}
