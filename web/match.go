package web

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/session/draw"
)

// replay is a finished match ready to be stepped: its record and a cursor on its positions. A
// cursor is not safe for concurrent use: mu guards it.
type replay struct {
	mu    sync.Mutex
	match record.Match
	game  rules.Game
	cur   *record.Cursor
	board draw.Board // the terminal board view, for the seats' names
}

// replayCache keeps the replays of the matches viewed last: a match's page read again (every
// step of it is a page) reads nothing from the store and replays nothing. Finished matches never
// change.
type replayCache struct{ c *lru.Cache[string, *replay] }

// replaysKept is how many matches' replays the cache keeps (each holds a cursor's bounded
// positions: at most record.MaxCheckpoints+record.CursorWindow of them).
const replaysKept = 64

func newReplayCache() *replayCache {
	c, _ := lru.New[string, *replay](replaysKept)
	return &replayCache{c: c}
}

// errNoMatch: no finished match has the ID.
var errNoMatch = errors.New("no finished match has that ID")

// replayOf returns the replay of the finished match id, from the cache or read and replayed.
func (s *Server) replayOf(id string) (*replay, error) {
	id = strings.ToLower(id)
	if rp, ok := s.replays.c.Get(id); ok {
		return rp, nil
	}
	if s.cfg.Records == nil || id == "" || len(id) > 32 {
		return nil, errNoMatch
	}
	m, err := s.cfg.Records.Match(id)
	if err != nil || !m.Finished() {
		return nil, fmt.Errorf("%w: %s", errNoMatch, id) // an unfinished match is a live room's
	}
	g, ok := rules.FindGame(s.games, m.Game)
	if !ok {
		return nil, fmt.Errorf("match %s is of a game this server no longer has (%s)", id, m.Game)
	}
	cur, err := record.NewCursor(m, g)
	if err != nil {
		return nil, err
	}
	rp := &replay{match: m, game: g, cur: cur}
	if mk := s.cfg.Boards[g.ID]; mk != nil {
		rp.board = mk()
	}
	s.replays.c.Add(id, rp)
	return rp, nil
}

// matchPage is /m/ID: a finished match at one position (?at=N, the end by default).
type matchPage struct {
	page
	ID, GameName, Started, Result, Told string
	Players                             []playerLink
	Board                               template.HTML
	At, Len, Prev, Next                 int
	HasPrev, HasNext                    bool
	Seats                               []seatView
	Moves                               []moveView
	// FirstMove is the number of the first move listed; MovesFrom to MovesTo the moves listed.
	FirstMove, MovesFrom, MovesTo int
}

// matchMoves is how many moves a match's page lists, around the one shown: a page stays small
// however long the match (every move is a link to its position).
const matchMoves = 80

func (s *Server) matchPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if cast, ok := strings.CutSuffix(id, ".cast"); ok {
		s.castFile(w, r, cast)
		return
	}
	rp, err := s.replayOf(id)
	if err != nil {
		s.fail(w, http.StatusNotFound, "No such match", "No finished match has that ID.")
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	n := rp.cur.Len()
	at := n
	if q := r.URL.Query().Get("at"); q != "" {
		if at, err = strconv.Atoi(q); err != nil || at < 0 || at > n {
			s.fail(w, http.StatusBadRequest, "No such move", fmt.Sprintf("at must be a number from 0 to %d.", n))
			return
		}
	}
	snap := session.ReplaySnapshot(rp.match, rp.game, rp.cur, at)
	p := matchPage{page: s.page(), ID: rp.match.ID, GameName: rp.game.Name, Started: day(rp.match.Started),
		Result: resultText(rp.match), Players: seatLinks(rp.match.Seats), At: at, Len: n,
		Prev: at - 1, Next: at + 1, HasPrev: at > 0, HasNext: at < n}
	if wb := s.cfg.WebBoards[rp.game.ID]; wb != nil {
		p.Board = wb(&snap)
	}
	if rp.board != nil {
		rp.board.Status(&snap, *draw.NewStyles(true, false), 28)
	}
	p.Seats = s.seatViews(&snap, rp.board, time.Now())
	p.Told = toldAt(rp, at, p.Seats)
	from, to := max(0, at-matchMoves/2), min(n, max(at, 0)+matchMoves/2)
	p.FirstMove, p.MovesFrom, p.MovesTo = from+1, from+1, to
	for i := from; i < to; i++ {
		mv := rp.match.Moves[i]
		letter, _ := seatLabel(rp.board, int(mv.Seat))
		p.Moves = append(p.Moves, moveView{N: i + 1, Seat: int(mv.Seat), Letter: letter, Class: seatClass(rp.board, int(mv.Seat)),
			Move: mv.Move, Current: i+1 == at})
	}
	s.render(w, "match", http.StatusOK, p)
}

// toldAt says in words what the move that led to position at did, as the replay tells it.
func toldAt(rp *replay, at int, seats []seatView) string {
	who := func(seat rules.Seat) string {
		if int(seat) < len(seats) {
			return seats[seat].who()
		}
		return fmt.Sprintf("Seat %d", seat+1)
	}
	mv := rp.match.Moves
	if at == 0 {
		if len(mv) == 0 {
			return "No moves were played."
		}
		return "Start: " + who(mv[0].Seat) + " begins."
	}
	m := mv[at-1]
	return fmt.Sprintf("Move %d: %s %s", at, who(m.Seat), rules.TellMove(rp.cur.At(at-1), m.Seat, m.Move))
}
