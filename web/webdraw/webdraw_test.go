package webdraw

import (
	"strings"
	"testing"
)

// TestSVGEscapes: every text and label a board writes is escaped.
func TestSVGEscapes(t *testing.T) {
	s := NewSVG(10, 10, `<b>"x"</b>`)
	s.Group("g", "<i>")
	s.Text(1, 1, `c" onload="x`, "<script>alert(1)</script>")
	s.EndGroup()
	out := string(s.HTML("<img src=x>"))
	for _, bad := range []string{"<script>", "<b>", "<i>", "<img", `c" onload`} {
		if strings.Contains(out, bad) {
			t.Errorf("%q is not escaped in %s", bad, out)
		}
	}
	if !strings.HasPrefix(out, "<svg") || !strings.Contains(out, "</svg>") || !strings.Contains(out, `role="img"`) {
		t.Errorf("not an svg image: %s", out)
	}
}
