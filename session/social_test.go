package session

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// fakeSocial keeps ignores, reports and mutes as the store would, by name.
type fakeSocial struct {
	mu      sync.Mutex
	ids     map[string]string // name -> player
	ignores map[string]map[string]bool
	reports []record.Report
	muted   map[string]record.Mute
}

func newFakeSocial(players map[string]string) *fakeSocial {
	return &fakeSocial{ids: players, ignores: map[string]map[string]bool{}, muted: map[string]record.Mute{}}
}

func (f *fakeSocial) Ignoring(player string) ([]record.Ignored, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []record.Ignored
	for name, id := range f.ids {
		if f.ignores[player][id] {
			out = append(out, record.Ignored{Player: id, Name: name})
		}
	}
	return out, nil
}

func (f *fakeSocial) Ignore(player, name string) (record.Ignored, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.ids[name]
	if !ok {
		return record.Ignored{}, errors.New("no player has that name")
	}
	if f.ignores[player] == nil {
		f.ignores[player] = map[string]bool{}
	}
	f.ignores[player][id] = true
	return record.Ignored{Player: id, Name: name}, nil
}

func (f *fakeSocial) Unignore(player, name string) (record.Ignored, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.ids[name]
	delete(f.ignores[player], id)
	return record.Ignored{Player: id, Name: name}, nil
}

func (f *fakeSocial) Report(name string, r record.Report) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r.Player, r.Name = f.ids[name], name
	f.reports = append(f.reports, r)
	return nil
}

func (f *fakeSocial) Muted(player string) (record.Mute, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.muted[player]
	return m, ok
}

// runModel runs cmd and the commands of the messages it brings back through m, but those that
// wait (an error's timer): a command that has no message within half a second is left.
func runModel(m Model, cmd tea.Cmd) Model {
	for range 4 {
		if cmd == nil {
			return m
		}
		got := make(chan tea.Msg, 1)
		go func() { got <- cmd() }()
		var msg tea.Msg
		select {
		case msg = <-got:
		case <-time.After(500 * time.Millisecond):
		}
		if msg == nil {
			return m
		}
		next, c := m.Update(msg)
		m, cmd = next.(Model), c
	}
	return m
}

// take has m take the snapshots its room left.
func take(m Model) Model {
	next, _ := m.takeSnapshots()
	return next.(Model)
}

