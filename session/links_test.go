package session

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// TestWebLinks: with a public URL, the lobby gives the web's front page, a room waiting for
// players its page, the end of a match and its replay the match's page; without one, none.
func TestWebLinks(t *testing.T) {
	m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, PublicURL: "https://arcade.test"})
	if lobby := plain(m.View().Content); !strings.Contains(lobby, "https://arcade.test/") {
		t.Errorf("the lobby has no link to the web:\n%s", lobby)
	}
	if lobby := plain(newTestModel(80, 24).View().Content); strings.Contains(lobby, "http") {
		t.Errorf("the lobby has a link with no public URL:\n%s", lobby)
	}

	r := &roomScreen{web: WebLinks("https://arcade.test"), boards: testBoards, games: testGames}
	snap := rooms.Snapshot{Code: "K7QXM", GameID: "stonetowers", GameName: "Stone Towers", Phase: rooms.Waiting,
		Seats: []rooms.SeatInfo{{Name: "ann", Connected: true}, {Empty: true}}}
	r.apply(snap)
	if w := strings.Join(r.waitingLines(*draw.NewStyles(false, false), 51), "\n"); !strings.Contains(w, "https://arcade.test/r/K7QXM") {
		t.Errorf("a waiting room gives no link to its page:\n%s", w)
	}
	snap.Phase, snap.Result = rooms.Finished, rooms.EndResult{MatchID: "2k9xq4m7a8b"}
	snap.Outcome = rules.Outcome{Over: true, Scores: []int{3, 2}, Ranks: []int{1, 2}}
	r.apply(snap)
	if r.prompt.msg != "On the web: https://arcade.test/m/2k9xq4m7a8b" {
		t.Errorf("the end of the match says %q", r.prompt.msg)
	}

	rp := botReplay(t, stonetowers.Game, nil, 2, 4, stonetowers.Game.Bots[0].Bot)
	rp.web = "https://arcade.test"
	if v := plain(rp.view(*draw.NewStyles(false, false), 80, 24)); !strings.Contains(v, "https://arcade.test/m/m1") {
		t.Errorf("the replay gives no link to its page:\n%s", v)
	}
}
