package rooms

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// refusals counts Config.Refused's calls by limit.
type refusals struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *refusals) refused(limit string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[limit]++
}

func (r *refusals) count(limit string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[limit]
}

// occupied creates a room for p and has p sit in it, so that it cannot expire to make way.
func occupied(t *testing.T, h *Hub, p Player) (*Room, *Sub) {
	t.Helper()
	r, err := h.Create("race", nil, 2, p)
	if err != nil {
		t.Fatalf("Create for %s: %v", p.ID, err)
	}
	return r, mustJoin(t, r, p, false)
}

// One key cannot take every room: past its share of waiting rooms, with each of them occupied,
// it is refused with a message naming the limit, while others still open rooms.
func TestWaitingShareOfKey(t *testing.T) {
	var ref refusals
	h, _ := newTestHub(t, Config{MaxRooms: 100, Shares: Shares{WaitingPerKey: 3}, Refused: ref.refused})
	for range 3 {
		occupied(t, h, alice)
	}
	_, err := h.Create("race", nil, 2, alice)
	if !errors.Is(err, ErrRoomShare) {
		t.Fatalf("fourth waiting room of one key: %v", err)
	}
	if !strings.Contains(err.Error(), "3 rooms waiting") || !strings.Contains(err.Error(), "--max-waiting-rooms") {
		t.Errorf("message %q does not name the limit", err)
	}
	if got := ref.count(LimitWaitingPerKey); got != 1 {
		t.Errorf("refusals counted: %d, want 1", got)
	}
	occupied(t, h, bob) // another key is not held back
	if got := h.Stats().Rooms; got != 4 {
		t.Errorf("rooms open: %d, want 4", got)
	}
}

// A key past its share of waiting rooms makes way with its own empty rooms, oldest first: they
// expire, the occupied ones stay.
func TestWaitingShareExpiresEmptyFirst(t *testing.T) {
	h, _ := newTestHub(t, Config{Shares: Shares{WaitingPerKey: 3}})
	first, err := h.Create("race", nil, 2, alice) // nobody joins: empty
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := occupied(t, h, alice)
	second, err := h.Create("race", nil, 2, alice) // empty too
	if err != nil {
		t.Fatal(err)
	}
	fourth, err := h.Create("race", nil, 2, alice)
	if err != nil {
		t.Fatalf("a fourth room, with empty ones to make way: %v", err)
	}
	<-first.Done() // the oldest empty room expired
	for _, r := range []*Room{kept, second, fourth} {
		if _, ok := h.Room(r.Code()); !ok {
			t.Errorf("room %s closed", r.Code())
		}
	}
	if got := h.Stats().Rooms; got != 3 {
		t.Errorf("rooms open: %d, want 3", got)
	}
}

// Guests have a new ID every session: their rooms count against their address, with the keys'
// share, and every room against its address's larger share.
func TestWaitingShareOfGuestsAndAddresses(t *testing.T) {
	h, _ := newTestHub(t, Config{Shares: Shares{WaitingPerKey: 2, WaitingPerAddr: 3}})
	guest := func(i int) Player {
		return Player{ID: fmt.Sprintf("guest-%d", i), Name: "g", Guest: true, Source: "192.0.2.7/32"}
	}
	occupied(t, h, guest(1))
	occupied(t, h, guest(2))
	if _, err := h.Create("race", nil, 2, guest(3)); !errors.Is(err, ErrRoomShare) ||
		!strings.HasPrefix(err.Error(), "the guests of your address already have 2 rooms waiting") {
		t.Fatalf("third waiting room of guests of one address: %v", err)
	}
	keyed := alice
	keyed.Source = "192.0.2.7/32"
	occupied(t, h, keyed) // a key at the address has a share of its own, within the address's
	other := bob
	other.Source = "192.0.2.7/32"
	_, err := h.Create("race", nil, 2, other)
	if !errors.Is(err, ErrAddrRoomShare) || !strings.Contains(err.Error(), "--max-waiting-rooms-per-addr") {
		t.Fatalf("fourth waiting room of one address: %v", err)
	}
	elsewhere := carol
	elsewhere.Source = "198.51.100.1/32"
	occupied(t, h, elsewhere)
}

// Matches started still count against the unfinished share, not the waiting one.
func TestUnfinishedShare(t *testing.T) {
	h, _ := newTestHub(t, Config{Shares: Shares{WaitingPerKey: 1, Unfinished: 2}})
	for range 2 {
		r, _ := occupied(t, h, alice)
		mustJoin(t, r, bob, false) // the match starts: no longer waiting
	}
	_, err := h.Create("race", nil, 2, alice)
	if !errors.Is(err, ErrUnfinishedShare) || !strings.Contains(err.Error(), "--max-unfinished") {
		t.Fatalf("a third unfinished match: %v", err)
	}
}

// A full hub makes way with an empty waiting room of whoever holds the most.
func TestFullHubExpiresBiggestHolderFirst(t *testing.T) {
	h, _ := newTestHub(t, Config{MaxRooms: 3})
	a1, err := h.Create("race", nil, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Create("race", nil, 2, alice); err != nil {
		t.Fatal(err)
	}
	occupied(t, h, bob)
	if _, err := h.Create("race", nil, 2, carol); err != nil {
		t.Fatalf("a room on a full hub with empty rooms of one holder: %v", err)
	}
	<-a1.Done()
}

// A room takes spectators up to its share, then refuses them with a message naming the limit.
func TestSpectatorShare(t *testing.T) {
	var ref refusals
	h, _ := newTestHub(t, Config{Shares: Shares{SpectatorsPerRoom: 2}, Refused: ref.refused})
	r := mustCreate(t, h, nil, 2)
	mustJoin(t, r, alice, true)
	mustJoin(t, r, bob, true)
	_, err := r.Join(carol, true)
	if !errors.Is(err, ErrTooManySpectators) || !strings.Contains(err.Error(), "--max-spectators") {
		t.Fatalf("third spectator: %v", err)
	}
	if got := ref.count(LimitSpectators); got != 1 {
		t.Errorf("refusals counted: %d, want 1", got)
	}
	mustJoin(t, r, carol, false) // a seat is no spectator's place
}
