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
	pos    int // the cursor: the index in value of the character it is on (len(value) at the end)
	limit  int
	upper  bool
}

func newLineInput(prompt string, limit int) lineInput {
	return lineInput{prompt: prompt, limit: limit}
}

func (in *lineInput) reset() { in.value, in.pos = in.value[:0], 0 }

func (in lineInput) text() string { return strings.TrimSpace(string(in.value)) }

// update edits the field; it reports submitted on enter. Keys that are not editing keys and type
// no text (arrows up and down, function keys, escape sequences) change nothing.
func (in *lineInput) update(msg tea.Msg) (submitted bool) {
	in.pos = max(0, min(in.pos, len(in.value)))
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.insert(msg.Content)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "enter":
			return true
		case "backspace", "ctrl+h":
			if in.pos > 0 {
				in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
				in.pos--
			}
		case "delete", "ctrl+d":
			if in.pos < len(in.value) {
				in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
			}
		case "left", "ctrl+b":
			in.pos = max(0, in.pos-1)
		case "right", "ctrl+f":
			in.pos = min(len(in.value), in.pos+1)
		case "home", "ctrl+a":
			in.pos = 0
		case "end", "ctrl+e":
			in.pos = len(in.value)
		case "ctrl+u":
			in.value, in.pos = append(in.value[:0], in.value[in.pos:]...), 0
		case "ctrl+w":
			head := strings.TrimRight(string(in.value[:in.pos]), " ")
			cut := 0
			if i := strings.LastIndexByte(head, ' '); i >= 0 {
				cut = utf8.RuneCountInString(head[:i+1])
			}
			in.value, in.pos = append(in.value[:cut], in.value[in.pos:]...), cut
		default:
			if msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock|tea.ModNumLock) == 0 {
				in.insert(msg.Text)
			}
		}
	}
	return false
}

// insert puts s, cleaned, at the cursor, as much of it as the limit lets in.
func (in *lineInput) insert(s string) {
	s = sanitize.Text(s, in.limit)
	if in.upper {
		s = strings.ToUpper(s)
	}
	add := make([]rune, 0, len(s))
	for _, r := range s {
		if len(in.value)+len(add) >= in.limit {
			break
		}
		add = append(add, r)
	}
	in.value = append(in.value[:in.pos], append(add, in.value[in.pos:]...)...)
	in.pos += len(add)
}

// view draws the prompt, the text and a steady cursor, in at most width columns.
func (in lineInput) view(st draw.Styles, width int) string {
	pos := max(0, min(in.pos, len(in.value)))
	room := max(width-utf8.RuneCountInString(in.prompt)-1, 1)
	start := max(0, pos-room+1) // the cursor stays on screen; text before it scrolls out
	end := min(len(in.value), start+room)
	under := " "
	after := ""
	if pos < len(in.value) {
		under = string(in.value[pos])
		if pos+1 < end {
			after = string(in.value[pos+1 : end])
		}
	}
	return st.Key.Render(in.prompt) + string(in.value[start:pos]) + st.Cursor.Render(under) + after
}
