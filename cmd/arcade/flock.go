//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"errors"
	"os"
	"syscall"
)

// heldByAnother reports whether another open of f's file holds a lock on it, as bbolt holds its
// database (flock, shared or exclusive): a non-blocking try to lock it exclusively meets it. The
// lock taken, if any, goes with f's closing.
func heldByAnother(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
