package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"charm.land/log/v2"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/web"
)

// TestWebFlags: --http is off by default and takes ARCADE_HTTP; --public-url must be an http or
// https address (its trailing slash dropped); a bad value is refused with the flag's name.
func TestWebFlags(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig(nil, none, io.Discard)
	if err != nil || c.http != "" || c.publicURL != "" || c.httpMaxStreams != web.DefaultMaxStreams ||
		c.httpStreamsPer != web.DefaultMaxStreamsPerAddr || c.httpRate != web.DefaultRate {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	env := map[string]string{"ARCADE_HTTP": "127.0.0.1:8080", "ARCADE_PUBLIC_URL": "https://arcade.example.com/"}
	c, err = parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || c.http != "127.0.0.1:8080" || c.publicURL != "https://arcade.example.com" {
		t.Errorf("from the environment: %q %q, %v", c.http, c.publicURL, err)
	}
	for _, bad := range [][]string{
		{"--public-url", "arcade.example.com"}, {"--public-url", "ftp://arcade.example.com"},
		{"--public-url", "https://user:pw@arcade.example.com"}, {"--public-url", "https://arcade.example.com/?x=1"},
		{"--http", "8080"}, {"--http-rate", "0"}, {"--http-max-streams", "0"},
	} {
		var out strings.Builder
		if _, err := parseConfig(bad, none, &out); err == nil || !strings.Contains(out.String(), bad[0]) {
			t.Errorf("%v: %v, said %q", bad, err, out.String())
		}
	}
}

// TestWebOffLoopbackIsLogged: the web companion on an address off loopback says in the log what
// it exposes; on loopback it says nothing of the kind.
func TestWebOffLoopbackIsLogged(t *testing.T) {
	if !web.OnLoopback("127.0.0.1:8080") || !web.OnLoopback("[::1]:8080") || !web.OnLoopback("localhost:8080") {
		t.Error("a loopback address is taken for one off loopback")
	}
	for _, addr := range []string{":8080", "0.0.0.0:8080", "[::]:8080", "192.0.2.1:8080"} {
		if web.OnLoopback(addr) {
			t.Errorf("%s is taken for loopback", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "0.0.0.0:0"} {
		var logs bytes.Buffer
		cfg := config{http: addr, httpMaxStreams: 10, httpStreamsPer: 2, httpRate: 10}
		hub := session.Local(rooms.NewHub(rooms.Config{Games: games.Rules(), Logf: func(string, ...any) {}}))
		ws, err := serveWeb(cfg, hub, nil, nil, 2222, io.Discard, log.New(&logs))
		if err != nil {
			t.Fatal(err)
		}
		_ = ws.Shutdown(t.Context())
		said := strings.Contains(logs.String(), "is not on loopback: anyone who reaches it reads")
		if said == web.OnLoopback(addr) {
			t.Errorf("--http %s: the log says %q", addr, logs.String())
		}
	}
}
