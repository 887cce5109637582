// Package coloretta is the engine of Coloretta (docs/rules.md section 3), 2 to 5 players: collect
// cards of a few colours from shared game stacks; more than three colours cost points.
//
// # Playing
//
// New (or Game.New) sets up a match; State implements rules.Engine and is immutable. A turn is
// either a draw, "d", which turns up the top card for everyone to see and is followed by the same
// seat's place, "p1" to "p5"; or a take, "t1" to "t5", which picks that stack. Stacks are numbered
// from 1 in notation and on screen, from 0 in Move.Stack and View.Stacks. ParseMove ignores case
// and surrounding spaces; Move.String is canonical. View.KeyMove maps the seed's keys (d, 1 to 5)
// to notation. Apply's errors read as sentences ("stack 2 is full") and wrap rules.ErrNotYourTurn,
// rules.ErrGameOver or rules.ErrBadNotation where they apply.
//
// # Rule decisions not spelled out in docs/rules.md
//
//   - Colours, with the letter that stands for each: R red, Y yellow, G green, B blue, P purple,
//     C cyan, O orange. 2 players use the first 5, 3 players the first 6, 4 and 5 players all 7.
//     Wilds show as '*', "+2" cards as "+2" ('+'), the Last Cycle card as "LC" ('!').
//   - Every round is a fresh deal: the round's cards (9 per colour in play, 10 "+2", 3 wilds) are
//     shuffled by a PCG seeded with the match seed and the round number, so each round has its own
//     shuffle and a match replays exactly. Each player is dealt one card of a colour chosen at
//     random, no two alike; the rest is shuffled and the Last Cycle card goes in with exactly 15
//     cards beneath it. Hands are emptied between rounds.
//   - Who starts: round 1 a seat chosen at random from the seed, each later round the next seat
//     (seat order) after the previous round's starter. Turns go in seat order, skipping seats that
//     picked this cycle; a player left alone in a cycle plays turn after turn until they pick.
//   - Draw and place are two moves of the same seat, so the player sees the card before choosing a
//     stack. The drawn card is public. Until it is placed that seat may do nothing else, and nobody
//     else moves.
//   - Drawing the Last Cycle card sets it aside and draws the next card in the same move: that card
//     is the drawn card. Where the Last Cycle card lies is public (16th from the bottom), so the view
//     tells how many cards come before it (View.UntilLastCycle).
//   - A picked stack is closed until the cycle ends: nothing may be placed on it or picked from it.
//     The view keeps showing what its picker took (StackView.Taken).
//   - Two players: 3 stacks holding at most 1, 2 and 3 cards, otherwise the same rules. When both
//     have picked, the cycle ends and the stack nobody picked is discarded face up (View.Discards,
//     public); the last picker starts the next cycle.
//   - The deck cannot run out in a real game: a cycle places at most 3 cards per stack (at most 15)
//     and 15 cards lie beneath the Last Cycle card, whose cycle is the last. Should it happen anyway
//     (the engine does not rely on the arithmetic), drawing from an empty deck is not allowed (the
//     player must pick), and a player who would have to draw from an empty deck ends the round
//     there: it is scored as if its last cycle had ended.
//   - Scoring (ScoreHand): the three best colours are the three with most cards (a wild never scores
//     more elsewhere); a wild may start a colour the hand lacks when that scores more, and joins one
//     of the best colours even when it adds nothing (a fourth colour would subtract); equal choices
//     give it to the colour with more cards, then the earlier colour. Cards beyond 6 in a colour add
//     nothing.
//   - Outcome: while the game goes on, Scores are the totals of the finished rounds (the hand in
//     play counts only when its round ends). At the end the ranks follow rules.RankByScore: highest
//     total first, ties share. After the last round the final hands stay in the view.
//   - Out of time: the engine does not implement rules.Winnable. A hand's score rises and falls
//     with every card it takes (colours beyond the best three subtract), and rounds remain; whether
//     a player can still win takes a search of the deals and picks to come, not a cheap test.
//
// # Bots
//
// Easy plays at random. Greedy looks one move ahead for its own hand (see greedyMove). Hard runs
// flat Monte Carlo over 48 guessed orders of the unseen cards, finishing the round with the greedy
// policy (now and then a random move) for every seat, and keeps the move with the best average lead
// over the strongest opponent. The bots read only the View of their seat: the unseen cards' counts
// are public (a round's cards less those in sight) and only their order is guessed. Hard takes
// about 10 ms a move on one core and stops early, with a legal move, when its context is done.
package coloretta
