package storage

import (
	"golang.org/x/sys/unix"

	bolt "go.etcd.io/bbolt"
)

// releaseMapped drops the pages of db's map from this process (madvise MADV_DONTNEED); size is
// the file's size. See DB.ReleaseMapped.
func releaseMapped(db *bolt.DB, size int64) {
	if size <= 0 {
		return
	}
	// Through the raw call, on bbolt's address: the map is bbolt's, not a slice of ours.
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, db.Info().Data, uintptr(size), unix.MADV_DONTNEED)
}
