package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// e2eParallel is how many tests of the package run at once when -test.parallel is not given. The
// end-to-end tests mostly wait (for turn timers, takeovers, restarts, a server's answer), not
// compute, so more of them than the machine has cores overlap their waits. A test that sets the
// runtime's globals (TestTuneRuntime) does not call t.Parallel: it runs alone, before the others.
const e2eParallel = 8

// deadline is how long a test waits for a screen, an event or a server before it fails: generous,
// as a busy machine may be slow; it costs nothing when the event comes.
const deadline = 60 * time.Second

func TestMain(m *testing.M) {
	flag.Parse()
	// The binaries the tests run rate new keys' short matches, as the tests' players are: the
	// rules against farming are tested in package storage.
	for _, v := range []string{"ARCADE_RATED_MIN_MOVES", "ARCADE_RATED_PAIR_PER_DAY", "ARCADE_RATED_NEWCOMER_MOVES"} {
		if err := os.Setenv(v, "0"); err != nil {
			panic(err)
		}
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(e2eParallel)); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the arcade binary, built once for the tests that run it as a process.
var built struct {
	once sync.Once
	dir  string // removed when the tests end
	path string
	err  error
	out  []byte
}

// binary builds the arcade once per test run and returns its path.
func binary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "arcade-test-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "arcade")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}
