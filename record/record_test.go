package record

import (
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

func TestRateable(t *testing.T) {
	base := Match{
		Seats:   []Seat{{PlayerID: "a", Name: "ann"}, {PlayerID: "b", Name: "bob"}},
		Ended:   time.Now(),
		Outcome: rules.Outcome{Over: true, Scores: []int{3, 2}, Ranks: []int{1, 2}},
	}
	if !base.Rateable() {
		t.Fatal("a finished match of two keyed players is rateable")
	}
	bot := base
	bot.Seats = []Seat{{PlayerID: "a"}, {Name: "hard bot", Bot: "hard"}}
	guest := base
	guest.Seats = []Seat{{PlayerID: "a"}, {PlayerID: "guest-1", Guest: true}}
	unrated := base
	unrated.Unrated = true
	open := base
	open.Ended = time.Time{}
	for name, m := range map[string]Match{"bot": bot, "guest": guest, "unrated": unrated, "unfinished": open} {
		if m.Rateable() {
			t.Errorf("%s match is rateable", name)
		}
	}
}

// TestSoloScorable: a solo match goes on the solo table, never on the ratings; an abandoned one,
// a guest's or a bot's goes on neither.
func TestSoloScorable(t *testing.T) {
	solo := Match{
		Seats:   []Seat{{PlayerID: "a", Name: "ann"}},
		Ended:   time.Now(),
		Outcome: rules.Outcome{Over: true, Scores: []int{143}, Ranks: []int{1}},
	}
	if solo.Rateable() || !solo.SoloScorable() {
		t.Fatalf("solo match: rateable %v, scorable %v; want false, true", solo.Rateable(), solo.SoloScorable())
	}
	abandoned := solo
	abandoned.Unrated, abandoned.Outcome.Ranks = true, nil
	guest := solo
	guest.Seats = []Seat{{PlayerID: "guest-1", Name: "gus", Guest: true}}
	bot := solo
	bot.Seats = []Seat{{Name: "Ada (easy bot)", Bot: "easy"}}
	open := solo
	open.Ended = time.Time{}
	for name, m := range map[string]Match{"abandoned": abandoned, "guest": guest, "bot": bot, "unfinished": open} {
		if m.SoloScorable() || m.Rateable() {
			t.Errorf("%s solo match: scorable %v, rateable %v", name, m.SoloScorable(), m.Rateable())
		}
	}
	pair := solo
	pair.Seats = append(pair.Seats, Seat{PlayerID: "b", Name: "bob"})
	pair.Outcome = rules.Outcome{Over: true, Scores: []int{3, 2}, Ranks: []int{1, 2}}
	if pair.SoloScorable() {
		t.Error("a two-seat match is on the solo table")
	}
}
