package session

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// inboxKeys are the keys of the lobby's page of challenges and friends, besides its pager's.
type inboxKeys struct {
	Accept, Decline, Withdraw, Watch, New, Refresh key.Binding
}

// inboxKeyMap is shared by every session's lobby, never changed.
var inboxKeyMap = inboxKeys{
	Accept:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "accept")),
	Decline:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "decline")),
	Withdraw: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "withdraw")),
	Watch:    key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch")),
	New:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "challenge a player")),
	Refresh:  lobbyKeyMap.Refresh,
}

// inboxItem is a line of the page: a challenge (to the player, open, or theirs) or a friend.
type inboxItem struct {
	kind      string // "to", "open", "yours", "friend"
	challenge record.Challenge
	friend    Friend
}

// inboxPage is the lobby's page of challenges and friends (Config.Post): the challenges to the
// player (enter accepts, d declines), the open ones they may accept, their own waiting for an
// answer (x withdraws), and the players they follow, connected or not, with what they play (w
// watches). n opens the form that challenges a player.
type inboxPage struct {
	keys  *inboxKeys
	items []inboxItem
	pager pager
	games []rules.Game
}

// inboxIndent puts an item's further lines under its text.
const inboxIndent = 2 + 9 + 1 + 16 + 1

// load reads the page's items from post for p.
func (ip *inboxPage) load(post Post, p rooms.Player, games []rules.Game, now time.Time) error {
	ip.keys, ip.games = &inboxKeyMap, games
	in, err := post.Inbox(p)
	if err != nil {
		return err
	}
	friends, err := post.Friends(p)
	if err != nil {
		return err
	}
	ip.items = ip.items[:0]
	for _, c := range in.To {
		ip.items = append(ip.items, inboxItem{kind: "to", challenge: c})
	}
	for _, c := range in.Open {
		ip.items = append(ip.items, inboxItem{kind: "open", challenge: c})
	}
	for _, c := range in.From {
		ip.items = append(ip.items, inboxItem{kind: "yours", challenge: c})
	}
	for _, f := range friends {
		ip.items = append(ip.items, inboxItem{kind: "friend", friend: f})
	}
	sel := ip.pager.selected()
	ip.pager = newListPager(ip.lines(now), sel, inboxIndent)
	return nil
}

// lines are the items' lines.
func (ip *inboxPage) lines(now time.Time) []string {
	out := make([]string, len(ip.items))
	for i, it := range ip.items {
		switch it.kind {
		case "friend":
			f := it.friend
			state := "not connected"
			if f.Online {
				state = "connected"
			}
			for _, g := range f.Games {
				state += fmt.Sprintf(", plays %s %s", g.GameName, g.Code)
			}
			out[i] = fmt.Sprintf("%-9s %-16s %s", "friend", f.Name, state)
		default:
			c := it.challenge
			who, label := c.FromName, map[string]string{"to": "to you", "open": "open"}[it.kind]
			if it.kind == "yours" {
				who, label = c.ToName, "yours"
				if c.Open() {
					who = "anyone"
				}
				who = "to " + who
			}
			out[i] = fmt.Sprintf("%-9s %-16s %s", label, who, ChallengeText(c, ip.games, now))
		}
	}
	return out
}

// ChallengeText describes a challenge's match for its lists: "Coloretta, clock=3d, rated
// 1400-1600 · 6d 23h left".
func ChallengeText(c record.Challenge, games []rules.Game, now time.Time) string {
	name := c.Game
	if g, ok := rules.FindGame(games, c.Game); ok {
		name = g.Name
	}
	parts := []string{name}
	if clock := c.Options[rooms.ClockOption]; clock != "" {
		parts = append(parts, "clock="+clock)
	}
	if c.Min != 0 || c.Max != 0 {
		parts = append(parts, fmt.Sprintf("rated %d-%d", c.Min, c.Max))
	}
	return strings.Join(parts, ", ") + " · " + LeftText(c.Expires.Sub(now)) + " left"
}

