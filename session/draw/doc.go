// Package draw is what a game's board view shares with the session that shows it: the Board
// interface a room screen calls, the styles of the screens (Styles, each colour with a letter or
// symbol beside it), paints that style a line without lipgloss's work, memos of drawn glyphs, and
// the text helpers (Fit, Wrap, TextWidth...) that measure and cut styled lines as lipgloss does.
//
// Board views live in games/<game>view; package session draws everything around them. Neither
// imports the other: both import this package.
package draw
