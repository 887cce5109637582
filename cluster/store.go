package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/storage"
)

// Store is a node's store: writes go to the stream (and, names, to arcade_names first), reads to
// the node's replica. It has the methods of storage.DB that the arcade uses, with their
// contracts, so that the server takes either. Safe for concurrent use.
type Store struct {
	n  *Node
	db *storage.DB

	mu   sync.Mutex
	logs map[string]*roomLog // by room code: the rooms this node writes
}

// roomLog is what the node knows of a room's subject in the stream, for one tenure of the room
// here: from the directory write that named this node its host (acquire) until the room closes
// here or the node learns that another node took it (lost). A roomLog in Store.logs is changed
// only by its room's goroutine (publishRoom); other goroutines replace it.
type roomLog struct {
	epoch   uint64 // the directory revision that named this node the room's host
	last    uint64 // the sequence of the room's last change (0: none yet, or unknown when !known)
	known   bool
	doubt   string // the message ID of a publish that failed without an answer: it may be stored
	closing bool   // the copy here is being closed, to be opened again from the replica (reload)
	lost    bool   // another node keeps the room now: nothing more is written from here
}

// errCutOff is what a player is told of a move JetStream did not store: the move is not played.
var errCutOff = fmt.Errorf("%w: this server has lost touch with the rest of the arcade", rooms.ErrNotSaved)

// ErrMoved: the room's changes are written by another node now (it took the room over); the
// room is closed here.
var ErrMoved = errors.New("this room is now kept by another server")

// errNotHeld: the node writes a room's changes only while the directory names it the room's
// host (acquire); a write for a room it never held, or no longer holds, is refused.
var errNotHeld = errors.New("this server does not keep the room")

// Leaderboard implements session.Records, from the replica.
func (s *Store) Leaderboard(game string, limit int) ([]record.Standing, error) {
	return s.db.Leaderboard(game, limit)
}

// SoloScores implements session.Records, from the replica.
func (s *Store) SoloScores(game string, limit int) ([]record.SoloScore, error) {
	return s.db.SoloScores(game, limit)
}

// Profile implements session.Records, from the replica.
func (s *Store) Profile(playerID string, recent int) (record.Profile, error) {
	return s.db.Profile(playerID, recent)
}

// Match implements session.Records, from the replica.
func (s *Store) Match(id string) (record.Match, error) { return s.db.Match(id) }

// Ratings returns the players' ratings in game, from the replica (storage.DB.Ratings).
func (s *Store) Ratings(game string, ids []string) ([]rating.Rating, error) {
	return s.db.Ratings(game, ids)
}

// ActiveMatch returns the ID of the room's unfinished match (storage.DB.ActiveMatch), as the
// replica has it: after StartMatch returned, the match is there.
func (s *Store) ActiveMatch(code string) (string, bool) { return s.db.ActiveMatch(code) }

// Bell implements sshd.Prefs, from the replica.
func (s *Store) Bell(id string) bool { return s.db.Bell(id) }

// SetBell implements sshd.Prefs: the change goes to the stream and SetBell returns once the
// replica has it. The key must have claimed a name (storage.ErrNoPlayer).
func (s *Store) SetBell(id string, on bool) error {
	if p, err := s.db.Profile(id, 0); err != nil || p.Name == "" {
		return storage.ErrNoPlayer
	}
	_, err := s.publishPlayers(storage.Change{Kind: storage.ChangeBell, PlayerID: id, Bell: on})
	return err
}

// Claim binds name to the player of the key id (storage.Accounts.Login through this store):
// the name is reserved in arcade_names (Bind), so that two keys claiming one name on two nodes at
// once never both get it; a name bound to another player fails with storage.ErrNameTaken. The
// binding then goes to the stream, and Claim returns once the replica has it.
func (s *Store) Claim(id, name string) error {
	_, err := storage.NewAccounts(s.db, s).Login(id, name)
	return err
}

// Do implements storage.Writer: c goes to the stream, on the players' subject, and Do returns
// once the replica has applied it, with the error that refused it there (storage.DB.Outcome): a
// change tried on this node's replica may still be refused when another node's came first (a
// code claimed on two nodes at once).
func (s *Store) Do(c storage.Change) error {
	seq, err := s.publishPlayers(c)
	if err != nil {
		return err
	}
	return s.db.Outcome(seq)
}

