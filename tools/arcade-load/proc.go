package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times (100 on Linux).
const clockTicks = 100

// procSample is a process's CPU time and resident memory at one moment.
type procSample struct {
	at      time.Time
	cpu     time.Duration // user + system
	rss     uint64        // bytes
	threads int
}

// sampleProc reads /proc/PID/stat and /proc/PID/status.
func sampleProc(pid int) (procSample, error) {
	s := procSample{at: time.Now()}
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
	s.cpu = time.Duration(ut+st) * time.Second / clockTicks
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
			s.rss = kb * 1024
		case "Threads":
			s.threads, _ = strconv.Atoi(fs[0])
		}
	}
	return s, nil
}

// cpuShare is the CPU used between a and b as a share of one core (1 = a whole core).
func cpuShare(a, b procSample) float64 {
	wall := b.at.Sub(a.at)
	if wall <= 0 {
		return 0
	}
	return float64(b.cpu-a.cpu) / float64(wall)
}

// server is a server binary the tool started, or one it was pointed at (pid 0).
type server struct {
	name    string
	addr    string
	metrics string // http://ADDR of the metrics endpoint, if any
	cmd     *exec.Cmd
	pid     int
	nodes   []string // with --addr, its addresses: several for the nodes of a cluster
	pids    []int    // with --addr, the processes of those addresses (--server-pid)
	logPath string
	data    string    // the data folder of an arcade the tool started; empty otherwise
	started time.Time // when the tool started it; zero for a server it was pointed at
	exited  chan struct{}
	mu      sync.Mutex
	exitErr error
}

// toolDir is the load tool's folder in the arcade's repository, where its own module lives.
const toolDir = "tools/arcade-load"

// build compiles the arcade (in the arcade's module, at root) and the floor (in the tool's own
// module) into dir and returns their paths.
func build(ctx context.Context, root, dir string) (arcade, floor string, err error) {
	arcade, floor = filepath.Join(dir, "arcade"), filepath.Join(dir, "floor")
	for _, b := range [][3]string{{arcade, "./cmd/arcade", root}, {floor, "./floor", filepath.Join(root, toolDir)}} {
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b[0], b[1])
		cmd.Dir = b[2]
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("go build %s in %s: %v\n%s", b[1], b[2], err, out)
		}
	}
	return arcade, floor, nil
}

// moduleRoot finds the arcade's repository from the working directory up: the folder that holds
// the arcade's go.mod and the tool's own (tools/arcade-load/go.mod).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		_, errArcade := os.Stat(filepath.Join(dir, "go.mod"))
		_, errTool := os.Stat(filepath.Join(dir, toolDir, "go.mod"))
		if errArcade == nil && errTool == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no arcade repository here or above (a folder with go.mod and " + toolDir + "/go.mod): run from the repository, or give --arcade-bin and --floor-bin")
		}
		dir = parent
	}
}

// startServer runs bin with args and env added to the tool's environment, its stderr in logPath, and waits for the line that says it
// listens ("... listening on ADDR"); a line "metrics on http://ADDR/metrics" gives the metrics
// endpoint.
func startServer(ctx context.Context, name, bin string, args, env []string, logPath string) (*server, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the tool
	started := time.Now()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &server{name: name, cmd: cmd, pid: cmd.Process.Pid, logPath: logPath, started: started, exited: make(chan struct{})}
	found := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		var once sync.Once
		for sc.Scan() {
			line := sc.Text()
			if _, a, ok := strings.Cut(line, "metrics on "); ok {
				s.mu.Lock()
				s.metrics = strings.TrimSuffix(strings.TrimSpace(a), "/metrics")
				s.mu.Unlock()
			}
			if _, a, ok := strings.Cut(line, "listening on "); ok {
				s.mu.Lock()
				s.addr = strings.TrimSpace(a)
				s.mu.Unlock()
				once.Do(func() { close(found) })
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() {
		err := cmd.Wait()
		logf.Close()
		s.mu.Lock()
		s.exitErr = err
		s.mu.Unlock()
		close(s.exited)
	}()
	select {
	case <-found:
	case <-s.exited:
		return nil, fmt.Errorf("%s exited before listening: %v (log %s)", name, s.exitErr, logPath)
	case <-time.After(30 * time.Second):
		s.stop()
		return nil, fmt.Errorf("%s did not listen within 30 s (log %s)", name, logPath)
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
	// The metrics line, when there is one, comes right after the address.
	time.Sleep(100 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := checkLoopback(s.addr); err != nil {
		go s.stop()
		return nil, err
	}
	return s, nil
}

// sample reads the server process's figures.
func (s *server) sample() (procSample, error) {
	if len(s.pids) > 0 {
		return sampleProcs(s.pids)
	}
	if s.pid == 0 {
		return procSample{at: time.Now()}, errors.New("not started by this tool")
	}
	return sampleProc(s.pid)
}

// sampleProcs sums the figures of several processes (the nodes of a cluster).
func sampleProcs(pids []int) (procSample, error) {
	sum := procSample{at: time.Now()}
	for _, pid := range pids {
		p, err := sampleProc(pid)
		if err != nil {
			return sum, err
		}
		sum.cpu += p.cpu
		sum.rss += p.rss
		sum.threads += p.threads
	}
	return sum, nil
}

// pair returns how the two players of room i connect: to the server's address, or with several
// nodes (--addr a,b,c) to node i mod n for both (pairing "same") or to node i mod n for the
// creator and the next node for the joiner ("cross").
func (s *server) pair(o dialOpts, i int, pairing string) [2]dialOpts {
	p := [2]dialOpts{o, o}
	if n := len(s.nodes); n > 1 {
		p[0].addr, p[1].addr = s.nodes[i%n], s.nodes[i%n]
		if pairing == "cross" {
			p[1].addr = s.nodes[(i+1)%n]
		}
	}
	return p
}

// stop asks the server to stop (SIGTERM), then kills it after 10 s.
func (s *server) stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// alive reports whether the server process still runs.
func (s *server) alive() bool {
	if s.cmd == nil {
		return true
	}
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// checkLoopback refuses any address that is not on this machine's loopback interface.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q is not loopback: this tool only loads servers on 127.0.0.1 or ::1", addr)
	}
	return nil
}

// loadAverage returns the first line of /proc/loadavg (1, 5 and 15 minute load averages).
func loadAverage() string {
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

// keptStacks is the GODEBUG setting deploy/arcade.service runs the arcade with (goroutine stacks
// are left at the size they grew to; docs/operations.md says why). The tool starts the arcade
// with it too, so that its figures are those of the arcade as deployed.
const keptStacks = "gcshrinkstackoff=1"

// arcadeEnv returns env with the GODEBUG the tool starts the arcade with: env's (the last one,
// which is the one that counts), else tool's (the tool's own, which the arcade would inherit);
// with keptStacks added unless it names gcshrinkstackoff already, and gctrace=1 when gcTrace
// (--gc-watch).
func arcadeEnv(env []string, tool string, gcTrace bool) []string {
	out := make([]string, 0, len(env)+1)
	debug := tool
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			debug = v
			continue
		}
		out = append(out, kv)
	}
	var settings []string
	if debug != "" {
		settings = strings.Split(debug, ",")
	}
	key, _, _ := strings.Cut(keptStacks, "=")
	if !slices.ContainsFunc(settings, func(s string) bool { return strings.HasPrefix(s, key+"=") }) {
		settings = append(settings, keptStacks)
	}
	if gcTrace {
		settings = append(settings, "gctrace=1")
	}
	return append(out, "GODEBUG="+strings.Join(settings, ","))
}
