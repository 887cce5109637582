package session

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

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

// tooSmall is the screen for a terminal below the minimum size.
func tooSmall(w, h int, st draw.Styles) string {
	msg := []string{
		st.Title.Render("arcade"),
		"",
		fmt.Sprintf("This window is %d x %d.", w, h),
		fmt.Sprintf("The arcade needs at least %d x %d.", minWidth, minHeight),
		"Make the window larger, or press ctrl+c to leave.",
	}
	return strings.Join(msg, "\n")
}

// helpLine draws the enabled bindings' short help on one line of at most width columns.
func helpLine(st draw.Styles, width int, bindings ...key.Binding) string {
	h := help.New()
	h.Styles.ShortKey = st.Key.Style()
	h.Styles.ShortDesc = st.Dim.Style()
	h.Styles.ShortSeparator = st.Dim.Style()
	h.SetWidth(width)
	return draw.Fit(h.ShortHelpView(bindings), width)
}
