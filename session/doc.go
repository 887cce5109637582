// Package session holds the Bubble Tea models of one player's terminal: the lobby (new room, join
// by code, open rooms, help), the room (board, seats, turn, scores, chat, log) and the end of a
// match. It knows nothing of SSH: package sshd builds a Model per SSH session from a Config.
//
// The board of each game is drawn by the game's own board view (games/<game>view), which the session
// gets by game ID through Config.Boards; what boards and the session share is package draw.
//
// Room updates wake the program: the room leaves each snapshot on the subscription's channel and
// calls the model's wake, which has the session's waker goroutine (kept while wake-ups keep
// coming) send the program a message (at most one on its way per session), and the model takes the
// newest snapshot when it receives it; the room never waits for the program. Frames are drawn
// only when something changed: no cursor blinks, no clocks, except a tick while a dropped seat's
// countdown (every second) or a timed turn's clock (when the time shown changes) is on screen,
// sent by the same waker goroutine.
package session
