package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/storage"
)

// Correspondence play in a cluster. Its records (challenges, follows, settings) are changes of
// the stream like any write, on the players' subject, tried on the node's replica first so that a
// refusal is said at once, and checked against the replica's outcome once applied (another node's
// change may have come first: the second accept of an open challenge). A correspondence match
// begins with the accept of its challenge, a change of its room's subject, written by the node
// that reserved the room's code (the room's host from the start, as a room created there). A
// sleeping room has no entry in the directory: a node wakes it by creating the entry (one node
// wins), fencing its subject and opening it from the replica, as a takeover does.

// SetTurn records the turn of the room's correspondence match after a takeback
// (storage.DB.SetTurn).
func (s *Store) SetTurn(code string, t record.Turn) error {
	_, err := s.publishRoom(code, storage.Change{Kind: storage.ChangeTurn, Code: code, Turn: &t})
	return err
}

// Player implements inbox.Store, from the replica.
func (s *Store) Player(name string) (string, string, error) { return s.db.Player(name) }

// Challenges implements inbox.Store, from the replica.
func (s *Store) Challenges(player string, now time.Time) (to, from, open []record.Challenge, err error) {
	return s.db.Challenges(player, now)
}

// Challenge implements inbox.Store, from the replica.
func (s *Store) Challenge(id string) (record.Challenge, bool, error) { return s.db.Challenge(id) }

// InWindow implements inbox.Store, from the replica.
func (s *Store) InWindow(ch record.Challenge, player string) bool { return s.db.InWindow(ch, player) }

// Correspondence implements inbox.Store, from the replica.
func (s *Store) Correspondence(player string) ([]record.Correspondence, error) {
	return s.db.Correspondence(player)
}

// Follows implements inbox.Store, from the replica.
func (s *Store) Follows(player string) ([]record.Follow, error) { return s.db.Follows(player) }

// Prefs implements inbox.Store, from the replica.
func (s *Store) Prefs(player string) record.Prefs { return s.db.Prefs(player) }

// Ignores implements inbox.Store, from the replica.
func (s *Store) Ignores(who, whom string) bool { return s.db.Ignores(who, whom) }

// MakeChallenge implements inbox.Store through the stream (storage.DB.MakeChallenge).
func (s *Store) MakeChallenge(ch record.Challenge) error {
	return s.publishTried(storage.Change{Kind: storage.ChangeChallenge, Challenge: &ch, At: time.Now().UTC()})
}

// Decline implements inbox.Store through the stream (storage.DB.Decline).
func (s *Store) Decline(id, by string) error {
	return s.publishTried(storage.Change{Kind: storage.ChangeAnswer, ID: id, PlayerID: by,
		Answer: storage.AnswerDecline, At: time.Now().UTC()})
}

// Withdraw implements inbox.Store through the stream (storage.DB.Withdraw).
func (s *Store) Withdraw(id, by string) error {
	return s.publishTried(storage.Change{Kind: storage.ChangeAnswer, ID: id, PlayerID: by,
		Answer: storage.AnswerWithdraw, At: time.Now().UTC()})
}

// Follow implements inbox.Store through the stream (storage.DB.Follow).
func (s *Store) Follow(player, other, name string) error {
	return s.publishTried(storage.Change{Kind: storage.ChangeFollow, PlayerID: player, Target: other, Name: name,
		At: time.Now().UTC()})
}

// Unfollow implements inbox.Store through the stream (storage.DB.Unfollow).
func (s *Store) Unfollow(player, other string) error {
	return s.publishTried(storage.Change{Kind: storage.ChangeUnfollow, PlayerID: player, Target: other,
		At: time.Now().UTC()})
}

// SetPrefs implements inbox.Store through the stream (storage.DB.SetPrefs).
func (s *Store) SetPrefs(player string, p record.Prefs) error {
	return s.publishTried(storage.Change{Kind: storage.ChangePrefs, PlayerID: player, Prefs: &p, At: time.Now().UTC()})
}

// Accept implements inbox.Store (storage.DB.Accept): a correspondence match begins with the
// change on its room's subject, which this node reserved (Hub.NewCode); it returns once the
// replica has it, and the match's ID, or the refusal of the change (the challenge was taken
// first elsewhere, say). A live match's accept goes on the players' subject.
func (s *Store) Accept(id, by, code string, m *record.Match) (string, error) {
	c := storage.Change{Kind: storage.ChangeAnswer, ID: id, PlayerID: by, Answer: storage.AnswerAccept,
		Code: code, Match: m, At: time.Now().UTC()}
	if m == nil {
		return "", s.publishTried(c)
	}
	tried, mm := c, *m
	mm.ID = "tried" // a replica makes the ID from the change's position (storage.MatchID)
	tried.Match = &mm
	if err := s.db.Try(tried, true); err != nil {
		return "", err
	}
	seq, err := s.publishRoomApplied(code, c)
	if err != nil {
		return "", err
	}
	if err := s.db.Outcome(seq); err != nil {
		return "", err
	}
	return storage.MatchID(seq, c.At), nil
}

