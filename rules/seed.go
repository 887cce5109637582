package rules

import "hash/fnv"

// DerivedSeed returns a match seed that follows from a room code and the match's number in the
// room (1 for the first): the seeds of a server started for load testing (arcade
// --load-test-seeds), so that a load tool that knows a room's code can build the same engine as
// the room and choose legal moves in games with hidden cards or random set-ups. Never for real
// play: anyone who knows the code could know the cards.
func DerivedSeed(code string, match int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(code))
	x := h.Sum64() + uint64(match)*0x9e3779b97f4a7c15
	// splitmix64's finaliser, so that neighbouring codes and matches give unrelated seeds.
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
