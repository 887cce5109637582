package phase

import (
	"context"
	"fmt"
	"regexp"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// codeLine is a line of the rooms command's table: a room's code first.
var codeLine = regexp.MustCompile(`^[A-Z2-9]{5}\s`)

// RoomsFill is one player's rooms, opened until the arcade refused one.
type RoomsFill struct {
	Who     string  // "one key" or "one guest address"
	Opened  int     // rooms whose code a session showed
	Held    int     // rooms the arcade listed once refused (the rooms command)
	Seconds float64 // from the first "new" to the refusal
	Refusal string  // what the refused session showed; empty when none was refused in time
}

// String is the fill in one line.
func (f RoomsFill) String() string {
	refusal := "not refused"
	if f.Refusal != "" {
		refusal = fmt.Sprintf("refused with %q", f.Refusal)
	}
	return fmt.Sprintf("%s opened %d rooms (%d held) in %.2f s, then %s", f.Who, f.Opened, f.Held, f.Seconds, refusal)
}

// RoomsResult is what the rooms-one-key phase measured.
type RoomsResult struct {
	MaxRooms int // the arcade's --max-rooms
	Key      RoomsFill
	Guest    RoomsFill
}

// Figures is the phase's figures in one line.
func (r *RoomsResult) Figures() string {
	return fmt.Sprintf("rooms-one-key (--max-rooms %d): %s; %s", r.MaxRooms, r.Key, r.Guest)
}

// roomDialers bounds the sessions that open rooms at once: fewer than a key's share of sessions
// on an arcade that has one, so that what refuses the fill is a limit on rooms.
const roomDialers = 4

// RoomsOneKey has one key, from one address, open rooms ("new stonetowers", each in a session
// of its own, closed once the room's code shows: the room stays open, empty) with dialers
// sessions at a time (roomDialers at most) until the arcade refuses one; then, on a new arcade, a
// guest does the same. Each arcade has maxRooms rooms at most, which ends a fill that no other
// limit does.
func RoomsOneKey(ctx context.Context, arcades Arcades, maxRooms, dialers int, logf func(string, ...any), errs *stats.ErrorLog) (*RoomsResult, error) {
	res := &RoomsResult{MaxRooms: maxRooms}
	dialers = min(dialers, roomDialers)
	for _, guest := range []bool{false, true} {
		dir, _, err := arcades.NewData()
		if err != nil {
			return res, err
		}
		srv, err := arcades.Start(ctx, dir, nil, "--max-rooms", fmt.Sprint(maxRooms), "--max-sessions", fmt.Sprint(max(4000, 2*dialers)))
		if err != nil {
			return res, err
		}
		who := "one key"
		if guest {
			who = "one guest address"
		}
		logf("rooms-one-key: %s opens rooms on %s (at most %d rooms)", who, srv.Addr, maxRooms)
		fill, err := fillRooms(ctx, client.DialOpts{Addr: srv.Addr, Guest: guest, Timeout: refusalTimeout}, maxRooms, dialers, errs)
		srv.Stop()
		fill.Who = who
		if guest {
			res.Guest = fill
		} else {
			res.Key = fill
		}
		if err != nil {
			return res, err
		}
		logf("rooms-one-key: %s", fill)
	}
	return res, nil
}

// fillRooms opens rooms as client 0 until one is refused, or until twice maxRooms were opened
// (the arcade then limits nothing).
func fillRooms(ctx context.Context, o client.DialOpts, maxRooms, dialers int, errs *stats.ErrorLog) (RoomsFill, error) {
	var fill RoomsFill
	f := fillUntilRefused(ctx, "rooms-one-key", dialers, 2*maxRooms, errs, func(int) (bool, string, error) {
		return openOneRoom(ctx, o)
	})
	fill.Opened, fill.Refusal, fill.Seconds = f.opened, f.refusal, f.took.Seconds()
	if ctx.Err() != nil {
		return fill, ctx.Err()
	}
	held, err := openRooms(ctx, o)
	if err != nil {
		return fill, fmt.Errorf("list the rooms: %w", err)
	}
	fill.Held = held
	return fill, nil
}

// openOneRoom opens a session with "new stonetowers" and reports whether it showed a room's code
// (the session is closed then; the room stays), or else what it showed instead: the lobby's
// message, or the screen of a session the arcade ended.
func openOneRoom(ctx context.Context, o client.DialOpts) (bool, string, error) {
	c, err := client.Dial(ctx, o, 0, "new stonetowers")
	if err != nil {
		return false, "", err
	}
	defer c.Close()
	w := c.ExpectFunc(func(s *screen.Screen) bool { return codeRe.MatchString(s.Row(0)) || lobbyWithMessage(s) })
	if _, err := c.Wait(ctx, w, refusalTimeout, "a room's code or a refusal"); err != nil {
		if ctx.Err() != nil {
			return false, "", ctx.Err()
		}
		// The arcade ended the session, or showed something else than a room or the lobby.
		return false, screenText(c.Text()), nil
	}
	if codeRe.MatchString(c.Row(0)) {
		return true, "", nil
	}
	return false, lobbyStatus(c), nil
}
