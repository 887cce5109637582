package server

import (
	"slices"
	"testing"
)

// TestArcadeEnv: the arcade's GODEBUG is the one it would have run with, whichever that is, with
// gcshrinkstackoff=1 unless that names it, and gctrace=1 for --gc-watch.
func TestArcadeEnv(t *testing.T) {
	for _, tc := range []struct {
		env     []string
		tool    string
		gcTrace bool
		want    []string
	}{
		{nil, "", false, []string{"GODEBUG=gcshrinkstackoff=1"}},
		{nil, "", true, []string{"GODEBUG=gcshrinkstackoff=1,gctrace=1"}},
		{nil, "madvdontneed=1", true, []string{"GODEBUG=madvdontneed=1,gcshrinkstackoff=1,gctrace=1"}},
		{[]string{"GOGC=800"}, "", false, []string{"GOGC=800", "GODEBUG=gcshrinkstackoff=1"}},
		{[]string{"GODEBUG=gcshrinkstackoff=0", "GOGC=800"}, "madvdontneed=1", true,
			[]string{"GOGC=800", "GODEBUG=gcshrinkstackoff=0,gctrace=1"}},
		{nil, "gcshrinkstackoff=1", false, []string{"GODEBUG=gcshrinkstackoff=1"}},
		{[]string{"GODEBUG=a=1", "GODEBUG=b=1"}, "", true, []string{"GODEBUG=b=1,gcshrinkstackoff=1,gctrace=1"}},
		{[]string{"GODEBUG="}, "a=1", false, []string{"GODEBUG=gcshrinkstackoff=1"}},
	} {
		if got := ArcadeEnv(tc.env, tc.tool, tc.gcTrace); !slices.Equal(got, tc.want) {
			t.Errorf("ArcadeEnv(%q, %q, %v) = %q, want %q", tc.env, tc.tool, tc.gcTrace, got, tc.want)
		}
	}
}
