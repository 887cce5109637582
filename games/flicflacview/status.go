package flicflacview

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// TurnLine is the side panel's first line: "Turn 12 of 200, to 11". The load tool follows a match
// by it.
func TurnLine(v *flicflac.View) string {
	return fmt.Sprintf("Turn %d of %d, to %d", v.TurnNumber, v.Limit, v.Target)
}

// NoneMoved is MovedLine before a piece has moved in a turn.
const NoneMoved = "Moved: none yet"

// MovedLine is the side panel's second line: the pieces moved this turn ("Moved: B R"), or in a
// captors' turn the captors and those moved ("Captors: B R; moved B"); "" while no one is to move.
// The load tool follows a turn's moves by it.
func MovedLine(v *flicflac.View) string {
	if v.Turn < 0 {
		return ""
	}
	var moved, captors []string
	for c := range flicflac.Colour(flicflac.Colours) {
		p := v.Piece(v.Turn, c)
		if p.Moved {
			moved = append(moved, string(c.Letter()))
		}
		if p.Captor {
			captors = append(captors, string(c.Letter()))
		}
	}
	if v.CaptorsTurn {
		t := "Captors: " + strings.Join(captors, " ")
		if len(moved) > 0 {
			t += "; moved " + strings.Join(moved, " ")
		}
		return t
	}
	if len(moved) == 0 {
		return NoneMoved
	}
	return "Moved: " + strings.Join(moved, " ")
}

// Status returns the side panel's lines: the turn and the target, what moved this turn (the
// captors in a captors' turn), and what the last turn's end did: captures, score, event.
func (b *board) Status(snap *rooms.Snapshot, st draw.Styles, width int) []string {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok {
		return nil
	}
	b.shapes, b.known = v.Shapes, true
	k := statusKey{view: v, width: width, noColor: st.NoColor, ascii: st.ASCII, moves: len(snap.Moves)}
	if b.status != nil && k == b.statusKey {
		return b.status // the clock's ticks redraw the panel every second; the status is the same
	}
	lines := []string{TurnLine(v)}
	if m := MovedLine(v); m != "" {
		lines = append(lines, m)
	}
	if who, did := lastText(v, snap); did != "" {
		lines = append(lines, draw.Fill(append(append([]string{"Last:"}, nameWords(who)...), didWords(did)...), width)...)
	}
	b.status, b.statusKey = lines, k
	return lines
}

// statusKey is what the status lines depend on besides the players' names.
type statusKey struct {
	view           *flicflac.View
	width, moves   int
	noColor, ascii bool
}

// nameWords are a player's name as words to fill lines with, a bot's level kept whole: "Bo",
// "(greedy bot)".
func nameWords(name string) []string {
	if i := strings.Index(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		return append(strings.Fields(name[:i]), name[i+1:])
	}
	return strings.Fields(name)
}

// didWords are what a turn did as words to fill lines with, a piece kept with its hex ("R g1,")
// and a side with its score ("Blocks +1").
func didWords(did string) []string {
	var out []string
	fields := strings.Fields(did)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if i+1 < len(fields) && (len(f) == 1 && strings.Contains("BGYORP", f) || f == "Blocks" || f == "Cylinders") {
			f += " " + fields[i+1]
			i++
		}
		out = append(out, f)
	}
	return out
}

// lastText says who played the latest turn, by their whole name ("Bo (greedy bot)"), and what
// it did: "moved Y a1, R b1; ended, captured (R) (Y), Blocks +2; Tumbling Wind".
func lastText(v *flicflac.View, snap *rooms.Snapshot) (who, did string) {
	r := v.LastTurn
	if r.Seat < 0 {
		return "", ""
	}
	var parts []string
	if moved := turnMoves(snap, r.Seat); moved != "" {
		parts = append(parts, "moved "+moved)
	}
	if r.Captured != 0 {
		var cs []string
		for _, p := range flicflac.PiecesIn(r.Captured) {
			cs = append(cs, pieceTag(v, p))
		}
		t := "ended, captured " + strings.Join(cs, " ")
		for seat, n := range r.Scored {
			if n > 0 {
				t += fmt.Sprintf(", %s +%d", shapeName(v.Shapes[seat]), n)
			}
		}
		parts = append(parts, t)
	} else {
		parts = append(parts, "ended, no captures")
	}
	if r.Event != flicflac.NoEvent {
		e := r.Event.String()
		if r.Event == flicflac.Recall || r.Event == flicflac.SinkHoles {
			e += fmt.Sprintf(" (%c %c)", r.Pair.Letter(), r.Pair.Opposite().Letter())
		}
		parts = append(parts, e)
	}
	if v.Last.Captors != 0 && v.CaptorsTurn {
		var cs []string
		for _, p := range flicflac.PiecesIn(v.Last.Captors) {
			cs = append(cs, pieceTag(v, p))
		}
		parts = append(parts, "captors "+strings.Join(cs, " "))
	}
	return playerName(snap, r.Seat), strings.Join(parts, "; ")
}

