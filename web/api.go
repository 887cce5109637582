package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

// writeJSON answers with v as indented JSON, status code status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		http.Error(w, "the answer could not be written", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// apiError is the body of a JSON error.
type apiError struct {
	Error string `json:"error"`
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, apiError{Error: msg})
}

// apiLeaderboard is /api/leaderboard and /api/leaderboard/GAME: the bytes `leaderboard --json`
// and `leaderboard GAME --json` print (session.Leaderboards.WriteJSON).
func (s *Server) apiLeaderboard(w http.ResponseWriter, r *http.Request) {
	only := ""
	if id := r.PathValue("game"); id != "" {
		g, ok := rules.FindGame(s.games, id)
		if !ok {
			jsonError(w, http.StatusNotFound, "no game "+id+"; the games: "+rules.GameIDs(s.games))
			return
		}
		only = g.ID
	}
	if s.cfg.Records == nil {
		jsonError(w, http.StatusNotFound, "this server keeps no records")
		return
	}
	l, err := session.ReadLeaderboards(s.cfg.Records, s.games, only, session.LeaderboardSize)
	if err != nil {
		jsonError(w, http.StatusInternalServerError, "the leaderboard could not be read")
		return
	}
	var buf bytes.Buffer
	if err := l.WriteJSON(&buf); err != nil {
		jsonError(w, http.StatusInternalServerError, "the leaderboard could not be written")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(buf.Bytes())
}

// apiRoomRow is an open room in /api/rooms.
type apiRoomRow struct {
	Code       string    `json:"code"`
	Game       string    `json:"game"`
	Phase      string    `json:"phase"`
	State      string    `json:"state"`
	Seats      []string  `json:"seats"`
	Free       int       `json:"free"`
	Spectators int       `json:"spectators"`
	Created    time.Time `json:"created"`
}

// apiRooms is /api/rooms: the open rooms, as `rooms` lists them.
func (s *Server) apiRooms(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	out := []apiRoomRow{}
	for _, sum := range s.cfg.Hub.List() {
		out = append(out, apiRoomRow{Code: sum.Code, Game: sum.GameID, Phase: sum.Phase.String(), State: sum.State(now),
			Seats: sum.Seats, Free: sum.Free, Spectators: sum.Spectators, Created: sum.Created})
	}
	writeJSON(w, http.StatusOK, out)
}

// apiRoom is /api/rooms/CODE: the live room as its page shows it (a spectator's view: no chat).
func (s *Server) apiRoom(w http.ResponseWriter, r *http.Request) {
	wt, err := s.watch(r.PathValue("code"))
	if err != nil {
		jsonError(w, http.StatusNotFound, "no open room has that code")
		return
	}
	ev := wt.current(firstWait)
	if ev == nil {
		jsonError(w, http.StatusNotFound, "the room has closed")
		return
	}
	writeJSON(w, http.StatusOK, ev.view)
}

// apiProfile is a player's profile with their rating history per game.
type apiProfile struct {
	record.Profile
	History map[string][]record.RatingPoint `json:"history"`
}

// apiPlayer is /api/players/NAME.
func (s *Server) apiPlayer(w http.ResponseWriter, r *http.Request) {
	id, prof, err := s.profile(r.PathValue("name"))
	switch {
	case errors.Is(err, errNoPlayer):
		jsonError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		jsonError(w, http.StatusInternalServerError, "the player could not be read")
		return
	}
	out := apiProfile{Profile: prof, History: map[string][]record.RatingPoint{}}
	for _, st := range prof.Standings {
		if h, err := s.cfg.Records.RatingHistory(id, st.Game, historyPoints); err == nil {
			out.History[st.Game] = h
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// apiMatches is /api/matches: the newest finished matches, without their moves.
func (s *Server) apiMatches(w http.ResponseWriter, r *http.Request) {
	out := []record.Match{}
	if s.cfg.Records != nil {
		ms, err := s.cfg.Records.RecentMatches(recentShown)
		if err != nil {
			jsonError(w, http.StatusInternalServerError, "the matches could not be read")
			return
		}
		out = append(out, ms...)
	}
	writeJSON(w, http.StatusOK, out)
}

// apiMatch is /api/matches/ID: a finished match with its moves.
func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) {
	rp, err := s.replayOf(r.PathValue("id"))
	if err != nil {
		jsonError(w, http.StatusNotFound, "no finished match has that ID")
		return
	}
	writeJSON(w, http.StatusOK, rp.match)
}
