package draw

import (
	"testing"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules/stonetowers"
)

// TestViewOf: a game's view is found given as a value or a pointer; a nil pointer, another
// game's view or none is not a view (and does not panic).
func TestViewOf(t *testing.T) {
	v := stonetowers.View{Size: 9}
	for _, c := range []struct {
		view any
		ok   bool
	}{{v, true}, {&v, true}, {(*stonetowers.View)(nil), false}, {"other", false}, {nil, false}} {
		got, ok := ViewOf[stonetowers.View](&rooms.Snapshot{View: c.view})
		if ok != c.ok || ok && got.Size != 9 {
			t.Errorf("ViewOf(%#v) = %+v, %v", c.view, got.Size, ok)
		}
	}
}
