package watch

import (
	"runtime"
	"testing"
)

// TestOwnCollections: the report's count of the tool's own collections follows its runtime.
func TestOwnCollections(t *testing.T) {
	before := OwnCollections()
	runtime.GC()
	if after := OwnCollections(); after < before+1 {
		t.Errorf("collections %d, then %d after runtime.GC", before, after)
	}
}
