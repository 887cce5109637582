package sshd

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/session/draw"
)

// errUsage marks a command line that is not understood; its text is the one line shown.
var errUsage = errors.New("usage")

// request is a parsed command line: a plain-text command, or where an interactive session starts.
type request struct {
	plain string // "help", "rooms", "whoami", "leaderboard", "set", "keys", "ignore", "unignore",
	// "report" or one of correspondence play's (post.go: "inbox", "next", "challenge", "accept",
	// "decline", "withdraw", "follow", "unfollow", "friends"); empty for an interactive session
	start session.Start // the room to open; challenge: the match's game and options
	game  string        // leaderboard: one game, or all
	json  bool          // leaderboard, inbox: JSON instead of a table
	// set: the setting ("bell", "notify" or "challenges") and its value.
	set, value string
	// keys: the subcommand ("" lists the keys); ignore, unignore, report: the name. args: the
	// rest (keys claim: the code and the comment; keys revoke and comment: the fingerprint, and
	// the comment; report: the text).
	sub  string
	args []string
	// challenge, follow, unfollow: the player's name (challenge: "" for an open one, whose
	// rating window is lo to hi); accept, decline, withdraw: the challenge's ID.
	name, id string
	lo, hi   int
}

// maxArgs and maxArgLen bound what a command line may hold; longer is refused, not trimmed.
const (
	maxArgs   = 16
	maxArgLen = 64
)

// maxCommand bounds the raw command line in bytes, checked before anything splits it into words
// (splitting costs time in proportion to the square of its length): well above what maxArgs words
// of maxArgLen bytes take, quoted.
const maxCommand = 4096

// parseRequest reads the SSH command line (already split into words).
func parseRequest(args []string, games []rules.Game) (request, error) {
	// A report's text is bounded by the store (storage.MaxReport: 500 characters, about 100
	// words), not word by word: only its name is an argument like any other.
	report := len(args) > 0 && strings.EqualFold(args[0], "report")
	if len(args) > maxArgs && !report {
		return request{}, fmt.Errorf("%w: too many arguments", errUsage)
	}
	for i, a := range args {
		if len(a) > maxArgLen && (i < 2 || !report) {
			return request{}, fmt.Errorf("%w: argument too long", errUsage)
		}
	}
	if len(args) == 0 {
		return request{start: session.Start{Mode: session.ModeLobby}}, nil
	}
	cmd, rest := strings.ToLower(args[0]), args[1:]
	switch cmd {
	case "help", "-h", "--help":
		return request{plain: "help"}, nil
	case "whoami":
		return request{plain: "whoami"}, nil
	case "set":
		k, v, _ := strings.Cut(strings.ToLower(strings.Join(rest, " ")), "=")
		onOff := v == "on" || v == "off"
		if len(rest) != 1 || !(k == "bell" && onOff || k == "notify" && onOff || k == "challenges" && (onOff || v == "friends")) {
			return request{}, fmt.Errorf("%w: set takes bell=on|off, notify=on|off or challenges=on|friends|off", errUsage)
		}
		return request{plain: "set", set: k, value: v}, nil
	case "keys":
		return parseKeys(rest)
	case "ignore", "unignore":
		if len(rest) > 1 || (cmd == "unignore" && len(rest) == 0) {
			return request{}, fmt.Errorf("%w: %s takes a name, e.g. %s carol (ignore alone lists whom you ignore)", errUsage, cmd, cmd)
		}
		req := request{plain: cmd}
		if len(rest) == 1 {
			req.sub = rest[0]
		}
		return req, nil
	case "report":
		if len(rest) == 0 {
			return request{}, fmt.Errorf("%w: report takes a name and what happened, e.g. report carol insults in room K7QXM", errUsage)
		}
		return request{plain: "report", sub: rest[0], args: rest[1:]}, nil
	case "leaderboard":
		req := request{plain: "leaderboard"}
		for _, a := range rest {
			switch {
			case a == "--json" || a == "-json":
				req.json = true
			case req.game == "":
				g, ok := rules.FindGame(games, a)
				if !ok {
					return request{}, fmt.Errorf("%w: no game %q; try one of %s", errUsage, sanitize.Line(a, 20), rules.GameIDs(games))
				}
				req.game = g.ID
			default:
				return request{}, fmt.Errorf("%w: leaderboard takes a game and --json", errUsage)
			}
		}
		return req, nil
	case "replay":
		if len(rest) != 1 {
			return request{}, fmt.Errorf("%w: replay needs a match ID, e.g. replay 2k9xq4m7a8b (see your matches in the lobby)", errUsage)
		}
		return request{start: session.Start{Mode: session.ModeReplay, Match: strings.ToLower(rest[0])}}, nil
	case "rooms":
		if len(rest) > 0 {
			return request{}, fmt.Errorf("%w: rooms takes no arguments", errUsage)
		}
		return request{plain: "rooms"}, nil
	case "new":
		st, err := session.ParseNew(rest, games)
		if err != nil {
			return request{}, fmt.Errorf("%w: %w", errUsage, err)
		}
		return request{start: st}, nil
	case "play":
		if len(rest) != 1 {
			return request{}, fmt.Errorf("%w: play needs a game, e.g. play %s; try one of %s", errUsage,
				games[0].ID, rules.GameIDs(games))
		}
		g, ok := rules.FindGame(games, rest[0])
		if !ok {
			return request{}, fmt.Errorf("%w: no game %q; try one of %s", errUsage, sanitize.Line(rest[0], 20), rules.GameIDs(games))
		}
		return request{start: session.Start{Mode: session.ModeQuick, Game: g.ID}}, nil
	case "join", "watch":
		if len(rest) != 1 {
			return request{}, fmt.Errorf("%w: %s needs a room code, e.g. %s K7QXM", errUsage, cmd, cmd)
		}
		mode := session.ModeJoin
		if cmd == "watch" {
			mode = session.ModeWatch
		}
		return request{start: session.Start{Mode: mode, Code: strings.ToUpper(rest[0])}}, nil
	}
	if req, ok, err := parsePost(cmd, rest, games); ok {
		return req, err
	}
	return request{}, fmt.Errorf("%w: unknown command %q; try: help", errUsage, sanitize.Line(cmd, 20))
}

