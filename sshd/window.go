package sshd

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
)

// The largest window a session is drawn for. A client reports its size (the PTY request, each
// window change, a size report typed into its input) and nothing bounds it: 2^32-1 columns is a
// valid request, and every buffer of the renderer is sized from it. The screens draw at most
// 320 x 120 (package session); a little more keeps the renderer exact on somewhat larger
// terminals, and a larger terminal is drawn in its top left corner.
const (
	maxColumns = 320
	maxRows    = 120
)

// clampWindow bounds a window reported by a client to 0..maxColumns x 0..maxRows (a negative
// value, from an overflow, counts as 0). Every size the server uses passes through it first.
func clampWindow(w ssh.Window) ssh.Window {
	w.Width, w.Height = clampSize(w.Width, w.Height)
	return w
}

// clampSize is clampWindow for a width and a height.
func clampSize(width, height int) (int, int) {
	return min(max(width, 0), maxColumns), min(max(height, 0), maxRows)
}

// clampSizes is a Bubble Tea message filter that bounds every tea.WindowSizeMsg as clampWindow
// does, whatever sent it (the window changes, or a size report parsed from the client's input),
// before the program or its renderer sees it; then it hands the message to next, if any.
func clampSizes(next func(tea.Model, tea.Msg) tea.Msg) func(tea.Model, tea.Msg) tea.Msg {
	return func(m tea.Model, msg tea.Msg) tea.Msg {
		if size, ok := msg.(tea.WindowSizeMsg); ok {
			size.Width, size.Height = clampSize(size.Width, size.Height)
			msg = size
		}
		if next != nil {
			return next(m, msg)
		}
		return msg
	}
}
