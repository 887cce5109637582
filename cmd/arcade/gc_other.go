//go:build !linux

package main

// machineMemory returns 0: the machine's memory is read on Linux only.
func machineMemory() int64 { return 0 }
