package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/teaframe"
)

// The asciicast of a match: the screens `replay ID` draws, one a move, at castStep apart, at
// the terminal's smallest usual size.
const (
	castWidth, castHeight = 80, 24
	castStep              = 900 * time.Millisecond // as the replay's own autoplay (space)
)

// castHeader is an asciicast v2 file's first line.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// WriteCast writes finished match m of game g as an asciicast v2 recording of a spectator's
// terminal: the replay's screen (session.ReplayViews) before the first move, then after each
// move, castStep apart, each frame written by the session's own renderer (teaframe), which sends
// only what changed since the frame before. board is a new terminal board view of the game.
func WriteCast(w io.Writer, m record.Match, g rules.Game, board draw.Board) error {
	views, err := session.ReplayViews(m, g, board, false, castWidth, castHeight)
	if err != nil {
		return err
	}
	hdr, err := json.Marshal(castHeader{Version: 2, Width: castWidth, Height: castHeight, Timestamp: m.Started.Unix(),
		Title: fmt.Sprintf("%s · match %s", g.Name, m.ID), Env: map[string]string{"TERM": "xterm-256color"}})
	if err != nil {
		return err
	}
	if _, err := w.Write(append(hdr, '\n')); err != nil {
		return err
	}
	var frame bytes.Buffer
	// A spectator's renderer over SSH: no questions to the terminal (SSH_TTY), 256 colours.
	r := teaframe.New(&frame, teaframe.Options{Width: castWidth, Height: castHeight, Profile: colorprofile.ANSI256,
		Env: []string{"SSH_TTY=/dev/pts/0", "TERM=xterm-256color"}})
	for at, lines := range views {
		frame.Reset()
		r.DrawLines(tea.View{AltScreen: true}, lines)
		ev, err := json.Marshal([]any{float64(at) * castStep.Seconds(), "o", frame.String()})
		if err != nil {
			return err
		}
		if _, err := w.Write(append(ev, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// castCache keeps the casts drawn last, by match ID: a finished match's cast never changes, and
// drawing one costs a screen per move.
type castCache struct{ c *lru.Cache[string, []byte] }

// castsKept is how many casts the cache keeps (a cast of a hundred moves is some 100 KB).
const castsKept = 32

func newCastCache() *castCache {
	c, _ := lru.New[string, []byte](castsKept)
	return &castCache{c: c}
}

// castFile is /m/ID.cast.
func (s *Server) castFile(w http.ResponseWriter, r *http.Request, id string) {
	rp, err := s.replayOf(id)
	if err != nil {
		http.Error(w, "no finished match has that ID", http.StatusNotFound)
		return
	}
	body, ok := s.casts.c.Get(rp.match.ID)
	if !ok {
		select { // casts are drawn a few at a time
		case s.castSem <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		var buf bytes.Buffer
		board := s.cfg.Boards[rp.game.ID]
		if board == nil {
			<-s.castSem
			http.Error(w, "this match's game has no board to draw it", http.StatusNotFound)
			return
		}
		err := WriteCast(&buf, rp.match, rp.game, board())
		<-s.castSem
		if err != nil {
			s.cfg.Logf("web: cast of %s: %v", rp.match.ID, err)
			http.Error(w, "the match could not be drawn", http.StatusInternalServerError)
			return
		}
		body = buf.Bytes()
		s.casts.c.Add(rp.match.ID, body)
	}
	w.Header().Set("Content-Type", "application/x-asciicast")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(body)
}
