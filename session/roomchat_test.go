package session

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// bothChats is a Stone Towers match, 14 moves in, that dave watches: the room's chat has the
// players' lines, the spectators' chat dave's and cy's, said in between.
func bothChats(t *testing.T) rooms.Snapshot {
	t.Helper()
	snap := playedSnapshot(t, 14)
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	snap.Chat = []rooms.ChatLine{{Text: "ann sits down", At: at}, {Text: "bob sits down", At: at},
		{Text: "dave is watching", At: at.Add(time.Second)}, {From: "bob", Text: "good luck!", At: at.Add(2 * time.Second)},
		{From: "ann", Text: "you too", At: at.Add(5 * time.Second)}}
	snap.SpectatorChat = []rooms.ChatLine{{From: "dave", Text: "Red should fortify e5", At: at.Add(3 * time.Second), Spectator: true},
		{From: "cy", Text: "agreed", At: at.Add(6 * time.Second), Spectator: true}}
	snap.Spectators = 2
	return snap
}

// TestPlayerChatGolden: a player's panel during a match shows the room's chat, without the
// spectators' lines; its rule says tab shows the spectators' chat and how many lines it holds.
func TestPlayerChatGolden(t *testing.T) {
	m := roomModel(t, bothChats(t))
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	p := plain(out)
	if strings.Contains(p, "fortify") || !strings.Contains(p, "tab: spectators (2)") || !strings.Contains(p, "ann: you too") {
		t.Errorf("the player's panel shows the spectators' lines, or does not say tab shows them:\n%s", p)
	}
}

// TestPlayerSpectatorTabGolden: tab shows the player the spectators' chat alone, and says what
// the next tab shows; at 80 x 24 and 60 x 20.
func TestPlayerSpectatorTabGolden(t *testing.T) {
	m := press(roomModel(t, bothChats(t)), "tab")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	p := plain(out)
	if !strings.Contains(p, "dave: Red should fortify e5") || !strings.Contains(p, "spectators · tab: moves") || strings.Contains(p, "good luck") {
		t.Errorf("tab does not show the spectators' chat alone:\n%s", p)
	}
}

func TestPlayerSpectatorTabNarrowGolden(t *testing.T) {
	out := narrow(press(roomModel(t, bothChats(t)), "tab"))
	checkSize(t, out, 60, 20)
	golden.RequireEqual(t, plain(out))
}

// TestSpectatorChatGolden: a spectator's panel shows both chats as one, in the order they were
// said, the spectators' lines marked; what the spectator says goes to the spectators' chat, and
// the chat line says so; at 80 x 24 and 60 x 20.
func TestSpectatorChatGolden(t *testing.T) {
	snap := bothChats(t)
	snap.You = rules.Spectator
	m := roomModel(t, snap)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	p := plain(out)
	for _, want := range []string{"bob: good luck!\n", "dave (watching): Red should\n", "ann: you too\n", "cy (watching): agreed"} {
		if !strings.Contains(p, want) {
			t.Errorf("the spectator's panel lacks %q:\n%s", want, plain(out))
		}
	}
	m.room.sub = idleSub{}
	if p := plain(press(m, "t").View().Content); !strings.Contains(p, "chat to spectators:") {
		t.Errorf("a spectator's chat line does not say who reads it:\n%s", p)
	}
}

func TestSpectatorChatNarrowGolden(t *testing.T) {
	snap := bothChats(t)
	snap.You = rules.Spectator
	out := narrow(roomModel(t, snap))
	checkSize(t, out, 60, 20)
	golden.RequireEqual(t, plain(out))
}

