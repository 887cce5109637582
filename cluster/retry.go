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

// retry calls f until it returns an error that is not transient, or ctx is done: then the last
// error. A request tried again must be safe to repeat: a read, a create-if-absent, or a publish
// with its message ID.
func retry[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	for {
		v, err := f(ctx)
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
