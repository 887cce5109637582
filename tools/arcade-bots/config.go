package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rules"
)

// config is a run, as the command line asks for it.
type config struct {
	games    []rules.Game
	pairs    [][2]string
	n        int
	seed     uint64
	parallel int
	budget   time.Duration
	maxMoves int
	opts     map[string]rules.Options // per game ID, validated
	command  string                   // the command line, for the table's caption
}

// parseFlags reads args into a config, checking every name against the catalogue.
func parseFlags(args []string, errw io.Writer) (config, error) {
	fs := flag.NewFlagSet("arcade-bots", flag.ContinueOnError)
	fs.SetOutput(errw)
	gamesFlag := fs.String("games", "", "games to play, comma separated (default: every game of the catalogue)")
	pairsFlag := fs.String("pairs", "easy-greedy,greedy-hard", "pairings of levels, weaker-stronger, comma separated")
	n := fs.Int("n", 200, "games per game and pairing")
	seed := fs.Uint64("seed", 1, "seed of the first game; game i has seed+i")
	parallel := fs.Int("parallel", runtime.GOMAXPROCS(0), "games played at once")
	budget := fs.Duration("budget", 2*time.Second, "deadline of each bot move (the rooms' default bot timeout is 2s)")
	maxMoves := fs.Int("max-moves", 20000, "moves after which a game is stopped and counted unfinished")
	optsFlag := fs.String("opts", "", "room options, game:key=value, comma separated (e.g. discon:variant=elementary)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := config{n: *n, seed: *seed, parallel: *parallel, budget: *budget, maxMoves: *maxMoves,
		opts: map[string]rules.Options{}, command: "arcade-bots " + strings.Join(args, " ")}
	if cfg.n < 1 || cfg.parallel < 1 || cfg.budget <= 0 || cfg.maxMoves < 1 {
		return config{}, errors.New("-n, -parallel, -budget and -max-moves must be positive")
	}
	all := games.Rules()
	if *gamesFlag == "" {
		cfg.games = all
	} else {
		for _, id := range strings.Split(*gamesFlag, ",") {
			g, ok := rules.FindGame(all, strings.TrimSpace(id))
			if !ok {
				return config{}, fmt.Errorf("no game %q (games: %s)", id, rules.GameIDs(all))
			}
			cfg.games = append(cfg.games, g)
		}
	}
	for _, p := range strings.Split(*pairsFlag, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(p), "-")
		if !ok || a == "" || b == "" {
			return config{}, fmt.Errorf("pairing %q is not weaker-stronger, e.g. easy-greedy", p)
		}
		for _, g := range cfg.games {
			for _, lv := range []string{a, b} {
				if _, ok := g.Bot(lv); !ok {
					return config{}, fmt.Errorf("%s has no bot level %q", g.ID, lv)
				}
			}
		}
		cfg.pairs = append(cfg.pairs, [2]string{a, b})
	}
	raw := map[string]map[string]string{}
	if *optsFlag != "" {
		for _, o := range strings.Split(*optsFlag, ",") {
			id, kv, ok1 := strings.Cut(strings.TrimSpace(o), ":")
			k, v, ok2 := strings.Cut(kv, "=")
			if !ok1 || !ok2 {
				return config{}, fmt.Errorf("option %q is not game:key=value", o)
			}
			if raw[id] == nil {
				raw[id] = map[string]string{}
			}
			raw[id][k] = v
		}
	}
	for _, g := range cfg.games {
		o, err := g.Resolve(raw[g.ID])
		if err != nil {
			return config{}, fmt.Errorf("%s: %w", g.ID, err)
		}
		cfg.opts[g.ID] = o
		delete(raw, g.ID)
	}
	for id := range raw {
		return config{}, fmt.Errorf("options for %q, which is not played", id)
	}
	return cfg, nil
}
