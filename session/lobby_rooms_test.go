package session

import (
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// TestRoomsListSaysWhatIsTrue: the lobby's list of open rooms gives each room's state in words
// (who is away, for how long) and whether its matches are rated or casual.
func TestRoomsListSaysWhatIsTrue(t *testing.T) {
	l := newLobby(testGames, nil, rooms.Player{ID: "SHA256:x", Name: "ann"})
	now := time.Now()
	l.list = []rooms.Summary{
		{Code: "K7QXM", GameName: "Stone Towers", Phase: rooms.Waiting, Free: 1, Seats: []string{"ann", ""}, Mode: rooms.ModeRated},
		{Code: "ABCDE", GameName: "Stone Towers", Phase: rooms.Playing, Seats: []string{"ann", "bob"},
			Away: []rooms.Away{{Name: "bob", Until: now.Add(100 * time.Second)}}, Spectators: 2},
		{Code: "FGHJK", GameName: "DISCON", Phase: rooms.Finished, Seats: []string{"cy", "easy bot"}, Mode: rooms.ModeCasual},
	}
	out := strings.Join(l.roomItems(), "\n")
	for _, want := range []string{"K7QXM  Stone Towers  waiting for 1 player  rated  ann, -", "ABCDE  Stone Towers  bob away 1:40",
		"ann, bob  (2 watching)", "FGHJK  DISCON        finished              casual cy, easy bot"} {
		if !strings.Contains(out, want) {
			t.Errorf("the list does not say %q:\n%s", want, out)
		}
	}
	if head := strings.Join(l.roomsView(*draw.NewStyles(true, false)), "\n"); !strings.Contains(head, "CODE   GAME          STATE                 MODE   PLAYERS") {
		t.Errorf("the list's columns are not headed:\n%s", head)
	}
}

// TestRoomsListWrapsUnderPlayers: a room's long list of players goes on under the PLAYERS column
// on an 80-column screen.
func TestRoomsListWrapsUnderPlayers(t *testing.T) {
	l := newLobby(testGames, nil, rooms.Player{ID: "SHA256:x", Name: "ann"})
	l.list = []rooms.Summary{{Code: "68UPT", GameName: "Coloretta", Phase: rooms.Playing,
		Seats: []string{"ann", "Bo (greedy bot)", "Cy (greedy bot)", "Dot (greedy bot)", "Eli (greedy bot)"}}}
	p := newListPager(l.roomItems(), 0, roomsIndent)
	p.setSize(78, 10)
	lines := p.view(draw.Styles{}.Sel)
	if len(lines) < 2 || len(lines[1])-len(strings.TrimLeft(lines[1], " ")) != roomsIndent {
		t.Errorf("the players go on elsewhere than under their column:\n%s", strings.Join(lines, "\n"))
	}
}