// parseKeys reads the words after keys: a subcommand and its arguments.
func parseKeys(rest []string) (request, error) {
	req := request{plain: "keys"}
	if len(rest) == 0 {
		return req, nil
	}
	req.sub, req.args = strings.ToLower(rest[0]), rest[1:]
	n := len(req.args)
	switch {
	case req.sub == "list" && n == 0, req.sub == "link" && n == 0, req.sub == "release" && n == 0,
		req.sub == "keep" && n == 0, req.sub == "claim" && n >= 1, req.sub == "revoke" && n == 1,
		req.sub == "comment" && n >= 1:
		if req.sub == "list" {
			req.sub = ""
		}
		return req, nil
	}
	return request{}, fmt.Errorf("%w: keys takes list, link, claim CODE [COMMENT], revoke FINGERPRINT, "+
		"comment FINGERPRINT TEXT, release or keep", errUsage)
}

// writeHelp prints the usage text. What each game's `new` opens and every room option it takes
// come from the catalogue and from session.ParseNew itself, so the text cannot drift from them.
func writeHelp(w io.Writer, host string, games []rules.Game) {
	fmt.Fprintf(w, `arcade: board, card and word games over SSH

  ssh %[1]s                          the lobby
  ssh %[1]s -t play GAME             quick match: play the next player who wants GAME
  ssh %[1]s -t new GAME [key=value]  create a room and sit down
  ssh %[1]s -t join CODE             join a room: your seat, a free seat, or watch
  ssh %[1]s -t watch CODE            watch a room
  ssh %[1]s -t replay ID             step through a finished match
  ssh %[1]s leaderboard [GAME]       ratings and best solo scores (--json for scripts)
  ssh %[1]s rooms                    list open rooms
  ssh %[1]s whoami                   your name and the key that identifies you
  ssh %[1]s set bell=off             no bell when it is your turn (bell=on: back on)
  ssh %[1]s keys                     your keys (keys link, claim, revoke, comment, release, keep)
  ssh %[1]s ignore NAME              no longer see NAME's chat (unignore NAME; ignore: the list)
  ssh %[1]s report NAME [TEXT]       tell the operators (in a room: /report NAME, with its chat)
  ssh %[1]s help                     this text

Correspondence play, at your own pace (clock=1d to 14d: days a move):
  ssh %[1]s inbox [--json]           your games and challenges; exit 0 when one waits for you
  ssh %[1]s -t next                  the next game where it is your move
  ssh %[1]s challenge NAME GAME [key=value]   challenge a player (their inbox, or a notice)
  ssh %[1]s challenge --open GAME [rating=LO-HI]  anyone rated LO to HI may accept
  ssh %[1]s -t accept ID             accept a challenge and play (decline ID, withdraw ID)
  ssh %[1]s follow NAME              a friend: friends lists them (unfollow NAME)
  ssh %[1]s set notify=off           no desktop notification through your terminal
  ssh %[1]s set challenges=friends   only the players you follow challenge you (on, off)

Room options for new, in every game (each game's own follow it below):
  seats=N       seats at the table, within the game's number of players
  bots=N        seats given to bots (as many as seats: you watch them play)
  bot=LEVEL     the bots' level
  clock=off     no clock
  clock=2m      a limit a move (90s, 1h: from 5s to 24h)
  clock=10m+5s  each player 10 minutes for the match, 5 seconds more a move
  clock=3d      correspondence: 3 days a move (1d to 14d); the room waits for you
Without clock=, a rated match (every seat a person with a key) gets the server's
limit a move; any other is untimed. seats=1 is the solo game: its best scores go
on a solo table beside the ratings.

Only standard settings are rated. Each option below says which of its values are
("rated:"); any other, clock=off or a clock under 1m a move or 5m a game, makes
the room casual: its matches change no rating (and allow takebacks). A match with
a bot or a guest is casual too. The room's header and rooms say which.

Your name is your SSH user name (ssh NAME@host): 1 to %[2]d of a-z, 0-9, - and _,
starting and ending with a letter or digit. The first key to use a name keeps it;
more keys join it with a code: keys link from a key of yours, then, from the new
key, ssh NAME@host keys claim CODE. In a room's chat, /ignore NAME, /unignore NAME
and /report NAME [TEXT] do as the commands above.
`, host, sanitize.MaxName)
	for _, g := range games {
		fmt.Fprintf(w, "\n%s (%s): %s\n", g.Name, g.ID, g.Summary)
		if g.MinSeats == g.MaxSeats {
			fmt.Fprintf(w, "  %d players", g.MinSeats)
		} else {
			fmt.Fprintf(w, "  %d to %d players", g.MinSeats, g.MaxSeats)
		}
		names := make([]string, len(g.Bots))
		for i, b := range g.Bots {
			names[i] = b.Name
		}
		fmt.Fprintf(w, "; bots: %s\n", strings.Join(names, ", "))
		if st, err := session.ParseNew([]string{g.ID}, games); err == nil {
			fmt.Fprintf(w, "  new %s opens %s", g.ID, plural(st.Seats, "seat"))
			if g.MinSeats == 1 && st.Seats > 1 {
				fmt.Fprint(w, " (seats=1 for the solo game)")
			}
			if st.BotLevel != "" {
				fmt.Fprintf(w, "; bot=%s", st.BotLevel)
			}
			fmt.Fprintln(w)
		}
		for _, o := range g.Options {
			allowed := strings.Join(o.Choices, "|")
			def := o.Default
			if o.IsInt() {
				allowed = fmt.Sprintf("%d..%d%s", o.Min, o.Max, o.Unit)
				def += o.Unit // timer=20s, as the README and the form write it
			}
			fmt.Fprintf(w, "  %s=%s  %s (%s; rated: %s)\n", o.Key, def, o.Help, allowed, o.StandardText())
		}
	}
}

