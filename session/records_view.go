package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/session/draw"
)

// boardView draws the leaderboard of the game shown in w columns: its ratings and, for a game
// that may be played alone, its best solo scores.
func (l lobby) boardView(st draw.Styles, w int) []string {
	if len(l.games) == 0 {
		return nil
	}
	g := l.games[l.game]
	lines := []string{st.Bold.Render("Leaderboard: ") + st.Title.Render("‹ "+g.Name+" ›"), ""}
	if g.MinSeats > 1 {
		return append(lines, l.ratingLines(st, w)...)
	}
	lines = append(lines, st.Bold.Render("Ratings")+st.Dim.Render(" (two players or more)"))
	lines = append(lines, l.ratingLines(st, w)...)
	return append(append(lines, "", st.Bold.Render("Best solo scores")), l.soloLines(st, g.ID, w)...)
}

// narrowTable is the width under which the leaderboards leave out a column (RD, a solo score's
// games): a small window's.
const narrowTable = 63

// ratingLines draws the standings of the game shown in w columns (without the RD on a narrow
// window).
func (l lobby) ratingLines(st draw.Styles, w int) []string {
	if len(l.board) == 0 {
		return draw.Wrap("No rated games yet. Rated games are between players with keys, no bots.", w-2)
	}
	lines := []string{st.Dim.Render(fmt.Sprintf("%4s  %-16s %7s %5s %6s %5s %5s %5s", "RANK", "NAME", "RATING", "RD", "GAMES", "WON", "LOST", "DRAWN"))}
	if w < narrowTable {
		lines[0] = st.Dim.Render(fmt.Sprintf("%4s  %-16s %7s %6s %5s %5s %5s", "RANK", "NAME", "RATING", "GAMES", "WON", "LOST", "DRAWN"))
	}
	for _, s := range l.board {
		line := fmt.Sprintf("%4d  %-16s %7s %5.0f %6d %5d %5d %5d", s.Rank, s.Name, s.Rating, s.Rating.RD, s.Games, s.Wins, s.Losses, s.Draws)
		if w < narrowTable {
			line = fmt.Sprintf("%4d  %-16s %7s %6d %5d %5d %5d", s.Rank, s.Name, s.Rating, s.Games, s.Wins, s.Losses, s.Draws)
		}
		if s.PlayerID == l.me.ID {
			line = st.Bold.Render(line)
		}
		lines = append(lines, line)
	}
	lines = append(lines, "")
	for _, l := range draw.Wrap("A rating with ? is provisional: too few games to be sure.", w-2) {
		lines = append(lines, st.Dim.Render(l))
	}
	return lines
}

// soloLines draws the best solo scores of the game shown in w columns, with the match that scored
// each (to replay it); without the games on a narrow window.
func (l lobby) soloLines(st draw.Styles, game string, w int) []string {
	if len(l.solo) == 0 {
		return wrapKeepingParens("No solo scores yet. Play alone: new "+game+" seats=1.", w-2)
	}
	lines := []string{st.Dim.Render(fmt.Sprintf("%4s  %-16s %6s %6s  %-11s %s", "RANK", "NAME", "SCORE", "GAMES", "DATE (UTC)", "MATCH"))}
	if w < narrowTable {
		lines[0] = st.Dim.Render(fmt.Sprintf("%4s  %-16s %6s  %-11s %s", "RANK", "NAME", "SCORE", "DATE (UTC)", "MATCH"))
	}
	for _, s := range l.solo {
		line := fmt.Sprintf("%4d  %-16s %6d %6d  %-11s %s", s.Rank, s.Name, s.Score, s.Games,
			s.Date.UTC().Format("2006-01-02"), s.Match)
		if w < narrowTable {
			line = fmt.Sprintf("%4d  %-16s %6d  %-11s %s", s.Rank, s.Name, s.Score, s.Date.UTC().Format("2006-01-02"), s.Match)
		}
		if s.PlayerID == l.me.ID {
			line = st.Bold.Render(line)
		}
		lines = append(lines, line)
	}
	return lines
}

