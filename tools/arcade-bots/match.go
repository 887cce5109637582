package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/arcade/arcade/rules"
)

// job is one game to play: game g, pairing pair (weaker, stronger), game number i of the pairing.
type job struct {
	g    rules.Game
	pair [2]string
	i    int
}

// game is how one game went, from the pairing's point of view.
type game struct {
	strongWon, weakWon, drawn, unfinished bool
	moves, illegal                        int
	slowest                               time.Duration
	scores                                []int
	strongSeat                            int
	err                                   error
}

// result is a pairing's games in one game, summed.
type result struct {
	game                                  rules.Game
	pair                                  [2]string
	played, strong, weak, draws, unfinish int
	illegal, moves                        int
	slowest                               time.Duration
}

// playAll plays every game of every pairing of every game of cfg, cfg.parallel at a time, and
// returns the results in the order of cfg's games and pairings. It writes a line to errw as each
// pairing finishes.
func playAll(ctx context.Context, cfg config, errw io.Writer) ([]result, error) {
	var results []result
	index := map[[3]string]int{}
	var jobs []job
	for _, g := range cfg.games {
		for _, p := range cfg.pairs {
			index[[3]string{g.ID, p[0], p[1]}] = len(results)
			results = append(results, result{game: g, pair: p})
			for i := range cfg.n {
				jobs = append(jobs, job{g, p, i})
			}
		}
	}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan job)
	for range cfg.parallel {
		wg.Go(func() {
			for j := range next {
				gm := playOne(ctx, cfg, j)
				mu.Lock()
				if gm.err != nil && firstErr == nil {
					firstErr = gm.err
				}
				r := &results[index[[3]string{j.g.ID, j.pair[0], j.pair[1]}]]
				r.add(gm)
				if r.played == cfg.n {
					fmt.Fprintf(errw, "%s %s-%s: %d games played\n", j.g.ID, j.pair[0], j.pair[1], r.played)
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted: %w", err)
	}
	return results, nil
}

// add counts gm in r.
func (r *result) add(gm game) {
	if gm.err != nil {
		return
	}
	r.played++
	switch {
	case gm.unfinished:
		r.unfinish++
	case gm.strongWon:
		r.strong++
	case gm.weakWon:
		r.weak++
	default:
		r.draws++
	}
	r.illegal += gm.illegal
	r.moves += gm.moves
	r.slowest = max(r.slowest, gm.slowest)
}

// playOne plays game j: two seats, the weaker level in seat i mod 2, seed cfg.seed + i. A bot's
// move that the engine refuses (or none) is replaced by the first legal move, and counted.
func playOne(ctx context.Context, cfg config, j job) game {
	seed := cfg.seed + uint64(j.i)
	e, err := j.g.New(cfg.opts[j.g.ID], 2, seed)
	if err != nil {
		return game{err: fmt.Errorf("%s seed %d: %w", j.g.ID, seed, err)}
	}
	weak, _ := j.g.Bot(j.pair[0])
	strong, _ := j.g.Bot(j.pair[1])
	gm := game{strongSeat: 1 - j.i%2}
	bots := []rules.Bot{weak.Bot, strong.Bot}
	if gm.strongSeat == 0 {
		bots = []rules.Bot{strong.Bot, weak.Bot}
	}
	for !e.Outcome().Over {
		if ctx.Err() != nil {
			return game{err: ctx.Err()}
		}
		if gm.moves >= cfg.maxMoves {
			gm.unfinished = true
			return gm
		}
		to := e.ToMove()
		if len(to) == 0 {
			return game{err: fmt.Errorf("%s seed %d: nobody to move in a match not over", j.g.ID, seed)}
		}
		seat := to[0]
		// The room's random source: the match seed, the move number and the seat.
		rng := rand.New(rand.NewPCG(seed, uint64(gm.moves)<<8|uint64(seat)))
		mctx, cancel := context.WithTimeout(ctx, cfg.budget)
		start := time.Now()
		mv := bots[seat].Move(mctx, e, seat, rng)
		gm.slowest = max(gm.slowest, time.Since(start))
		cancel()
		ne, err := e.Apply(seat, mv)
		if err != nil {
			legal := e.Legal(seat)
			if len(legal) == 0 {
				return game{err: fmt.Errorf("%s seed %d: seat %d has no legal move", j.g.ID, seed, seat)}
			}
			gm.illegal++
			if ne, err = e.Apply(seat, legal[0]); err != nil {
				return game{err: fmt.Errorf("%s seed %d: first legal move %q: %w", j.g.ID, seed, legal[0], err)}
			}
		}
		e = ne
		gm.moves++
	}
	o := e.Outcome()
	gm.scores = o.Scores
	w := o.Winners()
	switch {
	case len(w) == 1 && int(w[0]) == gm.strongSeat:
		gm.strongWon = true
	case len(w) == 1:
		gm.weakWon = true
	default:
		gm.drawn = true
	}
	return gm
}
