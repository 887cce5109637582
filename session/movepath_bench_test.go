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
// has taken the move and the goroutines started meanwhile have ended. The rooms have no Recorder:
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
	created := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	count := func() uint64 {
		metrics.Read(created)
		return created[0].Value.Uint64()
	}
	var total, moves uint64
	var elapsed time.Duration
	for played := 0; played < b.N; {
		n, g, d := playRoom(b, hub, spectators, b.N-played, paced, count)
		played += n
		moves += uint64(n)
		total += g
		elapsed += d
	}
	b.ReportMetric(float64(total)/float64(moves), "goroutines/move")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(moves), "ns/move")
}

// progress is a program's model seen from the benchmark: the plies its room screen has taken, and
// the plies its last frame showed.
type progress struct {
	Model
	plies, drawn *atomic.Int64
	moved        chan struct{}
}

func (p progress) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := p.Model.Update(msg)
	p.Model = next.(Model)
	if p.room != nil && p.room.have {
		p.plies.Store(int64(len(p.room.snap.Moves)))
		select {
		case p.moved <- struct{}{}:
		default:
		}
	}
	return p, cmd
}

func (p progress) ViewLines() (tea.View, []string) {
	v, lines := p.Model.ViewLines()
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
// returns the moves played, the goroutines created meanwhile and the time they took.
func playRoom(b *testing.B, hub *rooms.Hub, spectators, most int, paced bool, count func() uint64) (int, uint64, time.Duration) {
	b.StopTimer()
	defer b.StartTimer()
	opts := rules.Options{"size": "8"}
	room, err := hub.Create("stonetowers", opts, 2, rooms.Player{ID: "SHA256:p0", Name: "p0"})
	if err != nil {
		b.Fatal(err)
	}
	code := room.Code()
	type session struct {
		p     *tea.Program
		fr    *teaframe.Renderer
		m     Model
		plies atomic.Int64
		drawn atomic.Int64
		done  chan struct{}
	}
	moved := make(chan struct{}, 1)
	var all []*session
	for i := range 2 + spectators {
		s := &session{done: make(chan struct{})}
		mode := ModeJoin
		if i >= 2 {
			mode = ModeWatch
		}
		s.fr = teaframe.New(io.Discard, teaframe.Options{Width: 80, Height: 24, Profile: colorprofile.TrueColor})
		s.m = New(Config{Hub: Local(hub), Boards: testBoards, Width: 80, Height: 24,
			Player: rooms.Player{ID: "SHA256:p" + strconv.Itoa(i), Name: "p" + strconv.Itoa(i)},
			Start:  Start{Mode: mode, Code: code}, Send: func(msg tea.Msg) { s.p.Send(msg) }})
		s.p = s.fr.NewProgram(progress{Model: s.m, plies: &s.plies, drawn: &s.drawn, moved: moved}, tea.WithInput(nil),
			tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24), tea.WithoutSignalHandler())
		go func() {
			defer close(s.done)
			_, _ = s.p.Run()
		}()
		all = append(all, s)
		if i < 2 { // seat the players in order
			for deadline := time.Now().Add(time.Minute); hub.Stats().Subscribers <= i; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					b.Fatal("a player never joined")
				}
			}
		}
	}
	defer func() {
		for _, s := range all {
			s.p.Quit()
			<-s.done
			s.fr.Close()
			s.m.Close()
		}
	}()
	// A shadow of the room's match gives the legal moves (the room's seed is 1).
	state, err := stonetowers.Game.New(opts, 2, 1)
	if err != nil {
		b.Fatal(err)
	}
	waitAll := func(plies int) {
		deadline := time.After(time.Minute)
		for {
			ok := true
			for _, s := range all {
				ok = ok && s.plies.Load() >= int64(plies) && (!paced || s.drawn.Load() >= int64(plies))
			}
			if ok {
				return
			}
			select {
			case <-moved:
			case <-deadline:
				b.Fatalf("the sessions never took ply %d", plies)
			}
		}
	}
	waitAll(0)
	settle := func() {
		// The goroutines a move started (commands, timers' functions) end once its frames are
		// drawn: wait for the count of goroutines to stop falling.
		for last := -1; ; time.Sleep(2 * time.Millisecond) {
			n := runtime.NumGoroutine()
			if n == last {
				return
			}
			last = n
		}
	}
	settle()
	before, start := count(), time.Now()
	played := 0
	for ; played < most && !state.Outcome().Over; played++ {
		seat := state.ToMove()[0]
		move := state.Legal(seat)[0]
		if state, err = state.Apply(seat, move); err != nil {
			b.Fatal(err)
		}
		p := all[seat].p
		p.Send(keyPress(":"))
		for _, r := range move {
			p.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		p.Send(keyPress("enter"))
		waitAll(played + 1)
	}
	d := time.Since(start)
	settle()
	return played, count() - before, d
}
