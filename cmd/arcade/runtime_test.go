package main

import (
	"bufio"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"
)

// TestParseMemoryLimit: sizes in GOMEMLIMIT's units, percentages, off, and what is refused.
func TestParseMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want memoryLimit
	}{
		{"", memoryLimit{}},
		{"off", memoryLimit{set: true, bytes: math.MaxInt64}},
		{"1073741824", memoryLimit{set: true, bytes: 1 << 30}},
		{"512B", memoryLimit{set: true, bytes: 512}},
		{"64KiB", memoryLimit{set: true, bytes: 64 << 10}},
		{"1536MiB", memoryLimit{set: true, bytes: 1536 << 20}},
		{"2GiB", memoryLimit{set: true, bytes: 2 << 30}},
		{"1.5GiB", memoryLimit{set: true, bytes: 3 << 29}},
		{"1TiB", memoryLimit{set: true, bytes: 1 << 40}},
		{"50%", memoryLimit{set: true, percent: 50}},
		{"12.5%", memoryLimit{set: true, percent: 12.5}},
		{"100%", memoryLimit{set: true, percent: 100}},
	} {
		got, err := parseMemoryLimit(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseMemoryLimit(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"2GB", "2G", "GiB", "-1GiB", "0", "0.1B", "1e30TiB", "0%", "101%", "-5%", "%", "half", " 2GiB", "2 GiB", "NaNGiB", "Inf"} {
		if got, err := parseMemoryLimit(bad); err == nil {
			t.Errorf("parseMemoryLimit(%q) = %+v, want an error", bad, got)
		}
	}
}

// TestParseGCPercent: a percentage, off, or not given.
func TestParseGCPercent(t *testing.T) {
	for in, want := range map[string]gcPercent{"": {}, "off": {true, -1}, "0": {true, 0}, "400": {true, 400}} {
		if got, err := parseGCPercent(in); err != nil || got != want {
			t.Errorf("parseGCPercent(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "4x", "on", "1.5"} {
		if _, err := parseGCPercent(bad); err == nil {
			t.Errorf("parseGCPercent(%q): no error", bad)
		}
	}
}

// TestFormatBytes: the largest unit, up to three digits.
func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0B", 512: "512B", 1 << 30: "1GiB", 3 << 29: "1.5GiB",
		4091 << 20: "4GiB", 4000 << 20: "3.91GiB", 1537 << 20: "1.5GiB", 100 << 20: "100MiB", 15 << 40: "15TiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestConfigRuntimeFlags: the flags and their ARCADE_ variables reach the config; a bad value
// stops the server before it starts.
func TestConfigRuntimeFlags(t *testing.T) {
	env := map[string]string{"ARCADE_GC_PERCENT": "200", "ARCADE_MEMORY_LIMIT": "25%"}
	c, err := parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || c.gcPercent != (gcPercent{true, 200}) || c.memoryLimit != (memoryLimit{set: true, percent: 25}) {
		t.Errorf("from the environment: %+v %+v, %v", c.gcPercent, c.memoryLimit, err)
	}
	c, err = parseConfig([]string{"--gc-percent", "off", "--memory-limit", "2GiB"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || c.gcPercent != (gcPercent{true, -1}) || c.memoryLimit != (memoryLimit{set: true, bytes: 2 << 30}) {
		t.Errorf("flags over the environment: %+v %+v, %v", c.gcPercent, c.memoryLimit, err)
	}
	c, err = parseConfig(nil, func(string) string { return "" }, io.Discard)
	if err != nil || c.gcPercent.set || c.memoryLimit.set {
		t.Errorf("not given: %+v %+v, %v", c.gcPercent, c.memoryLimit, err)
	}
	for _, args := range [][]string{{"--memory-limit", "2GB"}, {"--gc-percent", "lots"}} {
		if _, err := parseConfig(args, func(string) string { return "" }, io.Discard); err == nil {
			t.Errorf("parseConfig(%q): no error", args)
		}
	}
}

// TestTuneRuntime: the flag wins, then the runtime's own variable, then the default; a
// percentage is of the memory available.
func TestTuneRuntime(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })

	const gib = 1 << 30
	machine := fstest.MapFS{"proc/meminfo": {Data: []byte("MemTotal: 8388608 kB\n")}}
	cgroup := fstest.MapFS{
		"proc/meminfo":             {Data: []byte("MemTotal: 8388608 kB\n")},
		"proc/self/cgroup":         {Data: []byte("0::/\n")},
		"sys/fs/cgroup/memory.max": {Data: []byte("4294967296\n")},
	}
	none := func(string) string { return "" }
	both := func(k string) string { return map[string]string{"GOGC": "123", "GOMEMLIMIT": "777MiB"}[k] }
	for _, c := range []struct {
		name      string
		gc        gcPercent
		mem       memoryLimit
		getenv    func(string) string
		fsys      fstest.MapFS
		wantGC    int
		gcFrom    string
		wantLimit int64
		memFrom   string
	}{
		{"defaults, cgroup", gcPercent{}, memoryLimit{}, none, cgroup,
			defaultGCPercent, "default", 2 * gib, "default: 50% of cgroup v2 (4GiB)"},
		{"defaults, machine", gcPercent{}, memoryLimit{}, none, machine,
			defaultGCPercent, "default", 4 * gib, "default: 50% of machine (8GiB)"},
		{"defaults, memory unknown", gcPercent{}, memoryLimit{}, none, fstest.MapFS{},
			defaultGCPercent, "default", math.MaxInt64, "default: 50% of the memory available, which cannot be read"},
		{"the environment's", gcPercent{}, memoryLimit{}, both, cgroup,
			123, "GOGC", 777 << 20, "GOMEMLIMIT"},
		{"flags over the environment", gcPercent{true, 150}, memoryLimit{set: true, bytes: gib}, both, cgroup,
			150, "--gc-percent", gib, "--memory-limit"},
		{"a percentage over GOMEMLIMIT", gcPercent{true, -1}, memoryLimit{set: true, percent: 25}, both, machine,
			-1, "--gc-percent", 2 * gib, "--memory-limit: 25% of machine (8GiB)"},
		{"a percentage of memory unknown", gcPercent{}, memoryLimit{set: true, percent: 25}, both, fstest.MapFS{},
			123, "GOGC", 777 << 20, "--memory-limit: 25% of the memory available, which cannot be read; GOMEMLIMIT's stays"},
		{"off", gcPercent{true, 0}, memoryLimit{set: true, bytes: math.MaxInt64}, both, cgroup,
			0, "--gc-percent", math.MaxInt64, "--memory-limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// As the runtime would have set them from GOGC and GOMEMLIMIT, or its defaults.
			if c.getenv("GOGC") != "" {
				debug.SetGCPercent(123)
				debug.SetMemoryLimit(777 << 20)
			} else {
				debug.SetGCPercent(100)
				debug.SetMemoryLimit(math.MaxInt64)
			}
			rs := tuneRuntime(c.gc, c.mem, c.getenv, c.fsys)
			want := runtimeSettings{c.wantGC, c.gcFrom, c.wantLimit, c.memFrom}
			if rs != want {
				t.Errorf("tuneRuntime = %+v, want %+v", rs, want)
			}
			if got := debug.SetGCPercent(100); got != c.wantGC {
				t.Errorf("the runtime's GOGC is %d, want %d", got, c.wantGC)
			}
			if got := debug.SetMemoryLimit(-1); got != c.wantLimit {
				t.Errorf("the runtime's memory limit is %d, want %d", got, c.wantLimit)
			}
		})
	}
}

// TestBinaryLogsRuntime: the built server runs as it was started, with the GODEBUG it was given,
// and logs the settings in effect and where they came from.
func TestBinaryLogsRuntime(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary(t), "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--memory-limit", "1GiB")
	cmd.Env = append(os.Environ(), "GODEBUG=gcshrinkstackoff=1", "GOGC=200", "ARCADE_GC_PERCENT=", "ARCADE_MEMORY_LIMIT=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		line := lines.Text()
		if !strings.Contains(line, "runtime") {
			continue
		}
		for _, want := range []string{"gogc=200", "gogc_from=GOGC", "memory_limit=1GiB", "memory_limit_from=--memory-limit",
			`godebug="gcshrinkstackoff=1"`, "gomaxprocs=", "go=go1."} {
			if !strings.Contains(line, want) {
				t.Errorf("the runtime's log line has no %s: %s", want, line)
			}
		}
		return
	}
	t.Fatal("the server logged no runtime line")
}
