package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/phase"
	"github.com/arcade/arcade/tools/arcade-load/internal/report"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
)

// TestSmokeHostile runs each hostile phase at a tiny size against an arcade built once: whatever
// limits the arcade has, each fill must end with a refusal (an arcade that expires a key's empty
// rooms past its share lets it open more rooms than it holds), the replay must open and step in
// every viewer, and the leaderboard must rate the players it seeds and answer every request.
// Their figures are logged, never judged.
func TestSmokeHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs servers")
	}
	root, err := server.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin, _, err := server.Build(ctx, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, args ...string) *report.Results {
		t.Helper()
		res, printed := smokeRun(t, append([]string{"--arcade-bin", bin, "--dialers", "4", "--settle", "500ms"}, args...)...)
		for kind, n := range res.ErrorKinds {
			t.Errorf("%d errors %s", n, kind)
		}
		if strings.Contains(res.ServerLog, "panic") {
			t.Errorf("server log: %s", res.ServerLog)
		}
		for _, f := range res.Hostile() {
			t.Logf("figures: %s", f)
			if !strings.Contains(printed, f) {
				t.Errorf("the report does not print %q", f)
			}
		}
		return res
	}
	t.Run("rooms-one-key", func(t *testing.T) {
		r := run(t, "--phases", "rooms-one-key", "--hostile-rooms", "5").Rooms
		if r == nil {
			t.Fatal("no rooms-one-key phase")
		}
		for _, f := range []struct {
			who  string
			fill string
			ok   bool
		}{{"key", r.Key.String(), r.Key.Refusal != "" && r.Key.Opened > 0 && r.Key.Held > 0 && r.Key.Held <= 5},
			{"guest", r.Guest.String(), r.Guest.Refusal != "" && r.Guest.Opened > 0 && r.Guest.Held > 0 && r.Guest.Held <= 5}} {
			if !f.ok {
				t.Errorf("%s: %s", f.who, f.fill)
			}
		}
	})
	t.Run("sessions-one-addr", func(t *testing.T) {
		r := run(t, "--phases", "sessions-one-addr", "--hostile-sessions", "5").Sessions
		if r == nil {
			t.Fatal("no sessions-one-addr phase")
		}
		for _, f := range []phase.SessionsFill{r.OneKey, r.ManyKeys} {
			if f.Refusal == "" || f.Held == 0 || f.Held > 5 || f.RSS == 0 {
				t.Errorf("%s", f)
			}
		}
	})
	t.Run("replay-viewers", func(t *testing.T) {
		r := run(t, "--phases", "replay-viewers", "--replay-viewers", "3", "--replay-moves", "300").Replay
		switch {
		case r == nil:
			t.Fatal("no replay-viewers phase")
		case r.Moves < 10 || r.Moves > 300 || r.Opened != 3 || r.Stepped != 3 || r.RSSPeak == 0 || r.RSSAfter == 0:
			t.Errorf("%s", r.Figures())
		}
	})
	t.Run("leaderboard", func(t *testing.T) {
		r := run(t, "--phases", "leaderboard", "--leaderboard-players", "2000", "--leaderboard-sessions", "2", "--leaderboard-requests", "4",
			"--data-dir", filepath.Join(t.TempDir())).Leaderboard
		switch {
		case r == nil:
			t.Fatal("no leaderboard phase")
		case r.Rated == 0 || r.Rated > 2000 || r.Requests != 4 || r.Answer.N != 4 || r.AloneTook == 0:
			t.Errorf("%s", r.Figures())
		}
	})
	t.Run("web", func(t *testing.T) {
		r := run(t, "--phases", "web", "--web-viewers", "3", "--web-players", "200", "--web-requests", "5", "--web-window", "2s").Web
		switch {
		case r == nil:
			t.Fatal("no web phase")
		case r.Browsers.Watching != 3 || r.SSH.Watching != 3 || r.Browsers.Subscribers != 1 || r.SSH.Subscribers != 3 || len(r.Pages) != 4:
			t.Errorf("%s", r.Figures())
		}
	})
}
