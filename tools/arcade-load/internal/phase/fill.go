package phase

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// filled is what fillUntilRefused measured: how many tries succeeded, the first refusal's text
// ("" when none came), and the time from the first try to that refusal (or to the last try).
type filled struct {
	opened  int
	refusal string
	took    time.Duration
}

// fillUntilRefused runs try on dialers goroutines, numbering the tries from 0, until one is
// refused (try returns false and the refusal's text), limit tries were made, or ctx is done. A
// try's error is logged in errs under name and the fill goes on.
func fillUntilRefused(ctx context.Context, name string, dialers, limit int, errs *stats.ErrorLog,
	try func(i int) (ok bool, refusal string, err error)) filled {
	var (
		f       filled
		opened  atomic.Int64
		tries   atomic.Int64
		mu      sync.Mutex
		refused = make(chan struct{})
		once    sync.Once
		wg      sync.WaitGroup
		end     time.Time
	)
	start := time.Now()
	for range dialers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(tries.Add(1)) - 1
				if i >= limit {
					return
				}
				select {
				case <-refused:
					return
				default:
				}
				ok, msg, err := try(i)
				switch {
				case err != nil:
					errs.Add(name, err)
				case ok:
					opened.Add(1)
				default:
					once.Do(func() {
						mu.Lock()
						f.refusal, end = msg, time.Now()
						mu.Unlock()
						close(refused)
					})
					return
				}
			}
		})
	}
	wg.Wait()
	if end.IsZero() {
		end = time.Now()
	}
	f.opened, f.took = int(opened.Load()), end.Sub(start)
	return f
}
