package rules

// Reshuffler is an engine with hidden draws (a bank of tiles, a deck) that a takeback would
// otherwise give away: the moves taken back are replayed from the same seed, so a player who takes
// a move back has seen what they would draw next. Reshuffle returns the state with its hidden,
// undrawn part shuffled anew from salt (with the match's seed): what the players have seen (their
// own hands, the board) is unchanged, and so is whose turn it is. A room reshuffles at every
// takeback with fresh randomness and records it (a Reshuffle), so a replay or a resume draws what
// the match drew.
type Reshuffler interface {
	Engine
	Reshuffle(salt uint64) Engine
}

// Reshuffle records that a match's hidden draws were shuffled anew (Reshuffler) when its first
// Ply moves had been played: after move Ply-1, before move Ply (0: before the first).
type Reshuffle struct {
	Ply  int    `json:"ply"`
	Salt uint64 `json:"salt"`
}

// Reshuffled returns e, after ply moves, with the reshuffles of rs made at ply applied in order:
// what a replay does at every ply, before the move of that number (and after the last move). An
// engine that is not a Reshuffler is returned as it is.
func Reshuffled(e Engine, rs []Reshuffle, ply int) Engine {
	r, ok := e.(Reshuffler)
	if !ok {
		return e
	}
	for _, x := range rs {
		if x.Ply == ply {
			e = r.Reshuffle(x.Salt)
			if r, ok = e.(Reshuffler); !ok {
				return e
			}
		}
	}
	return e
}

// TakenBackTo returns the reshuffles of rs that a takeback to ply keeps: those made before it
// (Ply < ply). The takeback's own reshuffle is then added at ply.
func TakenBackTo(rs []Reshuffle, ply int) []Reshuffle {
	var out []Reshuffle
	for _, x := range rs {
		if x.Ply < ply {
			out = append(out, x)
		}
	}
	return out
}
