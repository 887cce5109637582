package lhexicon

import (
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

var _ rules.Reshuffler = (*State)(nil)

// Reshuffle returns the state with the bank shuffled anew from the match seed and salt
// (rules.Reshuffler): a room does it at a takeback, with fresh randomness it records, so that the
// tiles drawn after a move taken back are not those the player saw drawn. Nothing else changes:
// the board, the racks, the scores, whose turn it is.
func (s *State) Reshuffle(salt uint64) rules.Engine {
	n := *s
	rng := rand.New(rand.NewPCG(s.seed^0x7265736875666c65, salt))
	rng.Shuffle(n.nbag, func(i, j int) { n.bag[i], n.bag[j] = n.bag[j], n.bag[i] })
	return &n
}
