// Package discon is the engine of DISCON (1969), as ruled in docs/rules.md section 2: pieces
// that jump like chess knights collect coloured discs into towers on a 10 x 10 board, 2 to 4
// players.
//
// The package holds the engine (State, an immutable rules.Engine), the move notation (Move,
// ParseMove), the public view for the terminal UI (View), the scoring (ScoreTower) and three bots
// (EasyBot, GreedyBot, HardBot). Game describes it all to the arcade.
//
// # Decisions not spelled out in docs/rules.md
//
// Board and notation. Squares are named by column a to j from the left and row 1 to 10 from the
// top as drawn, so a1 is the top-left corner and j10 the bottom-right one. A move is written
// "3 c4-d6" (piece 3 of the player to move, from c4 to d6) and "3 c4-d6*" when the piece leaves its
// tower behind; that is the canonical form, listed by Legal and kept in the record. Apply also takes
// looser forms: any case, spaces or not, the origin left out ("3 d6", "3d6"), "x" for "-" and
// " leave" for "*" (see ParseMove). Screens show a move with its player's letter first, "R3 c4-d6"
// (Move.Shown); Apply takes that form too, and refuses another player's letter. "*" means only
// "tower left behind": the board marks the latest turn's landings with '•'.
//
// Seats and homes. Seat 0 is Red and moves first; turns go by seat number. Seats take the corners
// clockwise from the top left: Red a1, Green j1, Yellow j10, Orange a10; with two players Green
// takes the opposite corner, j10. With three players a10 is unused and its zone is open to all.
// The seat colours (Red, Green, Yellow, Orange; letters R G Y O) are deliberately not disc colours.
//
// Discs. The 96 discs are shuffled with a PCG source seeded from the match seed and laid one per
// square, row by row, skipping the four corners. The corners start empty.
//
// Home corners. A player's six pieces start together on its home corner, the only square that ever
// holds more than one piece. A piece leaves it by an ordinary knight's jump (from a1: to b3 or c2).
// No piece may land where any piece stands, so nothing returns to a home corner until all its
// pieces have left; then it is an ordinary empty square (an opponent's corner lies in its zone).
//
// Landing. A piece may land on an empty square and collects nothing there. What it collects goes on
// top of its tower, directly under the piece; a stack keeps its order. The order only matters for
// the Advanced premium's alternation. The limits are checked on the tower the move would make.
// Leaving the tower behind is only possible with a tower of at least one storey; the new tower is
// exactly what lay on the destination, so such a move never breaks a limit.
//
// Turns. A turn is two moves, each its own Apply; the seat to move stays the same in between and
// MovesLeft says which move is due. The second move is compulsory: "pass" and "end" decode but are
// never accepted (Apply says why). The engine itself ends a turn after one move when no legal second
// move exists (possible only when the piece moved
// first left a home corner where others still stand), and passes over a
// seat that has no legal move at all when its turn comes; View.Note reports both. So the seat to
// move always has a legal move.
//
// Home zones. Only the end of a turn is checked. A first move into an opponent's zone is always
// legal: the piece can jump back with the second move (its origin is then free, because no
// opponent's zone is a jump from a home corner, and a tower fits where it stood; if the piece left
// one behind there, it can take that one back leaving the new one). A second move is illegal when
// afterwards any piece of the mover stands in an opponent's zone. A player's own zone is always
// open.
//
// End. The match ends at once, even after the first move of a turn, when no disc lies uncarried,
// or in Elementary when the mover owns the goal's towers; but not while a piece of the mover stands
// in an opponent's zone: then the second move comes first, and the check is made again.
// Anti-stall: a turn counts as collecting when it collects a new disc, one that has never been in a
// tower (a disc still on the square it was laid on at the start); the match ends after 3 x players
// turns in a row that do not (passed-over turns count), that is three full rounds. So leaving a
// tower behind and picking it up again is not progress, collecting single discs after a tower was
// left behind is, and every match ends: the number of new discs only falls. Scores are shown while
// playing; ranks use rules.RankByScore, so equal scores share a place.
//
// Variants (room option "variant").
//   - premium (default): the seed's table; a tower holds at most 2 colours. A two-colour tower of
//     one storey cannot exist (the table's 0).
//   - advanced: premium, and a two-colour tower of 2 storeys or more in which no two neighbouring
//     storeys share a colour scores 3 times its mixed value (so every two-storey mixed tower does).
//   - basic: any colours; 2 points per violet, 4 per pink or blue, 8 per ivory. The height limit is
//     the usual one for the number of players (the seed's "up to 12" is the two-player limit).
//   - variation1: basic points, at most 2 colours. variation2: basic points, one colour.
//   - penalty: premium's colour rule and table, no alternation bonus, no height limit; a tower of h
//     storeys above the limit L scores as 2L - h storeys, nothing when that is 0 or less.
//   - elementary: any colours, the usual height limit. A tower counts towards the goal when it has
//     at least the goal's storeys (12 with two players, 8 with three or four; see ElementaryGoal).
//     The score is the number of such towers, so when the match ends another way the player with
//     most of them wins and equal counts share.
//
// Out of time. The engine does not implement rules.Winnable: the match ends only when every disc
// is carried or after three rounds without a collection, so many turns usually remain; a tower
// left behind lowers its owner's score and a collection raises it, so whether a player can still
// win takes a search of the turns to come, not a cheap and certain test.
//
// Bots. EasyBot plays lively and carelessly: one move in two onto a disc or stack with its tower
// (any, whatever it is worth), else any move that keeps its tower. GreedyBot plays the move with the best immediate gain
// in the worth of its towers (their score; in Elementary, where a tower scores only once tall
// enough, a value growing with its height), keeps its tower rather than leave it behind when that
// costs nothing, then prefers landing a jump away from its next gain. HardBot tries every pair of moves of its turn and weighs the score difference, its own best
// gains for the next turn and the next opponent's best gains for its coming turn; it stops at the
// context's deadline with the best turn found so far (typically 10 to 50 ms a move).
package discon
