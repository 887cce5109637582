package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWithKeptStacks: the setting is added to GODEBUG, or GODEBUG made, unless GODEBUG already
// names it, whatever its value.
func TestWithKeptStacks(t *testing.T) {
	for _, c := range []struct {
		env, want []string
		changed   bool
	}{
		{[]string{"HOME=/root"}, []string{"HOME=/root", "GODEBUG=gcshrinkstackoff=1"}, true},
		{[]string{"GODEBUG=", "A=b"}, []string{"GODEBUG=gcshrinkstackoff=1", "A=b"}, true},
		{[]string{"GODEBUG=gctrace=1"}, []string{"GODEBUG=gctrace=1,gcshrinkstackoff=1"}, true},
		{[]string{"GODEBUG=gctrace=1,gcshrinkstackoff=1"}, []string{"GODEBUG=gctrace=1,gcshrinkstackoff=1"}, false},
		{[]string{"GODEBUG=gcshrinkstackoff=0"}, []string{"GODEBUG=gcshrinkstackoff=0"}, false},
		{[]string{"XGODEBUG=gcshrinkstackoff=0"}, []string{"XGODEBUG=gcshrinkstackoff=0", "GODEBUG=gcshrinkstackoff=1"}, true},
	} {
		before := slices.Clone(c.env)
		got, changed := withKeptStacks(c.env)
		if !slices.Equal(got, c.want) || changed != c.changed {
			t.Errorf("withKeptStacks(%q) = %q, %v; want %q, %v", c.env, got, changed, c.want, c.changed)
		}
		if !slices.Equal(c.env, before) {
			t.Errorf("withKeptStacks changed its argument: %q", c.env)
		}
	}
}

// TestKeepStacksExec: keepStacks runs this very program again with the setting, and only once
// the setting is missing.
func TestKeepStacksExec(t *testing.T) {
	var calls [][]string
	exec := func(argv0 string, argv, envv []string) error {
		calls = append(calls, envv)
		if self, _ := os.Executable(); argv0 != self || !slices.Equal(argv, os.Args) {
			t.Errorf("exec(%q, %q); want this program with its arguments", argv0, argv)
		}
		return nil
	}
	t.Setenv("GODEBUG", "gctrace=0")
	if err := keepStacks(exec); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || !slices.Contains(calls[0], "GODEBUG=gctrace=0,gcshrinkstackoff=1") {
		t.Fatalf("exec calls %q", calls)
	}
	t.Setenv("GODEBUG", "gcshrinkstackoff=1")
	if keepStacks(exec) != nil || keepStacks(nil) != nil || len(calls) != 1 {
		t.Errorf("exec called again with the setting there: %d calls", len(calls))
	}
	t.Setenv("GODEBUG", "")
	failed := func(string, []string, []string) error { return errors.New("exec format error") }
	if err := keepStacks(failed); err == nil || !strings.Contains(err.Error(), "exec format error") {
		t.Errorf("a failed exec: %v", err)
	}
}

// TestBinaryKeepsStacks: the built server runs, as the process it was started as, with the
// setting in its environment.
func TestBinaryKeepsStacks(t *testing.T) {
	if execSelf == nil {
		t.Skip("the arcade runs itself again on Linux only")
	}
	cmd, _ := startBinary(t, binary(t), t.TempDir())
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "environ"))
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(string(b), "\x00")
	if !slices.ContainsFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "GODEBUG=") && strings.Contains(kv, keepStacksSetting)
	}) {
		t.Errorf("the server's environment has no GODEBUG with %s: %q", keepStacksSetting, env)
	}
}
