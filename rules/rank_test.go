package rules

import (
	"slices"
	"testing"
)

func TestRankByScore(t *testing.T) {
	for _, tc := range []struct{ scores, want []int }{
		{[]int{10, 10, 7}, []int{1, 1, 3}},
		{[]int{3, 5}, []int{2, 1}},
		{[]int{-2, 0, -2, 4}, []int{3, 2, 3, 1}},
		{[]int{1}, []int{1}},
	} {
		if got := RankByScore(tc.scores); !slices.Equal(got, tc.want) {
			t.Errorf("RankByScore(%v) = %v, want %v", tc.scores, got, tc.want)
		}
	}
}

func TestResolveOptions(t *testing.T) {
	g := Game{Name: "Test", Options: []Option{
		{Key: "size", Default: "12", Min: 8, Max: 16},
		{Key: "mode", Default: "a", Choices: []string{"a", "b"}},
	}}
	got, err := g.Resolve(Options{"size": "9"})
	if err != nil || got["size"] != "9" || got["mode"] != "a" {
		t.Fatalf("Resolve = %v, %v", got, err)
	}
	for _, bad := range []Options{{"size": "7"}, {"size": "x"}, {"mode": "c"}, {"colour": "red"}} {
		if _, err := g.Resolve(bad); err == nil {
			t.Errorf("Resolve(%v) accepted", bad)
		}
	}
}
