package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
)

// The takeover tests run nodes' directories (beats, watcher, sweeps) against fake buckets, under
// synctest: time is the bubble's, so the beats, the TTL and the sweeps are exact.

const (
	fakeBeat = time.Second
	fakeTTL  = 5 * time.Second
)

// fakeCluster is the buckets the fake nodes share, and which nodes' connections are gone.
type fakeCluster struct {
	dir, beats *fakeBucket
	mu         sync.Mutex
	gone       map[string]bool // nodes no connection answers for (Node.absent)
	nodes      []*fakeNode
}

func newFakeCluster() *fakeCluster {
	return &fakeCluster{dir: newFakeBucket(bucketRooms, 0), beats: newFakeBucket(bucketNodes, fakeTTL),
		gone: map[string]bool{}}
}

// fakeNode is a node with a directory and no stream: its fences succeed unless failFences says,
// and what it takes over is recorded, not opened.
type fakeNode struct {
	n    *Node
	s    *served
	link *fakeLink

	mu         sync.Mutex
	taken      []string // the rooms restored here, in order
	failFences int      // the next fences to fail
	log        strings.Builder
}

// node starts a node named name serving its directory, after setup has changed what it is served
// with (its hub, its replica).
func (c *fakeCluster) node(t *testing.T, name string, setup ...func(*served)) *fakeNode {
	t.Helper()
	f := &fakeNode{link: &fakeLink{}}
	n := &Node{cfg: Config{Name: name, Beat: fakeBeat, TTL: fakeTTL}, id: name}
	n.cfg.defaults()
	n.cfg.Logf = func(format string, args ...any) {
		f.mu.Lock()
		fmt.Fprintf(&f.log, format+"\n", args...)
		f.mu.Unlock()
	}
	n.cfg.Warnf = n.cfg.Logf
	n.dir, n.beats = f.link.kv(c.dir), f.link.kv(c.beats)
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.store = &Store{n: n}
	s := newServed(n, ServeConfig{Hub: rooms.NewHub(rooms.Config{}), Restore: func(m record.Match) error {
		f.mu.Lock()
		f.taken = append(f.taken, m.Code)
		f.mu.Unlock()
		return nil
	}})
	s.fence = func(code string, epoch uint64) (uint64, error) {
		n.store.acquire(code, epoch)
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.failFences > 0 {
			f.failFences--
			return 0, fmt.Errorf("fake: the fence of room %s is not stored", code)
		}
		return epoch, nil
	}
	s.catchUp = func(context.Context, uint64) error { return nil }
	s.unfinished = func(code string) (record.Match, bool, error) {
		return record.Match{ID: "match-" + code, Code: code}, true, nil
	}
	s.absent = func(_ context.Context, nodes []string) map[string]bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		out := map[string]bool{}
		for _, node := range nodes {
			if c.gone[node] {
				out[node] = true
			}
		}
		return out
	}
	for _, set := range setup {
		set(s)
	}
	if err := n.serve(s); err != nil {
		t.Fatal(err)
	}
	f.n, f.s = n, s
	c.nodes = append(c.nodes, f)
	return f
}

// stop ends the node's goroutines, as a kill does: its beats stop, its entries stay.
func (f *fakeNode) stop() {
	f.n.cancel()
	f.n.wg.Wait()
}

// kill stops the node; with gone, its connection is known gone at once (its presence unanswered).
func (c *fakeCluster) kill(f *fakeNode, gone bool) {
	f.stop()
	if gone {
		c.mu.Lock()
		c.gone[f.n.id] = true
		c.mu.Unlock()
	}
}

// stopAll stops every node still running, for the bubble to end.
func (c *fakeCluster) stopAll() {
	for _, f := range c.nodes {
		f.stop()
	}
}

func (f *fakeNode) takenRooms() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.taken)
}

func (f *fakeNode) logs() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.log.String()
}

// reserve reserves codes on f, as its hub's Create does.
func (f *fakeNode) reserve(t *testing.T, codes ...string) {
	t.Helper()
	for _, code := range codes {
		if ok, err := f.n.ReserveCode(code); !ok || err != nil {
			t.Fatalf("reserve %s on %s: %v, %v", code, f.n.id, ok, err)
		}
	}
}

// host returns the node the directory names for code ("" when none, or no entry).
func (c *fakeCluster) host(t *testing.T, code string) string {
	t.Helper()
	c.dir.mu.Lock()
	defer c.dir.mu.Unlock()
	e := c.dir.last[code]
	if !c.dir.live(e) {
		return ""
	}
	var en entry
	if err := json.Unmarshal(e.value, &en); err != nil {
		t.Fatal(err)
	}
	return en.Node
}

