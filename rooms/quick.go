package rooms

import (
	"errors"
	"slices"
	"sync"
	"time"
)

// ErrSeeking: Seek was given a game that is not played by two (a quick match pairs two players).
var ErrSeeking = errors.New("quick match pairs two players; open a room for this game instead")

// Seek is a player's wish to play a game now, against whoever else wants to.
type Seek struct {
	Game   string
	Player Player
	// Rating is the player's rating in the game: the waiting player with the closest is paired
	// first.
	Rating float64
}

// Ticket is a player's place in the quick-match queue of a game. Found yields the room's code once
// the player is paired; the player then joins it by its code as any room (in a cluster the room
// may be on another node). Cancel leaves the queue.
type Ticket struct {
	hub   *Hub // nil for a ticket of an outside pool (PoolTicket)
	seek  Seek
	since time.Time
	found chan string   // the paired room's code, sent once
	done  chan struct{} // closed by Cancel

	// A ticket of an outside pool: leave takes it out of the pool, on the first Cancel.
	leave  func()
	cancel sync.Once
}

// Found returns the channel that yields the code of the room the player was paired in.
func (t *Ticket) Found() <-chan string { return t.found }

// Done returns a channel closed when the ticket was cancelled.
func (t *Ticket) Done() <-chan struct{} { return t.done }

// Since returns when the player began to wait.
func (t *Ticket) Since() time.Time { return t.since }

// Cancel takes the ticket out of the queue; a room it was paired in already stays open, waiting
// for the player as any room does. Cancel may be called more than once. Hub.Shutdown cancels
// every ticket.
func (t *Ticket) Cancel() {
	h := t.hub
	if h == nil {
		t.cancel.Do(func() {
			t.leave()
			close(t.done)
		})
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.unseek(t)
	select {
	case <-t.done:
	default:
		close(t.done)
	}
}

// quickSeats is how many seats a quick match of a game has: two, when the game is played by two.
func quickSeats(minSeats, maxSeats int) (int, bool) {
	return 2, minSeats <= 2 && 2 <= maxSeats
}

// quickWindow is how far apart two ratings may be for a pairing once the longer waiting of the
// two has waited wait: 100 points at once, 50 more every second, so that nobody waits for long.
func quickWindow(wait time.Duration) float64 { return 100 + 50*wait.Seconds() }

// Seek puts s in the queue of its game and pairs the queue's players: each, longest waiting
// first, with the other whose rating is closest, provided the two are within quickWindow of the
// longer wait. A pair gets a new room of the game's default options, which both tickets' Found
// yield. Players not paired wait; the queue is paired again every second while anyone waits. A
// player who seeks the same game again (another terminal) replaces their earlier ticket, which
// is cancelled; nobody is paired with themself.
func (h *Hub) Seek(s Seek) (*Ticket, error) {
	g, ok := h.Game(s.Game)
	if !ok {
		return nil, ErrNoSuchGame
	}
	if _, ok := quickSeats(g.MinSeats, g.MaxSeats); !ok {
		return nil, ErrSeeking
	}
	s.Game = g.ID
	t := &Ticket{hub: h, seek: s, since: time.Now(), found: make(chan string, 1), done: make(chan struct{})}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrShuttingDown
	}
	for _, o := range h.seekers[g.ID] {
		if o.seek.Player.ID == s.Player.ID {
			h.unseek(o)
			close(o.done)
			break
		}
	}
	h.seekers[g.ID] = append(h.seekers[g.ID], t)
	h.mu.Unlock()
	h.pairSeekers()
	return t, nil
}

// pairSeekers pairs the players waiting for quick matches (see Seek), opens their rooms, and
// while anyone still waits, pairs again a second later.
func (h *Hub) pairSeekers() {
	now := time.Now()
	h.mu.Lock()
	var pairs [][2]*Ticket
	for _, queue := range h.seekers {
		q := make([]Seeker, len(queue))
		for i, t := range queue {
			q[i] = Seeker{Player: t.seek.Player.ID, Rating: t.seek.Rating, Since: t.since}
		}
		for _, p := range Pairs(q, now) {
			pairs = append(pairs, [2]*Ticket{queue[p[0]], queue[p[1]]})
		}
	}
	for _, p := range pairs {
		h.unseek(p[0])
		h.unseek(p[1])
	}
	h.mu.Unlock()

	for _, p := range pairs {
		h.openQuick(p[0], p[1])
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	waiting := false
	for _, q := range h.seekers {
		waiting = waiting || len(q) > 0
	}
	if waiting && !h.closed && !h.pairing {
		h.pairing = true
		time.AfterFunc(time.Second, func() {
			h.mu.Lock()
			h.pairing = false
			h.mu.Unlock()
			h.pairSeekers()
		})
	}
}

// openQuick opens the room of a quick match for a and b and hands it to both; when it cannot be
// opened, both wait on.
func (h *Hub) openQuick(a, b *Ticket) {
	g, _ := h.Game(a.seek.Game)
	seats, _ := quickSeats(g.MinSeats, g.MaxSeats)
	r, err := h.create(g.ID, nil, seats, b.seek.Player, false)
	if err != nil {
		h.cfg.Logf("rooms: quick match %s: cannot open a room: %v", g.ID, err)
		h.mu.Lock()
		h.seekers[g.ID] = append([]*Ticket{a, b}, h.seekers[g.ID]...)
		h.mu.Unlock()
		return
	}
	h.cfg.Logf("rooms: quick match %s: %s (%.0f) and %s (%.0f) in room %s", g.ID, a.seek.Player.ID,
		a.seek.Rating, b.seek.Player.ID, b.seek.Rating, r.code)
	a.found <- r.code
	b.found <- r.code
}

// Seeking returns how many players wait for a quick match of each game, by game ID.
func (h *Hub) Seeking() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]int{}
	for id, q := range h.seekers {
		if len(q) > 0 {
			out[id] = len(q)
		}
	}
	return out
}

// unseek takes t out of its game's queue, if it is there. h.mu is held.
func (h *Hub) unseek(t *Ticket) {
	q := h.seekers[t.seek.Game]
	if i := slices.Index(q, t); i >= 0 {
		h.seekers[t.seek.Game] = slices.Delete(q, i, i+1)
	}
}
