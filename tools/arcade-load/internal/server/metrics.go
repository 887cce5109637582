package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// Profile saves a CPU profile of d, then a heap profile and the goroutines, from the server's
// metrics endpoint into dir (--profile; nothing when dir is ""), in files named after name. The
// returned function waits for them.
func Profile(ctx context.Context, dir string, srv *Server, name string, d time.Duration, logf func(string, ...any)) func() {
	if dir == "" || srv.Metrics == "" {
		return func() {}
	}
	secs := max(1, int(d.Seconds()))
	done := make(chan struct{})
	go func() {
		defer close(done)
		get := func(path, file string) {
			file = filepath.Join(dir, file)
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.Metrics+path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				logf("profile %s: %v", file, err)
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				logf("profile %s: the server answered %s", file, resp.Status)
				return
			}
			f, err := os.Create(file)
			if err != nil {
				logf("profile %s: %v", file, err)
				return
			}
			n, err := io.Copy(f, resp.Body)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				logf("profile %s: %v", file, err)
				return
			}
			logf("profile: wrote %s (%d bytes)", file, n)
		}
		get(fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs), name+"-cpu.pprof")
		get("/debug/pprof/heap", name+"-heap.pprof")
		get("/debug/pprof/goroutine", name+"-goroutine.pprof")
	}()
	return func() { <-done }
}

// CommitBuckets begins the names of the buckets of the server's histogram of move commits, the
// only buckets ParseMetrics keeps.
const CommitBuckets = "arcade_move_commit_seconds_bucket{"

// Scrape reads the arcade_ and process_ figures of the server's metrics endpoint, if it has one.
func Scrape(srv *Server) map[string]float64 {
	if srv.Metrics == "" {
		return nil
	}
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(srv.Metrics + "/metrics")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil
	}
	return ParseMetrics(string(b))
}

// ParseMetrics reads Prometheus text format: each sample's name (with its labels) and value;
// of the histograms' buckets it keeps only those of move commits.
func ParseMetrics(text string) map[string]float64 {
	out := map[string]float64{}
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok || strings.Contains(name, "_bucket{") && !strings.HasPrefix(name, CommitBuckets) {
			continue
		}
		var v float64
		if _, err := fmt.Sscan(val, &v); err == nil {
			out[name] = v
		}
	}
	return out
}

// LogSummary counts the warnings and errors in a server's log.
func LogSummary(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var warn, errs int
	var first string
	for line := range strings.SplitSeq(string(b), "\n") {
		switch {
		case strings.Contains(line, "ERRO"), strings.Contains(line, "panic"):
			errs++
			if first == "" {
				first = stats.FirstLine(line, 200)
			}
		case strings.Contains(line, "WARN"):
			warn++ // the rooms log every room they create at this level
		}
	}
	s := fmt.Sprintf("%d errors, %d warnings", errs, warn)
	if first != "" {
		s += "; first error: " + first
	}
	return s
}

// SaveSettled saves the server's heap profile, its goroutines (as text) and its log so far in dir
// (--profile; nothing when dir is ""), in files named churn-after-*: what is left once the churn
// has settled.
func SaveSettled(dir string, srv *Server, logf func(string, ...any)) {
	if dir == "" {
		return
	}
	for _, f := range [][2]string{{"/debug/pprof/heap", "churn-after-heap.pprof"}, {"/debug/pprof/goroutine?debug=1", "churn-after-goroutines.txt"}} {
		resp, err := metricsClient.Get(srv.Metrics + f[0])
		if err != nil {
			logf("churn: profile: %v", err)
			continue
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, f[1]), b, 0o644)
		}
		if err != nil {
			logf("churn: profile: %v", err)
		}
	}
	if b, err := os.ReadFile(srv.LogPath); err == nil {
		_ = os.WriteFile(filepath.Join(dir, "churn-arcade.log"), b, 0o644)
	}
}
