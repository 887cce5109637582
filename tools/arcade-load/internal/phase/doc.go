// Package phase is the load tool's phases: idle (sessions that sit, on the floor server or in the
// arcade's lobby), play (rooms of two clients playing a game at a set pace, each move timed to the
// opponent's screen) and churn (pairs of clients that open rooms, play, misbehave and leave, then
// the server's figures and database checked against what they did), and the hostile phases
// (rooms-one-key, sessions-one-addr, replay-viewers, leaderboard: what one hostile player can
// take, each on arcades of its own; arcades.go).
package phase
