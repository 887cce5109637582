package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session"
)

// page is what every page shows besides its own content.
type page struct {
	// SSH is what a player types after ssh to reach the arcade: "-p 2222 host".
	SSH string
}

// render writes page name with data, status code status. The page is drawn into a buffer
// first, so that a template's failure is a 500 and not half a page.
func (s *Server) render(w http.ResponseWriter, name string, status int, data any) {
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "base", data); err != nil {
		s.cfg.Logf("web: page %s: %v", name, err)
		http.Error(w, "the page could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// errorPage is the page of a request that finds nothing, or fails.
type errorPage struct {
	page
	Title, Message string
}

// fail answers with the error page.
func (s *Server) fail(w http.ResponseWriter, status int, title, message string) {
	s.render(w, "error", status, errorPage{page: s.page(), Title: title, Message: message})
}

func (s *Server) page() page {
	ssh := s.cfg.SSH
	if ssh == "" {
		ssh = "HOST"
	}
	return page{SSH: ssh}
}

// playerLink is a name on a page, linked to the player's profile when the player has one (a
// person with a key: not a bot, not a guest).
type playerLink struct {
	Name string
	Link bool
}

// seatLinks are a recorded match's players.
func seatLinks(seats []record.Seat) []playerLink {
	out := make([]playerLink, len(seats))
	for i, st := range seats {
		out[i] = playerLink{Name: st.Name, Link: st.Bot == "" && !st.Guest && st.PlayerID != "" && sanitize.ValidName(st.Name)}
	}
	return out
}

// matchRow is a match in a table.
type matchRow struct {
	ID, Game, Result, Started, Ended string
	Players                          []playerLink
	Finished                         bool
}

func (s *Server) gameName(id string) string {
	if g, ok := rules.FindGame(s.games, id); ok {
		return g.Name
	}
	return id
}

func (s *Server) matchRow(m record.Match) matchRow {
	return matchRow{ID: m.ID, Game: s.gameName(m.Game), Result: resultText(m), Players: seatLinks(m.Seats),
		Started: day(m.Started), Ended: day(m.Ended), Finished: m.Finished()}
}

// resultText says how a recorded match ended: "ann won 30-20", "a draw", "unfinished".
func resultText(m record.Match) string {
	o := m.Outcome
	switch {
	case !m.Finished():
		return "unfinished"
	case !o.Over || len(o.Ranks) != len(m.Seats):
		return "ended early (unrated)"
	case m.Solo() && len(o.Scores) == 1:
		return fmt.Sprintf("scored %d", o.Scores[0])
	}
	var won []string
	for _, seat := range o.Winners() {
		won = append(won, m.Seats[seat].Name)
	}
	score := ""
	if len(o.Scores) == len(m.Seats) {
		parts := make([]string, len(o.Scores))
		for i, sc := range o.Scores {
			parts[i] = strconv.Itoa(sc)
		}
		score = " " + strings.Join(parts, "-")
	}
	rated := ""
	if !m.Rated {
		rated = " (unrated)"
	}
	if len(won) == len(m.Seats) || len(won) == 0 {
		return "a draw" + score + rated
	}
	return strings.Join(won, " and ") + " won" + score + rated
}

// day is a time as pages show it: "2026-11-21 12:00 UTC"; "" for zero.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// homePage is the front page.
type homePage struct {
	page
	Online int
	Lobby  lobbyView
	Recent []matchRow
}

// recentShown is how many finished matches the front page lists.
const recentShown = 20

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	p := homePage{page: s.page(), Lobby: s.lobbyView()}
	if s.cfg.Online != nil {
		p.Online = s.cfg.Online()
	}
	if s.cfg.Records != nil {
		ms, err := s.cfg.Records.RecentMatches(recentShown)
		if err != nil {
			s.cfg.Logf("web: recent matches: %v", err)
		}
		for _, m := range ms {
			p.Recent = append(p.Recent, s.matchRow(m))
		}
	}
	s.render(w, "home", http.StatusOK, p)
}

// lobbyView is the front page's live part: the rooms.
type lobbyView struct {
	page
	Playing, Waiting []roomRow
}

// roomRow is a room in a table.
type roomRow struct {
	Code, Game, Seats, State string
	Spectators               int
}

func (s *Server) lobbyView() lobbyView {
	v := lobbyView{page: s.page()}
	now := time.Now()
	for _, sum := range s.cfg.Hub.List() {
		row := roomRow{Code: sum.Code, Game: sum.GameName, Seats: sum.SeatList(), State: sum.State(now), Spectators: sum.Spectators}
		switch sum.Phase {
		case rooms.Playing:
			v.Playing = append(v.Playing, row)
		case rooms.Waiting:
			v.Waiting = append(v.Waiting, row)
		}
	}
	return v
}

// leaderboardsPage lists the games' leaderboards.
type leaderboardsPage struct {
	page
	Games []rules.Game
}

func (s *Server) leaderboards(w http.ResponseWriter, r *http.Request) {
	s.render(w, "leaderboards", http.StatusOK, leaderboardsPage{page: s.page(), Games: s.games})
}

// Leaderboard pages: pageSize standings a page, up to maxPage pages (a later page skips the
// index's keys before it, so the bound keeps every page a short read).
const (
	pageSize = session.LeaderboardSize
	maxPage  = 200
)

// leaderboardPage is one game's leaderboard, one page of it.
type leaderboardPage struct {
	page
	ID, Game         string
	Page, Prev, Next int
	Standings        []standingRow
	HasSolo          bool
	Solo             []soloRow
}

type standingRow struct {
	Rank                       int
	Name, Rating, RD           string
	Games, Wins, Losses, Draws int
}

type soloRow struct {
	Rank, Score, Games int
	Name, Date, Match  string
}

func standingOf(st record.Standing) standingRow {
	return standingRow{Rank: st.Rank, Name: st.Name, Rating: st.Rating.String(), RD: fmt.Sprintf("%.0f", st.Rating.RD),
		Games: st.Games, Wins: st.Wins, Losses: st.Losses, Draws: st.Draws}
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	g, ok := rules.FindGame(s.games, r.PathValue("game"))
	if !ok {
		s.fail(w, http.StatusNotFound, "No such game", fmt.Sprintf("There is no game %q here. The games: %s.", r.PathValue("game"), rules.GameIDs(s.games)))
		return
	}
	n := 1
	if q := r.URL.Query().Get("page"); q != "" {
		var err error
		if n, err = strconv.Atoi(q); err != nil || n < 1 || n > maxPage {
			s.fail(w, http.StatusBadRequest, "No such page", fmt.Sprintf("page must be a number from 1 to %d.", maxPage))
			return
		}
	}
	p := leaderboardPage{page: s.page(), ID: g.ID, Game: g.Name, Page: n, HasSolo: g.MinSeats == 1}
	if s.cfg.Records == nil {
		s.render(w, "leaderboard", http.StatusOK, p)
		return
	}
	// One more than a page tells whether there is a next.
	list, err := s.cfg.Records.LeaderboardPage(g.ID, (n-1)*pageSize, pageSize+1)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "The leaderboard could not be read", "Try again in a moment.")
		return
	}
	if len(list) > pageSize && n < maxPage {
		p.Next = n + 1
	}
	if n > 1 {
		p.Prev = n - 1
	}
	for _, st := range list[:min(len(list), pageSize)] {
		p.Standings = append(p.Standings, standingOf(st))
	}
	if p.HasSolo && n == 1 {
		best, err := s.cfg.Records.SoloScores(g.ID, pageSize)
		if err != nil {
			s.fail(w, http.StatusInternalServerError, "The leaderboard could not be read", "Try again in a moment.")
			return
		}
		for _, b := range best {
			p.Solo = append(p.Solo, soloRow{Rank: b.Rank, Score: b.Score, Games: b.Games, Name: b.Name, Date: b.Date.UTC().Format("2006-01-02"), Match: b.Match})
		}
	}
	s.render(w, "leaderboard", http.StatusOK, p)
}

