package main

import (
	"io"
	"strings"
	"testing"
)

// TestShareFlags: every share has a flag and an ARCADE_ variable, with the defaults of
// docs/operations.md, and a share below 1 is refused with the flag's name.
func TestShareFlags(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig(nil, none, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.sessionsPerKey != 8 || c.sessionsPerAddr != 32 || c.waitingPerKey != 3 || c.waitingPerAddr != 12 ||
		c.unfinished != 50 || c.spectators != 200 {
		t.Errorf("defaults: %+v", c)
	}
	env := map[string]string{"ARCADE_MAX_SESSIONS_PER_KEY": "2", "ARCADE_MAX_WAITING_ROOMS": "1"}
	c, err = parseConfig([]string{"--max-spectators", "5"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || c.sessionsPerKey != 2 || c.waitingPerKey != 1 || c.spectators != 5 {
		t.Errorf("from flags and the environment: %+v, %v", c, err)
	}
	var out strings.Builder
	if _, err := parseConfig([]string{"--max-waiting-rooms", "0"}, none, &out); err == nil ||
		!strings.Contains(out.String(), "--max-waiting-rooms 0: the limit must be at least 1") {
		t.Errorf("a share of 0: %v, said %q", err, out.String())
	}
}

// TestMetricsOffLoopback: --metrics off loopback is refused unless --metrics-public says so: it
// serves Go's profiles, the command line among them.
func TestMetricsOffLoopback(t *testing.T) {
	none := func(string) string { return "" }
	for _, addr := range []string{"0.0.0.0:9100", ":9100", "[::]:9100", "192.0.2.1:9100", "metrics.example:9100"} {
		var out strings.Builder
		if _, err := parseConfig([]string{"--metrics", addr}, none, &out); err == nil ||
			!strings.Contains(out.String(), "is not on loopback") || !strings.Contains(out.String(), "--metrics-public") {
			t.Errorf("--metrics %s: %v, said %q", addr, err, out.String())
		}
		if _, err := parseConfig([]string{"--metrics", addr, "--metrics-public"}, none, io.Discard); err != nil {
			t.Errorf("--metrics %s --metrics-public: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:9100", "localhost:9100", "[::1]:9100"} {
		if _, err := parseConfig([]string{"--metrics", addr}, none, io.Discard); err != nil {
			t.Errorf("--metrics %s: %v", addr, err)
		}
	}
	env := map[string]string{"ARCADE_METRICS": "0.0.0.0:9100"}
	if _, err := parseConfig(nil, func(k string) string { return env[k] }, io.Discard); err == nil {
		t.Error("ARCADE_METRICS off loopback: accepted")
	}
}

// TestNoSecretOnCommandLine: a password in a --nats URL is refused on the command line, where
// every user of the machine reads it, and taken from ARCADE_NATS.
func TestNoSecretOnCommandLine(t *testing.T) {
	var out strings.Builder
	if _, err := parseConfig([]string{"--nats", "nats://127.0.0.1:4222,nats://node:s3cret@127.0.0.2:4222"},
		func(string) string { return "" }, &out); err == nil || strings.Contains(out.String(), "s3cret") {
		t.Errorf("a password in --nats: %v, said %q", err, out.String())
	}
	env := map[string]string{"ARCADE_NATS": "nats://node:s3cret@127.0.0.1:4222"}
	if _, err := parseConfig(nil, func(k string) string { return env[k] }, io.Discard); err != nil {
		t.Errorf("a password in ARCADE_NATS: %v", err)
	}
}
