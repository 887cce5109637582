package rooms

// A room has two chats, as on lichess. The room's chat (Snapshot.Chat) is everyone's: the
// players' lines, the system's, and the spectators' between matches. While a match is played a
// spectator's line goes to the spectators' chat instead (Snapshot.SpectatorChat), which every
// subscriber receives and a player's screen shows only when asked, so that the players are not
// coached, nor distracted, unless they want to read it. When the match ends, the spectators'
// lines join the room's chat, in the order they were said, and everyone reads both as one.
//
// Every line, whoever says it, goes through say; a line shown goes through the snapshot's two
// slices, which are replaced, never changed, when a line is added.

// say adds line to the chat it belongs in. Room goroutine only.
func (r *Room) say(line ChatLine) {
	if line.Spectator && r.phase == Playing {
		r.watchers = appendLine(r.watchers, line)
		return
	}
	r.chat = appendLine(r.chat, line)
}

// openSpectatorChat has the spectators' lines of the match join the room's chat, in the order
// they were said among its lines, keeping the last ChatLines: the match has ended. Room
// goroutine only.
func (r *Room) openSpectatorChat() {
	if len(r.watchers) == 0 {
		return
	}
	merged := MergeChats(r.chat, r.watchers)
	r.chat = merged[max(0, len(merged)-ChatLines):]
	r.watchers = nil
}

// MergeChats returns the lines of a and b, each oldest first, as one chat in the order they were
// said (a's first of lines said at the same time): a new slice, or a or b itself when the other
// is empty.
func MergeChats(a, b []ChatLine) []ChatLine {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	out := make([]ChatLine, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].At.Before(a[0].At) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// appendLine returns lines with line after them, keeping the last ChatLines, in a new slice:
// snapshots share the old one.
func appendLine(lines []ChatLine, line ChatLine) []ChatLine {
	keep := lines
	if len(keep) >= ChatLines {
		keep = keep[len(keep)-ChatLines+1:]
	}
	next := make([]ChatLine, 0, len(keep)+1)
	return append(append(next, keep...), line)
}