// profilePage is a player's page.
type profilePage struct {
	page
	Name, Since, Key string
	Games            []gameRow
	Solo             []soloGame
	Played           []playedRow
	Recent           []matchRow
}

type gameRow struct {
	ID, Game, Rating, RD, Last  string
	Played, Wins, Losses, Draws int
	Chart                       template.HTML
}

type soloGame struct {
	Game, Match  string
	Score, Games int
}

type playedRow struct {
	Game        string
	Played, Won int
}

// Bounds of a profile.
const (
	profileRecent = 20
	historyPoints = 100
)

// profileOrMissing serves /@NAME, and the error page for any other single-segment path.
func (s *Server) profileOrMissing(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.PathValue("page"), "@")
	if !ok {
		s.fail(w, http.StatusNotFound, "Not found", "There is no page here.")
		return
	}
	id, prof, err := s.profile(name)
	switch {
	case errors.Is(err, errNoPlayer):
		s.fail(w, http.StatusNotFound, "No such player", err.Error())
		return
	case err != nil:
		s.fail(w, http.StatusInternalServerError, "The player could not be read", "Try again in a moment.")
		return
	}
	p := profilePage{page: s.page(), Name: prof.Name, Since: day(prof.Since), Key: id}
	if p.Name == "" {
		p.Name = name
	}
	for _, st := range prof.Standings {
		row := gameRow{ID: st.Game, Game: s.gameName(st.Game), Rating: st.Rating.String(), RD: fmt.Sprintf("%.0f", st.Rating.RD),
			Last: day(st.Last), Played: st.Games, Wins: st.Wins, Losses: st.Losses, Draws: st.Draws}
		if h, err := s.cfg.Records.RatingHistory(id, st.Game, historyPoints); err == nil {
			row.Chart = ratingChart(h, row.Game)
		}
		p.Games = append(p.Games, row)
	}
	for _, b := range prof.Solo {
		p.Solo = append(p.Solo, soloGame{Game: s.gameName(b.Game), Match: b.Match, Score: b.Score, Games: b.Games})
	}
	for _, g := range s.games {
		if n := prof.Played[g.ID]; n > 0 {
			p.Played = append(p.Played, playedRow{Game: g.Name, Played: n, Won: prof.Won[g.ID]})
		}
	}
	for _, m := range prof.Recent {
		p.Recent = append(p.Recent, s.matchRow(m))
	}
	s.render(w, "profile", http.StatusOK, p)
}

// errNoPlayer: no key holds the name asked for.
var errNoPlayer = errors.New("no player has that name")

// profile reads the profile of the player named name.
func (s *Server) profile(name string) (string, record.Profile, error) {
	norm, err := sanitize.ParseName(name)
	if err != nil || s.cfg.Records == nil {
		return "", record.Profile{}, fmt.Errorf("%w: %q is not a player's name here", errNoPlayer, sanitize.Line(name, sanitize.MaxName))
	}
	id, _, ok := s.cfg.Records.PlayerNamed(norm)
	if !ok {
		return "", record.Profile{}, fmt.Errorf("%w: nobody plays as %s", errNoPlayer, norm)
	}
	prof, err := s.cfg.Records.Profile(id, profileRecent)
	return id, prof, err
}
