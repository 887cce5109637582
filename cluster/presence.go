package cluster

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/cluster/remote"
)

// A node answers requests on its presence subject while its connection to NATS lasts. NATS
// drops a connection's subscriptions as soon as its server sees the connection close (a killed
// process's socket is closed by its kernel), so a request there that no node takes ("no
// responders") tells the others that the node is gone at once, where its beat in arcade_nodes
// lasts until the bucket's TTL.

// presenceSubject is the subject node answers on.
func presenceSubject(node string) string { return "arcade.node." + remote.Token(node) + ".present" }

// presenceProbes and presenceRecheck: a node is gone when presenceProbes probes,
// presenceRecheck apart, find no connection that answers for it, so that a subscription being
// made again, or a route between NATS servers that flaps, is not taken for a death.
const (
	presenceProbes  = 3
	presenceRecheck = 500 * time.Millisecond
)

// presence is what a node knows of the others' presence subjects.
type presence struct {
	mu sync.Mutex
	// answered holds the nodes that have answered a probe of this node's, or whose beat this
	// node has read (a node answers before its first beat: answerPresence).
	answered map[string]bool
}

// heard records that nodes answer on their presence subjects: their beats were read.
func (p *presence) heard(nodes []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.answered == nil {
		p.answered = map[string]bool{}
	}
	for _, node := range nodes {
		p.answered[node] = true
	}
}

// answerPresence subscribes the node to its presence subject, until the node closes. It returns
// once the node's NATS server has the subscription, before the node's first beat: a node whose
// beat was read answers (or NATS has dropped its subscription).
func (n *Node) answerPresence() (*nats.Subscription, error) {
	sub, err := n.nc.Subscribe(presenceSubject(n.id), func(m *nats.Msg) { _ = m.Respond(nil) })
	if err != nil {
		return nil, err
	}
	if err := n.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, err
	}
	return sub, nil
}

// absent returns the nodes of nodes that answered a probe of this node's before (or whose beat
// it read) and that no connection to NATS answers for now, presenceProbes times in a row: their process is gone, or cut
// off NATS. A node that answers late, a probe that fails another way (this node's own connection
// is down), or a node never heard (its subscription may not have reached this node's server
// yet) says nothing: those nodes are not returned.
func (n *Node) absent(ctx context.Context, nodes []string) map[string]bool {
	p := &n.presence
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := map[string]bool{}
	for _, node := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range presenceProbes {
				if i > 0 {
					select {
					case <-ctx.Done():
						return
					case <-time.After(presenceRecheck):
					}
				}
				pctx, cancel := context.WithTimeout(ctx, n.cfg.Beat)
				_, err := n.nc.RequestWithContext(pctx, presenceSubject(node), nil)
				cancel()
				if err == nil {
					p.mu.Lock()
					p.answered[node] = true
					p.mu.Unlock()
				}
				if !errors.Is(err, nats.ErrNoResponders) {
					return
				}
			}
			p.mu.Lock()
			heard := p.answered[node]
			p.mu.Unlock()
			if heard {
				mu.Lock()
				out[node] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}
