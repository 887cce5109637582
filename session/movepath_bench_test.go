package session

import (
	"io"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/teaframe"
)

// BenchmarkMovePath plays moves of Stone Towers through the real path of a move, without SSH:
// the mover's keys reach its Bubble Tea program (drawn by teaframe into io.Discard), its session
// asks the room, the room judges the move and leaves a snapshot for each of the two players and
// the spectators, whose programs take it and draw a frame. It reports the goroutines created per
// move (runtime/metrics "/sched/goroutines-created:goroutines"), from the keys until every session
// has taken the move and the goroutines started meanwhile have ended, and the bytes and objects
// allocated per move on the way (runtime/metrics "/gc/heap/allocs"). The rooms have no Recorder:
// the store's share is BenchmarkGroupCommit's (package storage). Unpaced, the next move is typed
// as soon as every session has taken the last, faster than a frame's wait (teaframe's Coalesce),
// so that several moves share a frame; paced, only once every session has drawn the last move's
// frame, as when moves are seconds apart.
func BenchmarkMovePath(b *testing.B) {
	for _, paced := range []bool{false, true} {
		for _, spectators := range []int{0, 8} {
			name := "spectators=" + strconv.Itoa(spectators)
			if paced {
				name = "paced/" + name
			}
			b.Run(name, func(b *testing.B) { benchMovePath(b, spectators, paced) })
		}
	}
}

func benchMovePath(b *testing.B, spectators int, paced bool) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: func(string, ...any) {},
		NewSeed: func(string, int) uint64 { return 1 }})
	defer hub.Shutdown("bench over")
	counters := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}, {Name: "/gc/heap/allocs:bytes"},
		{Name: "/gc/heap/allocs:objects"}}
	count := func() [3]uint64 {
		metrics.Read(counters)
		return [3]uint64{counters[0].Value.Uint64(), counters[1].Value.Uint64(), counters[2].Value.Uint64()}
	}
	var total [3]uint64
	var moves uint64
	var elapsed time.Duration
	for played := 0; played < b.N; {
		n, c, d := playRoom(b, hub, spectators, b.N-played, paced, count)
		played += n
		moves += uint64(n)
		for i := range total {
			total[i] += c[i]
		}
		elapsed += d
	}
	b.ReportMetric(float64(total[0])/float64(moves), "goroutines/move")
	b.ReportMetric(float64(total[1])/float64(moves), "B/move")
	b.ReportMetric(float64(total[2])/float64(moves), "allocs/move")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(moves), "ns/move")
}

// progress is a program's model seen from the benchmark: the plies its room screen has taken, and
// the plies its last frame showed.
type progress struct {
	Model
	plies, drawn *atomic.Int64
	in           *atomic.Bool // the room screen has its first snapshot: the session has joined
	moved        chan struct{}
}

func (p progress) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := p.Model.Update(msg)
	p.Model = next.(Model)
	if p.room != nil && p.room.have {
		p.in.Store(true)
		p.plies.Store(int64(len(p.room.snap.Moves)))
		select {
		case p.moved <- struct{}{}:
		default:
		}
	}
	return p, cmd
}

func (p progress) ViewPieces() (tea.View, [][]string) {
	v, lines := p.Model.ViewPieces()
	if p.room != nil && p.room.have {
		p.drawn.Store(int64(len(p.room.snap.Moves)))
		select {
		case p.moved <- struct{}{}:
		default:
		}
	}
	return v, lines
}

// playRoom opens a room with two players and the spectators, each a program, and plays at most
// max moves of a match in it; paced, each move waits for every session's frame of the last. It
// returns the moves played, how much the counters (count) went up meanwhile and the time they
// took.
func playRoom(b *testing.B, hub *rooms.Hub, spectators, most int, paced bool, count func() [3]uint64) (int, [3]uint64, time.Duration) {
	b.StopTimer()
	defer b.StartTimer()
	pr := openPlayRoom(b, hub, "p", spectators, paced)
	defer pr.close()
	settle()
	before, start := count(), time.Now()
	played := pr.play(most)
	d := time.Since(start)
	settle()
	after := count()
	for i := range after {
		after[i] -= before[i]
	}
	return played, after, d
}

// settle waits for the goroutines a move started (commands, timers' functions), which end once
// its frames are drawn: until the count of goroutines stops falling.
func settle() {
	for last := -1; ; time.Sleep(2 * time.Millisecond) {
		n := runtime.NumGoroutine()
		if n == last {
			return
		}
		last = n
	}
}

