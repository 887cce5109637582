package main

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// gcPercent is the collector's target (GOGC) unless the environment sets one: the heap may grow
// to five times what is live before a collection.
//
// At Go's default of 100, a collection came every 4 s at 2,000 playing sessions (170 MiB live,
// 40 MiB allocated a second), and while it marked, the goroutines drawing frames were made to
// help it (assists) in proportion to what they allocated, with little room left to the goal.
// The p99 from a move to the opponent's screen, with the database on tmpfs, was 26.9 and
// 35.6 ms; with 400 it was 10.0 and 10.8 ms, and 5.3 to 6.0 ms for a keystroke, for 590 KiB of
// memory per playing session instead of 270 (README, Performance). Idle sessions allocate
// little, so the collector's target hardly changes what they hold.
const gcPercent = 400

// tuneGC sets the collector's target to gcPercent unless GOGC is set, and a soft memory limit
// of half the memory the process may use unless GOMEMLIMIT is set: near the limit the collector
// runs as often as it must, so the larger target trades memory for latency only while memory is
// plentiful.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		if total := memoryAvailable(); total > 0 {
			debug.SetMemoryLimit(total / 2)
		}
	}
}

// memoryAvailable returns the memory the process may use: the machine's, or its cgroup's limit
// if lower; 0 when neither can be read.
func memoryAvailable() int64 {
	total := machineMemory()
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n // "max" (no limit) does not parse
		}
	}
	return total
}
