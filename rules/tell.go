package rules

// Teller is implemented by engines that can write a move in their canonical notation and tell it
// in words. A room records the canonical form, whatever a player typed (a bare square, a seat
// letter, another case); a replay shows the words. Both are asked of the state before the move.
type Teller interface {
	// Canonical returns move, as seat may play it now, in the game's canonical notation (the form
	// Legal lists); false when Apply would refuse it.
	Canonical(seat Seat, move string) (string, bool)
	// Tell says in plain words what move, by seat now, does: a phrase that starts with a verb and
	// names no player, e.g. "builds a castle on a3" or "draws a red card". A move Apply would
	// refuse is told as it is written.
	Tell(seat Seat, move string) string
}

// CanonicalMove returns move in e's canonical notation when e is a Teller and takes it from seat
// now, else move unchanged.
func CanonicalMove(e Engine, seat Seat, move string) string {
	if t, ok := e.(Teller); ok {
		if c, ok := t.Canonical(seat, move); ok {
			return c
		}
	}
	return move
}

// TellMove says in words what move by seat does in e (Teller.Tell), or returns move as written
// when e is not a Teller.
func TellMove(e Engine, seat Seat, move string) string {
	if t, ok := e.(Teller); ok {
		return t.Tell(seat, move)
	}
	return move
}

// Annotator is implemented by engines whose notation leaves out what a move shows everybody
// (Coloretta's "d" names no card). A move list writes the note after the move's notation.
type Annotator interface {
	// Annotate returns a few words on what move, by seat now, shows ("red", "red, +2"), or ""
	// when the notation says it all or Apply would refuse the move.
	Annotate(seat Seat, move string) string
}

// AnnotateMove returns e's note on move by seat (Annotator.Annotate), or "" when e is not an
// Annotator.
func AnnotateMove(e Engine, seat Seat, move string) string {
	if a, ok := e.(Annotator); ok {
		return a.Annotate(seat, move)
	}
	return ""
}

// Concealer is implemented by engines whose notation of a move shows what only its mover may know
// (the tiles a Lhex-i'-con exchange gives back). While the match goes on, a room shows the others
// the concealed form; the record keeps the move as played.
type Concealer interface {
	// Conceal returns move as the other players may read it ("x 3 tiles"), or move itself when it
	// shows nothing private.
	Conceal(move string) string
}

// ConcealMove returns e's concealed form of move (Concealer.Conceal), or "" when e is not a
// Concealer or the move shows nothing private.
func ConcealMove(e Engine, move string) string {
	if c, ok := e.(Concealer); ok {
		if shown := c.Conceal(move); shown != move {
			return shown
		}
	}
	return ""
}
