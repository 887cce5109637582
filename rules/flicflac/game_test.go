package flicflac

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestGameOptions: the defaults make the default match; each option reaches the engine; bad
// values are refused in words.
func TestGameOptions(t *testing.T) {
	opts, err := Game.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(opts)
	if err != nil || cfg != DefaultConfig {
		t.Fatalf("defaults %+v, %v; want %+v", cfg, err, DefaultConfig)
	}
	opts, err = Game.Resolve(rules.Options{"size": "5", "target": "7", "timer": "0", "captors": "4s",
		"events": "0%", "limit": "50", "shape": "blocks"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Game.New(opts, 2, 9)
	if err != nil {
		t.Fatal(err)
	}
	s := e.(*State)
	want := Config{Side: 5, Target: 7, TurnSeconds: 0, CaptorSeconds: 4, EventPercent: 0, Limit: 50, Shape: Block}
	if s.cfg != want || s.Shape(0) != Block || s.Turn() != 1 || s.geo.NumHexes() != 61 {
		t.Fatalf("config %+v, seat 0 %s, turn %d", s.cfg, s.Shape(0), s.Turn())
	}
	if back, _ := ParseConfig(s.cfg.Options()); back != s.cfg {
		t.Errorf("options %v read back as %+v", s.cfg.Options(), back)
	}
	for _, bad := range []rules.Options{{"size": "9"}, {"size": "4"}, {"timer": "20m"}, {"events": "101"},
		{"shape": "spheres"}, {"limit": "0"}, {"colour": "red"}} {
		if _, err := Game.Resolve(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, err := Game.New(opts, 3, 1); err == nil {
		t.Error("three seats accepted")
	}
	// shape=random draws from the seed: both ways come up.
	seen := map[Shape]bool{}
	for seed := range uint64(20) {
		e, _ := New(rules.Options{}, 2, seed)
		s := e.(*State)
		seen[s.Shape(0)] = true
		if s.Turn() != s.SeatOf(Cylinder) {
			t.Fatal("the blocks move first")
		}
	}
	if len(seen) != 2 {
		t.Error("shape=random always gives seat 0 the same shape")
	}
}

// TestRulesText: lines of at most 76 columns; the notation's help in two lines.
func TestRulesText(t *testing.T) {
	for i, line := range strings.Split(Game.Rules, "\n") {
		if n := len([]rune(line)); n > 76 {
			t.Errorf("rules line %d has %d columns: %q", i+1, n, line)
		}
	}
	if n := strings.Count(strings.TrimSpace(Game.Notation), "\n"); n > 1 {
		t.Errorf("notation help has %d lines", n+1)
	}
	if Game.ID != "flicflac" || Game.MinSeats != 2 || Game.MaxSeats != 2 || len(Game.Bots) != 3 {
		t.Error("game description")
	}
}
