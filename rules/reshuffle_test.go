package rules

import (
	"slices"
	"testing"
)

// shuffled is an engine that counts its reshuffles' salts.
type shuffled struct {
	Engine
	salts []uint64
}

func (s shuffled) Reshuffle(salt uint64) Engine {
	return shuffled{salts: append(slices.Clone(s.salts), salt)}
}

// TestReshuffled: a replay makes the reshuffles of a ply in order, and no other; a takeback keeps
// those made before its ply.
func TestReshuffled(t *testing.T) {
	rs := []Reshuffle{{Ply: 0, Salt: 1}, {Ply: 2, Salt: 2}, {Ply: 2, Salt: 3}, {Ply: 5, Salt: 4}}
	if got := Reshuffled(shuffled{}, rs, 2).(shuffled).salts; !slices.Equal(got, []uint64{2, 3}) {
		t.Errorf("at ply 2: %v", got)
	}
	if got := Reshuffled(shuffled{}, rs, 1).(shuffled).salts; len(got) != 0 {
		t.Errorf("at ply 1: %v", got)
	}
	if got := TakenBackTo(rs, 2); !slices.Equal(got, rs[:1]) {
		t.Errorf("a takeback to 2 keeps %v", got)
	}
}
