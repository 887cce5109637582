package sshd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"charm.land/ssh"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session"
)

// The commands of correspondence play (Config.Post): inbox, next, challenge, accept, decline,
// withdraw, follow, unfollow, friends, and the settings notify= and challenges=.

// openFlag makes a challenge open to anyone (in a rating window): no name starts with '-'.
const openFlag = "--open"

// parsePost reads the command lines of correspondence play; ok is false for any other command.
func parsePost(cmd string, rest []string, games []rules.Game) (req request, ok bool, err error) {
	one := func(what, example string) (string, error) {
		if len(rest) != 1 {
			return "", fmt.Errorf("%w: %s needs %s, e.g. %s %s", errUsage, cmd, what, cmd, example)
		}
		return rest[0], nil
	}
	switch cmd {
	case "inbox":
		req = request{plain: "inbox"}
		for _, a := range rest {
			if a != "--json" && a != "-json" {
				return request{}, true, fmt.Errorf("%w: inbox takes --json only", errUsage)
			}
			req.json = true
		}
		return req, true, nil
	case "next", "friends":
		if len(rest) > 0 {
			return request{}, true, fmt.Errorf("%w: %s takes no arguments", errUsage, cmd)
		}
		return request{plain: cmd}, true, nil
	case "accept", "decline", "withdraw":
		id, err := one("a challenge's ID (inbox lists them)", "x7k2m")
		if err != nil {
			return request{}, true, err
		}
		return request{plain: cmd, id: strings.ToLower(sanitize.Line(id, 16))}, true, nil
	case "follow", "unfollow":
		name, err := one("a player's name", "bob")
		if err != nil {
			return request{}, true, err
		}
		n, perr := sanitize.ParseName(name)
		if perr != nil {
			return request{}, true, fmt.Errorf("%w: %q is no player's name", errUsage, sanitize.Line(name, 20))
		}
		return request{plain: cmd, name: n}, true, nil
	case "challenge":
		req, err := parseChallenge(rest, games)
		return req, true, err
	}
	return request{}, false, nil
}

// parseChallenge reads `challenge NAME GAME [key=value ...]` and `challenge --open GAME
// [key=value ...] [rating=LO-HI]`: the game's options and the clock as `new` takes them, two
// seats, no bots.
func parseChallenge(rest []string, games []rules.Game) (request, error) {
	if len(rest) < 2 {
		return request{}, fmt.Errorf("%w: challenge needs a player's name (or %s) and a game, e.g. challenge bob coloretta clock=3d", errUsage, openFlag)
	}
	req := request{plain: "challenge"}
	if rest[0] != openFlag {
		n, err := sanitize.ParseName(rest[0])
		if err != nil {
			return request{}, fmt.Errorf("%w: %q is no player's name", errUsage, sanitize.Line(rest[0], 20))
		}
		req.name = n
	}
	var args []string
	for _, a := range rest[1:] {
		k, v, _ := strings.Cut(a, "=")
		switch strings.ToLower(k) {
		case "rating":
			lo, hi, err := parseWindow(v)
			if err != nil || req.name != "" {
				return request{}, fmt.Errorf("%w: rating=LO-HI, e.g. rating=1400-1600, is the window of an open challenge (%s)", errUsage, openFlag)
			}
			req.lo, req.hi = lo, hi
		case "seats", "bots", "bot":
			return request{}, fmt.Errorf("%w: a challenge is a match of two players, without bots", errUsage)
		default:
			args = append(args, a)
		}
	}
	st, err := session.ParseNew(args, games)
	if err != nil {
		return request{}, fmt.Errorf("%w: %w", errUsage, err)
	}
	if g, _ := rules.FindGame(games, st.Game); g.MinSeats > 2 || g.MaxSeats < 2 {
		return request{}, fmt.Errorf("%w: %s is not a game of two players", errUsage, g.Name)
	}
	st.Seats, st.Bots, st.BotLevel = 2, 0, ""
	req.start = st
	return req, nil
}

