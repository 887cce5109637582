package cluster

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/session"
)

// Notices reach a player connected to any node over core NATS, as the nodes' presence does
// (presence.go: no JetStream, nothing stored): a notice is published on subjectNotice, and every
// node hands it to the sessions of its player there (its session.Switchboard). Who is connected
// is asked of every node at once on subjectWho, and the answers that come within whoWait count.
const (
	subjectNotice = "arcade.notice"
	subjectWho    = "arcade.who"
	whoWait       = 250 * time.Millisecond
)

// notice is a notice as it crosses: its player and the notice.
type notice struct {
	To     string         `json:"to"`
	Notice session.Notice `json:"n"`
}

// Notices is the news of a node (inbox.News): it delivers the notices published by any node to
// the sessions of this one on board, and says who is connected to any node. Safe for concurrent
// use.
type Notices struct {
	n     *Node
	board *session.Switchboard
	once  sync.Once
	subs  []*nats.Subscription
}

// Notices starts the node's part in the cluster's notices, delivered to board, until the node
// closes.
func (n *Node) Notices(board *session.Switchboard) *Notices {
	ns := &Notices{n: n, board: board}
	deliver, err := n.nc.Subscribe(subjectNotice, func(m *nats.Msg) {
		var nt notice
		if json.Unmarshal(m.Data, &nt) == nil && nt.To != "" {
			board.Deliver(nt.To, nt.Notice)
		}
	})
	if err != nil {
		n.cfg.Warnf("cluster: notices: %v; players hear only of this node's", err)
	} else {
		ns.subs = append(ns.subs, deliver)
	}
	who, err := n.nc.Subscribe(subjectWho, func(m *nats.Msg) {
		var ids []string
		if json.Unmarshal(m.Data, &ids) != nil {
			return
		}
		here := board.Connected(ids)
		out := make([]string, 0, len(here))
		for id := range here {
			out = append(out, id)
		}
		data, _ := json.Marshal(out)
		_ = m.Respond(data)
	})
	if err != nil {
		n.cfg.Warnf("cluster: who is connected: %v", err)
	} else {
		ns.subs = append(ns.subs, who)
	}
	n.wg.Go(func() {
		<-n.ctx.Done()
		ns.close()
	})
	return ns
}

// close stops the node's part.
func (ns *Notices) close() {
	ns.once.Do(func() {
		for _, s := range ns.subs {
			_ = s.Unsubscribe()
		}
	})
}

// Notify delivers n to every session of player, on whichever node (this one's too, through its
// own subscription). It never waits for NATS: a notice lost while NATS is out of reach is a
// notice the inbox still shows.
func (ns *Notices) Notify(player string, n session.Notice) {
	data, err := json.Marshal(notice{To: player, Notice: n})
	if err == nil {
		err = ns.n.nc.Publish(subjectNotice, data)
	}
	if err != nil {
		ns.board.Deliver(player, n) // at least this node's sessions
	}
}

// Connected reports which of ids have a session on any node: this node's at once, the others'
// as they answer within whoWait.
func (ns *Notices) Connected(ids []string) map[string]bool {
	out := ns.board.Connected(ids)
	if len(ids) == 0 {
		return out
	}
	data, err := json.Marshal(ids)
	if err != nil {
		return out
	}
	inbox := ns.n.nc.NewRespInbox()
	replies := make(chan *nats.Msg, 64)
	sub, err := ns.n.nc.ChanSubscribe(inbox, replies)
	if err != nil {
		return out
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := ns.n.nc.PublishRequest(subjectWho, inbox, data); err != nil {
		return out
	}
	var nodes int
	if s := ns.n.serving(); s != nil {
		s.do(func(st *dirState) { nodes = len(st.alive) })
	}
	timeout := time.After(whoWait)
	for answered := 0; nodes == 0 || answered < nodes; answered++ {
		select {
		case m := <-replies:
			var here []string
			if json.Unmarshal(m.Data, &here) == nil {
				for _, id := range here {
					out[id] = true
				}
			}
		case <-timeout:
			return out
		}
	}
	return out
}
