// Package rooms is the arcade's hub of rooms: rooms by code, and one actor per room that owns its
// seats, spectators, bots, chat and the match being played.
//
// # Model
//
// The design follows the hub of gorilla/websocket's chat example. A [Hub] maps room codes to rooms
// under a mutex. Each [Room] is one goroutine that owns all of the room's state; every public method
// sends a request into the room's inbox (and, where it returns something, waits for the answer).
// Nothing outside the room goroutine touches room state, and the room goroutine never blocks on a
// subscriber: each [Sub] receives its own [Snapshot] through a channel of capacity one with a
// non-blocking, coalescing send (a stale snapshot still in the channel is replaced by the newest),
// so a slow or stuck client never delays the room or the other players.
//
// # Matches
//
// The room is the only judge of legality: every move, from a player or a bot, goes through
// rules.Engine.Apply. An accepted move is handed to the optional [Recorder] before anyone sees it,
// then broadcast. Bots think in goroutines of their own, under a deadline, and submit their moves
// into the inbox like players; a move that arrives for a position that has changed meanwhile is
// dropped.
//
// A room goes Waiting -> Playing -> Finished (rematch offered, which leads back to Playing) and ends
// Closed when the hub shuts down or nobody has been connected to it for Config.EmptyExpiry.
//
// A room of one seat (a game whose MinSeats is 1) is a solo game: its match starts when its
// player sits down, ends by the engine, and its result is the score ("game over: ann scored 143"),
// not a winner; the Recorder keeps the score (the solo table) and rates nothing.
//
// # Seats
//
// A seat belongs to a player identity ([Player].ID), not to a connection. The newest connection of
// an identity takes over its seat from an older one. A seated player whose last connection goes away
// during a match drops: the seat waits Config.SeatGrace with a visible countdown, and the same
// identity takes it back by joining again. Once the countdown has run out, the others may hand the
// seat to a bot ([Sub.AddBot]) or end the match without rating ([Sub.EndMatch]).
//
// Time is read only through timers (time.AfterFunc) whose callbacks send into the inbox, for the
// seat grace, the expiry of empty rooms, the bots' thinking time and timed turns (a
// rules.TurnTimer engine's, see turnclock.go), and as wall-clock stamps on chat lines and
// countdowns. The engines themselves never see a clock.
package rooms
