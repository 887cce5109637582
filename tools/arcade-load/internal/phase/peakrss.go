package phase

import (
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/server"
)

// watchPeakRSS reads srv's RSS every 100 ms, from base, until the returned function is called;
// that function stops the watch, reads the RSS once more and returns the most seen.
func watchPeakRSS(srv *server.Server, base uint64) func() uint64 {
	var peak atomic.Uint64
	peak.Store(base)
	see := func() {
		if s, err := srv.Sample(); err == nil && s.RSS > peak.Load() {
			peak.Store(s.RSS)
		}
	}
	stop, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				see()
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-watched
		see()
		return peak.Load()
	}
}