// publishTried tries c on the replica (its refusal is returned, nothing published), then
// publishes it (Store.Do: on the players' subject, with the refusal the replica met once it
// applied it, when another node's change came first).
func (s *Store) publishTried(c storage.Change) error {
	if err := s.db.Try(c, true); err != nil {
		return err
	}
	return s.Do(c)
}

// wake opens the sleeping correspondence room of code on this node: its entry is created in the
// directory (false when another node has it: that node hosts the room), its subject fenced, the
// replica caught up with the fence, and the room opened from the replica and served. false too
// when the replica has no correspondence match of the code.
func (s *served) wake(code string) (bool, error) {
	n := s.n
	if n.cfg.DB == nil || !asleepIn(n.cfg.DB, code) {
		return false, nil
	}
	ctx, cancel := n.request()
	defer cancel()
	val, err := json.Marshal(entry{Node: n.id, Summary: rooms.Summary{Code: code, Created: time.Now()}})
	if err != nil {
		return false, err
	}
	rev, err := retry(ctx, func(ctx context.Context) (uint64, error) { return n.dir.Create(ctx, code, val) })
	if errors.Is(err, jetstream.ErrKeyExists) {
		return false, nil // awake on another node, or being woken there
	}
	if err != nil {
		return false, fmt.Errorf("wake room %s: %w", code, err)
	}
	s.do(func(st *dirState) {
		st.hosts[code] = &hosted{epoch: rev, rev: rev, sum: val, reserved: time.Now()}
		st.taking[code] = true
	})
	defer s.do(func(st *dirState) { delete(st.taking, code) })
	fence, err := s.fence(code, rev)
	if err == nil {
		err = s.catchUp(ctx, fence)
	}
	if err != nil {
		return false, fmt.Errorf("wake room %s: %w", code, err)
	}
	return true, s.openHeld(code)
}

// asleepIn reports whether db has an unfinished correspondence match in room code.
func asleepIn(db *storage.DB, code string) bool {
	_, ok := db.CorrespondenceOf(code)
	return ok
}

// openHeld opens, from the replica, the room of code's unfinished match, whose entry names this
// node (a room woken, or a match just begun by an accept here), and serves it.
func (s *served) openHeld(code string) error {
	if _, ok := s.hub.Room(code); ok {
		return nil
	}
	m, found, err := s.unfinished(code)
	if err == nil && !found {
		err = fmt.Errorf("room %s has no unfinished match", code)
	}
	if err == nil {
		err = s.restore(m)
	}
	if err != nil {
		if _, ok := s.hub.Room(code); ok {
			return nil // opened meanwhile, by a join
		}
		return fmt.Errorf("open room %s: %w", code, err)
	}
	if r, ok := s.hub.Room(code); ok {
		s.host(r)
	}
	return nil
}

// NewCode implements inbox.Tables: a code reserved in the directory for this node, that no
// match of the replica has (rooms.Hub.NewCode, Node.ReserveCode).
func (h *Hub) NewCode() (string, error) { return h.s.hub.NewCode() }

// Seed implements inbox.Tables (rooms.Hub.Seed).
func (h *Hub) Seed(code string) uint64 { return h.s.hub.Seed(code, 1) }

// Wake implements inbox.Tables: the room of a correspondence match that an accept here has just
// begun, its code reserved here, is opened and served.
func (h *Hub) Wake(code string) error { return h.s.openHeld(code) }

// OpenTable implements inbox.Tables: a room waiting for the table's players, opened on this node
// and served at once (rooms.Hub.OpenTable).
func (h *Hub) OpenTable(t rooms.Table) (string, error) {
	r, err := h.s.hub.OpenTable(t)
	if err != nil {
		return "", err
	}
	h.s.host(r)
	return r.Code(), nil
}

// WakeDue wakes the sleeping room of code whose turn has run out (the deadlines' scheduler of
// every node calls it): one node creates its entry, and that node's room ends the match.
func (h *Hub) WakeDue(code string) {
	if _, err := h.s.wake(code); err != nil {
		h.s.n.cfg.Warnf("cluster: %v", err)
	}
}