// takers returns, for each code, the nodes that restored it.
func (c *fakeCluster) takers(codes []string) map[string][]string {
	out := map[string][]string{}
	for _, f := range c.nodes {
		for _, code := range f.takenRooms() {
			if slices.Contains(codes, code) {
				out[code] = append(out[code], f.n.id)
			}
		}
	}
	return out
}

// sleep lets the bubble's time pass by d, then waits for every goroutine to be idle.
func sleep(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// TestTakeoverOnePerRoom: a node lapses; once its beat has expired (and not before), exactly one
// of the others takes each of its rooms, and the directory names it.
func TestTakeoverOnePerRoom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		c.node(t, "a")
		c.node(t, "b")
		x := c.node(t, "x")
		codes := []string{"AAAAA", "BBBBB", "CCCCC", "DDDDD"}
		x.reserve(t, codes...)
		sleep(2 * fakeBeat)

		c.kill(x, false)
		sleep(fakeTTL - 2*fakeBeat) // x's last beat is still stored
		if got := c.takers(codes); len(got) != 0 {
			t.Fatalf("rooms taken while x's beat lasts: %v", got)
		}
		sleep(2*fakeBeat + 2*fakeBeat)
		takers := c.takers(codes)
		for _, code := range codes {
			if len(takers[code]) != 1 {
				t.Errorf("room %s taken by %v, want one node", code, takers[code])
				continue
			}
			if host := c.host(t, code); host != takers[code][0] {
				t.Errorf("room %s: the directory names %q, taken by %s", code, host, takers[code][0])
			}
		}
	})
}

// TestTakeoverOfAGoneConnection: a node whose connection is gone (no answer on its presence
// subject) is taken over at the next sweep, its beat still stored.
func TestTakeoverOfAGoneConnection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		a := c.node(t, "a")
		x := c.node(t, "x")
		x.reserve(t, "AAAAA")
		sleep(2 * fakeBeat)
		c.kill(x, true)
		sleep(fakeBeat) // well before x's beat expires
		if got := a.takenRooms(); !slices.Equal(got, []string{"AAAAA"}) {
			t.Fatalf("a took %v a beat after x's connection went, want [AAAAA]", got)
		}
		if host := c.host(t, "AAAAA"); host != "a" {
			t.Errorf("the directory names %q, want a", host)
		}
	})
}

// TestNoTakeoverWhileOwnBeatInDoubt: a node whose own beats are not stored takes nothing, however
// long others' beats have lapsed; once its beats are stored again for a TTL, it takes them.
func TestNoTakeoverWhileOwnBeatInDoubt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		a := c.node(t, "a")
		x := c.node(t, "x")
		x.reserve(t, "AAAAA")
		sleep(2 * fakeBeat)
		a.link.refusePuts(true)
		c.kill(x, false)
		sleep(3 * fakeTTL)
		if got := a.takenRooms(); len(got) != 0 {
			t.Fatalf("a took %v while its own beats failed", got)
		}
		if host := c.host(t, "AAAAA"); host != "x" {
			t.Fatalf("the directory names %q, want x still", host)
		}
		a.link.refusePuts(false)
		sleep(fakeTTL + 2*fakeBeat)
		if got := a.takenRooms(); !slices.Equal(got, []string{"AAAAA"}) {
			t.Fatalf("a took %v once its beats were stored again, want [AAAAA]", got)
		}
	})
}

// TestFailedTakeoverLeftForNextSweep: a takeover whose fence fails gives the entry back (naming
// no node), and the next sweep takes the room.
func TestFailedTakeoverLeftForNextSweep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		a := c.node(t, "a")
		x := c.node(t, "x")
		x.reserve(t, "AAAAA")
		sleep(2 * fakeBeat)
		a.mu.Lock()
		a.failFences = 1
		a.mu.Unlock()
		c.kill(x, true)
		sleep(fakeBeat)
		if got := a.takenRooms(); len(got) != 0 {
			t.Fatalf("a restored %v with its fence failed", got)
		}
		if host := c.host(t, "AAAAA"); host != "" {
			t.Fatalf("after the failed takeover the directory names %q, want no node", host)
		}
		if !strings.Contains(a.logs(), "left for the next beat") {
			t.Errorf("a's log does not say the room is left for the next beat:\n%s", a.logs())
		}
		sleep(fakeBeat)
		if got := a.takenRooms(); !slices.Equal(got, []string{"AAAAA"}) {
			t.Fatalf("a took %v at the next sweep, want [AAAAA]", got)
		}
		if host := c.host(t, "AAAAA"); host != "a" {
			t.Errorf("the directory names %q, want a", host)
		}
	})
}

