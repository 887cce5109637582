package session

import (
	"context"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// Hub is what a session needs of the rooms: the hub of this process (Local) or one that reaches
// rooms on other arcade nodes too (package cluster).
type Hub interface {
	Games() []rules.Game
	// Create opens a room of the game for by (rooms.Hub.Create).
	Create(gameID string, opts rules.Options, seats int, by rooms.Player) (Room, error)
	// Find returns the room of the code (rooms.Hub.Find): rooms.ErrNoRoom when there is none.
	Find(code string, by rooms.Player) (Room, error)
	// List describes the open rooms, for the lobby.
	List() []rooms.Summary
	// Seek puts a player in the quick-match queue of a game (rooms.Hub.Seek).
	Seek(s rooms.Seek) (*rooms.Ticket, error)
}

// Room is a room a session can join: a *rooms.Room of this process (see Local), or a room that
// lives on another node.
type Room interface {
	Code() string
	// Join subscribes p to the room, on a seat or watching (rooms.Room.Join).
	Join(p rooms.Player, watch bool) (Sub, error)
}

// Sub is a session's subscription to a room, with the contracts of *rooms.Sub's methods of the
// same names: Updates and OnUpdate bring the snapshots; the others block until the room has
// answered.
type Sub interface {
	Updates() <-chan rooms.Snapshot
	OnUpdate(f func())
	Move(ctx context.Context, move string) error
	Chat(text string) error
	AddBot(seat rules.Seat, level string) error
	EndMatch() error
	Rematch() error
	Resign() error
	OfferDraw() error
	TakeBack() error
	Leave()
}

var _ Sub = (*rooms.Sub)(nil)

// Local is the Hub of the rooms of this process.
func Local(h *rooms.Hub) Hub { return localHub{h} }

type localHub struct{ *rooms.Hub }

func (h localHub) Create(gameID string, opts rules.Options, seats int, by rooms.Player) (Room, error) {
	r, err := h.Hub.Create(gameID, opts, seats, by)
	if err != nil {
		return nil, err
	}
	return LocalRoom(r), nil
}

func (h localHub) Find(code string, by rooms.Player) (Room, error) {
	r, err := h.Hub.Find(code, by)
	if err != nil {
		return nil, err
	}
	return LocalRoom(r), nil
}

// LocalRoom is the Room of a *rooms.Room of this process.
func LocalRoom(r *rooms.Room) Room { return localRoom{r} }

type localRoom struct{ *rooms.Room }

func (r localRoom) Join(p rooms.Player, watch bool) (Sub, error) {
	s, err := r.Room.Join(p, watch)
	if err != nil {
		return nil, err
	}
	return s, nil
}
