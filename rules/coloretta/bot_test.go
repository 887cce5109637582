package coloretta

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestBotsUseOnlyPublicInformation reorders the hidden part of the deck: no bot may notice.
func TestBotsUseOnlyPublicInformation(t *testing.T) {
	for _, s := range botPositions()[:12] {
		other := *s
		deck := slices.Clone(s.deck)
		rest := deck[s.next:]
		r := rand.New(rand.NewPCG(uint64(s.next), 1))
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		// Keep the Last Cycle card where everyone knows it is.
		if i, j := slices.Index(rest, LastCycle), len(rest)-16; i >= 0 && j >= 0 {
			rest[i], rest[j] = rest[j], rest[i]
		}
		other.deck = deck
		for _, b := range Game.Bots {
			seat := rules.Seat(s.turn)
			m1 := b.Bot.Move(context.Background(), s, seat, rand.New(rand.NewPCG(1, 2)))
			m2 := b.Bot.Move(context.Background(), &other, seat, rand.New(rand.NewPCG(1, 2)))
			if m1 != m2 {
				t.Fatalf("%s plays %s or %s depending on the hidden deck", b.Name, m1, m2)
			}
		}
	}
}

func TestHardBotCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range botPositions()[:5] {
		m := Hard.Move(ctx, s, rules.Seat(s.turn), rand.New(rand.NewPCG(1, 2)))
		if !slices.Contains(s.Legal(rules.Seat(s.turn)), m) {
			t.Fatalf("cancelled hard bot plays %q", m)
		}
	}
}

func TestBotsWithoutTurn(t *testing.T) {
	s := newState(t, 3)
	other := rules.Seat((s.turn + 1) % 3)
	for _, b := range Game.Bots {
		if m := b.Bot.Move(context.Background(), s, other, rand.New(rand.NewPCG(1, 2))); m != "" {
			t.Errorf("%s moves off turn: %q", b.Name, m)
		}
	}
}
