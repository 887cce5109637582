package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/games/load"
)

// churnKeys is the first key number of the churn phase's clients (the play phase uses 0 up, the
// idle phases 100000 up). Each episode plays with new keys: a key whose player typed garbage may
// have entered wrong room codes, and the server then refuses its joins for a minute (as it should).
const churnKeys = 300000

// stuckAfter bounds anything the churn phase sends (a paste, a storm of window changes): a write
// that has not gone through by then means the server stopped reading the connection, and the
// client is dropped.
const stuckAfter = 30 * time.Second

// churnResult is what the churn phase saw.
type churnResult struct {
	Clients  int
	Seconds  float64
	Sessions int64 // SSH sessions opened, plain commands included
	Rooms    int64 // rooms opened and played in
	Matches  int64
	// MovesSent and MovesAcked: moves sent, and moves a screen showed after they were sent.
	MovesSent  int64
	MovesAcked int64
	// Acts counts what the clients did, by kind (see the phase's description in the docs).
	Acts     map[string]int64
	CPUShare float64
	// Before is the baseline (after a warm-up, every session closed); Peak the highest of each
	// figure during the phase; After the figures once the server settled, SettleSeconds later.
	Before, Peak, After serverState
	SettleSeconds       float64
	Checks              []returnCheck
	Returned            bool
	Moves               *ackCheck `json:",omitempty"`
}

// counts counts things by name; safe for concurrent use.
type counts struct {
	mu sync.Mutex
	m  map[string]int64
}

func (c *counts) add(what string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int64{}
	}
	c.m[what] += n
}

func (c *counts) snapshot() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int64, len(c.m))
	for k, v := range c.m {
		out[k] = v
	}
	return out
}

// churner is the churn phase's shared state.
type churner struct {
	o        options
	dopts    dialOpts
	game     load.Driver
	errs     *errorLog
	acks     *ackLog
	ps       *playStats // moves sent and seen
	acts     counts
	sessions atomic.Int64
	rooms    atomic.Int64
	matches  atomic.Int64
	end      time.Time
	logf     func(string, ...any)
	logged   atomic.Int64

	keyMu sync.Mutex
	keys  []int // every key used, the warm-up's first
}

// newKey returns a key number not used before in the phase.
func (ch *churner) newKey() int {
	ch.keyMu.Lock()
	defer ch.keyMu.Unlock()
	k := churnKeys + len(ch.keys)
	ch.keys = append(ch.keys, k)
	return k
}

// maxLogged bounds the errors the churn phase logs in full (with the screen, where there is one).
const maxLogged = 20

// fail counts err under kind and logs it in full, the first maxLogged times.
func (ch *churner) fail(kind string, err error) {
	ch.errs.add(kind, err)
	if ch.logged.Add(1) <= maxLogged {
		ch.logf("churn: %s: %v", kind, err)
	}
}

