package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
)

// TestNoticeBytes: a notice rings the bell and sends OSC 9 and OSC 777 with its text, one line
// of printable characters (an escape sequence in it dropped whole); the bell stays quiet with the bell off, the notifications with notify
// off.
func TestNoticeBytes(t *testing.T) {
	n := Notice{Kind: NoticeTurn, Text: "bob moved in Coloretta K7QXM: your\x1b]0;pwned\a move"}
	want := "\a\x1b]9;arcade: bob moved in Coloretta K7QXM: your move\a\x1b]777;notify;arcade;bob moved in Coloretta K7QXM: your move\a"
	if got := noticeBytes(n, false, false); got != want {
		t.Errorf("noticeBytes = %q\nwant %q", got, want)
	}
	if got := noticeBytes(n, true, false); strings.HasPrefix(got, "\a") || !strings.Contains(got, osc9) {
		t.Errorf("bell off: %q", got)
	}
	if got := noticeBytes(n, false, true); got != "\a" {
		t.Errorf("notify off: %q", got)
	}
}

// TestNoticeInTheLobby: a notice shows its line under the lobby with the key that acts on it,
// sets the window's title until the next key, and goes to the terminal with the next frame only.
func TestNoticeInTheLobby(t *testing.T) {
	m := newTestModel(80, 24)
	next, _ := m.Update(NoticeMsg{Notice{Kind: NoticeChallenge, Text: "ada challenges you to Coloretta, clock=3d",
		Title: "challenge from ada"}})
	m = next.(Model)
	screen := plain(m.View().Content)
	if !strings.Contains(screen, "ada challenges you to Coloretta, clock=3d: c to see it") {
		t.Errorf("the lobby does not say it:\n%s", screen)
	}
	if v := m.View(); v.WindowTitle != "challenge from ada" {
		t.Errorf("title %q", v.WindowTitle)
	}
	if raw := m.FrameRaw(); !strings.HasPrefix(raw, "\a\x1b]9;arcade: ada challenges you") {
		t.Errorf("raw %q", raw)
	}
	if raw := m.FrameRaw(); raw != "" {
		t.Errorf("sent twice: %q", raw)
	}
	m = press(m, "down")
	if v := m.View(); v.WindowTitle != "arcade" || strings.Contains(plain(v.Content), "ada challenges") {
		t.Errorf("after a key: title %q\n%s", v.WindowTitle, plain(v.Content))
	}
}

// TestNoticeOfTheRoomShown: a notice of the room on the screen is the room's own news already,
// and is dropped; one of another room shows under the board.
func TestNoticeOfTheRoomShown(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 4))
	m.FrameRaw() // the room's own bell
	next, _ := m.Update(NoticeMsg{Notice{Kind: NoticeTurn, Text: "bob moved", Code: "K7QXM"}})
	m = next.(Model)
	if raw := m.FrameRaw(); raw != "" {
		t.Errorf("a notice of the room shown: %q", raw)
	}
	next, _ = m.Update(NoticeMsg{Notice{Kind: NoticeTurn, Text: "carol moved in DISCON 4HXQ9: your move", Code: "4HXQ9"}})
	m = next.(Model)
	if !strings.Contains(plain(m.View().Content), "carol moved in DISCON 4HXQ9: your move") || m.FrameRaw() == "" {
		t.Errorf("another room's notice:\n%s", plain(m.View().Content))
	}
}

