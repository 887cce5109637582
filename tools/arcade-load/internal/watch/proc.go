// Package watch is what the load tool watches besides the screens: processes' CPU time and
// memory (from /proc), the disk under the arcade's data (the disk floor and the disk watch), the
// arcade's collections (its gctrace) and the tool's own, and what the slow moves were under way
// during.
package watch

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times (100 on Linux).
const clockTicks = 100

// Sample is a process's CPU time and resident memory at one moment.
type Sample struct {
	At      time.Time
	CPU     time.Duration // user + system
	RSS     uint64        // bytes
	Threads int
}

// SampleProc reads /proc/PID/stat and /proc/PID/status.
func SampleProc(pid int) (Sample, error) {
	s := Sample{At: time.Now()}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	// The command name (field 2) is in parentheses and may hold spaces: split after it.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return s, fmt.Errorf("odd /proc/%d/stat", pid)
	}
	f := strings.Fields(string(stat[i+1:]))
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return s, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, _ := strconv.ParseUint(f[11], 10, 64)
	st, _ := strconv.ParseUint(f[12], 10, 64)
	s.CPU = time.Duration(ut+st) * time.Second / clockTicks
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		switch k {
		case "VmRSS":
			kb, _ := strconv.ParseUint(fs[0], 10, 64)
			s.RSS = kb * 1024
		case "Threads":
			s.Threads, _ = strconv.Atoi(fs[0])
		}
	}
	return s, nil
}

// CPUShare is the CPU used between a and b as a share of one core (1 = a whole core).
func CPUShare(a, b Sample) float64 {
	wall := b.At.Sub(a.At)
	if wall <= 0 {
		return 0
	}
	return float64(b.CPU-a.CPU) / float64(wall)
}

// SampleProcs sums the figures of several processes (the nodes of a cluster).
func SampleProcs(pids []int) (Sample, error) {
	sum := Sample{At: time.Now()}
	for _, pid := range pids {
		p, err := SampleProc(pid)
		if err != nil {
			return sum, err
		}
		sum.CPU += p.CPU
		sum.RSS += p.RSS
		sum.Threads += p.Threads
	}
	return sum, nil
}

// LoadAverage returns the first line of /proc/loadavg (1, 5 and 15 minute load averages).
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
