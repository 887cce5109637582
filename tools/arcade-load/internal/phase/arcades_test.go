package phase

import (
	"strings"
	"testing"
)

// TestScreenText: a refusal the terminal wrapped reads as one line again; separate rows stay apart.
func TestScreenText(t *testing.T) {
	long := "arcade: your address already has 32 sessions open (limit --max-sessions-per-addr ); close one first."
	row1, row2 := long[:80], long[80:]
	if got := screenText(row1 + "\n" + row2 + "\n\n"); got != long {
		t.Errorf("wrapped at 80: %q", got)
	}
	spaced := strings.Repeat("x", 79) + " " + "tail"
	if got := screenText(strings.Repeat("x", 79) + "\ntail\n"); got != spaced {
		t.Errorf("wrapped after a space: %q", got)
	}
	if got := screenText("  ARCADE  header\n\n  Too many rooms.\n"); got != "ARCADE  header / Too many rooms." {
		t.Errorf("two rows: %q", got)
	}
}
