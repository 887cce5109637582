package lhexicon

import "github.com/arcade/arcade/rules"

// Game describes Lhex-i'-con for the arcade.
var Game = rules.Game{
	ID:       "lhexicon",
	Name:     "Lhex-i'-con",
	Summary:  "words on paths of hexes; enclosed hexes score (1-4 players)",
	MinSeats: 1,
	MaxSeats: MaxSeats,
	// A new room is for two unless seats=1 asks for the solo game.
	DefaultSeats: 2,
	Options: []rules.Option{
		{Key: "check", Help: "how words are checked", Default: "auto", Choices: []string{"auto", "challenge"},
			Standard: []string{"auto", "challenge"}},
		{Key: "timer", Help: "turn timer", Default: "off", Choices: []string{"off", "competition"},
			Standard: []string{"off", "competition"}},
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

// notationText's lines fit the board's 51 columns at 80 x 24, where the move prompt shows them.
const notationText = `"h8 cruel e,se,e,ne": start hex, word, directions
(e se sw w nw ne); upper case: a blank; qu: Qu.
"x ab?" exchange, "s h8" swap, "pass", "challenge",
"accept", "end" (solo).`

const rulesText = `LHEX-I'-CON - words along paths of hexes, 1 to 4 players

THE BOARD  A hexagon of 169 hexes, 8 on a side. Rows a to o from the
top, hexes numbered from 1 at the left of each row; h8 is the centre.
DIRECTIONS  A hex has six neighbours: e and w (right and left, in its
row), ne and nw (up right and up left, in the row above), se and sw
(down right and down left, in the row below).

TILES  100: 98 letters and 2 blanks (?). Each player holds 7.
  A1 B3 C3 D2 E1 F4 G2 H4 I1 J8 K5 L1 M3 N1 O1 P3 Qu10 R1 S1 T1 U1
  V4 W4 X8 Y4 Z10, blank 0. The Qu tile spells the two letters QU.

A WORD  is a path of hexes, each next to the one before, read in order:
straight, zig-zag, backwards or upside down, no hex twice, 2 letters
or more, in the dictionary. A play places tiles from your rack and
names one word that uses every tile placed. The first word covers the
centre; every later word uses a tile already on the board.

CONTACT  Every tile on the board that touches a tile you place must be
part of your word:
      C O D E D           C O D E D        L touches C and O,
     R                   R     L           but the word CRUEL
      U E L               U E              does not use the O:
    CRUEL: correct      CRUEL: refused     refused.

SCORE  The values of every tile of the word, plus the trap bonus.

TRAPS  A trap is a group of empty hexes enclosed by tiles, not touching
the board's edge. A play that makes a new trap earns 3 points for each
of its hexes; so does each trap of a play that splits a trap in two or
more. Filling part of a trap without splitting it earns nothing.
      A B C          The word that closes this ring encloses
     H . . D         2 empty hexes: 3 x 2 = 6 more points.
      G F E          Along the edge, nothing is a trap.

BLANKS  Name the letter when you play one (upper case: "h8 cAt e,e");
it stays that letter. On your turn you may instead swap a blank on the
board for that letter from your rack and take the blank ("s h8"; both
blanks at once: "s h8 c3").

OTHER TURNS  Exchange tiles with the bank, as many as it holds ("x ab"),
or pass ("pass").

CHECK  auto (default): a word not in the dictionary is refused; try
again. challenge: a word stands unless an opponent challenges it
before the next play ("challenge", or "accept"); not a word: it is
withdrawn and scores nothing; a word: the challenger loses a turn.

TIMER  off (default), or competition: 3 minutes a turn.

THE END  When the bank is empty and a player has used every tile, or
after every player has passed or exchanged twice in a row. Highest
score wins. Alone, play until the bank and rack are empty, or "end".

MOVES AND KEYS  On your turn the arrows move the cursor over the hexes
(up and down zig-zag between the offset rows). Enter (or space) on a
hex starts a word there; space on a tile already on the board makes it
the word's first hex. While a word is started, letters are tiles, in
either case: type a rack letter to place it on the empty hex under the
cursor, the word's next hex; space marks the tile under the cursor as
the word's next hex. Spell the word in reading order: letters typed on
go on along the row (move the cursor between letters to bend the word
another way). The board shows the word and its score (letters plus
trap bonus) as you go, or why it is not a play yet; enter plays it,
bksp undoes the last hex, esc clears the word. Nothing is sent before
enter.
  q is the Qu tile. * then a letter plays the blank as that letter; a
  letter you do not hold takes the blank too. On the board a blank is
  a lower-case letter, worth 0.
With no word started, letters are commands, as in every room (t chat,
u takeback, R resign):
  x exchange: type the letters to give back (* a blank), then enter.
  s on a blank of the board, then enter: swap it for your tile of its
  letter. p passes and e ends a solo game: both ask, enter says yes.
  c challenges a word that may be challenged (it asks), a accepts it.
  h suggests a word for your rack, in casual rooms only (a match
  with a bot, a guest or settings that are not standard; never one
  that is rated or goes on the solo table).
Or type any move after ":" in the notation above, e.g. ":h8 cruel
e,se,e,ne", ":x ab?", ":s h8", ":pass", ":challenge", ":accept", ":end".
Rows are a (top) to o, hexes numbered from 1 at the left of each row:
each row is labelled with its first and last hex, e.g. "a1 ... a8".
`
