// Package flicflac is the engine of Flic Flac (docs/rules.md section 5), the timed hex combat
// game for 2 players: pieces of the six colours of a wheel fly two colours each, and touching
// pieces gain or lose health by the colours they fly; a piece below 0 is captured when the turn
// ends.
//
// The package holds the board (Geometry: hexes, names, colours, entry edges), the engine (State,
// an immutable rules.Engine, rules.Teller, rules.Annotator and rules.TurnTimer), the notation
// (Move, ParseMove), the public view (View, State.Reach) and three bots (Easy, Greedy, Hard).
// Game describes it all to the arcade.
//
// # Decisions not spelled out in docs/rules.md
//
// Board and hex names. RULES.md's geometry is flat-topped (columns q, r growing downwards); a
// terminal draws it turned a quarter turn clockwise, pointy-topped, 2R + 1 rows (Geometry.Layout
// gives each hex's row and position). Names are made for that drawing, as in Lhex-i'-con: rows a
// to o from the top (the columns q = -R to R), each row's hexes numbered from 1 at the left (r
// from largest to smallest): the centre of side 8 is h8, the top row a1 to a8, the middle one h1
// to h15. Hexes are indexed (Hex) column by column, q = -R first, each from r smallest. Hex
// Slide turns the colours a sixth of a turn clockwise, as drawn either way: the colour of
// (q, r, s) goes to (-r, -s, -q).
//
// Entry edges (side 8, drawn pointy-topped): cylinders B R Y on s = +R, the upper right edge
// a8 to h15; cylinders O G P on s = -R, the lower left edge h1 to o1; blocks B R Y on r = +R,
// the upper left edge a1 to h1; blocks O G P on r = -R, the lower right edge h15 to o8. Each
// player's two edges face each other; the top and bottom rows are nobody's.
//
// Notation. Pieces are named by their colour's letter, B G Y O R P (a player has one of each,
// and only moves its own): "B h8" moves the mover's blue piece to h8, from home or from the
// board (the engine knows where it stands; the hex alone decides the move: a path's route does
// not matter, only that one exists). "u B" takes the blue piece back; "end" ends the turn (or
// the captors' turn). Move.String is canonical; ParseMove takes any case, colour names, no space
// or ">", "-", ":", "to" between piece and hex, "undo"/"back"/"take" for "u", and "e", "done",
// "pass" for "end". Captures and random events are not moves: they are what "end" does, and
// Tell and Annotate say it in the room's log and a replay's move list.
//
// Turns. A turn is any number of moves then "end". A piece taken back may move again, so a turn
// may be long; the timer bounds it (an untimed turn is the player's own business). A captors'
// turn is part of its turn for the turn limit (limit counts the turns that passed play to the
// other player: 200 means 100 each) but a new turn for the timer: rules.TurnLimit.Turn counts
// turns and captors' turns begun, so the room gives a captors' turn its own time. In a captors'
// turn only captors move, each once (a taken-back captor may move again); the captors' set is
// those of the end that granted it. "end" is always legal, and is the timeout move.
//
// End of a turn. Health is counted on the position as it stands; every piece below 0 of either
// side is captured at once (home, upright; the opponent of its owner scores 1). Captors are the
// mover's pieces touching a captured enemy piece whose colour they fly, counted before any piece
// goes home (a captured captor moves from home). The win (target and a lead of 2) is checked
// right after the captures, before any captors' turn. When there are no captors, the turn
// passes: the turn count grows, the limit may end the match (more captures wins, equal draws),
// and otherwise a random event may follow, once a whole turn (after its captors' turns).
//
// Random events. With events=N the end of a turn draws from a PCG seeded with the match seed
// and the number of turns ended: an event with chance N%, then which of the four (equal
// chances), then a pair of opposite colours (blue-orange, green-red, yellow-purple) for Recall
// and Sink Holes. Pieces sent home by an event go home upright and score nobody. So a replay or
// a resume draws the same events. Who has the cylinders (shape=random) is drawn from the seed
// too.
//
// Options. size 5 to 8 (8), target 1 to 99 (11), timer seconds a turn 0 to 600 (20, 0:
// untimed), captors seconds a captors' turn 0 to 600 (10; 0: untimed), events a percentage 0
// to 100 (1), limit turns 1 to 2000 (200), shape of seat 0 random, cylinders or blocks
// (random). Timers are whole seconds without a unit: rules.Option takes whole numbers or fixed
// choices.
//
// Out of time (rules.Winnable). State.CanWin is certain a seat cannot win only in the last turn
// before the limit, played by its opponent, with the opponent's lead larger than the captures
// that turn's ends could still bring the seat (see State.CanWin); otherwise it answers true.
//
// # Bots
//
// Bots never take a piece back. Easy plays lively, careless turns: it moves at least
// EasyMinPieces pieces (or all that may move) before it may end, then ends one time in three
// when asked; each move dooms an enemy piece one time in three when one can, else brings a piece
// nearest the enemy one time in four, else is random; it never looks after its own pieces. So
// it attacks and its matches reach the target, and it loses to Greedy about nine times in ten
// (docs/performance.md). Greedy makes, one move at a time, the move that most improves
// the captures the end of the turn would bring, ties broken by pieces brought in, empowered and
// near the enemy, and ends when nothing improves. Hard continues its best first moves into whole
// turns, plays out the end, its captors' turns and Greedy's reply for each, and plays the turn
// whose outcome is best (see Hard); Greedy's reply stands for the opponent's best, as it is
// the reply that captures most at once. A bot is asked for one move at a time and decides from
// the state given (the moves of its turn so far are in it), so it needs no memory between
// moves; the same state and random source give the same move. Hard's simulations leave random
// events out: a bot does not peek at the seed's draws. "end" is listed first by Legal: the move
// a room plays for a bot that fails.
package flicflac