// TestPanelTabTurns: tab turns a player's foot from the chat to the spectators' chat to the
// moves and back, while someone watches or has spoken; else, and for a spectator, from the chat
// to the moves; a new match starts on its chat.
func TestPanelTabTurns(t *testing.T) {
	foot := func(m Model) string {
		p := &m.room.side
		switch {
		case p.showMoves:
			return "moves"
		case p.showingSpectators():
			return "spectators"
		}
		return "chat"
	}
	turns := func(m Model) []string {
		var out []string
		for range 3 {
			m = press(m, "tab")
			out = append(out, foot(m))
		}
		return out
	}
	snap := bothChats(t)
	if got := turns(roomModel(t, snap)); !slices.Equal(got, []string{"spectators", "moves", "chat"}) {
		t.Errorf("a player's tab: %v", got)
	}
	alone := snap
	alone.Spectators, alone.SpectatorChat = 0, nil
	if got := turns(roomModel(t, alone)); !slices.Equal(got, []string{"moves", "chat", "moves"}) {
		t.Errorf("a player's tab with nobody watching: %v", got)
	}
	watching := snap
	watching.You = rules.Spectator
	if got := turns(roomModel(t, watching)); !slices.Equal(got, []string{"moves", "chat", "moves"}) {
		t.Errorf("a spectator's tab: %v", got)
	}
	m := press(roomModel(t, snap), "tab")
	over := snap
	over.Phase = rooms.Finished
	m.room.apply(over)
	if foot(m) != "chat" {
		t.Errorf("after the match the foot shows %s, not the chat of all", foot(m))
	}
	m.room.apply(snap) // a rematch
	if foot(m) != "chat" {
		t.Errorf("a new match's foot shows %s", foot(m))
	}
}

// TestPanelTabTurnsUnder: where a small window puts the panel under the board (Flic Flac at
// 60 x 20), tab shows the whole panel in the board's place with the chat, then the spectators'
// chat, then the moves, then the board again; the panel's rule says what the next tab shows.
func TestPanelTabTurnsUnder(t *testing.T) {
	snap := flicflacMid(t, 40)
	snap.SpectatorChat = bothChats(t).SpectatorChat
	snap.Spectators = 2
	m := roomModel(t, snap)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	m = next.(Model)
	m.View()
	if !m.room.side.under {
		t.Fatal("Flic Flac at 60 x 20 does not put the panel under the board")
	}
	type state struct {
		up, spectators, moves bool
		rule                  string
	}
	var got []state
	for range 4 {
		m = press(m, "tab")
		out := plain(m.View().Content)
		p := &m.room.side
		rule := ""
		for _, want := range []string{"chat · tab: spectators (2)", "spectators · tab: moves", "moves · tab: board"} {
			if strings.Contains(out, want) {
				rule = want
			}
		}
		got = append(got, state{p.up, p.showingSpectators(), p.showMoves, rule})
	}
	want := []state{{true, false, false, "chat · tab: spectators (2)"}, {true, true, false, "spectators · tab: moves"},
		{true, false, true, "moves · tab: board"}, {false, false, false, ""}} // (the help line says "tab panel")
	if !slices.Equal(got, want) {
		t.Errorf("tab under the board: %+v, want %+v", got, want)
	}
}

// TestCasualHeaderGolden: a casual room's header says so (a target=2 Flic Flac room: issue 34's
// example), at 80 x 24 and, whole, at 60 x 20; a rated room's says rated.
func TestCasualHeaderGolden(t *testing.T) {
	snap := flicflacMid(t, 40)
	snap.Casual = true
	m := roomModel(t, snap)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	if head := strings.SplitN(plain(out), "\n", 2)[0]; !strings.Contains(head, "· playing · casual") {
		t.Errorf("the header does not say casual: %q", head)
	}
	if head := strings.SplitN(plain(narrow(m)), "\n", 2)[0]; !strings.Contains(head, "· casual ") {
		t.Errorf("the narrow header does not say casual whole: %q", head)
	}
	if head := strings.SplitN(plain(roomModel(t, flicflacMid(t, 40)).View().Content), "\n", 2)[0]; !strings.Contains(head, "· playing · rated") {
		t.Errorf("a rated room's header: %q", head)
	}
}

func TestCasualHeaderNarrowGolden(t *testing.T) {
	snap := flicflacMid(t, 40)
	snap.Casual = true
	out := narrow(roomModel(t, snap))
	checkSize(t, out, 60, 20)
	golden.RequireEqual(t, plain(out))
}

