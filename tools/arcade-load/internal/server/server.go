// Package server is the servers the load tool loads: the arcade and the floor, built and started
// as subprocesses on loopback addresses, or an arcade already running that the tool is pointed
// at; their processes' figures, their metrics endpoints and their logs.
package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/watch"
)

// Server is a server binary the tool started, or one it was pointed at (pid 0).
type Server struct {
	Name    string
	Addr    string
	Metrics string // http://ADDR of the metrics endpoint, if any
	PID     int
	Nodes   []string // with --addr, its addresses: several for the nodes of a cluster
	PIDs    []int    // with --addr, the processes of those addresses (--server-pid)
	LogPath string
	Data    string    // the data folder of an arcade the tool started; empty otherwise
	Started time.Time // when the tool started it; zero for a server it was pointed at

	cmd     *exec.Cmd
	exited  chan struct{}
	mu      sync.Mutex
	exitErr error
}

// toolDir is the load tool's folder in the arcade's repository, where its own module lives.
const toolDir = "tools/arcade-load"

// Build compiles the arcade (in the arcade's module, at root) and the floor (in the tool's own
// module) into dir and returns their paths.
func Build(ctx context.Context, root, dir string) (arcade, floor string, err error) {
	arcade, floor = filepath.Join(dir, "arcade"), filepath.Join(dir, "floor")
	for _, b := range [][3]string{{arcade, "./cmd/arcade", root}, {floor, "./internal/floor", filepath.Join(root, toolDir)}} {
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b[0], b[1])
		cmd.Dir = b[2]
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("go build %s in %s: %v\n%s", b[1], b[2], err, out)
		}
	}
	return arcade, floor, nil
}

// ModuleRoot finds the arcade's repository from the working directory up: the folder that holds
// the arcade's go.mod and the tool's own (tools/arcade-load/go.mod).
func ModuleRoot() (string, error) {
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

// Start runs bin with args and env added to the tool's environment, its stderr in logPath, and waits for the line that says it
// listens ("... listening on ADDR"); a line "metrics on http://ADDR/metrics" gives the metrics
// endpoint.
func Start(ctx context.Context, name, bin string, args, env []string, logPath string) (*Server, error) {
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
	s := &Server{Name: name, cmd: cmd, PID: cmd.Process.Pid, LogPath: logPath, Started: started, exited: make(chan struct{})}
	found := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		var once sync.Once
		for sc.Scan() {
			line := sc.Text()
			if _, a, ok := strings.Cut(line, "metrics on "); ok {
				s.mu.Lock()
				s.Metrics = strings.TrimSuffix(strings.TrimSpace(a), "/metrics")
				s.mu.Unlock()
			}
			if _, a, ok := strings.Cut(line, "listening on "); ok {
				s.mu.Lock()
				s.Addr = strings.TrimSpace(a)
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
		s.Stop()
		return nil, fmt.Errorf("%s did not listen within 30 s (log %s)", name, logPath)
	case <-ctx.Done():
		s.Stop()
		return nil, ctx.Err()
	}
	// The metrics line, when there is one, comes right after the address.
	time.Sleep(100 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := CheckLoopback(s.Addr); err != nil {
		go s.Stop()
		return nil, err
	}
	return s, nil
}

// Sample reads the server process's figures.
func (s *Server) Sample() (watch.Sample, error) {
	if len(s.PIDs) > 0 {
		return watch.SampleProcs(s.PIDs)
	}
	if s.PID == 0 {
		return watch.Sample{At: time.Now()}, errors.New("not started by this tool")
	}
	return watch.SampleProc(s.PID)
}

// Stop asks the server to stop (SIGTERM), then kills it after 10 s.
func (s *Server) Stop() {
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

// Alive reports whether the server process still runs.
func (s *Server) Alive() bool {
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

// CheckLoopback refuses any address that is not on this machine's loopback interface.
func CheckLoopback(addr string) error {
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

// keptStacks is the GODEBUG setting deploy/arcade.service runs the arcade with (goroutine stacks
// are left at the size they grew to; docs/operations.md says why). The tool starts the arcade
// with it too, so that its figures are those of the arcade as deployed.
const keptStacks = "gcshrinkstackoff=1"

// ArcadeEnv returns env with the GODEBUG the tool starts the arcade with: env's (the last one,
// which is the one that counts), else tool's (the tool's own, which the arcade would inherit);
// with keptStacks added unless it names gcshrinkstackoff already, and gctrace=1 when gcTrace
// (--gc-watch).
func ArcadeEnv(env []string, tool string, gcTrace bool) []string {
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