// parseWindow reads a rating window, "1400-1600".
func parseWindow(v string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(v, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || lo < 0 || hi < lo || hi > 4000 {
		return 0, 0, errors.New("a rating window")
	}
	return lo, hi, nil
}

// postStatus runs a plain command of correspondence play and returns its exit status: 0 done (or,
// for inbox, something waits for the player), 1 refused (or nothing waits).
func (s *Server) postStatus(sess ssh.Session, req request, host string) int {
	p, _ := s.player(sess)
	post := s.cfg.Post
	if post == nil {
		fmt.Fprintln(sess.Stderr(), "arcade: this server keeps no correspondence play")
		return 1
	}
	if p.Guest {
		fmt.Fprintln(sess.Stderr(), "arcade: a guest has no inbox, challenges nor friends: connect with an SSH key and a name (ssh NAME@host)")
		return 1
	}
	refused := func(err error) int {
		fmt.Fprintln(sess.Stderr(), "arcade: "+err.Error())
		return 1
	}
	switch req.plain {
	case "inbox":
		in, err := post.Inbox(p)
		if err != nil {
			return refused(err)
		}
		if req.json {
			if err := writeInboxJSON(sess, in, s.hub.Games()); err != nil {
				return refused(err)
			}
		} else {
			writeInbox(sess, in, s.hub.Games(), host, time.Now())
		}
		if in.Waiting() {
			return 0
		}
		return 1
	case "challenge":
		c, err := post.Challenge(p, req.name, req.start, req.lo, req.hi)
		if err != nil {
			return refused(err)
		}
		to := c.ToName
		if c.Open() {
			to = "anyone"
			if c.Min != 0 || c.Max != 0 {
				to = fmt.Sprintf("anyone rated %d-%d", c.Min, c.Max)
			}
		}
		fmt.Fprintf(sess, "Challenge %s sent to %s: %s. It waits %s for an answer (withdraw %s takes it back).\n",
			c.ID, to, session.ChallengeText(c, s.hub.Games(), time.Now()), session.LeftText(c.Expires.Sub(time.Now())), c.ID)
	case "accept":
		code, err := post.Accept(p, req.id)
		if err != nil {
			return refused(err)
		}
		fmt.Fprintf(sess, "Accepted: room %s. Play it: ssh -t %s join %s\n", code, host, code)
	case "decline":
		if err := post.Decline(p, req.id); err != nil {
			return refused(err)
		}
		fmt.Fprintln(sess, "Declined; the challenger is told.")
	case "withdraw":
		if err := post.Withdraw(p, req.id); err != nil {
			return refused(err)
		}
		fmt.Fprintln(sess, "Withdrawn.")
	case "follow":
		name, err := post.Follow(p, req.name)
		if err != nil {
			return refused(err)
		}
		fmt.Fprintf(sess, "You follow %s: friends shows them, and the lobby when they are connected. They are not told.\n", name)
	case "unfollow":
		name, err := post.Unfollow(p, req.name)
		if err != nil {
			return refused(err)
		}
		fmt.Fprintf(sess, "You no longer follow %s.\n", name)
	case "friends":
		fs, err := post.Friends(p)
		if err != nil {
			return refused(err)
		}
		writeFriends(sess, fs, host)
	}
	return 0
}

// writeInbox prints what waits for the player: their games, their move first, and the
// challenges, with the commands that answer them.
func writeInbox(w io.Writer, in session.Inbox, games []rules.Game, host string, now time.Time) {
	if len(in.Games)+len(in.To)+len(in.Open)+len(in.From) == 0 {
		fmt.Fprintln(w, "Nothing waits for you: no game, no challenge. Challenge someone: challenge NAME GAME clock=3d")
		return
	}
	if len(in.Games) > 0 {
		fmt.Fprintln(w, "Your games")
		for _, g := range in.Games {
			fmt.Fprintln(w, "  "+session.GameLine(g, in.Me, now))
		}
	}
	list := func(title string, cs []record.Challenge, who func(record.Challenge) string, how string) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintln(w, title)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, c := range cs {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.ID, who(c), session.ChallengeText(c, games, now), fmt.Sprintf(how, c.ID))
		}
		tw.Flush()
	}
	from := func(c record.Challenge) string { return c.FromName }
	list("Challenges to you", in.To, from, "ssh -t "+host+" accept %s (or decline)")
	list("Open challenges", in.Open, from, "ssh -t "+host+" accept %s")
	list("Your challenges", in.From, func(c record.Challenge) string {
		if c.Open() {
			return "to anyone"
		}
		return "to " + c.ToName
	}, "withdraw %s")
	if g, ok := in.Next(); ok {
		fmt.Fprintf(w, "Your move in %s %s: ssh -t %s next\n", g.GameName, g.Code, host)
	}
}

// inboxGame is a game of the inbox's JSON.
type inboxGame struct {
	Code      string    `json:"code"`
	Game      string    `json:"game"`
	GameName  string    `json:"game_name"`
	Opponents []string  `json:"opponents"`
	State     string    `json:"state"` // "your_move", "their_move", "waiting"
	Ends      time.Time `json:"ends,omitzero"`
}

