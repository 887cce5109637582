package teaframe

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// benchViews returns a chain of 64 views of 24 lines, each the one before with a few lines
// changed (as a move or a key changes a screen), as lines.
func benchViews() [][]string {
	rng := rand.New(rand.NewPCG(7, 7))
	frags := fragments(true)
	view := randomView(rng, frags, 24)
	for strings.Count(view, "\n") < 23 {
		view += "\n" + frags[rng.IntN(len(frags))]
	}
	var views [][]string
	for range 64 {
		view = mutate(rng, frags, view)
		views = append(views, strings.Split(view, "\n"))
	}
	return views
}

// BenchmarkChangeFrame is the cost of a frame on the alternate screen at 80 x 24 that changes a
// few lines of the view before it, down to the bytes the terminal gets.
func BenchmarkChangeFrame(b *testing.B) {
	views := benchViews()
	r := New(io.Discard, Options{Width: 80, Height: 24, Profile: colorprofile.TrueColor})
	v := tea.View{AltScreen: true, MouseMode: tea.MouseModeCellMotion}
	r.DrawLines(v, views[0])
	b.ReportAllocs()
	i := 1
	for b.Loop() {
		r.DrawLines(v, views[i%len(views)])
		i++
	}
}

// BenchmarkFirstFrame is the cost of a session's first frame at 80 x 24: the terminal set up and
// the whole view drawn.
func BenchmarkFirstFrame(b *testing.B) {
	views := benchViews()
	v := tea.View{AltScreen: true, MouseMode: tea.MouseModeCellMotion}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := New(io.Discard, Options{Width: 80, Height: 24, Profile: colorprofile.TrueColor})
		r.DrawLines(v, views[i%len(views)])
		r.Close()
		i++
	}
}