// Decides implements storage.Writer: the cluster's bucket of names decides them, not a replica.
func (s *Store) Decides() bool { return false }

// Bind implements storage.Writer: name is reserved for player in arcade_names with a
// create-if-absent; a name held there by another player is taken over only when free (its
// holder released it and its date has come, as the replica has it), with a compare-and-set on the revision read, so that of
// two nodes taking it at once one does. Otherwise it fails with storage.ErrNameTaken.
func (s *Store) Bind(name, player string, free bool) error {
	if !sanitize.ValidName(name) {
		return fmt.Errorf("claim %q: %w: %s", name, sanitize.ErrBadName, sanitize.NameRule)
	}
	ctx, cancel := s.n.request()
	defer cancel()
	key := strings.ToLower(name)
	_, err := retry(ctx, func(ctx context.Context) (uint64, error) { return s.n.names.Create(ctx, key, []byte(player)) })
	if err == nil {
		return nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("claim %q: %w", name, err)
	}
	owner, rev, err := s.owner(ctx, key)
	switch {
	case err != nil:
		return fmt.Errorf("claim %q: %w", name, err)
	case owner == player:
		return nil
	case !free:
		return storage.ErrNameTaken
	}
	if _, err := retry(ctx, func(ctx context.Context) (uint64, error) {
		return s.n.names.Update(ctx, key, []byte(player), rev)
	}); err != nil {
		// Another node took it first, or this one did and its answer was lost (a repeated
		// compare-and-set finds its own revision gone).
		if owner, _, rerr := s.owner(ctx, key); rerr == nil && owner == player {
			return nil
		}
		return storage.ErrNameTaken
	}
	return nil
}

