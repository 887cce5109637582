package sshd

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// goroutines returns the stacks of all goroutines, one a string.
func goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Split(string(buf[:n]), "\n\n")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// waitGoroutines polls the goroutines' stacks until ok accepts them, for 10 s at most, and returns
// the stacks it accepted.
func waitGoroutines(t *testing.T, what string, ok func(stacks []string) bool) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stacks := goroutines()
		if ok(stacks) {
			return stacks
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %s; goroutines:\n\n%s", what, strings.Join(stacks, "\n\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// count returns how many stacks contain all of frames.
func count(stacks []string, frames ...string) int {
	n := 0
next:
	for _, s := range stacks {
		for _, f := range frames {
			if !strings.Contains(s, f) {
				continue next
			}
		}
		n++
	}
	return n
}