// TestBackAfterCutFindsRoomsTaken: a node cut off NATS has its rooms taken over; back, it closes
// its copies (the store refuses their writes for good) and never takes them back.
func TestBackAfterCutFindsRoomsTaken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		c.node(t, "a")
		c.node(t, "b")
		x := c.node(t, "x")
		codes := []string{"AAAAA", "BBBBB"}
		x.reserve(t, codes...)
		sleep(2 * fakeBeat)

		x.link.setCut(true)
		sleep(fakeTTL + 3*fakeBeat)
		takers := c.takers(codes)
		for _, code := range codes {
			if len(takers[code]) != 1 || takers[code][0] == "x" {
				t.Fatalf("room %s taken by %v during x's cut, want one of a and b; logs:\n%s\n%s", code, takers[code], c.nodes[0].logs(), c.nodes[1].logs())
			}
		}
		var held int
		x.s.do(func(st *dirState) { held = len(st.hosts) })
		if held != len(codes) {
			t.Fatalf("x holds %d rooms during its cut (it cannot know), want %d", held, len(codes))
		}

		x.link.setCut(false)
		sleep(2 * fakeBeat)
		x.s.do(func(st *dirState) { held = len(st.hosts) })
		if held != 0 {
			t.Errorf("x still holds %d rooms after it is back", held)
		}
		for _, code := range codes {
			x.n.store.mu.Lock()
			lg := x.n.store.logs[code]
			x.n.store.mu.Unlock()
			if lg == nil || !lg.lost {
				t.Errorf("x's store does not refuse room %s's writes: %+v", code, lg)
			}
		}
		sleep(fakeTTL)
		for _, code := range codes {
			if host := c.host(t, code); host != takers[code][0] {
				t.Errorf("room %s: the directory names %q, want %s", code, host, takers[code][0])
			}
		}
		if got := x.takenRooms(); len(got) != 0 {
			t.Errorf("x took %v back", got)
		}
	})
}

// TestTakeoverOfAGoneConnectionWhileBeatsFail: the rooms of a node no connection answers for are
// taken even while this node's own beats fail (the beats' bucket electing a leader): NATS knows
// the node gone without JetStream.
func TestTakeoverOfAGoneConnectionWhileBeatsFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		a := c.node(t, "a")
		x := c.node(t, "x")
		x.reserve(t, "AAAAA")
		sleep(2 * fakeBeat)
		a.link.refusePuts(true)
		c.kill(x, true)
		sleep(fakeBeat)
		if got := a.takenRooms(); !slices.Equal(got, []string{"AAAAA"}) {
			t.Fatalf("a took %v a beat after x's connection went, its own beats failing, want [AAAAA]", got)
		}
	})
}

// TestTakeoverWhoseClaimWasNotAnswered: the compare-and-set that takes a room is stored, but its
// answer is lost (the bucket's leader being elected); the node finds its own write in the entry
// and takes the room, where it would otherwise leave an entry naming it for a room it has not.
func TestTakeoverWhoseClaimWasNotAnswered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		a := c.node(t, "a")
		x := c.node(t, "x")
		x.reserve(t, "AAAAA")
		sleep(2 * fakeBeat)
		a.link.loseAnswers(1)
		c.kill(x, true)
		sleep(fakeBeat + retryWait)
		if got := a.takenRooms(); !slices.Equal(got, []string{"AAAAA"}) {
			t.Fatalf("a took %v after x's connection went, its claim unanswered; want [AAAAA]\n%s", got, a.logs())
		}
		if host := c.host(t, "AAAAA"); host != "a" {
			t.Errorf("the directory names %q, want a", host)
		}
	})
}

// TestBeatingNodesProbed: a sweep probes the presence of every node beating, rooms or not, so
// that a node has been heard (Node.absent says nothing of a node never heard) before its first
// room, and a kill just after that room opened is known at once.
func TestBeatingNodesProbed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		var mu sync.Mutex
		probed := map[string]bool{}
		c.node(t, "a", func(s *served) {
			absent := s.absent
			s.absent = func(ctx context.Context, nodes []string) map[string]bool {
				mu.Lock()
				for _, node := range nodes {
					probed[node] = true
				}
				mu.Unlock()
				return absent(ctx, nodes)
			}
		})
		c.node(t, "x")
		sleep(2 * fakeBeat)
		mu.Lock()
		defer mu.Unlock()
		if !probed["x"] {
			t.Errorf("a probed %v, not x, which beats with no room", probed)
		}
		if probed["a"] {
			t.Errorf("a probed itself")
		}
	})
}
