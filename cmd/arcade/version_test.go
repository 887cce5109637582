package main

import (
	"os/exec"
	"regexp"
	"runtime/debug"
	"testing"
)

// TestVersionLine: the version line names the release, the commit (7 hex digits, -dirty with
// uncommitted changes) and its day in UTC when the build recorded them, and "unknown" for what it
// did not.
func TestVersionLine(t *testing.T) {
	stamped := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	rev := "94b1244c0ffee94b1244c0ffee94b1244c0ffee9"
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{stamped("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-27T21:42:00Z", "vcs.modified", "false"),
			"arcade " + Version + " (commit 94b1244, 2026-11-27)"},
		{stamped("vcs.revision", rev, "vcs.time", "2026-11-27T23:30:00-02:00", "vcs.modified", "true"),
			"arcade " + Version + " (commit 94b1244-dirty, 2026-11-28)"},
		{stamped("-buildmode", "exe"), "arcade " + Version + " (commit unknown)"},
		{stamped("vcs.revision", "", "vcs.time", "yesterday"), "arcade " + Version + " (commit unknown)"},
		{nil, "arcade " + Version + " (commit unknown)"},
	} {
		if got := versionLine(c.info); got != c.want {
			t.Errorf("versionLine(%v) = %q, want %q", c.info, got, c.want)
		}
	}
}

// TestVersionCommand: the built binary prints one version line for --version, -version and
// version, whether or not its build recorded the commit, and starts no server.
func TestVersionCommand(t *testing.T) {
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(Version) {
		t.Errorf("Version %q is not vMAJOR.MINOR.PATCH", Version)
	}
	bin := binary(t)
	line := regexp.MustCompile(`^arcade ` + regexp.QuoteMeta(Version) +
		` \(commit ([0-9a-f]{7}(-dirty)?, \d{4}-\d{2}-\d{2}|unknown)\)\n$`)
	for _, arg := range []string{"--version", "-version", "version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil || !line.Match(out) {
			t.Errorf("arcade %s: %q, %v", arg, out, err)
		}
	}
}
