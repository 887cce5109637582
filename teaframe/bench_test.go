package teaframe

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// roomView returns the lines of a Stone Towers room screen at 80 x 24 as the session draws it
// (testdata/NAME.txt): "room" mid-game, "room-move" after the next move, "room-tick" after the
// turn's clock went from 2:40 to 2:30.
func roomView(tb testing.TB, name string) []string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// benchRoom draws the room screen, then alternately the room screen changed as name has it and
// the room screen again: each frame is the diff of one move (or one tick), down to the bytes a
// terminal gets.
func benchRoom(b *testing.B, name string) {
	views := [2][]string{roomView(b, name), roomView(b, "room")}
	r := New(io.Discard, Options{Width: 80, Height: 24, Profile: colorprofile.TrueColor})
	v := tea.View{AltScreen: true, MouseMode: tea.MouseModeCellMotion}
	r.DrawLines(v, views[1])
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.DrawLines(v, views[i&1])
		i++
	}
}

// BenchmarkRoomMoveFrame is the frame a move brings to a player in a room: 11 of 24 lines changed.
func BenchmarkRoomMoveFrame(b *testing.B) { benchRoom(b, "room-move") }

// BenchmarkRoomTickFrame is the frame of a clock tick: one line changed, in one place.
func BenchmarkRoomTickFrame(b *testing.B) { benchRoom(b, "room-tick") }
