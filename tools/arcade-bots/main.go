// Command arcade-bots plays the arcade's bot levels against each other, headless, and prints a
// table of the win rates it measured, per game and pairing. It is a module of its own
// (tools/arcade-bots), not part of the arcade's; from the repository's root:
//
//	go -C tools/arcade-bots run .                          every game, easy-greedy and greedy-hard, 200 games each
//	go -C tools/arcade-bots run . -games flicflac,discon -n 50 -seed 7 -parallel 2
//	go -C tools/arcade-bots run . -pairs easy-hard -budget 500ms
//	go -C tools/arcade-bots run . -opts discon:variant=elementary
//
// It plays each game as the catalogue (package games) serves it, with the room options' defaults
// (or -opts), two seats, the levels' bots (rules.Game.Bots) asked one move at a time as a room asks
// them: each move under a deadline (-budget, the rooms' default bot timeout of 2s unless told),
// with a random source that depends only on the game's seed, the move number and the seat. A
// pairing "a-b" plays -n games; in game i the first level named sits in seat i mod 2, so each
// level has the first seat (and, in every game but Flic Flac, whose seed draws who moves first,
// the first move) in half the games; game i's seed is -seed + i, the same for every pairing. A
// game is won by the seat ranked first alone, drawn when both are; a game still unfinished after
// -max-moves moves, or a bot's illegal move (replaced by the first legal one), is counted and
// shown.
//
// The table gives, per game and pairing, the games played, the second level's wins, the draws
// and the first level's wins, the second level's win rate (draws half) and, counted alone, its
// share of the decided games; then the mean number of moves a game and the slowest bot move.
// The run is as reproducible as the bots are under their deadlines: a bot cut short by its
// deadline (a busy machine, -parallel above the cores) may answer differently.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arcade-bots:", err)
		os.Exit(2)
	}
}

// run parses args, plays the matches and writes the table to out (progress to errw).
func run(ctx context.Context, args []string, out, errw io.Writer) error {
	cfg, err := parseFlags(args, errw)
	if err != nil {
		return err
	}
	results, err := playAll(ctx, cfg, errw)
	if err != nil {
		return err
	}
	writeTable(out, cfg, results)
	return nil
}
