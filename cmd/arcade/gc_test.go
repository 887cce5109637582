package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: the collector's target and memory limit are set unless the environment sets them.
func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: target %d, want %d", got, gcPercent)
	}
	got := debug.SetMemoryLimit(math.MaxInt64)
	if total := memoryAvailable(); total > 0 && got != total/2 {
		t.Errorf("GOMEMLIMIT unset: limit %d, want half of %d", got, total)
	}
	if machineMemory() <= 0 {
		t.Log("the machine's memory cannot be read here: no limit is set")
	}

	set := func(key string) string {
		if key == "GOGC" || key == "GOMEMLIMIT" {
			return "set"
		}
		return ""
	}
	tuneGC(set)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: target changed to %d", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: limit changed to %d", got)
	}
}
