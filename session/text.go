package session

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/arcade/arcade/session/draw"
)

// lineAt returns lines[i], or "" past the end: a short block's missing lines are blank.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// block makes lines into exactly height lines of exactly width columns.
func block(lines []string, width, height int) []string {
	out := make([]string, height)
	for i := range out {
		out[i] = draw.Fit(lineAt(lines, i), width)
	}
	return out
}

// noticeView draws a notice in full, wrapped to the screen's width w, with a hint below it when
// hint is not empty.
func noticeView(st draw.Styles, notice, hint string, w int) string {
	lines := []string{""}
	for _, l := range draw.Wrap(notice, max(w-4, 20)) {
		lines = append(lines, "  "+st.Title.Render(l))
	}
	if hint != "" {
		lines = append(lines, "", "  "+st.Dim.Render(hint))
	}
	return strings.Join(append(lines, ""), "\n")
}

// introView is the screen of a notice shown in front of the room or replay a session's command
// line opened, until a key is pressed.
func introView(st draw.Styles, notice string, w, h int) string {
	lines := append([]string{st.Title.Render("ARCADE")}, strings.Split(noticeView(st, notice, "Press any key to go on.", w), "\n")...)
	return strings.Join(block(lines, w, h), "\n")
}

// wrapped breaks a message into lines of at most width columns, each drawn in style, at most
// limit of them (at least one); the last line kept ends with … when some were left out.
func wrapped(msg string, style draw.Paint, width, limit int) []string {
	lines := draw.Wrap(msg, width)
	if limit = max(limit, 1); len(lines) > limit {
		lines = lines[:limit]
		lines[limit-1] = draw.Fit(lines[limit-1], width-1) + "…"
	}
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// tooSmall is the screen for a terminal below the minimum size, wrapped whole to its width.
func tooSmall(w, h int, st draw.Styles) string {
	lines := []string{st.Title.Render("arcade"), ""}
	for i, para := range []string{
		fmt.Sprintf("This window is %d x %d. The arcade needs at least %d x %d.", w, h, minWidth, minHeight),
		"Make the window larger, or press ctrl+c to leave.",
	} {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, draw.Wrap(para, max(w, tinyWidth))...)
	}
	return strings.Join(lines, "\n")
}

// asciiSeparator is the help line's separator in ASCII mode: the bullet's stand-in, '*', means
// something on three games' boards (empowered, changed, a mark), a bar means nothing there.
const asciiSeparator = " | "

// helpLine draws the enabled bindings' short help on one line of at most width columns: what
// bubbles' help model, with the theme's key and description styles, draws (ShortHelpView), cut
// to width.
func helpLine(st draw.Styles, width int, bindings ...key.Binding) string {
	return draw.Fit(helpLooks[themeOf(st)].shortHelp(width, bindings), width)
}

// helpLook is how a theme draws the help line: bubbles' help model's styles, made once. The line
// is drawn here, as the help model's ShortHelpView draws it (TestHelpLineIsBubblesHelp), not by
// the model itself: a model (help.New, its nine lipgloss styles; 4.6 KB copied for each call of
// ShortHelpView, whose own frame is 7.5 KB, with lipgloss's drawing under it) took more than half
// of the 32 KiB of stack that a session's program needs at most otherwise, and a goroutine's stack
// keeps the size it grew to: the goroutine of every session's program grew to 64 KiB.
type helpLook struct {
	key, desc draw.Paint // a binding's key and description
	sep       string     // the separator between two bindings, drawn
	tail      string     // what ends a line cut short, drawn, and its width
	tailW     int
}

// helpLooks are the themes' help looks.
var helpLooks = func() map[theme]*helpLook {
	looks := map[theme]*helpLook{}
	for _, th := range []theme{{}, {noColor: true}, {ascii: true}, {noColor: true, ascii: true}} {
		h := newHelpModel(*draw.NewStyles(th.noColor, th.ascii))
		tail := " " + h.Styles.Ellipsis.Inline(true).Render(h.Ellipsis)
		looks[th] = &helpLook{
			key:  draw.NewPaint(h.Styles.ShortKey.Inline(true)),
			desc: draw.NewPaint(h.Styles.ShortDesc.Inline(true)),
			sep:  h.Styles.ShortSeparator.Inline(true).Render(h.ShortSeparator),
			tail: tail, tailW: lipgloss.Width(tail),
		}
	}
	return looks
}()

// newHelpModel returns bubbles' help model in st's styles, which the help line is drawn like.
func newHelpModel(st draw.Styles) help.Model {
	h := help.New()
	h.Styles.ShortKey = st.Key.Style()
	h.Styles.ShortDesc = st.Dim.Style()
	h.Styles.ShortSeparator = st.Dim.Style()
	if st.ASCII {
		h.ShortSeparator = asciiSeparator
	}
	return h
}

// shortHelp is help.Model.ShortHelpView at width (0: any) in the look: the enabled bindings, a
// separator between two; a binding that would go past width ends the line with the tail when the
// tail fits, else it is drawn all the same (as the help model does; helpLine cuts the line).
func (l *helpLook) shortHelp(width int, bindings []key.Binding) string {
	var b strings.Builder
	total := 0
	for _, kb := range bindings {
		if !kb.Enabled() {
			continue
		}
		var sep string
		if total > 0 {
			sep = l.sep
		}
		h := kb.Help()
		item := sep + l.key.Render(h.Key) + " " + l.desc.Render(h.Desc)
		w := lipgloss.Width(item)
		if width > 0 && total+w > width && total+l.tailW < width {
			b.WriteString(l.tail)
			break
		}
		total += w
		b.WriteString(item)
	}
	return b.String()
}

// sshCommand is the command line that runs command on this server, for a player to type or pass
// on: addr is Config.Address, "" when unknown (then HOST stands for it).
func sshCommand(addr, command string) string {
	if addr == "" {
		addr = "HOST"
	}
	return "ssh -t " + addr + " " + command
}
