package discon

import "github.com/arcade/arcade/rules"

// Game describes DISCON for the arcade.
var Game = rules.Game{
	ID:       "discon",
	Name:     "DISCON",
	Summary:  "knight-jumping pieces build towers of coloured discs (2-4 players)",
	MinSeats: 2,
	MaxSeats: 4,
	Options: []rules.Option{{
		Key:     "variant",
		Help:    "how towers are built and scored",
		Default: Premium.String(),
		Choices: variantNames,
	}},
	New: New,
	Bots: []rules.BotLevel{
		{Name: "easy", Bot: EasyBot{}},
		{Name: "greedy", Bot: GreedyBot{}},
		{Name: "hard", Bot: HardBot{}},
	},
	Rules:    rulesText,
	Notation: notationText,
}

const notationText = `"3 d6", "3 c4-d6" or "R3 c4-d6": piece 3 jumps to d6; "3 d6*" or
"3 d6 leave" leaves its tower behind. Columns a-j, rows 1-10 from the top.`

const rulesText = `DISCON (1969)

THE BOARD  10 x 10 squares: columns a to j from the left, rows 1 to 10
from the top. The corners are the homes: Red a1, Green j1 (j10 with two
players), Yellow j10, Orange a10. A home zone is the 3 x 3 block in its
corner. 96 discs lie one on every other square: 32 violet (V), 24 pink
(P), 24 blue (B), 16 ivory (I). Each player has 6 numbered pieces, all
starting on the home corner.

A TURN  is two moves; the same piece may move twice. A move is a chess
knight's jump (two squares one way, one across) of one of your pieces to
a square where no piece stands. Whatever lies there - a disc, or a stack
left behind - joins the piece's tower, on top, in its order. Red begins.

LIMITS  A tower may be at most 12 storeys high with 2 players, 10 with 3
and 8 with 4, and (Premium) hold at most 2 colours. A move that would
break a limit is not allowed.

LEAVING A TOWER  A move may leave the piece's tower behind ("3 d6*"): it
stays as an ownerless stack, worth nothing, and the piece starts a new
tower with what it lands on. Any piece may later collect a stack by
landing on it, within the limits.

HOME ZONES  At the end of your turn no piece of yours may stand in an
opponent's home zone: going in with the first move and out with the
second is fine. Zones of unused corners are open.

THE END  The game ends when every disc is in a tower carried by a
piece, or after 3 full rounds in which nobody collected a new disc (one
never in a tower; taking back a stack left behind does not count). Your
score is the sum of your towers' values; the highest score wins, ties
share. A player who cannot move is passed over; a turn ends after one
move when no second move is possible.

MOVES AND KEYS  Arrows (or h j k l) move the cursor; a click works too.
Enter (or space) on one of your pieces picks it (again on a home corner:
the next piece there); its jumps are marked +, and enter on one of them
plays it. L switches between taking the tower along and leaving it
behind; esc (or backspace) un-picks the piece. ':' lets you type a move:
"3 d6" or "3 c4-d6" jumps piece 3 to d6; "3 d6*" or "3 d6 leave" leaves
its tower behind. Screens write a move with its player's letter first,
"R3 c4-d6*" (Red's piece 3), and that form works too.

ON THE BOARD  R3 is Red's piece 3, and R×6 six pieces on a home corner;
V, P, B, I a disc; P3 a stack of 3, pink on top; the shading a home
zone; • where the moves of the latest turn landed (Last: lists them);
> the picked piece. '*' only ever means "tower left behind".

PREMIUM SCORING (default)   storeys:
             1   2   3   4   5   6   7   8   9  10  11  12
  violet     2   4   6   8  11  14  18  24  34  40  50  60
  pink/blue  4   8  12  18  24  32  42  54  68  84 100 120
  ivory      8  16  24  36  52  72  96 120 148 176 208 240
  V+P, V+B   0   2   3   4   5   6   8  10  12  14  16  20
  P+B        0   2   4   6   8  10  12  16  20  24  28  32
  V+I        0   4   6   8  10  12  16  18  22  26  30  34
  P+I, B+I   0   4   6   8  11  14  18  22  28  34  40  48

VARIANTS (room option variant=...)
  premium     the table above, at most 2 colours a tower.
  advanced    premium; a two-colour tower whose colours strictly
              alternate (P-B-P-B...) scores 3 times the table.
  basic       any colours; 2 points a violet, 4 a pink or blue, 8 an
              ivory disc.
  variation1  basic points, at most 2 colours a tower.
  variation2  basic points, one colour a tower.
  penalty     premium, but towers may grow past the limit and score as
              if each storey too many took one off the limit: with a
              limit of 8, 9 storeys score as 7, 10 as 6 and so on.
  elementary  any colours; the first to own 4 towers of 12 storeys
              (3 players: 4 of 8; 4 players: 3 of 8) wins at once. If
              the game ends otherwise, most such towers wins.
`