// selected returns the item the cursor is on; false when there is none.
func (ip *inboxPage) selected() (inboxItem, bool) {
	i := ip.pager.selected()
	if i < 0 || i >= len(ip.items) {
		return inboxItem{}, false
	}
	return ip.items[i], true
}

// inboxAct is what a key on the page asks: a room to join or watch, the challenge form, or a
// message.
type inboxAct struct {
	start *Start
	form  bool
	msg   string
}

// update handles a key: it acts on the item under the cursor through post.
func (ip *inboxPage) update(km tea.KeyPressMsg, post Post, p rooms.Player) inboxAct {
	it, ok := ip.selected()
	k := ip.keys
	switch {
	case key.Matches(km, k.New):
		return inboxAct{form: true}
	case !ok:
	case key.Matches(km, k.Accept) && (it.kind == "to" || it.kind == "open"):
		code, err := post.Accept(p, it.challenge.ID)
		if err != nil {
			return inboxAct{msg: sentence(err.Error())}
		}
		return inboxAct{start: &Start{Mode: ModeJoin, Code: code}}
	case key.Matches(km, k.Decline) && it.kind == "to":
		if err := post.Decline(p, it.challenge.ID); err != nil {
			return inboxAct{msg: sentence(err.Error())}
		}
		return inboxAct{msg: "Declined: " + it.challenge.FromName + " is told."}
	case key.Matches(km, k.Withdraw) && it.kind == "yours":
		if err := post.Withdraw(p, it.challenge.ID); err != nil {
			return inboxAct{msg: sentence(err.Error())}
		}
		return inboxAct{msg: "Withdrawn."}
	case (key.Matches(km, k.Watch) || key.Matches(km, k.Accept)) && it.kind == "friend" && len(it.friend.Games) > 0:
		return inboxAct{start: &Start{Mode: ModeWatch, Code: it.friend.Games[0].Code}}
	}
	return inboxAct{}
}

// view draws the page: its title, the list, or what to do when it is empty.
func (ip *inboxPage) view(st draw.Styles) []string {
	lines := []string{st.Bold.Render("Challenges and friends"), ""}
	if len(ip.items) == 0 {
		return append(lines, "No challenges wait for you, and you follow nobody yet.", "",
			"n challenges a player; follow NAME (a command: ssh HOST follow NAME) adds a friend.")
	}
	lines = append(lines, st.Dim.Render(fmt.Sprintf("%-9s %-16s %s", "", "PLAYER", "MATCH")))
	return append(lines, ip.pager.view(st.Sel)...)
}

// head is how many lines view draws above the pager.
func (ip *inboxPage) head() int { return 3 }

// bindings are the page's keys for its help line: those that act on the item under the cursor.
func (ip *inboxPage) bindings() []key.Binding {
	k := ip.keys
	out := ip.pager.bindings()
	if it, ok := ip.selected(); ok {
		switch it.kind {
		case "to":
			out = append(out, k.Accept, k.Decline)
		case "open":
			out = append(out, k.Accept)
		case "yours":
			out = append(out, k.Withdraw)
		case "friend":
			if len(it.friend.Games) > 0 {
				out = append(out, k.Watch)
			}
		}
	}
	return append(out, k.New)
}