// TestSwitchboard: a notice reaches every session of its player on the switchboard, and none of
// another's; a session taken off hears no more.
func TestSwitchboard(t *testing.T) {
	var b Switchboard
	got := make(chan string, 8)
	send := func(who string) func(tea.Msg) {
		return func(msg tea.Msg) { got <- who + ":" + msg.(NoticeMsg).Text }
	}
	offA1 := b.Add("ann", send("a1"))
	b.Add("ann", send("a2"))
	b.Add("bob", send("b"))
	if n := b.Deliver("ann", Notice{Text: "hi"}); n != 2 {
		t.Errorf("delivered to %d", n)
	}
	seen := map[string]bool{}
	for range 2 {
		select {
		case s := <-got:
			seen[s] = true
		case <-time.After(time.Minute):
			t.Fatal("not delivered")
		}
	}
	if !seen["a1:hi"] || !seen["a2:hi"] {
		t.Errorf("seen %v", seen)
	}
	offA1()
	offA1()
	if n := b.Deliver("ann", Notice{Text: "again"}); n != 1 {
		t.Errorf("after one went: delivered to %d", n)
	}
	if c := b.Connected([]string{"ann", "bob", "carol"}); !c["ann"] || !c["bob"] || c["carol"] {
		t.Errorf("connected %v", c)
	}
}

// fakePost is a Post with fixed challenges and friends, which records what it was asked.
type fakePost struct {
	in      Inbox
	friends []Friend
	asked   []string
}

func (p *fakePost) Inbox(rooms.Player) (Inbox, error) { return p.in, nil }
func (p *fakePost) Games(_ rooms.Player, open []rooms.Summary) []rooms.Summary {
	return append(open, p.in.Games...)
}
func (p *fakePost) Challenge(_ rooms.Player, name string, st Start, _, _ int) (record.Challenge, error) {
	p.asked = append(p.asked, "challenge "+name+" "+st.Game+" "+st.Options[rooms.ClockOption])
	if name == "nobody" {
		return record.Challenge{}, errors.New("no player has that name")
	}
	return record.Challenge{ID: "x7k2m", ToName: name, Expires: time.Now().Add(7 * 24 * time.Hour)}, nil
}
func (p *fakePost) Accept(_ rooms.Player, id string) (string, error) {
	p.asked = append(p.asked, "accept "+id)
	return "K7QXM", nil
}
func (p *fakePost) Decline(_ rooms.Player, id string) error {
	p.asked = append(p.asked, "decline "+id)
	return nil
}
func (p *fakePost) Withdraw(_ rooms.Player, id string) error {
	p.asked = append(p.asked, "withdraw "+id)
	return nil
}
func (p *fakePost) Follow(_ rooms.Player, name string) (string, error)   { return name, nil }
func (p *fakePost) Unfollow(_ rooms.Player, name string) (string, error) { return name, nil }
func (p *fakePost) Friends(rooms.Player) ([]Friend, error)               { return p.friends, nil }
func (p *fakePost) Prefs(string) record.Prefs                            { return record.Prefs{} }
func (p *fakePost) SetPrefs(rooms.Player, func(*record.Prefs)) error     { return nil }

// inboxModel is ann's lobby with a challenge to her, an open one, one of hers and two friends.
func inboxModel(w, h int) (Model, *fakePost) {
	exp := time.Now().Add(6*24*time.Hour + 23*time.Hour + 30*time.Minute)
	post := &fakePost{
		in: Inbox{
			To:   []record.Challenge{{ID: "to1", FromName: "ada", Game: "stonetowers", Options: map[string]string{"clock": "3d"}, Expires: exp}},
			Open: []record.Challenge{{ID: "op1", FromName: "carol", Game: "stonetowers", Options: map[string]string{"clock": "1d"}, Min: 1400, Max: 1600, Expires: exp}},
			From: []record.Challenge{{ID: "my1", To: "SHA256:dave", ToName: "dave", Game: "stonetowers", Options: map[string]string{"clock": "7d"}, Expires: exp}},
		},
		friends: []Friend{{Name: "bob", Online: true, Games: []rooms.Summary{{Code: "4HXQ9", GameName: "Stone Towers"}}}, {Name: "eve"}},
	}
	m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: w, Height: h, Post: post})
	return press(m, "c"), post
}

