package watch

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// The collection watch reads the arcade's collections from the runtime's own trace: the tool
// starts the arcade with gctrace=1 in its GODEBUG, and the runtime then writes a line to the
// arcade's standard error (the server's log) at the end of each collection, with when it began,
// in seconds since the process started, and how long each of its phases took on the clock:
//
//	gc 5 @24.371s 0%: 4.3+251+0.096 ms clock, 8.6+115/141/0+0.19 ms cpu, 755->760->172 MB, ...
//
// The process's start is taken as when the tool started it.

// GCBacklog is how long after a collection's end the moves it held back are still being caught
// up with: its span, for telling which moves it slowed, runs on that long. In four 60 s runs on
// tmpfs (2,000 Stone Towers sessions), all 395 moves over 50 ms were under way during a
// collection or sent within 100 ms after one ended, 381 of them within 50 ms.
const GCBacklog = 100 * time.Millisecond

// gcTraceLine matches a gctrace line: the collection's start and the clock times of its phases.
var gcTraceLine = regexp.MustCompile(`^gc \d+ @([0-9.]+)s \d+%: ([0-9.]+)\+([0-9.]+)\+([0-9.]+) ms clock`)

// GCWatchResult is what the collection watch saw while the moves were measured.
type GCWatchResult struct {
	Collections int
	Longest     time.Duration // the longest collection, start to end on the clock
	Collecting  time.Duration // the collections' time, together
	spans       []stats.Span  // each collection's, with GCBacklog after it
}

func (r *GCWatchResult) String() string {
	return fmt.Sprintf("%d in the server's gctrace (longest %s, %s in all)", r.Collections, stats.MS(r.Longest), stats.MS(r.Collecting))
}

// ReadGCWatch reads the collections over window from logPath, the log of an arcade the tool
// started at started with gctrace=1 (server.ArcadeEnv). It returns nil when the log cannot be read
// (errs has why).
func ReadGCWatch(logPath string, started time.Time, window stats.Span, errs *stats.ErrorLog) *GCWatchResult {
	log, err := os.ReadFile(logPath)
	if err != nil {
		errs.Add("gc-watch", err)
		return nil
	}
	return parseGCTrace(log, started, window)
}

// parseGCTrace returns the collections in log, a process's standard error with gctrace lines,
// whose spans (GCBacklog included) overlap window, for a process started at start. Other lines
// are skipped.
func parseGCTrace(log []byte, start time.Time, window stats.Span) *GCWatchResult {
	res := &GCWatchResult{}
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := gcTraceLine.FindSubmatch(sc.Bytes())
		if m == nil {
			continue
		}
		var f [4]float64
		for i := range f {
			f[i], _ = strconv.ParseFloat(string(m[i+1]), 64)
		}
		from := start.Add(time.Duration(f[0] * float64(time.Second)))
		d := time.Duration((f[1] + f[2] + f[3]) * float64(time.Millisecond))
		s := stats.Span{From: from, To: from.Add(d + GCBacklog)}
		if !s.Overlaps(window) {
			continue
		}
		res.Collections++
		res.Longest = max(res.Longest, d)
		res.Collecting += d
		res.spans = append(res.spans, s)
	}
	return res
}
