package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arcade/arcade/storage"
)

// accountsOn returns the accounts of node n: its replica read, its store written.
func accountsOn(n *tnode) *storage.Accounts { return storage.NewAccounts(n.db, n.node.Store()) }

// TestAccountsAcrossNodes: a code made on one node is claimed on another, and the key plays as
// the player on the third; one code claimed on two nodes at once links one key, the other told the
// code was used; a ban made on one node keeps the key out on every node; an ignore and a report
// reach every replica; a refused change (an unknown name) publishes nothing.
func TestAccountsAcrossNodes(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	a1, a2, a3 := accountsOn(c.nodes[0]), accountsOn(c.nodes[1]), accountsOn(c.nodes[2])
	fp := func(s string) string { return "SHA256:" + s + strings.Repeat("x", 43-len(s)) }
	ada1, ada2, k3, k4, carol := fp("ada1"), fp("ada2"), fp("k3"), fp("k4"), fp("carol")
	if _, err := a1.Login(ada1, "ada"); err != nil {
		t.Fatal(err)
	}
	if _, err := a3.Login(carol, "carol"); err != nil {
		t.Fatal(err)
	}
	code, _, err := a1.LinkCode(ada1, ada1)
	if err != nil {
		t.Fatal(err)
	}
	catchUp(t, c.nodes[1])
	if id, err := a2.ClaimCode(ada2, "ada", code, "laptop"); err != nil || id != ada1 {
		t.Fatalf("the claim on n2: %q %v", id, err)
	}
	catchUp(t, c.nodes[2])
	if id, err := a3.Login(ada2, "ada"); err != nil || id != ada1 {
		t.Errorf("the linked key on n3: %q %v", id, err)
	}

	// One code, two claims at once on two nodes.
	code, _, err = a1.LinkCode(ada1, ada2)
	if err != nil {
		t.Fatal(err)
	}
	catchUp(t, c.nodes[1])
	catchUp(t, c.nodes[2])
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, a := range []*storage.Accounts{a2, a3} {
		wg.Go(func() { _, errs[i] = a.ClaimCode([]string{k3, k4}[i], "ada", code, "") })
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("two claims of one code: %v, %v; want one to win", errs[0], errs[1])
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, storage.ErrCodeUsed) {
			t.Errorf("the claim that lost: %v, want ErrCodeUsed", err)
		}
	}
	for _, n := range c.nodes {
		catchUp(t, n)
		if keys, _ := n.db.Keys(ada1); len(keys) != 3 {
			t.Errorf("n%d: ada has %d keys, want 3", n.i, len(keys))
		}
	}

	if _, err := a2.Ban(carol, time.Time{}, "spam", "root"); err != nil {
		t.Fatal(err)
	}
	if _, err := a3.Ignore(ada1, "carol"); err != nil {
		t.Fatal(err)
	}
	catchUp(t, c.nodes[0])
	applied := c.nodes[0].db.Applied()
	if _, err := a1.Ignore(ada1, "nobody"); !errors.Is(err, storage.ErrUnknownName) {
		t.Errorf("ignore of nobody: %v", err)
	}
	if _, err := a1.Ignore(ada1, "ada"); !errors.Is(err, storage.ErrIgnoreSelf) { // refused by the replica's try
		t.Errorf("ignore of oneself: %v", err)
	}
	for _, n := range c.nodes {
		catchUp(t, n)
		if _, ok := n.db.Banned(carol, netip.Addr{}, time.Now()); !ok {
			t.Errorf("n%d does not have carol's ban", n.i)
		}
		if ig, _ := n.db.Ignoring(ada1); len(ig) != 1 {
			t.Errorf("n%d: ada ignores %+v", n.i, ig)
		}
	}
	if got := c.nodes[0].db.Applied(); got != applied {
		t.Errorf("a refused ignore was published: the replica went from change %d to %d", applied, got)
	}
}

// TestUnknownKindStopsTheReplica: a change of a kind this build does not know, in the stream,
// stops every node's replica before it, whatever follows it: nothing after it is applied, and the
// node's writes fail saying why.
func TestUnknownKindStopsTheReplica(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	store := c.nodes[0].node.Store()
	if err := store.Claim("SHA256:ann", "ann"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	unknown, _ := json.Marshal(map[string]any{"k": "duel", "pid": "SHA256:ann"})
	ack, err := c.js(1).Publish(ctx, subjectPlayers, unknown)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal(storage.Change{Kind: storage.ChangeBell, PlayerID: "SHA256:ann", Bell: false})
	if _, err := c.js(1).Publish(ctx, subjectPlayers, after); err != nil {
		t.Fatal(err)
	}
	for _, n := range c.nodes {
		eventually(t, fmt.Sprintf("n%d's replica stopped", n.i), func() error {
			if err := n.node.rep.stopped(); err == nil || !errors.Is(err, storage.ErrUnknownChange) {
				return fmt.Errorf("replica: %v", err)
			}
			return nil
		})
		if got := n.db.Applied(); got >= ack.Sequence {
			t.Errorf("n%d applied up to %d, past the unknown change %d", n.i, got, ack.Sequence)
		}
		if !n.db.Bell("SHA256:ann") {
			t.Errorf("n%d applied the change after the unknown one", n.i)
		}
	}
	if err := store.SetBell("SHA256:ann", true); err == nil || !strings.Contains(err.Error(), "upgrade this node") {
		t.Errorf("a write after the unknown change: %v", err)
	}
}