// churnPhase runs --churn-clients clients in pairs against srv for --churn-duration, each pair
// opening rooms, playing, misbehaving and leaving in a loop; then it waits for the server to
// settle and compares its figures with the baseline taken before, stops it, and checks that the
// database holds every move a screen acknowledged.
func churnPhase(ctx context.Context, o options, srv *server, logf func(string, ...any), errs *errorLog) (*churnResult, error) {
	res := &churnResult{Clients: o.churnClients}
	game, err := gameDriver(o.game, o.size, o.turns)
	if err != nil {
		return res, err
	}
	ch := &churner{o: o, dopts: dialOpts{addr: srv.addr, validate: o.validate, timeout: 30 * time.Second}, game: game,
		errs: errs, acks: newAckLog(), ps: &playStats{errs: errs}, logf: logf}

	// A warm-up room, so that what the server allocates once (key tables, pools) is in the baseline.
	logf("churn: warming up")
	warm, err := openRoom(ctx, [2]dialOpts{ch.dopts, ch.dopts}, [2]int{ch.newKey(), ch.newKey()}, -1, game)
	if err != nil {
		return res, fmt.Errorf("churn warm-up: %w", err)
	}
	warm.acks = ch.acks
	for range 2 {
		if _, err := warm.ply(ctx, ch.ps, false); err != nil {
			warm.close()
			return res, fmt.Errorf("churn warm-up: %w", err)
		}
	}
	warm.close()
	ch.rooms.Add(1)
	ch.matches.Add(1)
	ch.sessions.Add(2)
	if _, err := waitSettled(ctx, srv, serverState{Sessions: 0, Subscribers: 0, Rooms: -1, Goroutines: -1, FDs: -1, Heap: -1}, o.churnSettle); err != nil {
		return res, err
	}
	if res.Before, err = readState(srv, true); err != nil {
		return res, err
	}
	logf("churn: baseline: %s", res.Before)

	pairs := o.churnClients / 2
	logf("churn: %d clients in %d pairs for %v", o.churnClients, pairs, o.churnDuration)
	start := time.Now()
	ch.end = start.Add(o.churnDuration)
	cpu0, _ := srv.sample()
	stopWatch := ch.watch(ctx, srv, &res.Peak)
	var wg sync.WaitGroup
	for p := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr := &pair{ch: ch, id: p, rng: rand.New(rand.NewPCG(uint64(p), 19))}
			pr.run(ctx)
		}()
	}
	wg.Wait()
	stopWatch()
	cpu1, _ := srv.sample()
	res.Seconds = time.Since(start).Seconds()
	res.CPUShare = cpuShare(cpu0, cpu1)
	res.Sessions, res.Rooms, res.Matches = ch.sessions.Load(), ch.rooms.Load(), ch.matches.Load()
	res.MovesSent, res.MovesAcked = ch.ps.sent.Load(), int64(ch.acks.len())
	res.Acts = ch.acts.snapshot()
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if !srv.alive() {
		return res, fmt.Errorf("the server exited during the churn (log %s)", srv.logPath)
	}

	logf("churn: done: %d sessions, %d rooms, %d moves acknowledged; waiting up to %v for the server to settle", res.Sessions, res.Rooms, res.MovesAcked, o.churnSettle)
	t0 := time.Now()
	if _, err := waitSettled(ctx, srv, res.Before, o.churnSettle); err != nil && ctx.Err() != nil {
		return res, err
	}
	res.SettleSeconds = time.Since(t0).Seconds()
	if res.After, err = readState(srv, true); err != nil {
		return res, err
	}
	res.Checks = compareStates(res.Before, res.After, churnTolerances)
	res.Returned = allOK(res.Checks)
	for _, c := range res.Checks {
		if !c.OK {
			errs.add("churn-baseline", errors.New(c.String()))
		}
	}
	logf("churn: after %.0f s: %s", res.SettleSeconds, res.After)
	saveProfiles(o, srv, logf)

	// The moves: stop the server (it commits what is pending), then read its database.
	logf("churn: stopping the arcade to read its database")
	srv.stop()
	var players []string
	for _, k := range ch.keys {
		players = append(players, playerID(k))
	}
	stored, err := storedMatches(filepath.Join(srv.data, "arcade.db"), players)
	if err != nil {
		return res, fmt.Errorf("churn: reading the database: %w", err)
	}
	mc := ch.acks.verify(stored)
	res.Moves = &mc
	if mc.Missing > 0 {
		errs.add("churn-missing-move", fmt.Errorf("%s; first: %s", mc, strings.Join(mc.Examples, "; ")))
	}
	logf("churn: %s", mc)
	return res, nil
}

// waitSettled polls srv every second until its figures are back at base (compareStates, the heap
// aside) or bound has passed; it returns the last figures read.
func waitSettled(ctx context.Context, srv *server, base serverState, bound time.Duration) (serverState, error) {
	deadline := time.Now().Add(bound)
	for {
		st, err := readState(srv, false)
		if err == nil && allOK(compareStates(base, st, churnTolerances)) {
			return st, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("not settled within %v: %s", bound, st)
			}
			return st, err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return st, err
		}
	}
}

