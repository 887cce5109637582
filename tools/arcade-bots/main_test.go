package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestRunPrintsTable runs the tool small (the three quick games, 2 games a pairing, a short
// deadline) and checks that it played every game and printed a row per game and pairing whose
// wins, draws, losses and unfinished games add up to the games played. It asserts no win rate:
// two games say nothing.
func TestRunPrintsTable(t *testing.T) {
	var out, errw bytes.Buffer
	args := []string{"-games", "stonetowers,discon,flicflac", "-n", "2", "-budget", "200ms", "-parallel", "2",
		"-seed", "5"}
	if err := run(t.Context(), args, &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s", err, errw.String())
	}
	t.Logf("figures: the table of a tiny run\n%s", out.String())
	rows := map[string][]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) == 11 && cells[0] != "game" && !strings.HasPrefix(cells[0], "-") {
			rows[cells[0]+" "+cells[1]] = cells
		}
	}
	for _, want := range []string{"Stone Towers easy-greedy", "Stone Towers greedy-hard", "DISCON easy-greedy",
		"DISCON greedy-hard", "Flic Flac easy-greedy", "Flic Flac greedy-hard"} {
		cells, ok := rows[want]
		if !ok {
			t.Errorf("no row %q in\n%s", want, out.String())
			continue
		}
		n := func(i int) int {
			v, err := strconv.Atoi(cells[i])
			if err != nil {
				t.Fatalf("row %q, column %d: %q", want, i, cells[i])
			}
			return v
		}
		if n(2) != 2 || n(3)+n(4)+n(5)+n(8) != 2 || n(9) == 0 {
			t.Errorf("row %q: %v, want 2 games played, counted once each, with moves", want, cells)
		}
	}
	if len(rows) != 6 {
		t.Errorf("%d rows, want 6:\n%s", len(rows), out.String())
	}
	if !strings.Contains(out.String(), "seeds 5 to 6, bot move deadline 200ms") {
		t.Errorf("the settings are not above the table:\n%s", out.String())
	}
}

// TestFlags: names the catalogue does not know, and malformed pairings or options, are refused
// before anything is played.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-games", "chess"},
		{"-pairs", "easy"},
		{"-pairs", "easy-grandmaster"},
		{"-opts", "discon:variant=nonsense"},
		{"-opts", "discon=elementary"},
		{"-games", "discon", "-opts", "flicflac:size=6"},
		{"-n", "0"},
		{"stray"},
	} {
		var out, errw bytes.Buffer
		if err := run(t.Context(), args, &out, &errw); err == nil {
			t.Errorf("%v: accepted", args)
		}
		if out.Len() > 0 {
			t.Errorf("%v: printed %q", args, out.String())
		}
	}
}
