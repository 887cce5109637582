package rooms

import (
	"context"
	"errors"
	"fmt"

	"github.com/arcade/arcade/rules"
)

// Table describes a room opened for given players, as a live challenge accepted opens one: its
// game, options (with the clock) and the players, in the order of their seats.
type Table struct {
	Game    string
	Options rules.Options
	Players []Player
}

// Errors of OpenTable.
var (
	// ErrTableSeats: a table's players do not fill the game's seats, or one is there twice.
	ErrTableSeats = errors.New("a table needs one distinct player with a key a seat")
	// ErrTableClock: a table of a correspondence clock, whose match begins in the store
	// (NewCode, then Config.Wake), not in a room waiting for its players.
	ErrTableClock = errors.New("a table of a correspondence clock begins in the store")
)

// OpenTable opens a room for t's players, counted against no one's shares, that waits with each
// seat kept for its player: nobody else may take it, and the match starts when they have all
// joined.
func (h *Hub) OpenTable(t Table) (*Room, error) {
	if len(t.Players) == 0 {
		return nil, ErrTableSeats
	}
	seen := map[string]bool{}
	for _, p := range t.Players {
		if p.ID == "" || p.Guest || seen[p.ID] {
			return nil, ErrTableSeats
		}
		seen[p.ID] = true
	}
	if c, _, err := splitClock(t.Options); err == nil && c != nil && c.Correspondence() {
		return nil, ErrTableClock
	}
	r, err := h.create(t.Game, t.Options, len(t.Players), t.Players[0], false)
	if err != nil {
		return nil, err
	}
	err = r.call(context.Background(), func() error {
		if r.phase != Waiting {
			return fmt.Errorf("table %s: the room is %s", r.code, r.phase)
		}
		for i, p := range t.Players {
			p.Name = cleanName(p.Name)
			r.seats[i].held = p
		}
		r.publish(nil)
		return nil
	})
	if err != nil {
		h.CloseRoom(r.code, "the table could not be set")
		return nil, err
	}
	return r, nil
}

// NewCode returns a code for a new room, reserved as Create's are (Config.ReserveCode): for a
// match that begins in the store before its room opens (a correspondence challenge accepted),
// whose room is then woken (Config.Wake).
func (h *Hub) NewCode() (string, error) { return h.newCode() }

// Seed returns the seed the room of code would give its match numbered match
// (Config.NewSeed), for a match that begins in the store before its room opens.
func (h *Hub) Seed(code string, match int) uint64 { return h.cfg.NewSeed(code, match) }