// writeInboxJSON prints the inbox as one JSON object: games, the three lists of challenges, and
// waiting (the exit status's 0).
func writeInboxJSON(w io.Writer, in session.Inbox, games []rules.Game) error {
	out := struct {
		Games      []inboxGame `json:"games"`
		Challenges struct {
			ToYou []record.Challenge `json:"to_you"`
			Open  []record.Challenge `json:"open"`
			Yours []record.Challenge `json:"yours"`
		} `json:"challenges"`
		Waiting bool `json:"waiting"`
	}{Games: []inboxGame{}, Waiting: in.Waiting()}
	out.Challenges.ToYou, out.Challenges.Open, out.Challenges.Yours = nonNil(in.To), nonNil(in.Open), nonNil(in.From)
	for _, g := range in.Games {
		mine := g.SeatOf(in.Me)
		j := inboxGame{Code: g.Code, Game: g.GameID, GameName: g.GameName, Opponents: []string{}, State: "their_move"}
		for i, name := range g.Seats {
			if i != mine && name != "" {
				j.Opponents = append(j.Opponents, name)
			}
		}
		switch {
		case g.Phase == rooms.Waiting:
			j.State = "waiting"
		case g.ToPlay(mine):
			j.State = "your_move"
			if g.Clock.Seat == rules.Seat(mine) {
				j.Ends = g.Clock.Ends
			}
		}
		out.Games = append(out.Games, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func nonNil(cs []record.Challenge) []record.Challenge {
	if cs == nil {
		return []record.Challenge{}
	}
	return cs
}

// writeFriends prints the players the player follows: connected or not, and the rooms they sit
// in, with the command that watches each.
func writeFriends(w io.Writer, fs []session.Friend, host string) {
	if len(fs) == 0 {
		fmt.Fprintln(w, "You follow nobody yet: follow NAME.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range fs {
		state := "not connected"
		if f.Online {
			state = "connected"
		}
		fmt.Fprintf(tw, "%s\t%s\n", f.Name, state)
		for _, g := range f.Games {
			fmt.Fprintf(tw, "\t  plays %s %s (%s): ssh -t %s watch %s\n", g.GameName, g.Code, g.State(time.Now()), host, g.Code)
		}
	}
	tw.Flush()
}

// setPref changes one of the settings of correspondence play (notify=, challenges=), says so,
// and returns the exit status.
func (s *Server) setPref(sess ssh.Session, key, value string) int {
	p, _ := s.player(sess)
	switch {
	case p.Guest:
		fmt.Fprintln(sess.Stderr(), "arcade: a guest has no settings; connect with an SSH key and a name (ssh NAME@host)")
		return 1
	case s.cfg.Post == nil:
		fmt.Fprintln(sess.Stderr(), "arcade: this server keeps no settings")
		return 1
	}
	err := s.cfg.Post.SetPrefs(p, func(pr *record.Prefs) {
		switch key {
		case "notify":
			pr.NoNotify = value == "off"
		case "challenges":
			pr.Challenges = map[string]string{"on": "", "friends": record.ChallengesFriends, "off": record.ChallengesOff}[value]
		}
	})
	if err != nil {
		s.log.Error("set", "key", p.ID, "setting", key, "err", err)
		fmt.Fprintln(sess.Stderr(), "arcade: the setting cannot be saved right now")
		return 1
	}
	switch key + "=" + value {
	case "notify=on":
		fmt.Fprintln(sess, "Notifications are on: your terminal shows one when it becomes your move or a challenge comes.")
	case "notify=off":
		fmt.Fprintln(sess, "Notifications are off (the bell and the window's title still tell you; set notify=on to undo).")
	case "challenges=on":
		fmt.Fprintln(sess, "Anyone may challenge you.")
	case "challenges=friends":
		fmt.Fprintln(sess, "Only the players you follow may challenge you.")
	case "challenges=off":
		fmt.Fprintln(sess, "Nobody may challenge you (set challenges=on to undo).")
	}
	return 0
}

// postStart turns accept and next into the room they open (accept accepts the challenge first,
// on a terminal: without one it answers as a plain command) and reports whether the session goes
// on to play it; otherwise it has answered and set the exit status.
func (s *Server) postStart(sess ssh.Session, req *request) bool {
	p, _ := s.player(sess)
	_, _, pty := sess.Pty()
	host := s.hostOf(sess)
	switch {
	case s.cfg.Post == nil || p.Guest || (req.plain == "accept" && !pty):
		_ = sess.Exit(s.postStatus(sess, *req, host))
		return false
	case req.plain == "accept":
		code, err := s.cfg.Post.Accept(p, req.id)
		if err != nil {
			refuse(sess, 1, "arcade: "+err.Error())
			return false
		}
		*req = request{start: session.Start{Mode: session.ModeJoin, Code: code}}
		return true
	}
	in, err := s.cfg.Post.Inbox(p)
	if err != nil {
		refuse(sess, 1, "arcade: "+err.Error())
		return false
	}
	g, ok := in.Next()
	if !ok {
		refuse(sess, 1, "arcade: no game waits for your move (inbox lists your games)")
		return false
	}
	*req = request{start: session.Start{Mode: session.ModeJoin, Code: g.Code}}
	return true
}

// hostOf is what the session's player types after ssh to reach this server, for the commands
// the plain answers give: "-p 2222 HOST", or "HOST" on port 22.
func (s *Server) hostOf(sess ssh.Session) string {
	if addr := sshAddress(s.cfg.PublicAddr, sess.LocalAddr()); addr != "" {
		return addr
	}
	return "HOST"
}
