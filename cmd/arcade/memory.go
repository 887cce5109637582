package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// cgroupNoLimit: a cgroup v1 memory limit at or above this is "no limit" (the kernel writes
// its largest page-aligned number, 9223372036854771712, for none).
const cgroupNoLimit = 1 << 62

// memoryAvailable returns the memory the process may use, and where that figure comes from:
// the lowest of the machine's memory ("machine", /proc/meminfo) and the memory limits of the
// process's cgroup and of every cgroup above it ("cgroup v2", memory.max; "cgroup v1",
// memory.limit_in_bytes). fsys is the file system from its root ("/"). It returns 0 and "" when
// none can be read.
func memoryAvailable(fsys fs.FS) (int64, string) {
	total, where := machineMemory(fsys), "machine"
	if total <= 0 {
		total, where = 0, ""
	}
	lower := func(n int64, from string) {
		if n > 0 && (total == 0 || n < total) {
			total, where = n, from
		}
	}
	own, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return total, where
	}
	// Each line is hierarchy-ID:controllers:path; cgroup v2's is 0::path, and cgroup v1's memory
	// controller has a line of its own (both may be there: the "hybrid" layout).
	for line := range strings.Lines(string(own)) {
		fields := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(fields) != 3 {
			continue
		}
		switch {
		case fields[0] == "0" && fields[1] == "":
			lower(cgroupLimit(fsys, "sys/fs/cgroup", fields[2], "memory.max"), "cgroup v2")
		case containsField(fields[1], "memory"):
			lower(cgroupLimit(fsys, "sys/fs/cgroup/memory", fields[2], "memory.limit_in_bytes"), "cgroup v1")
		}
	}
	return total, where
}

// cgroupLimit returns the lowest limit in the file named file of the cgroup at dir (the path
// /proc/self/cgroup gives) under the hierarchy mounted at mount, and of each cgroup above it; 0
// for none. A container usually sees its own cgroup as the mount's root, whatever its path says:
// the walk up ends there.
func cgroupLimit(fsys fs.FS, mount, dir, file string) int64 {
	var lowest int64
	dir = path.Clean("/" + dir)
	for {
		p := path.Join(mount, dir, file)
		if b, err := fs.ReadFile(fsys, p); err == nil {
			// cgroup v2 writes "max" for no limit, which does not parse.
			n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			if err == nil && n > 0 && n < cgroupNoLimit && (lowest == 0 || n < lowest) {
				lowest = n
			}
		}
		if dir == "/" {
			return lowest
		}
		dir = path.Dir(dir)
	}
}

// machineMemory returns MemTotal from /proc/meminfo in bytes, or 0.
func machineMemory(fsys fs.FS) int64 {
	b, err := fs.ReadFile(fsys, "proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// MemTotal:       16314260 kB
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) != 2 || f[1] != "kB" {
				return 0
			}
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0
			}
			return n << 10
		}
	}
	return 0
}

// containsField reports whether the comma-separated list has field.
func containsField(list, field string) bool {
	for f := range strings.SplitSeq(list, ",") {
		if f == field {
			return true
		}
	}
	return false
}