// LeftText writes a time left in a player's terms: "2d 4h", "5h 12m", and below an hour as a
// clock does, "3:05", "0:12" (a live turn's notice: "0m" said nothing of 12 seconds).
func LeftText(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
	case d >= time.Hour:
		return fmt.Sprintf("%dh %dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// challengeForm is the lobby's form that challenges a player: their name, then the new-room
// form's game and options (no seats nor bots: a challenge is two players), with the clocks of
// correspondence first.
type challengeForm struct {
	name   lineInput
	onName bool // the cursor is on the name
	form   newForm
}

func newChallengeForm(games []rules.Game) challengeForm {
	f := challengeForm{name: newLineInput("Player: ", 16), onName: true, form: newNewForm(games, false)}
	f.form.challenge = true
	return f
}

// update handles a key; it reports submit on enter.
func (f *challengeForm) update(km tea.KeyPressMsg, k *lobbyKeys) (submit bool) {
	fields := len(f.form.fields())
	switch {
	case key.Matches(km, k.Enter):
		return true
	case f.onName && km.String() == "down":
		f.onName, f.form.field = false, 0
	case f.onName && km.String() == "up":
		f.onName, f.form.field = false, fields-1
	case f.onName:
		f.name.update(km)
	case key.Matches(km, k.Up) && f.form.field == 0, key.Matches(km, k.Down) && f.form.field == fields-1:
		f.onName = true
	default:
		f.form.update(km, k)
	}
	return false
}

// view draws the form on w columns.
func (f *challengeForm) view(st draw.Styles, w int) []string {
	lines := []string{st.Bold.Render("Challenge a player"), "", f.name.view(st, 30), ""}
	picked := f.form.field
	if f.onName { // no field is picked while the name is typed
		picked = -1
	}
	lines = append(lines, f.form.rows(st, picked, w)...)
	for _, l := range draw.Wrap("Enter sends it: they are told at once if connected, or find it in their inbox.", w-2) {
		lines = append(lines, st.Dim.Render(l))
	}
	return lines
}

// friendsEvery is how often the lobby's menu reads the player's friends again while it is used
// (each read asks every node of a cluster who is connected).
const friendsEvery = 30 * time.Second

// friendsMsg brings the player's friends, read off the UI goroutine.
type friendsMsg struct{ friends []Friend }

// friendsCmd reads the player's friends for the menu's line, when the menu shows and the ones it
// has are older than friendsEvery; nil otherwise.
func (m Model) friendsCmd() tea.Cmd {
	l := &m.lobby
	if l.post == nil || l.me.Guest || l.page != pageMenu || l.friendsBusy || time.Since(l.friendsAt) < friendsEvery {
		return nil
	}
	l.friendsBusy = true
	post, me := l.post, l.me
	return func() tea.Msg {
		fs, _ := post.Friends(me)
		return friendsMsg{fs}
	}
}

// takeFriends keeps the friends connected, for the menu's line.
func (l *lobby) takeFriends(fs []Friend) {
	l.friendsBusy, l.friendsAt, l.friends = false, time.Now(), l.friends[:0]
	for _, f := range fs {
		if f.Online || len(f.Games) > 0 {
			l.friends = append(l.friends, f)
		}
	}
}

// friendsLine is the menu's line of the friends connected and what they play, the first one's
// room watched with w, on width columns: "Friends: bob plays Coloretta K7QXM (w watches) ·
// carol", the friends that do not fit told as "+2 more"; "" when none is connected.
func (l *lobby) friendsLine(width int) string {
	if len(l.friends) == 0 {
		return ""
	}
	line := "Friends:"
	for i, f := range l.friends {
		part := f.Name
		if len(f.Games) > 0 {
			part += " plays " + f.Games[0].GameName + " " + f.Games[0].Code
		}
		if _, ok := l.friendWatched(); ok && i == 0 {
			part += " (w watches)"
		}
		sep := " "
		if i > 0 {
			sep = " · "
		}
		more := ""
		if rest := len(l.friends) - i - 1; rest > 0 {
			more = fmt.Sprintf(" +%d more", rest)
		}
		if i > 0 && draw.TextWidth(line+sep+part+more) > width {
			return line + fmt.Sprintf(" +%d more", len(l.friends)-i)
		}
		line += sep + part
	}
	return line
}

// friendWatched returns the room w watches from the menu: the first friend's.
func (l *lobby) friendWatched() (string, bool) {
	if len(l.friends) == 0 || len(l.friends[0].Games) == 0 {
		return "", false
	}
	return l.friends[0].Games[0].Code, true
}
