// Package stonetowers is the engine of Stone Towers, a two-player game of castles and influence on
// a square board, as ruled in docs/rules.md section 1.
//
// The engine is a pure value: a *State implements rules.Engine; Apply and Play return a new state and
// never modify the receiver. Game describes the game to the arcade, with its options, bots and
// help text. Red is seat 0 and moves first; Blue is seat 1.
//
// # Decisions not spelled out in docs/rules.md
//
//   - Coordinates: a square is named like a chess square, column letter then row number ("e5"), but
//     columns a, b, c, ... run from the left and rows 1, 2, 3, ... from the TOP as the board is drawn:
//     a1 is the top-left corner. Square holds them 0-based (Col, Row).
//   - Notation: "b e5" builds on e5, "f e5" fortifies the castle on e5, "pass" passes; these are
//     the canonical forms Legal returns. ParseMove also accepts any case and spacing, "build e5",
//     "fortify e5", "be5", "fe5", "p" for pass, and a bare "e5" (an Auto move) meaning the one action
//     possible there: build on an unowned square or on the mover's own flag, fortify the mover's
//     own castle. On enemy land a bare square is refused as a build would be.
//   - Pass: legal only when the mover can neither build nor fortify anywhere; it uses up one of the
//     mover's turns and changes nothing on a settled board. It is the only move then.
//   - Building where the enemy already has more influence than the new castle can hold is legal; the
//     castle falls at once in the resolution (wave 1) and the square becomes the enemy's flag.
//   - Resolution: after every action (a pass included) the board is settled wave by wave: in each
//     wave both players' influence on every square is computed first, then every square where one
//     player is strictly stronger and does not already own it changes hands at once. Waves are
//     numbered from 1; the action itself is reported as wave 0 in State.Changes and View.Changes.
//     Resolution stops at the first wave that changes nothing; a wave that destroys no castle
//     cannot be followed by a changing one, so the engine stops after it without computing the
//     empty wave.
//   - The game ends when both players have played all their turns (Red plays first, so Blue plays
//     the last action). Outcome.Reason is then "all turns played"; scores are squares owned (flags
//     plus castles) and ranks follow rules.RankByScore, so equal scores draw.
//   - The seed given to New is unused: the game has no randomness. The options are "size" (board
//     width and height, 8 to 16, default 12) and "turns" (turns per player, 10 to 60, default 25).
//   - There is no private information: View returns the same View to every viewer, spectators
//     included.
//   - Out of time (rules.Winnable): State.CanWin is certain a player cannot win only when at most
//     the last two actions remain, by playing them every legal way; earlier it answers true, since
//     one castle's domino effect can turn much of the board over.
//
// # Bots
//
// Game.Bots lists, weakest first: "easy" (a random move weighted towards moves that gain squares),
// "greedy" (the move that leaves the most squares minus the opponent's, one ply) and "hard" (an
// alpha-beta search three plies deep over the most promising candidates, on an evaluation of
// territory and of the squares each side could take with its next action). Bots use only the
// *rand.Rand they are given, to break ties, so a seeded match replays exactly; Hard also stops at
// once with its best move so far when its context is done.
package stonetowers
