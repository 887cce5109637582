package session

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// TestSoloResult: the end of a match played alone says the score, not a winner or a draw.
func TestSoloResult(t *testing.T) {
	r := newRoomScreen(nil, rooms.Player{ID: "SHA256:x", Name: "ann"}, testGames, testBoards)
	r.snap = rooms.Snapshot{Phase: rooms.Finished, Seats: []rooms.SeatInfo{{Name: "ann", PlayerID: "SHA256:x"}},
		Outcome: rules.Outcome{Over: true, Scores: []int{143}, Ranks: []int{1}, Reason: "the player ended the game"}}
	r.show()
	got := strings.Join(r.side.result(*draw.NewStyles(false, false), 40), "\n")
	if !strings.Contains(got, "ann scored 143.") || strings.Contains(got, "draw") || strings.Contains(got, "win") {
		t.Errorf("solo result:\n%s", got)
	}
}
