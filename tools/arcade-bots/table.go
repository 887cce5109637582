package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// writeTable writes the results as a Markdown table, with the run's settings above it.
func writeTable(w io.Writer, cfg config, results []result) {
	fmt.Fprintf(w, "%s\n", strings.TrimSpace(cfg.command))
	fmt.Fprintf(w, "%d games a pairing, seeds %d to %d, bot move deadline %v, %d at once; "+
		"levels alternate seats\n\n", cfg.n, cfg.seed, cfg.seed+uint64(cfg.n)-1, cfg.budget, cfg.parallel)
	fmt.Fprintln(w, "| game | pairing (A-B) | games | B wins | draws | A wins | B's score | B's share of decided | unfinished | moves/game | slowest move |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range results {
		decided := r.strong + r.weak
		share := "-"
		if decided > 0 {
			share = pct(float64(r.strong) / float64(decided))
		}
		score := "-"
		if r.played > 0 {
			score = pct((float64(r.strong) + float64(r.draws+r.unfinish)/2) / float64(r.played))
		}
		mean := 0
		if r.played > 0 {
			mean = r.moves / r.played
		}
		extra := ""
		if r.illegal > 0 {
			extra = fmt.Sprintf(" (%d illegal moves replaced)", r.illegal)
		}
		fmt.Fprintf(w, "| %s | %s-%s | %d | %d | %d | %d | %s | %s | %d | %d | %v%s |\n",
			r.game.Name, r.pair[0], r.pair[1], r.played, r.strong, r.draws, r.weak, score, share,
			r.unfinish, mean, r.slowest.Round(time.Millisecond), extra)
	}
}

// pct formats a fraction as a percentage with one decimal.
func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
