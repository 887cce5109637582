//go:build !linux

package main

// machineMemory returns 0: the machine's memory is read on Linux only.
func machineMemory() int64 { return 0 }

// execSelf is nil: keepStacks runs the arcade again on Linux only.
var execSelf func(argv0 string, argv, envv []string) error
