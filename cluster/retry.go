package cluster

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// retryWait is the pause between two tries of a request that failed for a while only.
const retryWait = 100 * time.Millisecond

// retryAttempt bounds one try of retry's: a stream's or bucket's server that is not its leader
// drops a request silently, so a request made while the leader is being elected gets no answer
// at all, and only a new try after the election reaches the new leader.
const retryAttempt = time.Second

// transient reports an error that says nothing but that JetStream could not answer just now: no
// server took the request, or none answered in time, or the stream's or bucket's leader is
// being elected (after a server was lost, for a few seconds).
func transient(err error) bool {
	var api *jetstream.APIError
	switch {
	case errors.Is(err, nats.ErrNoResponders), errors.Is(err, nats.ErrTimeout),
		errors.Is(err, jetstream.ErrNoStreamResponse):
		return true
	case errors.As(err, &api):
		return api.Code == 503 // JetStream temporarily unavailable
	}
	return false
}

// retry calls f, each time with at most retryAttempt of ctx, until it returns an error that is
// not transient (a try that ran out of time is), or ctx is done: then the last error. A request
// tried again must be safe to repeat: a read, a create-if-absent, or a publish with its message
// ID.
func retry[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	for {
		actx, cancel := context.WithTimeout(ctx, retryAttempt)
		v, err := f(actx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = nats.ErrTimeout // this try's time, not the caller's
		}
		if err == nil || !transient(err) || ctx.Err() != nil {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(retryWait):
		}
	}
}
