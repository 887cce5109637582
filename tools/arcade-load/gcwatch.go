package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"time"
)

// The collection watch reads the arcade's collections from the runtime's own trace: the tool
// starts the arcade with gctrace=1 in its GODEBUG, and the runtime then writes a line to the
// arcade's standard error (the server's log) at the end of each collection, with when it began,
// in seconds since the process started, and how long each of its phases took on the clock:
//
//	gc 5 @24.371s 0%: 4.3+251+0.096 ms clock, 8.6+115/141/0+0.19 ms cpu, 755->760->172 MB, ...
//
// The process's start is taken as when the tool started it.

// gcBacklog is how long after a collection's end the moves it held back are still being caught
// up with: its span, for telling which moves it slowed, runs on that long. In four 60 s runs on
// tmpfs (2,000 Stone Towers sessions), all 395 moves over 50 ms were under way during a
// collection or sent within 100 ms after one ended, 381 of them within 50 ms.
const gcBacklog = 100 * time.Millisecond

// gcTraceLine matches a gctrace line: the collection's start and the clock times of its phases.
var gcTraceLine = regexp.MustCompile(`^gc \d+ @([0-9.]+)s \d+%: ([0-9.]+)\+([0-9.]+)\+([0-9.]+) ms clock`)

// gcWatchResult is what the collection watch saw while the moves were measured.
type gcWatchResult struct {
	Collections int
	Longest     time.Duration // the longest collection, start to end on the clock
	Collecting  time.Duration // the collections' time, together
	spans       []span        // each collection's, with gcBacklog after it
}

func (r *gcWatchResult) String() string {
	return fmt.Sprintf("%d in the server's gctrace (longest %s, %s in all)", r.Collections, ms(r.Longest), ms(r.Collecting))
}

// readGCWatch reads the collections over window from the log of srv, an arcade the tool started
// with gctrace=1 (arcadeEnv). It returns nil when the log cannot be read (errs has why).
func readGCWatch(srv *server, window span, errs *errorLog) *gcWatchResult {
	log, err := os.ReadFile(srv.logPath)
	if err != nil {
		errs.add("gc-watch", err)
		return nil
	}
	return parseGCTrace(log, srv.started, window)
}

// parseGCTrace returns the collections in log, a process's standard error with gctrace lines,
// whose spans (gcBacklog included) overlap window, for a process started at start. Other lines
// are skipped.
func parseGCTrace(log []byte, start time.Time, window span) *gcWatchResult {
	res := &gcWatchResult{}
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
		s := span{from, from.Add(d + gcBacklog)}
		if !s.overlaps(window) {
			continue
		}
		res.Collections++
		res.Longest = max(res.Longest, d)
		res.Collecting += d
		res.spans = append(res.spans, s)
	}
	return res
}
