package matchlog

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/storage"
)

// TestStorageDown: a failed store's errors reach the rooms as ErrStorageDown, with the cause;
// other errors as they are.
func TestStorageDown(t *testing.T) {
	failed := fmt.Errorf("append move: %w: fdatasync: input/output error", storage.ErrFailed)
	if err := storageDown(failed); !errors.Is(err, rooms.ErrStorageDown) || !errors.Is(err, storage.ErrFailed) {
		t.Errorf("failed store: %v", err)
	}
	other := errors.New("no such match")
	if err := storageDown(other); err != other {
		t.Errorf("other error: %v", err)
	}
	if err := storageDown(nil); err != nil {
		t.Errorf("nil: %v", err)
	}
}
