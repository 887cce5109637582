package coloretta

import "github.com/arcade/arcade/rules"

const (
	defaultRounds = 4
	maxRounds     = 6
)

// Game describes Coloretta for the arcade.
var Game = rules.Game{
	ID:       "coloretta",
	Name:     "Coloretta",
	Summary:  "collect cards of few colours from shared stacks; 2 to 5 players",
	MinSeats: 2,
	MaxSeats: maxSeats,
	Options: []rules.Option{
		{Key: "rounds", Help: "rounds in a game", Default: "4", Min: 1, Max: maxRounds, Standard: []string{"4", "5", "6"}},
	},
	New:      New,
	Bots:     []rules.BotLevel{{Name: "easy", Bot: Easy}, {Name: "greedy", Bot: Greedy}, {Name: "hard", Bot: Hard}},
	Rules:    rulesText,
	Notation: "d draws the top card; p3 places the drawn card on stack 3; t2 takes (picks) stack 2.",
}

const rulesText = `COLORETTA - collect cards of a few colours; too many colours cost points.

CARDS  9 cards of each colour in play (5 colours with 2 players, 6 with 3,
7 with 4 or 5), 10 "+2" cards, 3 wild cards (*) and the Last Cycle card.
Colours: R red, Y yellow, G green, B blue, P purple, C cyan, O orange.

ROUND  Each player gets one card, each of a different colour, face up.
Hands are public. The Last Cycle card lies with 15 cards beneath it.
There is one stack per player; a stack holds at most 3 cards.

YOUR TURN  Either
 - draw the top card (d) and place it (1-5) on an open stack that is
   not full. Not allowed when every open stack is full; required when
   every open stack is empty. Or
 - pick an open stack that is not empty (1-5): its cards go into your
   hand and you sit out the rest of the cycle.
When everyone has picked, the cycle ends: the stacks are empty and open
again and the last player to pick starts the next cycle.

LAST CYCLE  When the Last Cycle card comes up it is set aside and the
next card is drawn instead. The round ends when that cycle ends.

SCORING  Per colour: 1 2 3 4 5 6+ cards score 1 3 6 10 15 21.
Your three best colours add, every other colour subtracts. Each wild
joins the colour that gives you most. Each "+2" adds 2. Scores can be
negative. A game is 4 rounds (option 1 to 6); highest total wins.

TWO PLAYERS  5 colours and 3 stacks holding 1, 2 and 3 cards; each
cycle both players pick one stack and the third is discarded.

MOVES AND KEYS  d draws; 1-5 place the drawn card on that stack, or
pick (take) that stack when you have not drawn. Left and right (or h, l)
move the cursor over the stacks and enter (or space) acts on the one
under it; a click on a stack does too. s shows the last round's scores.
':' lets you type a move: d draws, p1-p5 place the drawn card on a
stack, t1-t5 take a stack. Replays write moves so: "d", "p2", "t3",
and tell them in words ("draws red", "puts red on stack 2").
`
