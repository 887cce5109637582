package session

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session/draw"
)

// lineInput is a one-line text field. bubbles' textinput blinks its cursor on a timer; this one
// draws a steady cursor, so an idle screen costs no frames. Pastes are cleaned and bounded.
type lineInput struct {
	prompt string
	value  []rune
	limit  int
	upper  bool
}

func newLineInput(prompt string, limit int) lineInput {
	return lineInput{prompt: prompt, limit: limit}
}

func (in *lineInput) reset() { in.value = in.value[:0] }

func (in lineInput) text() string { return strings.TrimSpace(string(in.value)) }

// update edits the field; it reports submitted on enter.
func (in *lineInput) update(msg tea.Msg) (submitted bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.insert(msg.Content)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "enter":
			return true
		case "backspace", "ctrl+h":
			if len(in.value) > 0 {
				in.value = in.value[:len(in.value)-1]
			}
		case "ctrl+u":
			in.reset()
		case "ctrl+w":
			v := strings.TrimRight(string(in.value), " ")
			if i := strings.LastIndexByte(v, ' '); i >= 0 {
				in.value = []rune(v[:i+1])
			} else {
				in.reset()
			}
		default:
			if msg.Text != "" {
				in.insert(msg.Text)
			}
		}
	}
	return false
}

func (in *lineInput) insert(s string) {
	s = sanitize.Text(s, in.limit)
	if in.upper {
		s = strings.ToUpper(s)
	}
	for _, r := range s {
		if len(in.value) >= in.limit {
			return
		}
		in.value = append(in.value, r)
	}
}

// view draws the prompt, the text and a steady cursor, in at most width columns.
func (in lineInput) view(st draw.Styles, width int) string {
	v := string(in.value)
	room := width - utf8.RuneCountInString(in.prompt) - 1
	if room < 1 {
		room = 1
	}
	if r := []rune(v); len(r) > room {
		v = string(r[len(r)-room:])
	}
	return st.Key.Render(in.prompt) + v + st.Cursor.Render(" ")
}
