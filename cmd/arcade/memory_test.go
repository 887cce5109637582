package main

import (
	"os"
	"runtime"
	"testing"
	"testing/fstest"
)

// TestMemoryAvailable: the lowest of the machine's memory and the limits of the process's cgroup
// and those above it, for cgroup v2, v1, both, and neither.
func TestMemoryAvailable(t *testing.T) {
	const gib = 1 << 30
	meminfo := &fstest.MapFile{Data: []byte("MemTotal:        8388608 kB\nMemFree:         1024 kB\n")}
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	for _, c := range []struct {
		name  string
		files fstest.MapFS
		want  int64
		where string
	}{
		{"nothing readable", fstest.MapFS{}, 0, ""},
		{"machine only", fstest.MapFS{"proc/meminfo": meminfo}, 8 * gib, "machine"},
		{"v2 service limit", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": file("0::/system.slice/arcade.service\n"),
			"sys/fs/cgroup/system.slice/arcade.service/memory.max": file("1073741824\n"),
			"sys/fs/cgroup/system.slice/memory.max":                file("max\n"),
		}, 1 * gib, "cgroup v2"},
		{"v2 parent lower", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": file("0::/system.slice/arcade.service\n"),
			"sys/fs/cgroup/system.slice/arcade.service/memory.max": file("2147483648\n"),
			"sys/fs/cgroup/system.slice/memory.max":                file("536870912\n"),
		}, gib / 2, "cgroup v2"},
		{"v2 no limit", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": file("0::/user.slice/session-1.scope\n"),
			"sys/fs/cgroup/user.slice/session-1.scope/memory.max": file("max\n"),
		}, 8 * gib, "machine"},
		{"v2 container sees its own cgroup as the root", fstest.MapFS{
			"proc/meminfo":                     meminfo,
			"proc/self/cgroup":                 file("0::/../../kubepods/pod1/c1\n"),
			"sys/fs/cgroup/memory.max":         file("268435456\n"),
			"sys/fs/cgroup/cgroup.controllers": file("cpu memory\n"),
		}, gib / 4, "cgroup v2"},
		{"v2 limit above the machine's memory", fstest.MapFS{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         file("0::/\n"),
			"sys/fs/cgroup/memory.max": file("17179869184\n"),
		}, 8 * gib, "machine"},
		{"v1 limit", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": file("12:cpu,cpuacct:/docker/abc\n11:memory:/docker/abc\n1:name=systemd:/docker/abc\n"),
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": file("2147483648\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            file("9223372036854771712\n"),
		}, 2 * gib, "cgroup v1"},
		{"v1 no limit", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": file("11:memory:/user.slice\n"),
			"sys/fs/cgroup/memory/user.slice/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 8 * gib, "machine"},
		{"v1 container", fstest.MapFS{
			"proc/self/cgroup":                           file("11:memory:/docker/abc\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("1073741824\n"),
		}, 1 * gib, "cgroup v1"},
		{"hybrid: v1 memory controller and a v2 hierarchy", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": file("11:memory:/system.slice/arcade.service\n0::/system.slice/arcade.service\n"),
			"sys/fs/cgroup/memory/system.slice/arcade.service/memory.limit_in_bytes": file("3221225472\n"),
		}, 3 * gib, "cgroup v1"},
		{"unreadable meminfo, v2 limit", fstest.MapFS{
			"proc/meminfo":             file("garbage\n"),
			"proc/self/cgroup":         file("0::/\n"),
			"sys/fs/cgroup/memory.max": file("1073741824\n"),
		}, 1 * gib, "cgroup v2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, where := memoryAvailable(c.files)
			if got != c.want || where != c.where {
				t.Errorf("memoryAvailable = %d, %q; want %d, %q", got, where, c.want, c.where)
			}
		})
	}
}

// TestMemoryAvailableHere: on Linux the real files give a figure.
func TestMemoryAvailableHere(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/meminfo is Linux's")
	}
	n, where := memoryAvailable(os.DirFS("/"))
	if n <= 0 || where == "" {
		t.Fatalf("memoryAvailable = %d, %q", n, where)
	}
	t.Logf("%s from %s", formatBytes(n), where)
}