// owner returns the player a name is bound to, and the entry's revision, which a create just
// found there: read from the bucket's leader (jsKV.Get), which may not have it for a moment only
// while a new leader is elected.
func (s *Store) owner(ctx context.Context, key string) (string, uint64, error) {
	for {
		e, err := retry(ctx, func(ctx context.Context) (jetstream.KeyValueEntry, error) { return s.n.names.Get(ctx, key) })
		if err == nil {
			return string(e.Value()), e.Revision(), nil
		}
		if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return "", 0, err
		}
		select {
		case <-ctx.Done():
			return "", 0, err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// publishPlayers stores a change of a player and waits until the replica has it; it returns its
// position in the stream.
func (s *Store) publishPlayers(c storage.Change) (uint64, error) {
	if err := s.n.rep.stopped(); err != nil {
		return 0, fmt.Errorf("%w: %w", rooms.ErrStorageDown, err)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return 0, err
	}
	ctx, cancel := s.n.request()
	defer cancel()
	ack, err := retry(ctx, func(ctx context.Context) (*jetstream.PubAck, error) {
		return s.n.js.Publish(ctx, subjectPlayers, data)
	})
	if err != nil {
		return 0, fmt.Errorf("store %s: %w", c.Kind, err)
	}
	return ack.Sequence, s.n.rep.wait(ctx, ack.Sequence)
}

// StartMatch records the start of m as its room's unfinished match and returns its ID, once the
// replica has it (storage.DB.StartMatch).
func (s *Store) StartMatch(m record.Match) (string, error) {
	seq, err := s.publishRoomApplied(m.Code, storage.Change{Kind: storage.ChangeStart, Code: m.Code, Match: &m, At: m.Started})
	if err != nil {
		return "", err
	}
	return storage.MatchID(seq, m.Started), nil
}

// publishRoomApplied is publishRoom, which returns once this node's replica has the change too.
func (s *Store) publishRoomApplied(code string, c storage.Change) (uint64, error) {
	seq, err := s.publishRoom(code, c)
	if err != nil {
		return 0, err
	}
	ctx, cancel := s.n.request()
	defer cancel()
	return seq, s.n.rep.wait(ctx, seq)
}

// AppendMove records a move of the room's unfinished match: it returns once JetStream has
// stored it (storage.DB.AppendMove).
func (s *Store) AppendMove(code string, ply int, mv record.Move) error {
	_, err := s.publishRoom(code, storage.Change{Kind: storage.ChangeMove, Code: code, Ply: ply, Move: &mv})
	return err
}

// TakeBack records a takeback of the room's unfinished match from ply on, with its reshuffle
// when not nil (storage.DB.TakeBack).
func (s *Store) TakeBack(code string, ply int, r *rules.Reshuffle) error {
	_, err := s.publishRoom(code, storage.Change{Kind: storage.ChangeTakeback, Code: code, Ply: ply, Reshuffle: r})
	return err
}

// SetSeats records new seat holders of the room's unfinished match (storage.DB.SetSeats).
func (s *Store) SetSeats(code string, seats []record.Seat) error {
	_, err := s.publishRoom(code, storage.Change{Kind: storage.ChangeSeats, Code: code, Seats: seats})
	return err
}

// EndMatch records the end of the room's unfinished match, rated by every replica as of now,
// and returns once this node's replica has it, ratings included (storage.DB.EndMatch).
func (s *Store) EndMatch(code string, out rules.Outcome, unrated bool) error {
	_, err := s.publishRoomApplied(code, storage.Change{Kind: storage.ChangeEnd, Code: code, Outcome: out,
		Unrated: unrated, At: time.Now().UTC()})
	return err
}

// publishRoom stores c on the room's subject and returns its sequence once JetStream has stored
// it. The node writes a room only while it holds it (acquire; never again once it learnt it lost
// it, until the directory names it again). The publish expects the subject's last sequence to be
// the one this node wrote last, and carries a message ID made of the room, that sequence, the node
// and its epoch: a retry of a change whose answer was lost is a duplicate JetStream drops (and only this
// node's own retry is: the fence of a node that took the room over, expecting the same sequence,
// must not pass for one), and a node that lost the room to another (whose fence, storeFence,
// moved the subject on) is refused: the room is then closed here for good (ErrMoved).
func (s *Store) publishRoom(code string, c storage.Change) (uint64, error) {
	if err := s.n.rep.stopped(); err != nil { // the stream is gone, or the replica failed
		return 0, fmt.Errorf("%w: %w", rooms.ErrStorageDown, err)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	lg := s.logs[code]
	s.mu.Unlock()
	// A room's changes come from its goroutine, one at a time: lg is the room's alone.
	switch {
	case lg == nil:
		return 0, fmt.Errorf("%w: store %s of room %s: %w", rooms.ErrStorageDown, c.Kind, code, errNotHeld)
	case lg.lost:
		s.n.lost(code) // a copy opened here since: closed too
		return 0, fmt.Errorf("%w: %w", rooms.ErrStorageDown, ErrMoved)
	case lg.closing:
		return 0, fmt.Errorf("%w: room %s is being reloaded", rooms.ErrStorageDown, code)
	}
	ctx, cancel := s.n.request()
	defer cancel()
	fresh := !lg.known && lg.doubt == "" // the tenure's first write: it reads where the subject is
	if !lg.known || lg.doubt != "" {
		last, err := retry(ctx, func(ctx context.Context) (*jetstream.RawStreamMsg, error) { return s.lastOf(ctx, code) })
		if err != nil {
			return 0, fmt.Errorf("store %s of room %s: %w", c.Kind, code, err)
		}
		if lg.doubt != "" && last.Sequence != lg.last {
			if last.Header.Get(jetstream.MsgIDHeader) != lg.doubt {
				// Another node wrote the room after this one's last change: it took the room
				// over, and its fence came first. The room is closed here, never to be reopened
				// unless the directory gives it back to this node.
				s.n.lost(code)
				return 0, fmt.Errorf("%w: %w", rooms.ErrStorageDown, ErrMoved)
			}
			// The change whose answer was lost was stored after all, and nothing after it, but
			// the room went on without it: the room is rebuilt from the stream, which is the
			// truth, if the directory still names this node its host. Until then nothing more
			// is written from this copy.
			lg.closing = true
			s.n.reload(code, last.Sequence)
			return 0, fmt.Errorf("%w: room %s is being reloaded", rooms.ErrStorageDown, code)
		}
		lg.last, lg.known, lg.doubt = last.Sequence, true, ""
	}
	// Tried again while JetStream cannot answer (a leader being elected after a server was
	// lost): the message ID makes a repeat of a stored change a duplicate.
	publish := func() (*jetstream.PubAck, string, error) {
		id := fmt.Sprintf("%s-%d-%s-%d", code, lg.last, s.n.id, lg.epoch)
		ack, err := retry(ctx, func(ctx context.Context) (*jetstream.PubAck, error) {
			return s.n.js.Publish(ctx, subjectRoomLog+code, data,
				jetstream.WithExpectLastSequencePerSubject(lg.last), jetstream.WithMsgID(id))
		})
		return ack, id, err
	}
	ack, id, err := publish()
	if err != nil && fresh && isWrongSeq(err) {
		// Between the read and the publish, the subject may have gone back rather than on: the
		// code was a closed room's, whose changes the stream's retention purged just then
		// (retention.go). Another node's write only moves a subject on.
		if last, lerr := s.lastOf(ctx, code); lerr == nil && last.Sequence < lg.last {
			lg.last = last.Sequence
			ack, id, err = publish()
		}
	}
	if err != nil {
		if isWrongSeq(err) {
			s.n.lost(code)
			return 0, fmt.Errorf("%w: %w", rooms.ErrStorageDown, ErrMoved)
		}
		lg.doubt = id
		s.n.cfg.Warnf("cluster: store %s of room %s: %v", c.Kind, code, err)
		return 0, errCutOff
	}
	lg.last = ack.Sequence
	return ack.Sequence, nil
}

// lastOf returns the room's last change in the stream; one of sequence 0 when it has none.
func (s *Store) lastOf(ctx context.Context, code string) (*jetstream.RawStreamMsg, error) {
	m, err := s.n.stream.GetLastMsgForSubject(ctx, subjectRoomLog+code)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return &jetstream.RawStreamMsg{}, nil
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// acquire starts a tenure of the room here: the directory has just named this node its host
// (a code reserved, a room taken over) with epoch, a revision no tenure had. The room's first
// write reads where its subject is.
func (s *Store) acquire(code string, epoch uint64) {
	s.mu.Lock()
	if s.logs == nil {
		s.logs = map[string]*roomLog{}
	}
	s.logs[code] = &roomLog{epoch: epoch}
	s.mu.Unlock()
}

// reopened starts the tenure's next copy of a room that was closed here to be opened again from
// the replica (reload), whose subject's last change is at last: unless the node lost the room
// meanwhile, for good.
func (s *Store) reopened(code string, last uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	lg := s.logs[code]
	if lg == nil || lg.lost {
		return false
	}
	s.logs[code] = &roomLog{epoch: lg.epoch, last: last, known: true}
	return true
}

// forget ends the room's tenure here: the room closed and its entry left the directory. A room
// the node lost stays lost.
func (s *Store) forget(code string) {
	s.mu.Lock()
	if lg := s.logs[code]; lg != nil && !lg.lost {
		delete(s.logs, code)
	}
	s.mu.Unlock()
}

// moved marks the room as kept by another node: the copy here may still try to write before it
// is closed, and is refused; so is any copy of it here until the directory names this node
// again (acquire).
func (s *Store) moved(code string) {
	s.mu.Lock()
	if s.logs == nil {
		s.logs = map[string]*roomLog{}
	}
	s.logs[code] = &roomLog{lost: true}
	s.mu.Unlock()
}

// storeFence moves the room's subject on, as the first write of a node that has just taken the
// room over (a change that changes nothing, storage.ChangeFence), and returns its sequence: a
// node that still thinks it keeps the room is refused at its next write, and every change it
// wrote before is before the fence. epoch is the revision of the takeover's compare-and-set.
func (s *Store) storeFence(code string, epoch uint64) (uint64, error) {
	s.acquire(code, epoch)
	return s.publishRoom(code, storage.Change{Kind: storage.ChangeFence, Code: code})
}

// RatingHistory returns a player's rating history in a game, from the replica
// (storage.DB.RatingHistory).
func (s *Store) RatingHistory(id, game string, limit int) ([]record.RatingPoint, error) {
	return s.db.RatingHistory(id, game, limit)
}

// RecentMatches returns the newest finished matches, from the replica
// (storage.DB.RecentMatches).
func (s *Store) RecentMatches(limit int) ([]record.Match, error) { return s.db.RecentMatches(limit) }

// PlayerNamed returns the player a name is bound to and their latest name, from the replica
// (storage.DB.PlayerNamed).
func (s *Store) PlayerNamed(name string) (id, latest string, ok bool) { return s.db.PlayerNamed(name) }

// LeaderboardPage returns a page of a game's standings, from the replica
// (storage.DB.LeaderboardPage).
func (s *Store) LeaderboardPage(game string, offset, limit int) ([]record.Standing, error) {
	return s.db.LeaderboardPage(game, offset, limit)
}
