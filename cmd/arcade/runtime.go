package main

import (
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"charm.land/log/v2"
)

// The Go runtime's settings for many sessions. The collector's target and the soft memory limit
// come from --gc-percent and --memory-limit when given, else from GOGC and GOMEMLIMIT when set
// (the runtime has read them already), else from the defaults below. GODEBUG is the
// environment's alone: the runtime reads most of its settings only as the process starts
// (deploy/arcade.service sets the ones the arcade is measured with; docs/operations.md says why).

// defaultGCPercent is the collector's target unless --gc-percent or GOGC says otherwise: the heap
// may grow to five times what is live before a collection. Playing sessions allocate steadily to
// draw frames; at Go's default of 100 the collections come often, and while one marks, the
// goroutines drawing frames are made to help it in proportion to what they allocate, which shows
// in the time from a move to the screens. The price is memory, which the memory limit bounds.
const defaultGCPercent = 400

// defaultMemoryShare is the soft memory limit, in percent of memoryAvailable, unless
// --memory-limit or GOMEMLIMIT says otherwise. Near the limit the collector runs as often as it
// must, so the larger target trades memory for latency only while memory is plentiful.
const defaultMemoryShare = 50

// gcPercent is --gc-percent: not given (set false), a percentage, or off (negative).
type gcPercent struct {
	set   bool
	value int
}

// parseGCPercent reads --gc-percent as GOGC is read: a percentage or "off"; "" is not given.
func parseGCPercent(s string) (gcPercent, error) {
	switch s {
	case "":
		return gcPercent{}, nil
	case "off":
		return gcPercent{set: true, value: -1}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return gcPercent{}, fmt.Errorf("--gc-percent %q: want a percentage such as 400, or off", s)
	}
	return gcPercent{set: true, value: n}, nil
}

// memoryLimit is --memory-limit: not given (set false), a size in bytes (math.MaxInt64: off), or
// a share of memoryAvailable in percent (percent > 0).
type memoryLimit struct {
	set     bool
	bytes   int64
	percent float64
}

// parseMemoryLimit reads --memory-limit: a size in GOMEMLIMIT's units (1073741824, 1536MiB,
// 2GiB, also 1.5GiB), a percentage of the memory available (50%), or "off"; "" is not given.
func parseMemoryLimit(s string) (memoryLimit, error) {
	switch {
	case s == "":
		return memoryLimit{}, nil
	case s == "off":
		return memoryLimit{set: true, bytes: math.MaxInt64}, nil
	case strings.HasSuffix(s, "%"):
		p, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || !(p > 0 && p <= 100) {
			return memoryLimit{}, fmt.Errorf("--memory-limit %q: want a percentage above 0 and at most 100", s)
		}
		return memoryLimit{set: true, percent: p}, nil
	}
	n, err := parseSize(s)
	if err != nil {
		return memoryLimit{}, fmt.Errorf("--memory-limit %q: %w", s, err)
	}
	return memoryLimit{set: true, bytes: n}, nil
}

// sizeUnits are GOMEMLIMIT's units, largest first.
var sizeUnits = []struct {
	suffix string
	bytes  float64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

// parseSize reads a positive number of bytes with an optional unit of sizeUnits.
func parseSize(s string) (int64, error) {
	num, mult := s, 1.0
	for _, u := range sizeUnits {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			num, mult = v, u.bytes
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || num != strings.TrimSpace(num) || !(f*mult >= 1 && f*mult < math.MaxInt64) {
		return 0, fmt.Errorf("want a size such as 2GiB or 1536MiB (units B, KiB, MiB, GiB, TiB), a percentage such as 50%%, or off")
	}
	return int64(f * mult), nil
}

// runtimeSettings are the collector's target and memory limit in effect, and where each came from.
type runtimeSettings struct {
	gcPercent   int // negative: off
	gcFrom      string
	memoryLimit int64 // math.MaxInt64: none
	memoryFrom  string
}

// tuneRuntime applies the collector's target and the soft memory limit: the flag's when given,
// else the runtime's own from GOGC and GOMEMLIMIT when set (getenv), else the defaults; a
// percentage is of memoryAvailable(fsys). It returns the settings then in effect.
func tuneRuntime(gc gcPercent, mem memoryLimit, getenv func(string) string, fsys fs.FS) runtimeSettings {
	var rs runtimeSettings
	switch {
	case gc.set:
		debug.SetGCPercent(gc.value)
		rs.gcFrom = "--gc-percent"
	case getenv("GOGC") != "":
		rs.gcFrom = "GOGC"
	default:
		debug.SetGCPercent(defaultGCPercent)
		rs.gcFrom = "default"
	}
	rs.gcPercent = debug.SetGCPercent(defaultGCPercent) // reads it ...
	debug.SetGCPercent(rs.gcPercent)                    // ... and puts it back

	switch {
	case mem.set && mem.percent == 0:
		debug.SetMemoryLimit(mem.bytes)
		rs.memoryFrom = "--memory-limit"
	case mem.set || getenv("GOMEMLIMIT") == "":
		from, share := "default", float64(defaultMemoryShare)
		if mem.set {
			from, share = "--memory-limit", mem.percent
		}
		total, where := memoryAvailable(fsys)
		if total > 0 {
			debug.SetMemoryLimit(int64(float64(total) * share / 100))
			rs.memoryFrom = fmt.Sprintf("%s: %g%% of %s (%s)", from, share, where, formatBytes(total))
		} else {
			rs.memoryFrom = fmt.Sprintf("%s: %g%% of the memory available, which cannot be read", from, share)
			if getenv("GOMEMLIMIT") != "" {
				rs.memoryFrom += "; GOMEMLIMIT's stays"
			}
		}
	default:
		rs.memoryFrom = "GOMEMLIMIT"
	}
	rs.memoryLimit = debug.SetMemoryLimit(-1) // a negative limit only reads it
	return rs
}

// logRuntime writes the runtime's settings in effect as one line: the collector's target and
// memory limit with their sources, GOMAXPROCS, GODEBUG and Go's version.
func logRuntime(logger *log.Logger, rs runtimeSettings, getenv func(string) string) {
	gogc, limit := strconv.Itoa(rs.gcPercent), formatBytes(rs.memoryLimit)
	if rs.gcPercent < 0 {
		gogc = "off"
	}
	if rs.memoryLimit == math.MaxInt64 {
		limit = "none"
	}
	logger.Info("runtime",
		"gogc", gogc, "gogc_from", rs.gcFrom,
		"memory_limit", limit, "memory_limit_from", rs.memoryFrom,
		"gomaxprocs", runtime.GOMAXPROCS(0), "godebug", getenv("GODEBUG"), "go", runtime.Version())
}

// formatBytes writes n in the largest of sizeUnits that keeps it at 1 or more, with up to three
// digits: 1GiB, 3.81GiB, 512MiB.
func formatBytes(n int64) string {
	for _, u := range sizeUnits {
		if v := float64(n) / u.bytes; v >= 1 || u.bytes == 1 {
			prec := 0
			switch {
			case v < 10:
				prec = 2
			case v < 100:
				prec = 1
			}
			f := strconv.FormatFloat(v, 'f', prec, 64)
			if strings.Contains(f, ".") {
				f = strings.TrimRight(strings.TrimRight(f, "0"), ".")
			}
			return f + u.suffix
		}
	}
	return "0B"
}
