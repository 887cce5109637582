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
