package flicflac

import (
	"strconv"

	"github.com/arcade/arcade/rules"
)

// Game describes Flic Flac for the arcade.
var Game = rules.Game{
	ID:       "flicflac",
	Name:     "Flic Flac",
	Summary:  "timed hex combat on the colour wheel (2 players)",
	MinSeats: 2,
	MaxSeats: 2,
	Options: []rules.Option{
		{Key: "size", Help: "the board's side in hexes", Default: "8", Min: MinSide, Max: MaxSide},
		{Key: "target", Help: "captures that win (with a lead of 2)", Default: "11", Min: 1, Max: 99},
		{Key: "timer", Help: "seconds a turn (0: untimed)", Default: "20", Min: 0, Max: 600, Unit: "s"},
		{Key: "captors", Help: "seconds a captors' turn (0: untimed)", Default: "10", Min: 0, Max: 600, Unit: "s"},
		{Key: "events", Help: "chance of a random event after a turn, in %", Default: "1", Min: 0, Max: 100, Unit: "%",
			Standard: []string{"0", "1"}},
		{Key: "limit", Help: "turns in all; then more captures wins", Default: "200", Min: 1, Max: 2000, GuestMax: 400},
		{Key: "shape", Help: "the first player's pieces (cylinders move first)", Default: "random",
			Choices: []string{"random", "cylinders", "blocks"}},
	},
	New: New,
	Bots: []rules.BotLevel{
		{Name: "easy", Bot: Easy{}},
		{Name: "greedy", Bot: Greedy{}},
		{Name: "hard", Bot: Hard{}},
	},
	Rules:    rulesText,
	Notation: notationText,
}

// Options returns the room options of cfg, as Game.Options reads them.
func (c Config) Options() rules.Options {
	shape := "random"
	if !c.RandomShape {
		shape = c.Shape.Plural()
	}
	return rules.Options{"size": strconv.Itoa(c.Side), "target": strconv.Itoa(c.Target),
		"timer": strconv.Itoa(c.TurnSeconds), "captors": strconv.Itoa(c.CaptorSeconds),
		"events": strconv.Itoa(c.EventPercent), "limit": strconv.Itoa(c.Limit), "shape": shape}
}

// notationText's lines fit the board's column at 80 x 24, where the move prompt shows them.
const notationText = `"B h8": your blue piece to h8 (B G Y O R P);
"u B": the blue piece back; "end": end the turn.`

const rulesText = `FLIC FLAC - timed hex combat for 2 players

THE BOARD  A hexagon of hexes, 8 on a side (option size 5 to 8), in
rows a to o from the top; the hexes of a row are numbered from the
left: the top row a1 to a8, the middle row h1 to h15, the centre h8.
One hex in three is black; every black hex is ringed by six coloured
ones.

THE WHEEL  Blue, Green, Yellow, Orange, Red, Purple, and round again.
Opposites: blue-orange, green-red, yellow-purple.
            B
        P       G          A piece of colour c shows two colours on
                           top ("flies" them): upright c+1 and c+2,
        R       Y          flipped c+4 and c+5. So the blue piece
            O              flies G Y upright, R P flipped.

PIECES  Each player has 6, one of each colour: one player cylinders,
the other blocks. Cylinders move first. All start at home, upright.
A piece standing on a hex of its own colour is EMPOWERED.

ENTERING  From home a piece moves onto any free hex of its edge
(named here for side 8):
  cylinders B R Y  the upper right edge, a8 to h15 (rows' right ends)
  cylinders O G P  the lower left edge, h1 to o1 (rows' left ends)
  blocks    B R Y  the upper left edge, a1 to h1 (rows' left ends)
  blocks    O G P  the lower right edge, h15 to o8 (rows' right ends)

A TURN  Move any of your pieces, each at most once, in any order, or
none; then "end" (or let the timer run out: 20 s, option timer). A
piece moves to a free neighbouring hex, or 2 or 3 steps through free
COLOURED hexes (never through black hexes or other pieces). Landing on
a black hex FLIPS the piece, entering from home too. Until the turn
ends, "u B" takes the blue piece back where it stood, unflipped, and
it may move again.

HEALTH  is counted after every move. For every two touching pieces
where A flies D's body colour (k = 2 if A is empowered, else 1):
  same shape (friends)    D +k
  different shapes        D -k, A +k, and D -20 more when D does not
                          fly A's body colour (defenceless)
A piece below 0 is grey: due to be captured.
    (Rc)(Yb)   The red cylinder on a red hex (empowered), flipped,
               flies Y O: it hits the yellow block, -2. The yellow
               block, upright, flies O R: it hits back, -1, so it is
               not defenceless. Red +2-1 = +1; yellow +1-2 = -1: grey.

CAPTURES  When a turn ends, every piece below 0, of either side, goes
home upright and its owner's opponent scores 1. Your pieces touching a
captured enemy whose colour they fly are CAPTORS: you get a captors'
turn (10 s, option captors) in which only they move, once each, a
captured captor from home. New captors give another captors' turn.

WINNING  11 captures (option target) with a lead of at least 2 wins,
checked after each round of captures. After 200 turns in all (option
limit) more captures wins; equal is a draw.

EVENTS  After a turn, a 1% chance (option events; 0: none) of:
  Tumbling Wind  every piece on the board flips
  Recall         every piece of a pair of opposite colours goes home
  Sink Holes     pieces on hexes of a pair of opposite colours go home
  Hex Slide      the colours turn 60 degrees about the centre; black
                 hexes stay

MOVES AND KEYS  Arrows (or h j k l) move the cursor over the board and
the homes; enter (or space) picks the piece under it, and the hexes it
may reach are marked +; enter on one of them moves it there. n picks
your next piece that may move, backspace takes a moved piece back (the
one under the cursor, or the only one moved), e ends the turn (the
timer does it too), esc un-picks. ':' lets you type a move: "B h8"
moves your blue piece to h8 (letters B G Y O R P; "blue h8" and "b>h8"
work too), "u B" takes it back, "end" ends the turn. Replays write
"B h8", "u B" and "end".

THE SCREEN  A free hex shows its colour's letter, b g y o r p, or a dot
for black. A piece shows its colour's letter between ( ) for a
cylinder or [ ] for a block: upper case upright, lower case flipped;
the closing mark is * when it is empowered and ! when it is due to be
captured (grey). The homes are in the corners, beside the edge their
pieces enter on. The line under the board tells the hex and piece
under the cursor: health, the colours it flies, where it moved from.
With a piece picked and the cursor on a hex marked +, the next line
previews the move: "B to g12: (B) +0->+1, [P] +0->-21 captured" is
the health each piece it touches would have, before -> after.
`
