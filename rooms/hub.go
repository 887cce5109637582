package rooms

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/rules"
)

// Hub holds the open rooms by code. It is safe for concurrent use.
type Hub struct {
	cfg Config

	mu      sync.Mutex
	rooms   map[string]*Room
	limiter *limiter
	closed  bool
	seekers map[string][]*Ticket // quick-match queues by game ID, oldest first
	pairing bool                 // a pairing of the queues is due in a second

	subs    atomic.Int64  // subscribers over all rooms
	moves   atomic.Uint64 // accepted moves since start
	matches atomic.Uint64 // matches started since start
}

// Stats are the hub's counters, for metrics.
type Stats struct {
	// Rooms is the number of open rooms.
	Rooms int
	// Subscribers is the number of connected subscriptions (players and spectators) in all rooms.
	Subscribers int
	// Moves is the number of moves accepted since the hub started.
	Moves uint64
	// Matches is the number of matches started since the hub started.
	Matches uint64
}

// NewHub returns a hub for the games of cfg, with cfg's defaults filled in.
func NewHub(cfg Config) *Hub {
	cfg = cfg.withDefaults()
	cfg.Games = slices.Clip(slices.Clone(cfg.Games)) // Games shares it: an append must copy
	return &Hub{
		cfg:     cfg,
		rooms:   map[string]*Room{},
		seekers: map[string][]*Ticket{},
		limiter: newLimiter(cfg.JoinFailures, cfg.JoinWindow),
	}
}

// Games returns the catalogue of games, in the order of Config.Games. The slice is the hub's own,
// shared by every caller (each session keeps it, and a copy per session is more for every
// collection to scan): callers must not change its elements. Appending to it copies it.
func (h *Hub) Games() []rules.Game { return h.cfg.Games }

// Game returns the game with the given ID.
func (h *Hub) Game(id string) (rules.Game, bool) {
	i := slices.IndexFunc(h.cfg.Games, func(g rules.Game) bool { return g.ID == id })
	if i < 0 {
		return rules.Game{}, false
	}
	return h.cfg.Games[i], true
}

// Create opens a room for the game gameID with the given options and number of seats (0 means the
// game's default, rules.Game.StartSeats) and returns it, Waiting for players. Options are checked and completed with
// Game.Resolve; a bad one is an error in plain words. The room has a fresh, unique code. Create
// does not seat anyone: the creator joins like everyone else. by is the creator, for the log, for
// a guest's bounds (Game.CheckGuest) and
// for Config.Shares: beyond by's share of waiting rooms (or its address's), its oldest room that
// nobody is connected to expires to make way for the new one, and with none such Create fails
// with ErrRoomShare (or ErrAddrRoomShare); beyond its share of unfinished matches it fails with
// ErrUnfinishedShare. When the hub is full (Config.MaxRooms), an empty waiting room of whoever
// holds the most expires to make way, and with none such Create fails with ErrTooManyRooms.
func (h *Hub) Create(gameID string, opts rules.Options, seats int, by Player) (*Room, error) {
	return h.create(gameID, opts, seats, by, true)
}