// TestCasualWaitingGolden: while a casual room waits for players, it says which of its settings
// are not standard.
func TestCasualWaitingGolden(t *testing.T) {
	snap := flicflacMid(t, 0)
	snap.Phase, snap.Match, snap.Casual = rooms.Waiting, 0, true
	snap.Options = rules.Options{"size": "8", "target": "2", "timer": "20", "captors": "10", "events": "1", "limit": "200", "shape": "random"}
	snap.Seats = []rooms.SeatInfo{{Name: "ann", PlayerID: "SHA256:ann", Connected: true}, {Empty: true}}
	snap.ToMove = nil
	m := roomModel(t, snap)
	m.room.games = everyGame
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	if p := words(plain(out)); !strings.Contains(p, "Casual room: target=2 is not standard, so its matches are not rated.") {
		t.Errorf("the waiting room does not say why it is casual:\n%s", plain(out))
	}
}

// TestStaleRequestGoes: "You ask to take back your last move" stays while the request waits and
// goes once a snapshot shows it answered (a bot takes back at once: the moves change) or
// withdrawn; a snapshot sent before the room had the request leaves it be. A draw offer alike.
func TestStaleRequestGoes(t *testing.T) {
	snap := playedSnapshot(t, 14)
	snap.Seats = slices.Clone(snap.Seats)
	snap.Seats[1].Bot = "greedy"
	m := roomModel(t, snap)
	m.room.sub = idleSub{}
	m = press(m, "u")
	const asked = "You ask to take back your last move."
	msg := func() string { return m.room.prompt.msg }
	if msg() != asked {
		t.Fatalf("U says %q", msg())
	}
	m.room.apply(snap) // before the room had it
	if msg() != asked {
		t.Errorf("a snapshot from before the request took its message: %q", msg())
	}
	back := snap
	back.Moves = snap.Moves[:len(snap.Moves)-2] // the bot agreed: two moves taken back
	m.room.apply(back)
	if msg() != "" {
		t.Errorf("after the takeback the line still says %q", msg())
	}

	snap.Seats[1].Bot = "" // bob, a person
	m = roomModel(t, snap)
	m.room.sub = idleSub{}
	m = press(m, "u")
	waiting := snap
	waiting.Seats = slices.Clone(snap.Seats)
	waiting.Seats[0].TakeBack = true
	m.room.apply(waiting)
	if msg() != asked {
		t.Errorf("while bob has not answered: %q", msg())
	}
	m.room.apply(snap) // bob moved, or declined: nobody asks any more
	if msg() != "" {
		t.Errorf("after the request was withdrawn the line still says %q", msg())
	}
}

// casualForm is the new-room form set to a Flic Flac room of target 2, the example.
func casualForm(t *testing.T) Model {
	t.Helper()
	m := New(Config{Hub: fakeHub{everyGame}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24})
	m = press(m, "down", "enter", "right", "right", "right", "right", "down", "down")
	for range 9 {
		m = press(m, "left")
	}
	return m
}

// TestNewRoomFormCasualGolden: the new-room form marks an option set off its standard values,
// with what a rated room has, and says the room will be casual and why, as the option changes.
func TestNewRoomFormCasualGolden(t *testing.T) {
	m := casualForm(t)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	p := plain(out)
	for _, want := range []string{"Target       ‹ 2 ›  casual (rated: 11)", "Casual: not rated, because of target."} {
		if !strings.Contains(p, want) {
			t.Errorf("the form lacks %q:\n%s", want, p)
		}
	}
	m = press(m, "right", "right", "right", "right", "right", "right", "right", "right", "right")
	if p := plain(m.View().Content); strings.Contains(p, "casual") || !strings.Contains(p, "Rated: every setting is standard.") {
		t.Errorf("back at target 11 the form does not say rated:\n%s", p)
	}
}

// TestNewRoomFormCasualNarrowGolden: the form's lines at 60 columns, its note wrapped whole.
func TestNewRoomFormCasualNarrowGolden(t *testing.T) {
	m := casualForm(t)
	golden.RequireEqual(t, framed(m.lobby.form.view(*m.st, 60), 60))
}
