package games

import (
	"testing"

	"github.com/arcade/arcade/rules"
)

// BenchmarkApply is the engine's share of a move, for each game of the catalogue with its
// default options and seats: Apply, then Outcome (what a room asks of the engine for each move),
// averaged over the positions of a match whose every move is the first legal one (at most 200).
func BenchmarkApply(b *testing.B) {
	for _, e := range All() {
		g := e.Game
		b.Run(g.ID, func(b *testing.B) {
			opts, err := g.Resolve(nil)
			if err != nil {
				b.Fatal(err)
			}
			state, err := g.New(opts, g.StartSeats(), 1)
			if err != nil {
				b.Fatal(err)
			}
			type ply struct {
				state rules.Engine
				seat  rules.Seat
				move  string
			}
			var plies []ply
			for len(plies) < 200 && !state.Outcome().Over {
				seat := state.ToMove()[0]
				move := state.Legal(seat)[0]
				next, err := state.Apply(seat, move)
				if err != nil {
					b.Fatal(err)
				}
				plies = append(plies, ply{state, seat, move})
				state = next
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := plies[i%len(plies)]
				next, err := p.state.Apply(p.seat, p.move)
				if err != nil {
					b.Fatal(err)
				}
				_ = next.Outcome()
				i++
			}
		})
	}
}
