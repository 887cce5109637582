package draw

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// Board draws one game's board and turns keys and clicks on it into moves. Each game has one,
// in games/<game>view/board.go, named in the catalogue (package games). A board lives in one session
// (it keeps that session's cursor and what it drew), and is called on that session's goroutine
// only.
type Board interface {
	// Handle is given a key, or a click with coordinates relative to the board's top-left corner,
	// while the board has focus; it returns a move in notation to propose, or "".
	Handle(msg tea.Msg, snap *rooms.Snapshot) string
	// View draws the board in at most width x height cells.
	View(snap *rooms.Snapshot, st Styles, width, height int) []string
	// Status returns the game's lines for the side panel: what happened last, what is left.
	Status(snap *rooms.Snapshot, st Styles, width int) []string
	// Bindings lists the board's own bindings for the help line; the caller must not change the
	// slice (a board may return the same one every time).
	Bindings() []key.Binding
	// Score returns seat's score as shown beside its name.
	Score(snap *rooms.Snapshot, seat int) string
}

// SeatLabeler is implemented by boards whose game names its seats otherwise than the room's Red,
// Blue, Green, Yellow, Magenta: DISCON by its own colours (Red, Green, Yellow, Orange), Coloretta by
// number, since its cards have colours. letter is one character, or empty for none; name is drawn
// in the colour of that name when there is one (Styles.Colour).
type SeatLabeler interface {
	SeatLabel(seat int) (letter, name string)
}

// TurnTeller is implemented by boards whose game says what there is to do on a turn. The room
// says whose turn it is for every game ("Your turn", "Waiting for bob (Blue)"); a TurnTeller adds
// the what: "Your turn: draw (d) or pick a stack (1 or 2)", "Waiting for bob (Seat 2) to place
// the red card."
type TurnTeller interface {
	// TurnText returns what the viewer is to do when it is their turn (yours), and what the seat
	// to move is to do otherwise (theirs, read after the seat's name: "to draw or pick"); either
	// may be empty.
	TurnText(snap *rooms.Snapshot) (yours, theirs string)
}

// KeyHelper is implemented by boards whose keys do different things as the game goes on: Flic
// Flac's enter picks and moves on the player's turn, Lhex-i'-con's c and a answer a word awaiting
// challenges. The room asks it for the help line in place of Bindings, and asks it for a
// spectator's too (Flic Flac's spectators move a cursor to look at the pieces).
type KeyHelper interface {
	// HelpKeys lists the board's bindings for the help line now; the caller must not change the
	// slice.
	HelpKeys(snap *rooms.Snapshot) []key.Binding
}

// KeyTaker is implemented by boards that need, at times, keys the room has bound: Lhex-i'-con's
// board takes the letters while a word is composed (they are tiles, t, q and R among them) and
// esc while anything is. The room asks before its own bindings; a key taken goes to Handle.
type KeyTaker interface {
	// TakesKey reports whether the board takes km now, before the room's bindings.
	TakesKey(km tea.KeyPressMsg, snap *rooms.Snapshot) bool
}

// Sizer is implemented by boards that can be drawn in less room than at 80 x 24: in a compact
// drawing (Stone Towers' squares of two columns, Coloretta's table without the card's box), or
// without the lines of help under the grid, which View leaves out, last first, when it is given
// fewer rows than they take. MinSize is the smallest width x height in which View draws snap with
// all a player needs to play it (the grid, a rack). The room lays a small window out from it
// (session/roomlayout.go), and says what window the board needs when it does not fit.
type Sizer interface {
	MinSize(snap *rooms.Snapshot) (width, height int)
}

// Asker is implemented by boards some of whose moves give up something that a key pressed by
// mistake must not: Lhex-i'-con's pass and challenge, the end of a solo game. The room asks
// before it proposes such a move made by a key (Keys.Yes says yes, any other key no); a move
// typed at the move prompt is proposed at once.
type Asker interface {
	// Ask returns what to ask before proposing mv, made by a key, and what yes does, for the
	// help line ("pass"); an empty question proposes mv at once.
	Ask(mv string, snap *rooms.Snapshot) (question, yes string)
}

// ViewRef finds the game's view in a snapshot, given by the engine as a *T, without copying it:
// for views too large to copy at every frame (DISCON's is about 7 KB). The view is shared by every
// session the room shows it to: read it only.
func ViewRef[T any](snap *rooms.Snapshot) (*T, bool) {
	v, ok := snap.View.(*T)
	return v, ok && v != nil
}

// ViewOf finds the game's view of type T in a snapshot (engines give it as a value or a pointer).
func ViewOf[T any](snap *rooms.Snapshot) (T, bool) {
	switch v := snap.View.(type) {
	case T:
		return v, true
	case *T:
		if v != nil {
			return *v, true
		}
	}
	var zero T
	return zero, false
}

// SeatLabel returns seat i's letter and name as board names it (SeatLabeler), or the room's:
// "R" and "Red".
func SeatLabel(b Board, i int) (letter, name string) {
	if l, ok := b.(SeatLabeler); ok {
		return l.SeatLabel(i)
	}
	return SeatLetter(i), SeatName(i)
}
