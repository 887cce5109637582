package session

import (
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// TestRoomsListSaysWhatIsTrue: the lobby's list of open rooms gives each room's state in words
// (who is away, for how long), within 80 columns.
func TestRoomsListSaysWhatIsTrue(t *testing.T) {
	l := newLobby(testGames, nil, rooms.Player{ID: "SHA256:x", Name: "ann"})
	now := time.Now()
	l.list = []rooms.Summary{
		{Code: "K7QXM", GameName: "Stone Towers", Phase: rooms.Waiting, Free: 1, Seats: []string{"ann", ""}},
		{Code: "ABCDE", GameName: "Stone Towers", Phase: rooms.Playing, Seats: []string{"ann", "bob"},
			Away: []rooms.Away{{Name: "bob", Until: now.Add(100 * time.Second)}}, Spectators: 2},
		{Code: "FGHJK", GameName: "DISCON", Phase: rooms.Finished, Seats: []string{"cy", "easy bot"}},
	}
	out := strings.Join(l.roomsView(*draw.NewStyles(true, false), 80), "\n")
	for _, want := range []string{"K7QXM  Stone Towers  waiting for 1 player", "ABCDE  Stone Towers  bob away 1:40",
		"ann, bob  (2 watching)", "FGHJK  DISCON        finished"} {
		if !strings.Contains(out, want) {
			t.Errorf("the list does not say %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if w := draw.TextWidth(line); w > 80 {
			t.Errorf("line of %d columns: %q", w, line)
		}
	}
}
