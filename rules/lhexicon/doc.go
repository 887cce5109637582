// Package lhexicon is the engine of Lhex-i'-con (docs/rules.md section 4), the hexagon word game
// for 1 to 4 players: words along paths of hexes, a bonus for enclosing empty hexes.
//
// The package holds the engine (State, an immutable rules.Engine), the move notation (Move,
// ParseMove), the view (View; racks private), the move generator (State.Generate) and three bots
// (Easy, Greedy, Hard). Game describes it all to the arcade. The dictionary is package dict.
//
// # Decisions not spelled out in docs/rules.md
//
// Board and notation. The 169 hexes lie in 15 rows, a to o from the top, of 8 to 15 hexes; a hex
// is named by its row and its position from 1 at the left: the top row a1 to a8, the centre h8.
// Rows are offset by half a hex, so a hex touches two hexes above (nw, ne), two beside (w, e) and
// two below (sw, se). A play is written as its start hex, the word and the directions from hex
// to hex: "h6 cruel sw,se,e,e". The word has one letter a hex, except the Qu tile, written "qu";
// a blank is written in upper case as the letter it is named ("h8 cAt e,e"; "QU" for a blank
// named Qu, "Q" for a lone Q, which only a blank can be). Tiles already on the board are named
// too (any case). So the notation places exactly the tiles of the word, and every new tile is on
// it. Other moves: "x ab?" exchanges a, b and a blank ("qu" for the Qu tile), "s h8 c3" swaps the
// blanks on h8 and c3, "pass", "challenge", "accept", and "end" in a solo game. Move.String is
// canonical; ParseMove also takes any case for keywords and hexes, spaces or dashes between
// directions, "exchange", "swap" and "p". State.Canonical (rules.Teller) writes the tiles a play
// names on occupied hexes as the board has them, and State.Tell says a move in words for replays.
//
// Turns. Seat 0 plays first; turns go by seat number. The bank is shuffled from the match seed;
// each seat draws 7 tiles in seat order; tiles are drawn after every play. An exchange draws the
// new tiles first, then returns the old ones and shuffles the bank from the seed and the move's
// number, so a replay draws the same. An exchange needs at least one tile and at most as many as
// the bank holds. A swap takes one or both board blanks, for the tiles of their letters; it uses
// the turn. Refused moves change nothing and say why: plays wrap ErrNotWord, ErrNotPath,
// ErrContact, ErrCentre, ErrNotInRack, ErrMismatch, ErrNoBoardTile or ErrNoNewTile.
//
// Score. A word scores the values of all its tiles (blanks 0) plus the trap bonus; see trapBonus
// for the trap rules as code. Final scores are not adjusted for tiles left on racks.
//
// Challenges (check=challenge, two players or more). A play is placed and scored at once, its
// player draws, and the turn passes; until the next player acts otherwise, the word may be
// challenged: ToMove then lists the next player and every other opponent who has not answered,
// and they may "challenge" or "accept" (the next player may also simply play on, which lets the
// word stand for everybody). A challenged word that is not in the dictionary is withdrawn: the
// state goes back to before the play (tiles to the rack, drawn tiles to the bank), the player
// scores nothing and the turn goes on from them, and the withdrawal counts as a pass for the
// anti-stall rule. A challenged word that is good stands, and the challenger loses its next turn:
// at once when it was the next to play. A word that would end the game (bank empty, rack used up)
// waits for every opponent's answer before the game ends. Alone, challenge mode checks words like
// auto: nobody could challenge.
//
// End. The game ends when the bank is empty and a player has used every tile, or when the passes,
// exchanges and withdrawn words in a row reach two for each player (a play or a swap starts the
// count again; a lost turn does not count). Alone, also on "end". Ranks use rules.RankByScore.
//
// Timer. With timer=competition a turn has 3 minutes (View.TurnSeconds). The engine reads no
// clock: State.TurnLimit (rules.TurnTimer) tells the room whose time runs and that "pass" is
// played for them when it runs out ("accept" for an opponent who has not answered the last word).
//
// Legal. Plays are far too many to list, so Legal lists at most 50 plays (the first found), then
// the swaps, an exchange of the whole rack (as much as the bank holds), "pass", "end" when alone,
// and "challenge"/"accept" when a word may be challenged.
//
// Out of time. The engine does not implement rules.Winnable: scores only grow, but a play scores
// every tile of its word, board tiles included, and 3 a hex of each trap it makes, and plays go
// on until the bank is empty and a rack used up; no cheap bound comes near a real lead, and the
// exact answer is a search of plays over the dictionary.
//
// # Bots
//
// The generator searches depth first along paths of hexes, guided by the dictionary's prefixes
// (dict.Node), from every hex from which a tile on the board can still be reached with the tiles
// left; a neighbour is tried only when a tile held (or a blank) can follow the prefix there, and
// the rule of contact is counted as the path grows; the trap bonus is computed once per set of new
// hexes. Blanks are tried as every letter. The first play is searched without the board: every
// word of the rack, laid straight from the centre, and curled round a hex (a trap of one) when it
// has six tiles or more, which covers every score a first play can make. Greedy plays the best
// score; Easy plays a short word. Hard keeps its best plays by score plus the value of the tiles
// kept, then, for the best few, searches the next player's replies near the new tiles with racks
// drawn from the tiles it cannot see, and counts the best reply's points above the usual against
// the play; when the bank is empty it knows the opponent's rack, searches the whole reply and
// weighs who wins when a play ends the game. Bots stop after a fixed number of steps
// (SearchBudget for their own search), so their moves do not depend on the machine, or when their
// context is done, with the best play found so far.
package lhexicon
