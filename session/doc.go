// Package session holds the Bubble Tea models of one player's terminal: the lobby (new room, join
// by code, open rooms, help), the room (board, seats, turn, scores, chat, log) and the end of a
// match. It knows nothing of SSH: package sshd builds a Model per SSH session from a Config.
//
// Room updates arrive through a feed: a goroutine per subscription that takes the snapshots off the
// subscription's channel and sends them to the program (Config.Send); the room itself never calls
// into the program. Frames are drawn only when
// something changed: no cursor blinks, no clocks, except a one-second tick while a dropped seat's
// countdown is on screen.
package session