// watch reads the server's figures every 5 s until the returned function is called, keeping the
// highest of each in peak and logging them every 30 s.
func (ch *churner) watch(ctx context.Context, srv *server, peak *serverState) func() {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	*peak = serverState{Heap: -1}
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for i := 1; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			st, err := readState(srv, false)
			if err != nil {
				continue
			}
			peak.Sessions, peak.Subscribers, peak.Rooms = max(peak.Sessions, st.Sessions), max(peak.Subscribers, st.Subscribers), max(peak.Rooms, st.Rooms)
			peak.Goroutines, peak.FDs, peak.Threads, peak.RSS = max(peak.Goroutines, st.Goroutines), max(peak.FDs, st.FDs), max(peak.Threads, st.Threads), max(peak.RSS, st.RSS)
			if i%6 == 0 {
				ch.logf("churn: %s; %d moves acknowledged, %d errors", st, ch.acks.len(), ch.errs.total())
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

func (s serverState) String() string {
	f := func(v int) string {
		if v < 0 {
			return "?"
		}
		return fmt.Sprint(v)
	}
	out := fmt.Sprintf("%s sessions, %s in rooms, %s rooms, %s goroutines, %s open files, %s threads", f(s.Sessions), f(s.Subscribers), f(s.Rooms), f(s.Goroutines), f(s.FDs), f(s.Threads))
	if s.RSS >= 0 {
		out += ", RSS " + mib(uint64(s.RSS))
	}
	if s.Heap >= 0 {
		out += ", live heap " + mib(uint64(s.Heap))
	}
	return out
}

// pair is two clients of the churn phase, looping: a room, moves and disturbances, an ending.
type pair struct {
	ch       *churner
	id       int
	rng      *rand.Rand
	keys     [2]int // the episode's keys: the creator's, and the joiner's when it is not a guest
	episodes int
	disturbs int
	extras   int
	open     []*client // every client of the episode, closed at its end
}

func (p *pair) run(ctx context.Context) {
	for ctx.Err() == nil && time.Now().Before(p.ch.end) {
		if p.rng.IntN(4) == 0 {
			p.extra(ctx)
		}
		p.episode(ctx)
	}
}

func (p *pair) over(ctx context.Context) bool {
	return ctx.Err() != nil || !time.Now().Before(p.ch.end)
}

// dial connects a client of the pair and counts it.
func (p *pair) dial(ctx context.Context, guest bool, key int, command string) (*client, error) {
	o := p.ch.dopts
	o.guest = guest
	c, err := dial(ctx, o, key, command)
	p.ch.sessions.Add(1)
	if err != nil {
		return nil, err
	}
	p.open = append(p.open, c)
	return c, nil
}

// episode opens a room (the joiner is a guest every third time), plays a few moves with
// disturbances between them, and ends in one of the endings.
func (p *pair) episode(ctx context.Context) {
	ch := p.ch
	defer func() {
		for _, c := range p.open {
			c.close()
		}
		p.open = p.open[:0]
		p.episodes++
	}()
	guest := p.episodes%3 == 2
	p.keys = [2]int{ch.newKey(), ch.newKey()}
	o := [2]dialOpts{ch.dopts, ch.dopts}
	o[1].guest = guest
	r, err := openRoom(ctx, o, p.keys, p.id<<20|p.episodes, ch.game)
	ch.sessions.Add(2)
	if err != nil {
		if ctx.Err() == nil {
			ch.fail("churn-setup", err)
			_ = sleep(ctx, time.Second)
		}
		return
	}
	p.open = append(p.open, r.players[:]...)
	r.acks = ch.acks
	ch.rooms.Add(1)
	match0 := r.match
	defer func() { ch.matches.Add(int64(r.match - match0 + 1)) }()
	steps := 3 + p.rng.IntN(20)
	for range steps {
		if sleep(ctx, ch.o.interval/2) != nil || p.over(ctx) {
			break
		}
		ok := false
		if p.rng.IntN(10) < 3 {
			ok = p.disturb(ctx, r)
		} else {
			ok = p.move(ctx, r)
		}
		if !ok {
			return
		}
	}
	p.ending(ctx, r)
}

// move plays one move; false ends the episode.
func (p *pair) move(ctx context.Context, r *room) bool {
	ch := p.ch
	cand, err := r.ply(ctx, ch.ps, false)
	if err == nil {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	kind := "move"
	var ke kindErr
	if errors.As(err, &ke) {
		kind = ke.kind
	}
	ch.fail("churn-"+kind, fmt.Errorf("room %s: %w", r.code, err))
	if !r.players[0].alive() || !r.players[1].alive() {
		ch.fail("churn-disconnected", fmt.Errorf("room %s: a player's session ended without the tool ending it", r.code))
		return false
	}
	if err := r.resync(ctx, ch.ps, cand); err != nil {
		ch.fail("churn-resync", fmt.Errorf("room %s: %w", r.code, err))
		return false
	}
	return true
}

// Disturbances, between moves: each is undone before the next move (the window is 80 x 24 again,
// the client reads again), so that the moves after it are checked as before it.
var disturbances = []string{"resize", "huge-window", "window-storm", "stall", "stall-window-storm", "paste", "rejoin-after-drop", "rejoin-after-quit"}

// disturb does the pair's next disturbance to one of the room's players; false ends the episode.
func (p *pair) disturb(ctx context.Context, r *room) bool {
	ch := p.ch
	kind := disturbances[(p.id+p.disturbs)%len(disturbances)]
	p.disturbs++
	k := p.rng.IntN(2)
	c := r.players[k]
	ch.acts.add(kind, 1)
	stalled := false
	switch kind {
	case "resize":
		w, h := randomWindow(p.rng)
		p.guard(c, func() error { return c.resize(w, h) })
		_ = sleep(ctx, time.Duration(100+p.rng.IntN(400))*time.Millisecond)
	case "huge-window":
		p.guard(c, func() error { return p.storm(c, 1+p.rng.IntN(4), true) })
		_ = sleep(ctx, time.Duration(100+p.rng.IntN(400))*time.Millisecond)
	case "window-storm":
		p.guard(c, func() error { return p.storm(c, 200+p.rng.IntN(800), false) })
	case "stall":
		stalled = true
		c.pause()
		_ = sleep(ctx, time.Duration(1000+p.rng.IntN(3000))*time.Millisecond)
		c.unpause()
	case "stall-window-storm":
		stalled = true
		c.pause()
		p.guard(c, func() error { return p.storm(c, 100+p.rng.IntN(400), false) })
		_ = sleep(ctx, time.Duration(1000+p.rng.IntN(2000))*time.Millisecond)
		c.unpause()
	case "paste":
		return p.pastePrompt(ctx, r)
	case "rejoin-after-drop", "rejoin-after-quit":
		k = -1
		for i, pl := range r.players {
			if !pl.guest {
				k = i
			}
		}
		if kind == "rejoin-after-drop" {
			r.players[k].drop()
		} else {
			r.players[k].close()
		}
		return p.rejoin(ctx, r, k)
	}
	// Back to 80 x 24 (a change of size redraws the whole screen), then the screen must show
	// the position.
	err := c.resize(cols, rows)
	if err == nil {
		err = c.waitText(ctx, r.marker, setupTimeout)
	}
	switch {
	case err == nil:
		return true
	case ctx.Err() != nil:
		return false
	case !ended(c):
		ch.fail("churn-restore", fmt.Errorf("room %s after %s: %w", r.code, kind, err))
		return false
	case stalled:
		// The server may end a session whose output has not drained for a while.
		ch.acts.add("stalled-session-ended-by-server", 1)
	default:
		ch.fail("churn-disconnected", fmt.Errorf("room %s: %s's session ended after %s", r.code, c.name, kind))
	}
	if c.guest {
		return false
	}
	return p.rejoin(ctx, r, k)
}

// ended reports whether c's session has ended, or ends within a second.
func ended(c *client) bool {
	select {
	case <-c.done:
		return true
	case <-time.After(time.Second):
		return false
	}
}

// storm sends n window changes to c: huge sizes only, or huge and ordinary ones mixed.
func (p *pair) storm(c *client, n int, hugeOnly bool) error {
	for range n {
		w, h := stormWindow(p.rng)
		if hugeOnly {
			s := hugeWindows[p.rng.IntN(len(hugeWindows))]
			w, h = s[0], s[1]
		}
		if err := c.resize(w, h); err != nil {
			return err
		}
	}
	p.ch.acts.add("window-changes", int64(n))
	return nil
}

// guard runs send, which writes to c; when it has not returned after stuckAfter, c is dropped
// (which ends the write) and the stuck write is counted as an error.
func (p *pair) guard(c *client, send func() error) {
	done := make(chan error, 1)
	go func() { done <- send() }()
	t := time.NewTimer(stuckAfter)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		c.drop()
		<-done
		p.ch.fail("churn-write-stuck", fmt.Errorf("%s: a write did not go through in %v: the server stopped reading", c.name, stuckAfter))
	}
}

// pastePrompt opens the move prompt of the player to move, pastes 256 KiB into it (bracketed, or
// letters typed raw) and closes it with escape.
func (p *pair) pastePrompt(ctx context.Context, r *room) bool {
	ch := p.ch
	c := r.players[r.state.ToMove()[0]]
	prompt := c.expectNew("move:")
	if err := c.send(":"); err != nil {
		ch.fail("churn-send", err)
		return false
	}
	if _, err := c.wait(ctx, prompt, moveTimeout, c.name+" waiting for the move prompt"); err != nil {
		ch.fail("churn-prompt", err)
		return false
	}
	bracketed := p.rng.IntN(2) == 0
	text := paste(p.rng, pasteSize, bracketed)
	p.guard(c, func() error { return c.send(text) })
	ch.acts.add("paste-bytes", int64(len(text)))
	if err := r.resync(ctx, ch.ps, nil); err != nil { // escape closes the prompt
		ch.fail("churn-paste", fmt.Errorf("room %s: %w", r.code, err))
		return false
	}
	return c.alive()
}

// rejoin connects the keyed player of seat k's client again, to the room by its code, in place of
// the client that left, and waits for the position on its screen.
func (p *pair) rejoin(ctx context.Context, r *room, k int) bool {
	ch := p.ch
	c, err := p.dial(ctx, false, r.players[k].key, "join "+r.code)
	if err != nil {
		ch.fail("churn-rejoin", fmt.Errorf("room %s: %w", r.code, err))
		return false
	}
	if err := c.waitText(ctx, r.marker, setupTimeout); err != nil {
		if ctx.Err() == nil {
			ch.fail("churn-rejoin", fmt.Errorf("room %s: %w", r.code, err))
		}
		return false
	}
	r.players[k] = c
	return true
}

// Endings of an episode: how the players leave. The tool follows the room no further.
var endings = []string{"quit", "drop", "garbage", "raw-paste", "huge-window-drop", "stall-window-storm-drop", "stall-drop"}

// ending ends the episode the pair's next way, for one player; the other quits or drops.
func (p *pair) ending(ctx context.Context, r *room) {
	ch := p.ch
	kind := endings[(p.id+p.episodes)%len(endings)]
	ch.acts.add("end-"+kind, 1)
	k := p.rng.IntN(2)
	c, other := r.players[k], r.players[1-k]
	if p.rng.IntN(2) == 0 {
		other.close()
	} else {
		other.drop()
	}
	switch kind {
	case "quit":
		c.close()
	case "drop":
		c.drop()
	case "garbage":
		g := garbage(p.rng, garbageSize)
		p.guard(c, func() error { return c.send(string(g)) })
		ch.acts.add("garbage-bytes", int64(len(g)))
		_ = sleep(ctx, 200*time.Millisecond)
		p.leave(c)
	case "raw-paste":
		text := rawPaste(p.rng, pasteSize)
		p.guard(c, func() error { return c.send(text) })
		ch.acts.add("paste-bytes", int64(len(text)))
		_ = sleep(ctx, 200*time.Millisecond)
		p.leave(c)
	case "huge-window-drop":
		p.guard(c, func() error { return p.storm(c, 20+p.rng.IntN(200), true) })
		_ = sleep(ctx, 200*time.Millisecond)
		c.drop()
	case "stall-window-storm-drop":
		c.pause()
		p.guard(c, func() error { return p.storm(c, 1000+p.rng.IntN(4000), false) })
		_ = sleep(ctx, time.Duration(500+p.rng.IntN(1500))*time.Millisecond)
		c.drop()
	case "stall-drop":
		c.pause()
		_ = sleep(ctx, time.Duration(1000+p.rng.IntN(3000))*time.Millisecond)
		c.drop()
	}
}

// leave quits or drops c, at random.
func (p *pair) leave(c *client) {
	if p.rng.IntN(2) == 0 {
		c.close()
	} else {
		c.drop()
	}
}

// Extras, between episodes: connections that never reach a room.
var extras = []string{"command", "long-command", "handshake-drop", "lobby-garbage"}

// extra makes the pair's next extra connection.
func (p *pair) extra(ctx context.Context) {
	ch := p.ch
	kind := extras[(p.id+p.extras)%len(extras)]
	p.extras++
	ch.acts.add(kind, 1)
	o := ch.dopts
	o.guest = p.rng.IntN(2) == 0
	p.keys[0] = ch.newKey()
	switch kind {
	case "command", "long-command":
		cmd := []string{"rooms", "whoami", "help", "leaderboard"}[p.rng.IntN(4)]
		if kind == "long-command" {
			cmd = rawPaste(p.rng, garbageSize)
		}
		if err := p.command(ctx, o, cmd); err != nil && ctx.Err() == nil {
			ch.fail("churn-command", fmt.Errorf("%.20q: %w", cmd, err))
		}
	case "handshake-drop":
		_, tcp, conn, err := connect(ctx, o, p.keys[0])
		ch.sessions.Add(1)
		if err != nil {
			if ctx.Err() == nil {
				ch.fail("churn-dial", err)
			}
			return
		}
		tcp.Close()
		_ = conn.Wait()
	case "lobby-garbage":
		c, err := p.dial(ctx, o.guest, p.keys[0], "")
		if err != nil {
			if ctx.Err() == nil {
				ch.fail("churn-dial", err)
			}
			return
		}
		if err := c.waitText(ctx, "Welcome", setupTimeout); err != nil && ctx.Err() == nil {
			ch.fail("churn-setup", err)
		}
		g := garbage(p.rng, garbageSize)
		p.guard(c, func() error { return c.send(string(g)) })
		ch.acts.add("garbage-bytes", int64(len(g)))
		_ = sleep(ctx, 200*time.Millisecond)
		p.leave(c)
	}
	for _, c := range p.open {
		c.close()
	}
	p.open = p.open[:0]
}

// command runs a plain command (no PTY) and reads its output to the end.
func (p *pair) command(ctx context.Context, o dialOpts, cmd string) error {
	_, tcp, conn, err := connect(ctx, o, p.keys[0])
	p.ch.sessions.Add(1)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = tcp.SetDeadline(time.Now().Add(stuckAfter))
	sess, err := conn.NewSession()
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	out, err := sess.CombinedOutput(cmd)
	var exit *ssh.ExitError
	if err != nil && !errors.As(err, &exit) {
		return err
	}
	if len(out) == 0 {
		return errors.New("no output")
	}
	return nil
}

// sortedActs lists acts as "name n" pairs in name order.
func sortedActs(acts map[string]int64) string {
	keys := make([]string, 0, len(acts))
	for k := range acts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, acts[k])
	}
	return strings.Join(parts, ", ")
}

// saveProfiles saves the server's heap profile, its goroutines (as text) and its log so far in
// --profile's folder (when given): what is left once the churn has settled.
func saveProfiles(o options, srv *server, logf func(string, ...any)) {
	if o.profileDir == "" {
		return
	}
	for _, f := range [][2]string{{"/debug/pprof/heap", "churn-after-heap.pprof"}, {"/debug/pprof/goroutine?debug=1", "churn-after-goroutines.txt"}} {
		resp, err := metricsClient.Get(srv.metrics + f[0])
		if err != nil {
			logf("churn: profile: %v", err)
			continue
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			err = os.WriteFile(filepath.Join(o.profileDir, f[1]), b, 0o644)
		}
		if err != nil {
			logf("churn: profile: %v", err)
		}
	}
	if b, err := os.ReadFile(srv.logPath); err == nil {
		_ = os.WriteFile(filepath.Join(o.profileDir, "churn-arcade.log"), b, 0o644)
	}
}
