package stonetowers

import (
	"fmt"
	"strconv"

	"github.com/arcade/arcade/rules"
)

// Game describes Stone Towers for the arcade.
var Game = rules.Game{
	ID:       "stonetowers",
	Name:     "Stone Towers",
	Summary:  "Build and fortify castles; the stronger influence takes the land.",
	MinSeats: 2,
	MaxSeats: 2,
	Options: []rules.Option{
		{Key: "size", Help: "board width and height", Default: strconv.Itoa(DefaultSize), Min: MinSize, Max: MaxSize},
		{Key: "turns", Help: "turns per player", Default: strconv.Itoa(DefaultTurns), Min: MinTurns, Max: MaxTurns},
	},
	New:      newGame,
	Bots:     []rules.BotLevel{{Name: "easy", Bot: Easy{}}, {Name: "greedy", Bot: Greedy{}}, {Name: "hard", Bot: Hard{}}},
	Rules:    rulesText,
	Notation: notation,
}

// newGame is Game.New. The seed is unused: Stone Towers has no randomness.
func newGame(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
	if seats != 2 {
		return nil, fmt.Errorf("Stone Towers is for 2 players, not %d", seats)
	}
	return NewState(opts.Int("size", DefaultSize), opts.Int("turns", DefaultTurns))
}

const notation = `"b e5" builds on e5, "f e5" fortifies e5, "pass" passes; "e5" alone does
what is possible there. Columns a.. from the left, rows 1.. from the top.`

const rulesText = `STONE TOWERS

Two players, Red and Blue, share a square board (12 x 12 unless the
room chose otherwise). Red moves first, then the turns alternate.

A square is unowned, a flag (land of a player, no castle), or a castle
of a player with level 1, 2 or 3. A castle's square is its owner's land.

On your turn you do exactly one thing:
  build    a level-1 castle on an unowned square or on your own flag
           (never on the enemy's land);
  fortify  one of your castles by one level, up to level 3;
  pass     only when you can neither build nor fortify.

INFLUENCE. A player's influence on a square is the level of that
player's castle on the square itself, plus the levels of that player's
castles on the four squares next to it (up, down, left, right). Flags
give no influence.

After every action the board is settled. Both players' influence on
every square is counted at once; each square where one player has
strictly more goes to that player. An enemy castle there is destroyed
and the square becomes the winner's flag; an unowned square or an enemy
flag becomes the winner's flag. Equal influence leaves a square as it
was. This repeats until nothing changes: a fallen castle weakens its
neighbours, which may fall in turn. That is the domino effect, and one
action can bring down a whole row of castles.

THE END. The game ends when each player has played all their turns (25
each unless the room chose otherwise). Your score is the number of
squares you own, flags and castles. More squares wins; equal is a draw.

Tips: a short game is a race for land. In a long game, guard your
borders with strong castles that support each other; the board's edges
need no guard, and the enemy cannot build on your land.

MOVES AND KEYS. Arrows or h j k l move the cursor. Enter (or space)
builds on the cursor's square, or fortifies your castle there; a click
puts the cursor on a square and a second click plays there. p passes
(only allowed when you can neither build nor fortify). ':' lets you
type a move: "b e5" builds on e5, "f e5" fortifies the castle on e5,
"pass" passes. "build e5", "fortify e5", "be5" and a bare "e5" (the
one action possible there) work too; case does not matter. Columns are
letters a, b, c, ... from the left; rows are numbers 1, 2, 3, ... from
the top, so a1 is the top-left corner. Replays write every move as
"b e5" or "f e5".
`
