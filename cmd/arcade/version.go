package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"time"
)

// Version is this arcade's release. From v0.1.0 on, every release opens the database of the
// release before it (storage keeps a v0.1.0 file to prove it).
const Version = "v0.1.0"

// isVersionRequest reports whether args (without the program's name) ask for the version:
// `arcade --version`, `arcade -version` or `arcade version`.
func isVersionRequest(args []string) bool {
	return len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version")
}

// printVersion writes the version line of this binary to out.
func printVersion(out io.Writer) {
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(out, versionLine(info))
}

// versionLine is "arcade v0.1.0 (commit 94b1244, 2026-11-27)": Version, then the commit and the
// day (UTC) of the commit the binary was built from, as go build stamps them in a git checkout
// (vcs.revision, vcs.time); "-dirty" follows a commit with uncommitted changes (vcs.modified).
// A build that recorded no commit (go run, -buildvcs=false, no build info) says "commit unknown".
func versionLine(info *debug.BuildInfo) string {
	commit, day := "unknown", "unknown"
	if info != nil {
		var modified bool
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if s.Value != "" {
					commit = s.Value[:min(7, len(s.Value))]
				}
			case "vcs.time":
				if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
					day = t.UTC().Format(time.DateOnly)
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && commit != "unknown" {
			commit += "-dirty"
		}
	}
	if day == "unknown" {
		return fmt.Sprintf("arcade %s (commit %s)", Version, commit)
	}
	return fmt.Sprintf("arcade %s (commit %s, %s)", Version, commit, day)
}