// create is Create; shares false counts nothing against by (a quick match's room, which starts
// as it opens).
func (h *Hub) create(gameID string, opts rules.Options, seats int, by Player, shares bool) (*Room, error) {
	g, ok := h.Game(gameID)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoSuchGame, gameID)
	}
	clock, opts, err := splitClock(opts)
	if err != nil {
		return nil, err
	}
	opts, err = g.Resolve(opts)
	if err != nil {
		return nil, err
	}
	if by.Guest {
		if err := g.CheckGuest(opts); err != nil {
			return nil, err
		}
	}
	if seats == 0 {
		seats = g.StartSeats()
	}
	if seats < g.MinSeats || seats > g.MaxSeats {
		if g.MinSeats == g.MaxSeats {
			return nil, fmt.Errorf("%w: %s is for %d players", ErrBadSeats, g.Name, g.MinSeats)
		}
		return nil, fmt.Errorf("%w: %s is for %d to %d players", ErrBadSeats, g.Name, g.MinSeats, g.MaxSeats)
	}

	code, err := h.newCode()
	if err != nil {
		return nil, err
	}
	// Making way for the room (share.go) closes rooms, which takes the hub's lock: it is done
	// without it, and the shares are counted again after. Each round closes a room or ends.
	for round := 0; ; round++ {
		r, reclaim, why, err := h.place(code, g, opts, clock, seats, by, shares)
		if r != nil || reclaim == nil || round >= 8 || !h.expireOne(reclaim, why) {
			if r != nil {
				go r.run()
				if seats == 1 {
					h.cfg.Logf("rooms: %s created room %s for %s (solo)", by.ID, r.code, g.ID)
				} else {
					h.cfg.Logf("rooms: %s created room %s for %s (%d seats)", by.ID, r.code, g.ID, seats)
				}
			}
			if err != nil {
				if errors.Is(err, ErrRoomShare) {
					h.cfg.Refused(LimitWaitingPerKey)
				} else if errors.Is(err, ErrAddrRoomShare) {
					h.cfg.Refused(LimitWaitingPerAddr)
				} else if errors.Is(err, ErrTooManyRooms) {
					h.cfg.Refused(LimitRooms)
				}
			}
			return r, err
		}
	}
}

// place adds a new room of code to the hub, or says why not: err, and reclaim, the rooms of which
// an empty one may make way (why says for what). The room's goroutine is not started.
func (h *Hub) place(code string, g rules.Game, opts rules.Options, clock *Clock, seats int, by Player, shares bool) (r *Room, reclaim []*Room, why string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, nil, "", ErrShuttingDown
	}
	if shares {
		if reclaim, err := h.checkShares(by); err != nil {
			return nil, reclaim, "its creator opened another", err
		}
	}
	if len(h.rooms) >= h.cfg.MaxRooms {
		return nil, h.crowded(), "the server is full and its creator holds the most rooms", ErrTooManyRooms
	}
	for h.rooms[code] != nil { // only without ReserveCode: a reserved code is the caller's alone
		code = newCode()
	}
	r = newRoom(h, code, g, opts, clock, casualOf(g, opts, clock) != nil, seats)
	if shares {
		r.owner, r.source = ownerOf(by), by.Source
	}
	h.rooms[code] = r
	return r, nil, "", nil
}

// newCode returns a code for a new room: one that Config.ReserveCode accepted, when it is set,
// else one no open room of this hub has (Create checks again under its lock).
func (h *Hub) newCode() (string, error) {
	if h.cfg.ReserveCode == nil {
		return newCode(), nil
	}
	var err error
	for range 8 {
		code := newCode()
		h.mu.Lock()
		taken, closed := h.rooms[code] != nil, h.closed
		h.mu.Unlock()
		if closed {
			return "", ErrShuttingDown
		}
		if taken {
			continue
		}
		var ok bool
		if ok, err = h.cfg.ReserveCode(code); ok {
			return code, nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("no room code could be reserved: %w", err)
	}
	return "", errors.New("no room code could be reserved")
}

// Room returns the open room with the given code (as NormalizeCode reads it), like Find but
// counting nothing against anyone: for the server's own lookups.
func (h *Hub) Room(code string) (*Room, bool) {
	code, _ = NormalizeCode(code)
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[code]
	return r, r != nil
}

// CloseRoom closes the room with the given code, as Shutdown closes every room: its subscribers
// get a last snapshot with Phase Closed and Notice notice; an unfinished match is not recorded
// as ended. It returns once the room has stopped; false when no such room is open.
func (h *Hub) CloseRoom(code, notice string) bool {
	r, ok := h.Room(code)
	if !ok {
		return false
	}
	r.post(func() { r.stop(notice) })
	<-r.done
	return true
}

// MoveRoom is CloseRoom for a room that another server keeps now (a cluster's node lost it): its
// subscriptions end saying so (Sub.Moved), so that their sessions may follow the room there.
func (h *Hub) MoveRoom(code, notice string) bool {
	r, ok := h.Room(code)
	if !ok {
		return false
	}
	r.post(func() { r.stopAs(notice, true) })
	<-r.done
	return true
}

// Announce says text, a system line, in every open room (a server's trouble, say, and its end).
func (h *Hub) Announce(text string) {
	h.mu.Lock()
	rs := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rs = append(rs, r)
	}
	h.mu.Unlock()
	for _, r := range rs {
		r.post(func() {
			if !r.stopped {
				r.system("%s", text)
				r.broadcast()
			}
		})
	}
}

