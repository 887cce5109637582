//go:build !linux

package storage

import bolt "go.etcd.io/bbolt"

// releaseMapped does nothing here: the arcade's servers run on Linux (see mapped_linux.go).
func releaseMapped(*bolt.DB, int64) {}
