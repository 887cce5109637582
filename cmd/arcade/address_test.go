package main

import (
	"io"
	"strings"
	"testing"
)

// TestPublicAddrFlag: --public-addr takes a host name or an IP address with an optional port, and
// refuses anything else (it is shown to players to type).
func TestPublicAddrFlag(t *testing.T) {
	for _, ok := range []string{"", "play.example.com", "play.example.com:2022", "192.0.2.7", "[2001:db8::1]:22", "2001:db8::1", "localhost."} {
		if _, err := parseConfig([]string{"--public-addr", ok}, func(string) string { return "" }, io.Discard); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"play example", "x.com:0", "x.com:http", "-oProxyCommand=x", "a..b", "\x1b[31mred", "x.com;rm"} {
		if _, err := parseConfig([]string{"--public-addr", bad}, func(string) string { return "" }, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestRoomShowsTheJoinCommand: the waiting room gives the command that reaches this server, the
// address the client connected to with its port, or --public-addr's.
func TestRoomShowsTheJoinCommand(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	port := addr.String()[strings.LastIndex(addr.String(), ":")+1:]
	p := connect(t, addr, "ann", newKey(t), "new stonetowers")
	code := roomCode(t, p.waitFor("Waiting for players"))
	p.waitFor("ssh -t -p " + port + " 127.0.0.1 join " + code)

	public := startServerWith(t, "--public-addr", "play.example.com")
	port = public.String()[strings.LastIndex(public.String(), ":")+1:]
	q := connect(t, public, "ann", newKey(t), "new stonetowers")
	code = roomCode(t, q.waitFor("Waiting for players"))
	q.waitFor("ssh -t -p " + port + " play.example.com join " + code)
}
