package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// keepStacksSetting is the Go runtime setting keepStacks adds to GODEBUG: the collector leaves
// each goroutine's stack at the size it grew to, instead of halving the stacks of goroutines that
// use under a quarter of theirs at every collection.
//
// With 2,000 sessions playing there are 28,000 goroutines, and the collector spent about 45% of
// its marking in their stacks, half of that shrinking them; the goroutines that draw frames then
// grew theirs back at their next frame. In alternating 60 s runs with 2,000 sessions playing
// (cmd/arcade-load), with the setting against without it:
//
//	                     a collection's CPU (ms)          move p99 (ms)
//	Stone Towers, tmpfs  202, 235 against 408, 365        12.2, 15.1 against 66.8, 55.2
//	Stone Towers, disk   240 against 289                  43.7 against 49.3
//	DISCON, tmpfs        372, 329, 330 against 428, 453, 355   97, 92, 63 against 130, 188, 60
//
// The memory per playing session stayed within 3% (DISCON 706 to 710 KiB against 726 to 740).
//
// The runtime reads the setting only as it starts: //go:debug does not take it, and setting
// GODEBUG later changes only the settings the runtime rereads. Hence keepStacks.
const keepStacksSetting = "gcshrinkstackoff=1"

// withKeptStacks returns env with keepStacksSetting added to its GODEBUG, and true; or env as it
// is and false when its GODEBUG already says something about gcshrinkstackoff (an operator's
// choice, or the arcade's own exec).
func withKeptStacks(env []string) ([]string, bool) {
	key, _, _ := strings.Cut(keepStacksSetting, "=")
	at := -1 // env's GODEBUG
	for i, kv := range env {
		v, ok := strings.CutPrefix(kv, "GODEBUG=")
		if !ok {
			continue
		}
		for _, setting := range strings.Split(v, ",") {
			if k, _, _ := strings.Cut(setting, "="); k == key {
				return env, false
			}
		}
		if at < 0 {
			at = i
		}
	}
	out := slices.Clone(env)
	switch {
	case at < 0:
		out = append(out, "GODEBUG="+keepStacksSetting)
	case strings.TrimPrefix(out[at], "GODEBUG=") == "":
		out[at] = "GODEBUG=" + keepStacksSetting
	default:
		out[at] += "," + keepStacksSetting
	}
	return out, true
}

// keepStacks runs the arcade again in this process (exec, so the process ID stays), with
// keepStacksSetting added to GODEBUG, unless GODEBUG already says something about it. It returns
// only when it does not: nil when the setting is there already or chosen against (or exec is nil:
// there is no syscall.Exec here), and why when the exec could not be done, in which case the
// arcade runs with the runtime's default.
func keepStacks(exec func(argv0 string, argv, envv []string) error) error {
	if exec == nil {
		return nil
	}
	env, changed := withKeptStacks(os.Environ())
	if !changed {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("keep goroutine stacks: %w", err)
	}
	if err := exec(self, os.Args, env); err != nil {
		return fmt.Errorf("keep goroutine stacks: run %s again: %w", self, err)
	}
	return nil // a test's exec returns
}
