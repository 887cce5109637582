package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// Mode says where a session starts.
type Mode int

// The places a session can start.
const (
	// ModeLobby opens the lobby.
	ModeLobby Mode = iota
	// ModeNew creates a room and sits down in it.
	ModeNew
	// ModeJoin joins a room by code: the player's own or a free seat, else watching.
	ModeJoin
	// ModeWatch watches a room by code.
	ModeWatch
	// ModeReplay steps through a recorded match.
	ModeReplay
	// ModeQuick waits for a quick match of a game (rooms.Hub.Seek), then joins its room.
	ModeQuick
)

// Start is what a session does first: the lobby, or a room to create, join or watch.
type Start struct {
	Mode Mode
	// Game, Options, Seats, Bots and BotLevel describe the room to create (ModeNew); Game is
	// also the game of a quick match (ModeQuick).
	Game     string
	Options  rules.Options
	Seats    int
	Bots     int
	BotLevel string
	// Code is the room to join or watch (ModeJoin, ModeWatch).
	Code string
	// Match is the ID of the match to replay (ModeReplay).
	Match string
}

// Room options that are not the game's own: how many seats, how many of them bots, and how strong.
// With as many bots as seats the creator watches the bots play; one seat is the solo game, which
// takes no bots (see maxBots).
const (
	keySeats = "seats"
	keyBots  = "bots"
	keyBot   = "bot"
)

// ParseNew reads the arguments of `new GAME [key=value ...]` against the catalogue. Besides the
// game's own options it takes seats=N, bots=N (seats given to bots) and bot=LEVEL. Every error is
// one line a player can act on. A game that may be played alone has one seat unless seats= says
// otherwise, and bots=N without seats= then gives N+1 seats (at most the game's most): the
// creator plays the bots.
func ParseNew(args []string, games []rules.Game) (Start, error) {
	if len(args) == 0 {
		return Start{}, fmt.Errorf("new needs a game; try one of %s", rules.GameIDs(games))
	}
	g, ok := rules.FindGame(games, args[0])
	if !ok {
		return Start{}, fmt.Errorf("no game %q; try one of %s", args[0], rules.GameIDs(games))
	}
	st := Start{Mode: ModeNew, Game: g.ID, Seats: g.StartSeats(), BotLevel: defaultBot(g)}
	given := rules.Options{}
	clock := "" // the room's clock, when set
	seatsGiven := false
	for _, a := range args[1:] {
		k, v, ok := strings.Cut(a, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" {
			return Start{}, fmt.Errorf("options look like key=value, not %q", a)
		}
		var err error
		switch k {
		case keySeats:
			st.Seats, err = intIn(k, v, g.MinSeats, g.MaxSeats)
			if err != nil && g.MinSeats == g.MaxSeats {
				err = fmt.Errorf("%s is played by %d: leave seats out, or seats=%d", g.Name, g.MinSeats, g.MinSeats)
			}
			seatsGiven = true
		case keyBots:
			st.Bots, err = intIn(k, v, 0, g.MaxSeats)
		case keyBot:
			if _, ok := g.Bot(v); !ok {
				err = fmt.Errorf("bot must be one of %s", botNames(g))
			}
			st.BotLevel = v
		case rooms.ClockOption:
			var c rooms.Clock
			if c, err = rooms.ParseClock(v); err == nil {
				clock = c.String()
			}
		default:
			given[k] = v
		}
		if err != nil {
			return Start{}, err
		}
	}
	if st.Seats == 1 && st.Bots > 0 {
		if seatsGiven {
			return Start{}, fmt.Errorf("seats=1 is the solo game, which takes no bots; to play bots, give seats=2 or more")
		}
		st.Seats = min(st.Bots+1, g.MaxSeats)
	}
	if most := maxBots(st.Seats); st.Bots > most {
		return Start{}, fmt.Errorf("bots must be at most %d with %d seats", most, st.Seats)
	}
	opts, err := g.Resolve(given)
	if err != nil {
		return Start{}, err
	}
	if clock != "" {
		opts[rooms.ClockOption] = clock
	}
	st.Options = opts
	return st, nil
}

// maxBots is the most bots a room of seats seats takes: every seat (the creator watches), but
// none in a solo game (one seat), whose score goes on the solo table.
func maxBots(seats int) int {
	if seats == 1 {
		return 0
	}
	return seats
}

func botNames(g rules.Game) string {
	names := make([]string, len(g.Bots))
	for i, b := range g.Bots {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}

// defaultBot is the middle level: a fair first opponent.
func defaultBot(g rules.Game) string {
	if len(g.Bots) == 0 {
		return ""
	}
	return g.Bots[len(g.Bots)/2].Name
}

func intIn(key, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be a whole number from %d to %d", key, lo, hi)
	}
	return n, nil
}
