package main

import (
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
// grew theirs back at their next frame. Alternating 60 s runs of DISCON with 2,000 sessions
// (cmd/arcade-load), a collection took 372 and 329 ms of CPU with the setting and 428 and 453 ms
// without; the move p99 was 97 and 92 ms against 130 and 188 ms, and the memory per playing
// session 708 and 706 KiB against 740 and 726 KiB.
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
// only when it does not: the setting is there already or chosen against, or the exec failed, in
// which case the arcade runs with the runtime's default. exec is syscall.Exec, or nil where there
// is none.
func keepStacks(exec func(argv0 string, argv, envv []string) error) {
	if exec == nil {
		return
	}
	env, changed := withKeptStacks(os.Environ())
	if !changed {
		return
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	_ = exec(self, os.Args, env)
}