// mineHead draws the player's ratings and the head of the list of latest matches (matchItems),
// with no head when there are none.
func (l *lobby) mineHead(st draw.Styles) []string {
	p := l.prof
	lines := []string{st.Bold.Render("My matches and ratings")}
	if l.me.Guest {
		return append(lines, "", "Guests have no record.", "Connect with an SSH key to keep your name, ratings and matches.")
	}
	var games []string
	for id, n := range p.Played {
		games = append(games, fmt.Sprintf("%s %d played, %d won", gameName(*l, id), n, p.Won[id]))
	}
	slices.Sort(games)
	for _, s := range p.Standings {
		games = append(games, fmt.Sprintf("%s rating %s (%d rated game%s)", gameName(*l, s.Game), s.Rating, s.Games, draw.Plural(s.Games)))
	}
	for _, s := range p.Solo {
		games = append(games, fmt.Sprintf("%s best solo score %d (%d solo game%s)", gameName(*l, s.Game), s.Score, s.Games, draw.Plural(s.Games)))
	}
	if len(games) == 0 {
		games = []string{"No matches yet."}
	}
	lines = append(lines, games...)
	if len(p.Recent) == 0 {
		return lines // no table under a head of its own
	}
	return append(lines, "", st.Dim.Render(fmt.Sprintf("%-12s %-13s %-16s %s", "MATCH", "GAME", "WHEN (UTC)", "RESULT")))
}

// matchItems are the latest matches' lines for the page's pager.
func (l *lobby) matchItems() []string {
	if l.me.Guest {
		return nil
	}
	items := make([]string, len(l.prof.Recent))
	for i, m := range l.prof.Recent {
		items[i] = fmt.Sprintf("%-12s %-13s %-16s %s", m.ID, gameName(*l, m.Game), m.Started.UTC().Format("Jan 2 15:04"), resultFor(m, l.me.ID))
	}
	return items
}

func gameName(l lobby, id string) string {
	for _, g := range l.games {
		if g.ID == id {
			return g.Name
		}
	}
	return id
}

// resultFor says how a match went for the player: "won 70-52 vs bob", "unfinished", "scored 143
// alone", "lost 3-5 vs bob, unrated" (a match the rules against farming left unrated), "won 10-8
// vs bob, void" (an operator voided it)...
func resultFor(m record.Match, me string) string {
	if m.Solo() {
		switch {
		case !m.Finished():
			return "unfinished, alone"
		case m.Unrated || len(m.Outcome.Scores) != 1:
			return "abandoned, alone"
		}
		return fmt.Sprintf("scored %d alone", m.Outcome.Scores[0])
	}
	var others []string
	mine := -1
	for i, s := range m.Seats {
		if s.PlayerID == me && mine < 0 {
			mine = i
		} else {
			others = append(others, s.Name)
		}
	}
	vs := "vs " + strings.Join(others, ", ")
	switch {
	case !m.Finished():
		return "unfinished " + vs
	case m.Unrated:
		return "abandoned " + vs
	case mine < 0 || mine >= len(m.Outcome.Ranks):
		return vs
	}
	word := "lost"
	if m.Outcome.Ranks[mine] == 1 {
		word = "won"
		if !slices.ContainsFunc(m.Outcome.Ranks, func(r int) bool { return r != 1 }) {
			word = "drew"
		}
	}
	scores := make([]string, len(m.Outcome.Scores))
	for i, s := range m.Outcome.Scores {
		scores[i] = fmt.Sprint(s)
	}
	res := fmt.Sprintf("%s %s %s", word, strings.Join(scores, "-"), vs)
	switch {
	case m.Voided: // an operator took it out of the ratings
		res += ", void"
	case m.Casual: // settings that are not standard
		res += ", casual"
	case m.Rateable() && !m.Rated: // between keys, yet not rated: the rules against farming
		res += ", unrated"
	}
	return res
}
