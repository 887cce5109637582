package storage

import (
	"os"
	"syscall"
)

// datasync flushes f's data, and the metadata needed to read it back (its size), to disk.
func datasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
