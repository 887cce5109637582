package rooms

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/arcade/arcade/rules"
)

// Resume describes an unfinished match to bring back under its room code, e.g. after a restart.
type Resume struct {
	Code    string
	GameID  string
	Options rules.Options
	Seed    uint64
	// Seats holds each seat's holder: a person (PlayerID, Name, Guest) or a bot (Bot, its level).
	Seats []SeatInfo
	// Moves is the match's move log; the engine replays it. Their times (At), with Started,
	// give back each player's time with a game clock.
	Moves []MoveRecord
	// Started is when the match began; zero when not known.
	Started time.Time
	// Reshuffles are the match's takebacks' reshuffles (rules.Reshuffler), as recorded: the
	// replay makes each at its ply.
	Reshuffles []rules.Reshuffle
	// Casual is what the match was recorded with (Event.Casual): its room's settings were not
	// all standard, and it changes no rating. The room keeps it, as recorded, rather than judge
	// the options again, so that every node that resumes the match agrees with the one that
	// started it.
	Casual bool
}

// ErrDoesNotReplay: Restore was given a match its game does not accept: options it refuses, a
// number of seats it does not allow, a seat that is not at the table, or a move it refuses. The
// record is damaged; resuming what replays of it would make up a board that was never played.
var ErrDoesNotReplay = errors.New("the match's record does not replay")

// Restore reopens a room for an unfinished match under its old code. The engine is set up from
// the match's options and seed and replays its moves; nothing is recorded again. Every person's
// seat waits for its player as if they had just dropped (the grace countdown starts now); bots
// play on. A match whose moves already ended it is finished (and recorded as ended). A match that
// does not replay is refused with ErrDoesNotReplay, and nothing of it is opened.
func (h *Hub) Restore(res Resume) (*Room, error) {
	g, ok := h.Game(res.GameID)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoSuchGame, res.GameID)
	}
	code, valid := NormalizeCode(res.Code)
	if !valid {
		return nil, fmt.Errorf("restore: bad room code %q", res.Code)
	}
	clock, opts, err := splitClock(res.Options)
	if err == nil {
		opts, err = g.Resolve(opts)
	}
	if err != nil {
		return nil, fmt.Errorf("restore %s: %w: %w", code, ErrDoesNotReplay, err)
	}
	eng, err := g.New(maps.Clone(opts), len(res.Seats), res.Seed)
	if err != nil {
		return nil, fmt.Errorf("restore %s: %w: %w", code, ErrDoesNotReplay, err)
	}
	moves := make([]MoveRecord, len(res.Moves))
	for i, mv := range res.Moves {
		mv.Public = rules.ConcealMove(eng, mv.Move)
		moves[i] = mv
		if int(mv.Seat) < 0 || int(mv.Seat) >= len(res.Seats) {
			return nil, fmt.Errorf("restore %s: %w: move %d is by seat %d, of %d", code, ErrDoesNotReplay, i+1, mv.Seat, len(res.Seats))
		}
		if eng, err = rules.Reshuffled(eng, res.Reshuffles, i).Apply(mv.Seat, mv.Move); err != nil {
			return nil, fmt.Errorf("restore %s: %w: move %d (%q): %w", code, ErrDoesNotReplay, i+1, mv.Move, err)
		}
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrShuttingDown
	}
	if h.rooms[code] != nil {
		return nil, fmt.Errorf("restore: room %s is already open", code)
	}
	r := newRoom(h, code, g, opts, clock, res.Casual, len(res.Seats))
	// The goroutine has not started: newRoom's caller still owns the room's state.
	eng = rules.Reshuffled(eng, res.Reshuffles, len(res.Moves))
	r.engine, r.seed, r.match = eng, res.Seed, 1
	r.reshuffles = slices.Clone(res.Reshuffles)
	r.moves = moves
	r.outcome = eng.Outcome()
	r.phase = Playing
	for i, info := range res.Seats {
		st := r.seats[i]
		if info.Bot != "" {
			lv, err := r.botLevel(info.Bot)
			if err != nil {
				return nil, fmt.Errorf("restore %s: seat %d: %w", code, i, err)
			}
			r.seatBot(st, lv, info.Name)
			continue
		}
		st.player = Player{ID: info.PlayerID, Name: cleanName(info.Name), Guest: info.Guest}
	}
	corr := clock != nil && clock.Correspondence()
	if !corr { // a correspondence room wakes often, and says nothing of it
		r.system("the server restarted; the match goes on from move %d", len(res.Moves))
	}
	if r.outcome.Over {
		r.finish(r.outcome, false)
	} else {
		for _, st := range r.seats {
			if st.bot == "" && !corr {
				r.drop(st, false)
			}
		}
		r.armTurn(true) // a timed turn has its whole time again
		r.restoreClock(res.Started)
		r.armClock()
		r.kickBots()
		r.armEmpty() // a correspondence room sleeps again unless someone comes
	}
	r.publish(nil)
	h.rooms[code] = r
	go r.run()
	h.cfg.Logf("rooms: restored room %s (%s, %d moves)", code, g.ID, len(res.Moves))
	return r, nil
}