// Find returns the open room with the given code; case and surrounding space do not matter. An
// unknown code fails with ErrNoRoom and counts against by.ID; after Config.JoinFailures of those
// within Config.JoinWindow, every Find of that ID fails with ErrTooManyAttempts until the window has
// moved on.
//
// A code of a sleeping correspondence room (Config.Wake) wakes it, and Find returns it.
func (h *Hub) Find(code string, by Player) (*Room, error) {
	code, valid := NormalizeCode(code)
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limiter.blocked(by.ID, now) {
		return nil, ErrTooManyAttempts
	}
	r := h.rooms[code]
	if valid && r == nil && h.cfg.Wake != nil && !h.closed {
		h.mu.Unlock()
		woke := h.cfg.Wake(code) // Restore takes the lock
		h.mu.Lock()
		if woke {
			r = h.rooms[code]
		}
	}
	if !valid || r == nil {
		h.limiter.fail(by.ID, now)
		return nil, ErrNoRoom
	}
	return r, nil
}

// List returns a summary of every open room: Waiting rooms first, then Playing, then Finished;
// newest first within a phase, then by code.
func (h *Hub) List() []Summary {
	h.mu.Lock()
	rs := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rs = append(rs, r)
	}
	h.mu.Unlock()

	out := make([]Summary, 0, len(rs))
	for _, r := range rs {
		if s := r.summary.Load(); s != nil && s.Phase != Closed {
			c := *s
			c.Seats = slices.Clone(s.Seats)
			c.Options = maps.Clone(s.Options)
			c.Players = slices.Clone(s.Players)
			c.ToMove = slices.Clone(s.ToMove)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b Summary) int {
		return cmp.Or(cmp.Compare(a.Phase, b.Phase), b.Created.Compare(a.Created), cmp.Compare(a.Code, b.Code))
	})
	return out
}

// Shutdown closes every room: each subscriber gets a final Snapshot with Phase Closed and Notice
// set to notice, then its channel is closed. Create fails with ErrShuttingDown from then on.
// Shutdown blocks until every room's goroutine has stopped. Unfinished matches are not recorded as
// ended, so that a Recorder can bring them back after a restart.
func (h *Hub) Shutdown(notice string) {
	h.mu.Lock()
	h.closed = true
	for _, q := range h.seekers {
		for _, t := range q {
			close(t.done)
		}
	}
	clear(h.seekers)
	rs := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rs = append(rs, r)
	}
	h.mu.Unlock()
	for _, r := range rs {
		r.post(func() { r.stop(notice) })
	}
	for _, r := range rs {
		<-r.done
	}
}

// Stats returns the hub's counters.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	n := len(h.rooms)
	h.mu.Unlock()
	return Stats{
		Rooms:       n,
		Subscribers: int(h.subs.Load()),
		Moves:       h.moves.Load(),
		Matches:     h.matches.Load(),
	}
}

// remove forgets r (called by r's goroutine when it stops).
func (h *Hub) remove(r *Room) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rooms[r.code] == r {
		delete(h.rooms, r.code)
	}
}
