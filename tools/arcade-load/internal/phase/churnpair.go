package phase

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
)

// pair is two clients of the churn phase, looping: a room, moves and disturbances, an ending.
type pair struct {
	ch       *churner
	id       int
	rng      *rand.Rand
	keys     [2]int // the episode's keys: the creator's, and the joiner's when it is not a guest
	episodes int
	disturbs int
	extras   int
	open     []*client.Client // every client of the episode, closed at its end
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
func (p *pair) dial(ctx context.Context, guest bool, key int, command string) (*client.Client, error) {
	o := p.ch.dopts
	o.Guest = guest
	c, err := client.Dial(ctx, o, key, command)
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
			c.Close()
		}
		p.open = p.open[:0]
		p.episodes++
	}()
	guest := p.episodes%3 == 2
	p.keys = [2]int{ch.newKey(), ch.newKey()}
	o := [2]client.DialOpts{ch.dopts, ch.dopts}
	o[1].Guest = guest
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
		if sleep(ctx, ch.o.Interval/2) != nil || p.over(ctx) {
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
	if !r.players[0].Alive() || !r.players[1].Alive() {
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
		p.guard(c, func() error { return c.Resize(w, h) })
		_ = sleep(ctx, time.Duration(100+p.rng.IntN(400))*time.Millisecond)
	case "huge-window":
		p.guard(c, func() error { return p.storm(c, 1+p.rng.IntN(4), true) })
		_ = sleep(ctx, time.Duration(100+p.rng.IntN(400))*time.Millisecond)
	case "window-storm":
		p.guard(c, func() error { return p.storm(c, 200+p.rng.IntN(800), false) })
	case "stall":
		stalled = true
		c.Pause()
		_ = sleep(ctx, time.Duration(1000+p.rng.IntN(3000))*time.Millisecond)
		c.Unpause()
	case "stall-window-storm":
		stalled = true
		c.Pause()
		p.guard(c, func() error { return p.storm(c, 100+p.rng.IntN(400), false) })
		_ = sleep(ctx, time.Duration(1000+p.rng.IntN(2000))*time.Millisecond)
		c.Unpause()
	case "paste":
		return p.pastePrompt(ctx, r)
	case "rejoin-after-drop", "rejoin-after-quit":
		k = -1
		for i, pl := range r.players {
			if !pl.Guest {
				k = i
			}
		}
		if kind == "rejoin-after-drop" {
			r.players[k].Drop()
		} else {
			r.players[k].Close()
		}
		return p.rejoin(ctx, r, k)
	}
	// Back to 80 x 24 (a change of size redraws the whole screen), then the screen must show
	// the position.
	err := c.Resize(client.Cols, client.Rows)
	if err == nil {
		err = c.WaitText(ctx, r.marker, setupTimeout)
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
		ch.fail("churn-disconnected", fmt.Errorf("room %s: %s's session ended after %s", r.code, c.Name, kind))
	}
	if c.Guest {
		return false
	}
	return p.rejoin(ctx, r, k)
}

// ended reports whether c's session has ended, or ends within a second.
func ended(c *client.Client) bool {
	select {
	case <-c.Done():
		return true
	case <-time.After(time.Second):
		return false
	}
}

// storm sends n window changes to c: huge sizes only, or huge and ordinary ones mixed.
func (p *pair) storm(c *client.Client, n int, hugeOnly bool) error {
	for range n {
		w, h := stormWindow(p.rng)
		if hugeOnly {
			s := hugeWindows[p.rng.IntN(len(hugeWindows))]
			w, h = s[0], s[1]
		}
		if err := c.Resize(w, h); err != nil {
			return err
		}
	}
	p.ch.acts.add("window-changes", int64(n))
	return nil
}

// guard runs send, which writes to c; when it has not returned after stuckAfter, c is dropped
// (which ends the write) and the stuck write is counted as an error.
func (p *pair) guard(c *client.Client, send func() error) {
	done := make(chan error, 1)
	go func() { done <- send() }()
	t := time.NewTimer(stuckAfter)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		c.Drop()
		<-done
		p.ch.fail("churn-write-stuck", fmt.Errorf("%s: a write did not go through in %v: the server stopped reading", c.Name, stuckAfter))
	}
}

