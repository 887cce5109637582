package rooms

import "errors"

// Errors returned by the hub, rooms and subscriptions. Match them with errors.Is; their texts are
// written for players.
var (
	// ErrNoRoom: Find was given a code that names no open room.
	ErrNoRoom = errors.New("no room with that code")
	// ErrTooManyRooms: the hub already holds Config.MaxRooms rooms.
	ErrTooManyRooms = errors.New("too many rooms are open; try again later")
	// ErrRoomShare: the creator (a key, or a guest's address) already holds its share of rooms
	// waiting for players (Shares.WaitingPerKey), none of them empty.
	ErrRoomShare = errors.New("you already have as many rooms waiting for players as one player may")
	// ErrAddrRoomShare: the creator's address already holds its share of rooms waiting for
	// players (Shares.WaitingPerAddr), none of them empty.
	ErrAddrRoomShare = errors.New("your address already has as many rooms waiting for players as one address may")
	// ErrUnfinishedShare: the creator already holds its share of rooms whose match is waiting
	// or being played (Shares.Unfinished).
	ErrUnfinishedShare = errors.New("you already have as many unfinished matches as one player may")
	// ErrTooManySpectators: the room already has Shares.SpectatorsPerRoom spectators.
	ErrTooManySpectators = errors.New("this room has as many spectators as it takes")
	// ErrTooManyAttempts: the player has given too many unknown codes lately.
	ErrTooManyAttempts = errors.New("too many attempts with unknown codes; wait a minute and try again")
	// ErrNoSuchGame: Create was given an unknown game ID.
	ErrNoSuchGame = errors.New("no such game")
	// ErrBadSeats: Create was given a number of seats the game does not allow.
	ErrBadSeats = errors.New("wrong number of seats")
	// ErrShuttingDown: the hub has been shut down and takes no new rooms.
	ErrShuttingDown = errors.New("the server is shutting down")
	// ErrRoomClosed: the room has ended (shutdown or expiry).
	ErrRoomClosed = errors.New("the room is closed")
	// ErrNoPlayer: Join was given a Player without an ID.
	ErrNoPlayer = errors.New("a player needs an identity")
	// ErrLeft: the subscription has ended (Leave was called).
	ErrLeft = errors.New("you have left this room")
	// ErrReplaced: the subscription was replaced by a newer connection of the same player.
	ErrReplaced = errors.New("this room is open in another session of yours")
	// ErrNotSeated: a spectator tried something only players may do.
	ErrNotSeated = errors.New("you are watching, not playing")
	// ErrSlowDown: too many chat lines in a short time.
	ErrSlowDown = errors.New("slow down: too many messages")
	// ErrEmptyChat: a chat line with nothing printable in it.
	ErrEmptyChat = errors.New("say something")
	// ErrNoSuchSeat: a seat number outside the table.
	ErrNoSuchSeat = errors.New("no such seat")
	// ErrSeatTaken: the seat is not free.
	ErrSeatTaken = errors.New("that seat is taken")
	// ErrInGrace: the seat's player dropped but may still come back.
	ErrInGrace = errors.New("that player may still come back; wait for the countdown")
	// ErrNoSuchBot: the game has no bot of that level (or no bots at all).
	ErrNoSuchBot = errors.New("no such bot")
	// ErrNotPlaying: the action needs a match in progress.
	ErrNotPlaying = errors.New("no match is being played")
	// ErrNotFinished: a rematch needs a finished match.
	ErrNotFinished = errors.New("the match is not over")
	// ErrNotAbandoned: EndMatch needs a seat whose countdown has run out.
	ErrNotAbandoned = errors.New("no seat has been abandoned")
	// ErrNotSaved: the Recorder refused the move; nothing changed.
	ErrNotSaved = errors.New("the move could not be saved; try again")
	// ErrStorageDown: the Recorder refused the move and can save nothing more until the server
	// is restarted (its disk failed); nothing changed, and the match comes back after the
	// restart as it was. A Recorder says so by wrapping it in its error.
	ErrStorageDown = errors.New("the server cannot save moves until it is restarted; the match is kept as it was")
)