// turnMoves lists where seat's latest turn (its captors' turns with it) left the pieces it moved,
// from the room's move log: "Y a1, R b1". A piece taken back and not moved again is left out.
func turnMoves(snap *rooms.Snapshot, seat rules.Seat) string {
	i := len(snap.Moves) - 1
	for i >= 0 && snap.Moves[i].Seat != seat {
		i--
	}
	var seen [flicflac.Colours]bool
	var out []string
	for ; i >= 0 && snap.Moves[i].Seat == seat; i-- {
		m, err := flicflac.ParseMove(snap.Moves[i].Move)
		if err != nil || m.Kind == flicflac.End || seen[m.Colour] {
			continue
		}
		seen[m.Colour] = true
		if m.Kind == flicflac.Place {
			out = append(out, string(m.Colour.Letter())+" "+m.To)
		}
	}
	slices.Reverse(out)
	return strings.Join(out, ", ")
}

// pieceTag names a piece as the board draws it at home: "(R)" the red cylinder, "[R]" the red
// block.
func pieceTag(v *flicflac.View, p flicflac.PieceID) string {
	if v.Shapes[p.Seat&1] == flicflac.Block {
		return "[" + string(p.Colour.Letter()) + "]"
	}
	return "(" + string(p.Colour.Letter()) + ")"
}

// shapeName is "Cylinders" or "Blocks": a seat's name.
func shapeName(sh flicflac.Shape) string {
	n := sh.Plural()
	return strings.ToUpper(n[:1]) + n[1:]
}

// TurnText says what the viewer is to do on their turn, and what the seat to move is to do
// otherwise, for the room's turn line. When the board had no room under it for the hint (a
// compact window), the viewer's turn line previews the picked piece's move to the cursor's hex.
func (b *board) TurnText(snap *rooms.Snapshot) (yours, theirs string) {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok || v.Turn < 0 {
		return "", ""
	}
	if v.CaptorsTurn {
		var cs []string
		for c := range flicflac.Colour(flicflac.Colours) {
			if v.Piece(v.Turn, c).CanMove {
				cs = append(cs, pieceTag(v, flicflac.PieceID{Seat: v.Turn, Colour: c}))
			}
		}
		if len(cs) == 0 { // every captor has moved: only the end of the captors' turn is left
			return "captors' turn, e ends it", "to end the captors' turn"
		}
		return "captors' turn, move " + strings.Join(cs, " ") + ", e ends it",
			"to move captors " + strings.Join(cs, " ")
	}
	if !b.hintDrawn && b.lay != nil && myTurn(v, snap) {
		if p := b.preview(v); p != "" { // the board has no room under it: the preview goes here
			return p, "to move"
		}
	}
	return "move pieces, e ends the turn", "to move"
}

// Score is seat's captures.
func (b *board) Score(snap *rooms.Snapshot, seat int) string {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok || seat < 0 || seat > 1 {
		return ""
	}
	return strconv.Itoa(v.Captures[seat])
}

// SeatLabel names the seats by their shapes, "Cylinders" and "Blocks", with no letter (the
// letters are the pieces' colours), once a view has said which seat has which; "Seat 1" and
// "Seat 2" before (the room's Red and Blue would name two of the pieces' colours).
func (b *board) SeatLabel(seat int) (string, string) {
	if !b.known || seat < 0 || seat > 1 {
		return "", fmt.Sprintf("Seat %d", seat+1)
	}
	return "", shapeName(b.shapes[seat])
}

var (
	_ draw.SeatLabeler = (*board)(nil)
	_ draw.TurnTeller  = (*board)(nil)
)