// pastePrompt opens the move prompt of the player to move, pastes 256 KiB into it (bracketed, or
// letters typed raw) and closes it with escape.
func (p *pair) pastePrompt(ctx context.Context, r *room) bool {
	ch := p.ch
	c := r.players[r.state.ToMove()[0]]
	prompt := c.ExpectNew("move:")
	if err := c.Send(":"); err != nil {
		ch.fail("churn-send", err)
		return false
	}
	if _, err := c.Wait(ctx, prompt, moveTimeout, c.Name+" waiting for the move prompt"); err != nil {
		ch.fail("churn-prompt", err)
		return false
	}
	bracketed := p.rng.IntN(2) == 0
	text := paste(p.rng, pasteSize, bracketed)
	p.guard(c, func() error { return c.Send(text) })
	ch.acts.add("paste-bytes", int64(len(text)))
	if err := r.resync(ctx, ch.ps, nil); err != nil { // escape closes the prompt
		ch.fail("churn-paste", fmt.Errorf("room %s: %w", r.code, err))
		return false
	}
	return c.Alive()
}

// rejoin connects the keyed player of seat k's client again, to the room by its code, in place of
// the client that left, and waits for the position on its screen.
func (p *pair) rejoin(ctx context.Context, r *room, k int) bool {
	ch := p.ch
	c, err := p.dial(ctx, false, r.players[k].Key, "join "+r.code)
	if err != nil {
		ch.fail("churn-rejoin", fmt.Errorf("room %s: %w", r.code, err))
		return false
	}
	if err := c.WaitText(ctx, r.marker, setupTimeout); err != nil {
		if ctx.Err() == nil {
			ch.fail("churn-rejoin", fmt.Errorf("room %s: %w", r.code, err))
		}
		return false
	}
	r.players[k] = c
	return true
}

// Endings of an episode: how the players leave. The tool follows the room no further.
var Endings = []string{"quit", "drop", "garbage", "raw-paste", "huge-window-drop", "stall-window-storm-drop", "stall-drop"}

// ending ends the episode the pair's next way, for one player; the other quits or drops.
func (p *pair) ending(ctx context.Context, r *room) {
	ch := p.ch
	kind := Endings[(p.id+p.episodes)%len(Endings)]
	ch.acts.add("end-"+kind, 1)
	k := p.rng.IntN(2)
	c, other := r.players[k], r.players[1-k]
	if p.rng.IntN(2) == 0 {
		other.Close()
	} else {
		other.Drop()
	}
	switch kind {
	case "quit":
		c.Close()
	case "drop":
		c.Drop()
	case "garbage":
		g := garbage(p.rng, garbageSize)
		p.guard(c, func() error { return c.Send(string(g)) })
		ch.acts.add("garbage-bytes", int64(len(g)))
		_ = sleep(ctx, 200*time.Millisecond)
		p.leave(c)
	case "raw-paste":
		text := rawPaste(p.rng, pasteSize)
		p.guard(c, func() error { return c.Send(text) })
		ch.acts.add("paste-bytes", int64(len(text)))
		_ = sleep(ctx, 200*time.Millisecond)
		p.leave(c)
	case "huge-window-drop":
		p.guard(c, func() error { return p.storm(c, 20+p.rng.IntN(200), true) })
		_ = sleep(ctx, 200*time.Millisecond)
		c.Drop()
	case "stall-window-storm-drop":
		c.Pause()
		p.guard(c, func() error { return p.storm(c, 1000+p.rng.IntN(4000), false) })
		_ = sleep(ctx, time.Duration(500+p.rng.IntN(1500))*time.Millisecond)
		c.Drop()
	case "stall-drop":
		c.Pause()
		_ = sleep(ctx, time.Duration(1000+p.rng.IntN(3000))*time.Millisecond)
		c.Drop()
	}
}

// leave quits or drops c, at random.
func (p *pair) leave(c *client.Client) {
	if p.rng.IntN(2) == 0 {
		c.Close()
	} else {
		c.Drop()
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
	o.Guest = p.rng.IntN(2) == 0
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
		_, tcp, conn, err := client.Connect(ctx, o, p.keys[0])
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
		c, err := p.dial(ctx, o.Guest, p.keys[0], "")
		if err != nil {
			if ctx.Err() == nil {
				ch.fail("churn-dial", err)
			}
			return
		}
		if err := c.WaitText(ctx, "Welcome", setupTimeout); err != nil && ctx.Err() == nil {
			ch.fail("churn-setup", err)
		}
		g := garbage(p.rng, garbageSize)
		p.guard(c, func() error { return c.Send(string(g)) })
		ch.acts.add("garbage-bytes", int64(len(g)))
		_ = sleep(ctx, 200*time.Millisecond)
		p.leave(c)
	}
	for _, c := range p.open {
		c.Close()
	}
	p.open = p.open[:0]
}

// command runs a plain command (no PTY) and reads its output to the end.
func (p *pair) command(ctx context.Context, o client.DialOpts, cmd string) error {
	_, tcp, conn, err := client.Connect(ctx, o, p.keys[0])
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
