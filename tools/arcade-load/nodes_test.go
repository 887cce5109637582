package main

import (
	"io"
	"testing"
)

// TestSeveralNodes checks --addr with several nodes, --server-pid and --pairing, and which node
// each player of a room connects to.
func TestSeveralNodes(t *testing.T) {
	o, err := parseOptions([]string{"--addr", "127.0.0.1:2221,127.0.0.1:2222,127.0.0.1:2223",
		"--server-pid", "11,12,13", "--pairing", "cross", "--phases", "play"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.serverPID) != 3 || o.serverPID[2] != 13 {
		t.Errorf("--server-pid: %v", o.serverPID)
	}
	srv := &server{addr: o.addrs()[0], nodes: o.addrs(), pids: o.serverPID}
	for i, want := range [][2]string{{"127.0.0.1:2221", "127.0.0.1:2222"}, {"127.0.0.1:2222", "127.0.0.1:2223"}, {"127.0.0.1:2223", "127.0.0.1:2221"}} {
		if p := srv.pair(dialOpts{}, i, "cross"); p[0].addr != want[0] || p[1].addr != want[1] {
			t.Errorf("cross, room %d: %s and %s, want %v", i, p[0].addr, p[1].addr, want)
		}
		if p := srv.pair(dialOpts{}, i, "same"); p[0].addr != want[0] || p[1].addr != want[0] {
			t.Errorf("same, room %d: %s and %s, want %s", i, p[0].addr, p[1].addr, want[0])
		}
	}
	one := &server{addr: "127.0.0.1:2221", nodes: []string{"127.0.0.1:2221"}}
	if p := one.pair(dialOpts{addr: "127.0.0.1:2221"}, 5, "same"); p[0].addr != "127.0.0.1:2221" || p[1].addr != "127.0.0.1:2221" {
		t.Errorf("one address: %v", p)
	}
	for _, bad := range [][]string{
		{"--addr", "127.0.0.1:1,127.0.0.1:2", "--server-pid", "1", "--phases", "play"},
		{"--addr", "127.0.0.1:1,10.0.0.1:2", "--phases", "play"},
		{"--addr", "127.0.0.1:1,127.0.0.1:2"}, // the idle phase
		{"--addr", "127.0.0.1:1", "--pairing", "cross", "--phases", "play"},
		{"--addr", "127.0.0.1:1,127.0.0.1:2", "--pairing", "mixed", "--phases", "play"},
	} {
		if _, err := parseOptions(bad, io.Discard); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	if o, err := parseOptions([]string{"--addr", "127.0.0.1:1", "--server-pid", "42"}, io.Discard); err != nil || len(o.serverPID) != 1 {
		t.Errorf("one address and one PID: %v %v", o.serverPID, err)
	}
}