// plural writes n and noun, with an s unless n is 1: "2 seats".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeRooms prints the open rooms as a table; with the web companion's links (links not ""),
// a last column gives each room's page, as an OSC 8 hyperlink when osc8 is set (the link's
// text is the address itself either way, so a terminal that drops the sequence shows it too).
func writeRooms(w io.Writer, list []rooms.Summary, now time.Time, links session.WebLinks, osc8 bool) {
	if len(list) == 0 {
		fmt.Fprintln(w, "No open rooms. Create one: new GAME")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	head := "CODE\tGAME\tSTATE\tMODE\tPLAYERS\tFREE\tWATCHING\tAGE"
	if links != "" {
		head += "\tON THE WEB"
	}
	fmt.Fprintln(tw, head)
	for _, r := range list {
		mode := r.Mode
		if mode == "" {
			mode = "-" // played alone, or a node that does not say
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s", r.Code, r.GameName, r.State(now), mode,
			r.SeatList(), r.Free, r.Spectators, age(now.Sub(r.Created)))
		if link := links.Room(r.Code); link != "" {
			// The last column is not padded, so the sequence's bytes cost no alignment.
			fmt.Fprintf(tw, "\t%s", hyperlink(link, osc8))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// hyperlink writes url as an OSC 8 hyperlink whose text is url, or as url alone.
func hyperlink(url string, osc8 bool) string {
	if !osc8 {
		return url
	}
	return "\x1b]8;;" + url + "\x1b\\" + url + "\x1b]8;;\x1b\\"
}

// osc8Terminals are the TERM values, and parts of TERM_PROGRAM, of terminals known to take
// OSC 8 hyperlinks. A terminal that does not may print the sequence's bytes, so links are plain
// unless the terminal is known; ARCADE_LINKS=osc8 or plain (sent with SendEnv, as NO_COLOR is)
// decides for any terminal.
var osc8Terminals = []string{"kitty", "ghostty", "wezterm", "foot", "alacritty", "contour", "rio", "iterm", "vscode", "tabby", "hyper", "konsole"}

// takesHyperlinks reports whether a session's terminal takes OSC 8 hyperlinks: only with a
// PTY, whose TERM (or a TERM_PROGRAM or VTE_VERSION the client sent) names a terminal known to.
func takesHyperlinks(env []string, term string, pty bool) bool {
	get := func(key string) string {
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok && k == key {
				return v
			}
		}
		return ""
	}
	switch strings.ToLower(get("ARCADE_LINKS")) {
	case "osc8":
		return true
	case "plain":
		return false
	}
	if !pty {
		return false // a pipe, or a file: plain text
	}
	if v, err := strconv.Atoi(get("VTE_VERSION")); err == nil && v >= 5000 {
		return true // GNOME Terminal and the other VTE terminals, since 0.50
	}
	for _, t := range osc8Terminals {
		if strings.Contains(strings.ToLower(term), t) || strings.Contains(strings.ToLower(get("TERM_PROGRAM")), t) {
			return true
		}
	}
	return false
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "new"
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

// writeWhoami prints the player's name and the key that authenticated, fp, and the player's
// identity when it is another key's (the first of the player's keys). A guest gets one message
// saying why it is a guest: notice (the name was refused), or else that no key was used. Lines are
// wrapped at plainWidth columns.
func writeWhoami(w io.Writer, p rooms.Player, fp, notice string) {
	if !p.Guest {
		fmt.Fprintf(w, "name: %s\nkey: %s\n", p.Name, fp)
		if fp != p.ID {
			fmt.Fprintf(w, "player: %s (the first key of %s; keys lists them all)\n", p.ID, p.Name)
		}
		return
	}
	if notice == "" {
		notice = "No key was used, so you play as a guest: unranked, and you cannot take a seat back later."
	}
	fmt.Fprintf(w, "name: %s (guest)\n%s\n", p.Name, strings.Join(draw.Wrap(notice, plainWidth), "\n"))
}

// plainWidth is the width plain-text answers are wrapped to: a terminal's smallest usual width.
const plainWidth = 80

// writeLeaderboard prints the standings of one game, or of every game, as tables or JSON
// (session.Leaderboards.WriteJSON), and the best solo scores of the games that may be played
// alone (MinSeats 1).
func writeLeaderboard(w io.Writer, recs session.Records, games []rules.Game, only string, asJSON bool) error {
	l, err := session.ReadLeaderboards(recs, games, only, session.LeaderboardSize)
	if err != nil {
		return err
	}
	if asJSON {
		return l.WriteJSON(w)
	}
	for i, g := range l.Games {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s\n", g.Name)
		writeRatings(w, l.Ratings[g.ID])
		if best, ok := l.Solo[g.ID]; ok {
			fmt.Fprintf(w, "\n%s, best solo scores\n", g.Name)
			writeSolo(w, best)
		}
	}
	if len(l.Games) > 0 {
		fmt.Fprintln(w, "\nA rating with ? is provisional: too few games to be sure.")
	}
	return nil
}

// writeRatings prints one game's standings as a table.
func writeRatings(w io.Writer, list []record.Standing) {
	if len(list) == 0 {
		fmt.Fprintln(w, "  no rated games yet")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tNAME\tRATING\tRD\tGAMES\tWON\tLOST\tDRAWN")
	for _, st := range list {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.0f\t%d\t%d\t%d\t%d\n", st.Rank, st.Name, st.Rating, st.Rating.RD,
			st.Games, st.Wins, st.Losses, st.Draws)
	}
	tw.Flush()
}

// writeSolo prints one game's best solo scores as a table, with the match that scored each (to
// replay it).
func writeSolo(w io.Writer, list []record.SoloScore) {
	if len(list) == 0 {
		fmt.Fprintln(w, "  no solo scores yet")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tNAME\tSCORE\tGAMES\tDATE (UTC)\tMATCH")
	for _, s := range list {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%s\t%s\n", s.Rank, s.Name, s.Score, s.Games, s.Date.UTC().Format("2006-01-02"), s.Match)
	}
	tw.Flush()
}