// TestIgnoredChatIsNotShown: bob ignores carol: her lines are not in his room screen's chat (nor
// on his screen), ann's are; /unignore in the room's chat shows her again at once, /ignore hides
// her at once; /report keeps the room's whole chat, hers included; a muted player's line is
// refused with why, and reaches no one; a chat command not known says which there are.
func TestIgnoredChatIsNotShown(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann := rooms.Player{ID: "SHA256:ann", Name: "ann"}
	bob := rooms.Player{ID: "SHA256:bob", Name: "bob"}
	carol := rooms.Player{ID: "SHA256:carol", Name: "carol"}
	social := newFakeSocial(map[string]string{"ann": ann.ID, "bob": bob.ID, "carol": carol.ID})
	if _, err := social.Ignore(bob.ID, "carol"); err != nil {
		t.Fatal(err)
	}
	room, err := hub.Create("stonetowers", nil, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	annSub, err := room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	carolSub, err := room.Join(carol, true)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: bob, Width: 80, Height: 24, Social: social,
		Start: Start{Mode: ModeJoin, Code: room.Code()}, Send: func(tea.Msg) {}})
	m = runModel(m, m.Init())
	if m.room == nil {
		t.Fatal("bob is not in the room")
	}
	for _, say := range []struct {
		sub  *rooms.Sub
		text string
	}{{carolSub, "carol speaks"}, {annSub, "ann speaks"}} {
		if err := say.sub.Chat(say.text); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for m = take(m); !chatHas(m, "ann speaks") && time.Now().Before(deadline); m = take(m) {
		time.Sleep(5 * time.Millisecond)
	}
	if !chatHas(m, "ann speaks") || chatHas(m, "carol speaks") {
		t.Fatalf("bob's chat: %+v, the spectators' %+v", m.room.snap.Chat, m.room.snap.SpectatorChat)
	}
	if m = press(m, "tab"); !m.room.side.showingSpectators() || strings.Contains(plain(m.View().Content), "carol speaks") {
		t.Errorf("bob's tab of the spectators' chat shows carol, whom he ignores:\n%s", plain(m.View().Content))
	}
	m = press(m, "tab", "tab")
	if out := plain(m.View().Content); strings.Contains(out, "carol speaks") || !strings.Contains(out, "ann speaks") {
		t.Errorf("bob's screen:\n%s", out)
	}

	m = runModel(m, m.chatLine(m.room.sub, "/unignore carol"))
	if !chatHas(m, "carol speaks") || !strings.Contains(plain(m.View().Content), "You see the chat of carol again") {
		t.Errorf("after /unignore, bob's chat: %+v\n%s", m.room.snap.Chat, plain(m.View().Content))
	}
	m = runModel(m, m.chatLine(m.room.sub, "/ignore carol"))
	if chatHas(m, "carol speaks") || !strings.Contains(plain(m.View().Content), "You no longer see the chat of") {
		t.Errorf("after /ignore, bob's chat: %+v\n%s", m.room.snap.Chat, plain(m.View().Content))
	}
	m = runModel(m, m.chatLine(m.room.sub, "/report carol she insults everyone"))
	if len(social.reports) != 1 {
		t.Fatalf("reports: %+v", social.reports)
	}
	r := social.reports[0]
	if r.By != bob.ID || r.Name != "carol" || r.Room != room.Code() || r.Text != "she insults everyone" || !reportHas(r, "carol speaks") {
		t.Errorf("the report: %+v", r)
	}

	social.muted[bob.ID] = record.Mute{Player: bob.ID, Until: time.Date(2030, 1, 2, 3, 4, 0, 0, time.UTC)}
	m = runModel(m, m.chatLine(m.room.sub, "hello?"))
	if out := plain(m.View().Content); !strings.Contains(out, "An operator muted you until 2030-01-02 03:04 UTC") {
		t.Errorf("a muted line:\n%s", out)
	}
	m = runModel(m, m.chatLine(m.room.sub, "/frob"))
	if out := plain(m.View().Content); !strings.Contains(out, "There is no command /frob") {
		t.Errorf("an unknown command:\n%s", out)
	}
	time.Sleep(50 * time.Millisecond)
	m = take(m)
	if chatHas(m, "hello?") || chatHas(m, "/frob") {
		t.Errorf("a refused line reached the room: %+v", m.room.snap.Chat)
	}
}

// chatHas reports whether the room screen's chats (the room's and the spectators') have a line of
// text.
func chatHas(m Model, text string) bool {
	for _, l := range rooms.MergeChats(m.room.snap.Chat, m.room.snap.SpectatorChat) {
		if l.Text == text {
			return true
		}
	}
	return false
}

// reportHas reports whether a report's chat has a line of text.
func reportHas(r record.Report, text string) bool {
	for _, l := range r.Chat {
		if l.Text == text {
			return true
		}
	}
	return false
}

// TestAnnouncementShown: an operator's announcement shows in the lobby, and under a room's board.
func TestAnnouncementShown(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80, Height: 24,
		Send: func(tea.Msg) {}})
	next, _ := m.Update(AnnounceMsg{Text: "restart at noon"})
	if out := plain(next.(Model).View().Content); !strings.Contains(out, "Announcement: restart at noon") {
		t.Errorf("the lobby:\n%s", out)
	}
	m = New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80, Height: 24,
		Start: Start{Mode: ModeNew, Game: "stonetowers", Seats: 2}, Send: func(tea.Msg) {}})
	m = runModel(m, m.Init())
	next, _ = m.Update(AnnounceMsg{Text: "restart at noon"})
	if out := plain(next.(Model).View().Content); !strings.Contains(out, "Announcement: restart at noon") {
		t.Errorf("the room:\n%s", out)
	}
}

// TestResultOfAVoidedMatch: My matches says a voided match is void, not unrated.
func TestResultOfAVoidedMatch(t *testing.T) {
	m := record.Match{Seats: []record.Seat{{PlayerID: "a", Name: "ann"}, {PlayerID: "b", Name: "bob"}},
		Ended: time.Now(), Outcome: rules.Outcome{Over: true, Ranks: []int{1, 2}, Scores: []int{10, 8}}, Voided: true}
	if got := resultFor(m, "a"); got != "won 10-8 vs bob, void" {
		t.Errorf("resultFor = %q", got)
	}
	m.Voided = false
	if got := resultFor(m, "a"); got != "won 10-8 vs bob, unrated" {
		t.Errorf("resultFor = %q", got)
	}
}