// playedRoom is a room of hub with two players and spectators, each a Bubble Tea program drawn
// by teaframe into io.Discard, and a shadow of its match that gives the legal moves.
type playedRoom struct {
	tb    testing.TB
	all   []*playSession
	moved chan struct{}
	state rules.Engine
	paced bool
	plies int
}

// playSession is a session of a playedRoom.
type playSession struct {
	p     *tea.Program
	fr    *teaframe.Renderer
	m     Model
	plies atomic.Int64
	drawn atomic.Int64
	in    atomic.Bool
	done  chan struct{}
}

// openPlayRoom opens a Stone Towers room on an 8 x 8 board, seats two players and has the
// spectators watch, and waits until every session shows the room. The sessions' players are
// named by name and their number: name0 and name1 play.
func openPlayRoom(tb testing.TB, hub *rooms.Hub, name string, spectators int, paced bool) *playedRoom {
	tb.Helper()
	opts := rules.Options{"size": "8"}
	room, err := hub.Create("stonetowers", opts, 2, rooms.Player{ID: "SHA256:" + name + "0", Name: name + "0"})
	if err != nil {
		tb.Fatal(err)
	}
	code := room.Code()
	pr := &playedRoom{tb: tb, moved: make(chan struct{}, 1), paced: paced}
	for i := range 2 + spectators {
		s := &playSession{done: make(chan struct{})}
		mode := ModeJoin
		if i >= 2 {
			mode = ModeWatch
		}
		s.fr = teaframe.New(io.Discard, teaframe.Options{Width: 80, Height: 24, Profile: colorprofile.TrueColor})
		s.m = New(Config{Hub: Local(hub), Boards: testBoards, Width: 80, Height: 24,
			Player: rooms.Player{ID: "SHA256:" + name + strconv.Itoa(i), Name: name + strconv.Itoa(i)},
			Start:  Start{Mode: mode, Code: code}, Send: func(msg tea.Msg) { s.p.Send(msg) }})
		s.p = s.fr.NewProgram(progress{Model: s.m, plies: &s.plies, drawn: &s.drawn, in: &s.in, moved: pr.moved}, tea.WithInput(nil),
			tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24), tea.WithoutSignalHandler())
		go func() {
			defer close(s.done)
			_, _ = s.p.Run()
		}()
		pr.all = append(pr.all, s)
		if i < 2 { // seat the players in order
			for deadline := time.Now().Add(time.Minute); !s.in.Load(); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					tb.Fatal("a player never joined")
				}
			}
		}
	}
	// A shadow of the room's match gives the legal moves (the room's seed is 1).
	if pr.state, err = stonetowers.Game.New(opts, 2, 1); err != nil {
		tb.Fatal(err)
	}
	pr.wait(0)
	return pr
}

// wait waits until every session has taken ply plies (paced: and drawn it).
func (pr *playedRoom) wait(plies int) {
	deadline := time.After(time.Minute)
	for {
		ok := true
		for _, s := range pr.all {
			ok = ok && s.plies.Load() >= int64(plies) && (!pr.paced || s.drawn.Load() >= int64(plies))
		}
		if ok {
			return
		}
		select {
		case <-pr.moved:
		case <-deadline:
			pr.tb.Fatalf("the sessions never took ply %d", plies)
		}
	}
}

// play plays at most most moves of the match, each typed by its player at the move prompt, and
// returns how many it played (fewer once the match is over).
func (pr *playedRoom) play(most int) int {
	played := 0
	for ; played < most && !pr.state.Outcome().Over; played++ {
		seat := pr.state.ToMove()[0]
		move := pr.state.Legal(seat)[0]
		var err error
		if pr.state, err = pr.state.Apply(seat, move); err != nil {
			pr.tb.Fatal(err)
		}
		p := pr.all[seat].p
		p.Send(keyPress(":"))
		for _, r := range move {
			p.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		p.Send(keyPress("enter"))
		pr.plies++
		pr.wait(pr.plies)
	}
	return played
}

// close ends every session's program and leaves the room.
func (pr *playedRoom) close() {
	for _, s := range pr.all {
		s.p.Quit()
		<-s.done
		s.fr.Close()
		s.m.Close()
	}
}