// TestInboxPageGolden: the page of challenges and friends at 80 x 24 and 60 x 20; enter accepts
// the challenge under the cursor and joins its room, d declines, x withdraws one's own, w watches
// a friend's room.
func TestInboxPageGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m, _ := inboxModel(size[0], size[1])
			out := m.View().Content
			checkSize(t, out, size[0], size[1])
			golden.RequireEqual(t, plain(out))
		})
	}
	m, post := inboxModel(80, 24)
	_, cmd := m.Update(keyPress("enter"))
	if m.busy != true || cmd == nil || post.asked[0] != "accept to1" {
		t.Errorf("enter on ada's: busy %v, asked %v", m.busy, post.asked)
	}
	m, post = inboxModel(80, 24)
	m = press(m, "d", "down", "down", "x")
	if want := []string{"decline to1", "withdraw my1"}; strings.Join(post.asked, ",") != strings.Join(want, ",") {
		t.Errorf("asked %v, want %v", post.asked, want)
	}
	m, _ = inboxModel(80, 24)
	m = press(m, "down", "down", "down")
	if _, cmd := m.Update(keyPress("w")); cmd == nil || !m.busy {
		t.Error("w on bob does not watch his room")
	}
}

// TestChallengeFormGolden: n opens the form that challenges a player: the name, then the game
// and the clock (correspondence's first; no seats nor bots); enter sends it and says so.
func TestChallengeFormGolden(t *testing.T) {
	m, post := inboxModel(80, 24)
	m = press(m, "n", "b", "o", "b", "down", "down", "right")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	m = press(m, "enter")
	if len(post.asked) != 1 || post.asked[0] != "challenge bob stonetowers 3d" {
		t.Errorf("asked %v", post.asked)
	}
	if s := plain(m.View().Content); !strings.Contains(s, "Challenge x7k2m sent to bob") || !strings.Contains(s, "Challenges and friends") {
		t.Errorf("after enter:\n%s", s)
	}
	m = press(m, "n", "esc")
	m = press(m, "n")
	for range 3 {
		next, _ := m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
		m = next.(Model)
	}
	m = press(m, "enter")
	if s := plain(m.View().Content); !strings.Contains(s, "Type the name") {
		t.Errorf("no name:\n%s", s)
	}
}

// TestFriendsOnTheMenu: the menu reads the player's friends off its goroutine, shows those
// connected or playing on a line of their own, and w watches the first one's room.
func TestFriendsOnTheMenu(t *testing.T) {
	post := &fakePost{friends: []Friend{{Name: "bob", Online: true, Games: []rooms.Summary{{Code: "4HXQ9", GameName: "Stone Towers"}}},
		{Name: "eve"}}}
	m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, Post: post})
	cmd := m.Init()
	if cmd == nil {
		t.Fatal("no read of the friends")
	}
	next, _ := m.Update(cmd())
	m = next.(Model)
	screen := plain(m.View().Content)
	if !strings.Contains(screen, "Friends: bob plays Stone Towers 4HXQ9 (w watches)") || strings.Contains(screen, "eve") ||
		!strings.Contains(screen, "w watch 4HXQ9") {
		t.Errorf("the menu:\n%s", screen)
	}
	checkSize(t, m.View().Content, 80, 24)
	if _, cmd := m.Update(keyPress("w")); cmd == nil || !m.busy {
		t.Error("w does not watch bob's room")
	}
}

// TestCompactInboxFits: the page of challenges and friends, the challenge form and the menu's
// line of friends fit every size from 60 x 20 to 80 x 24, and cut nothing.
func TestCompactInboxFits(t *testing.T) {
	for _, size := range compactSizes {
		w, h := size[0], size[1]
		for name, keys := range map[string][]string{"challenges": nil, "form": {"n"}, "menu": {"esc"}} {
			m, post := inboxModel(w, h)
			post.friends = append(post.friends, Friend{Name: "annabelle-long", Online: true}, Friend{Name: "zed", Online: true})
			m.lobby.takeFriends(post.friends)
			screen := press(m, keys...).View().Content
			checkSize(t, screen, w, h)
			if out := plain(screen); strings.Contains(out, "…") {
				t.Errorf("%s at %dx%d: a line is cut:\n%s", name, w, h, out)
			}
		}
	}
}
