package storage

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
)

// Challenges (bucket challenges: ID -> record.Challenge) wait for their answer; chalto indexes
// them: "to" NUL player NUL ID for the player challenged, "from" NUL player NUL ID for the
// challenger, "open" NUL ID for a challenge to anyone. A challenge is written by ChangeChallenge
// and taken out by ChangeAnswer (accepted, declined or withdrawn); one that has expired
// (record.Challenge.Expired) is answered by nobody and read by no list, and goes when its
// challenger makes another.

// Limits of challenges.
const (
	// MaxChallenges is the most challenges one player has waiting for an answer.
	MaxChallenges = 20
	// ChallengeLife is how long a challenge waits for its answer.
	ChallengeLife = 7 * 24 * time.Hour
)

// The answers to a challenge (Change.Answer).
const (
	AnswerAccept   = "accept"
	AnswerDecline  = "decline"
	AnswerWithdraw = "withdraw"
)

// Refusals of challenges, written for the player.
var (
	ErrChallengeSelf     = errors.New("you cannot challenge yourself")
	ErrTooManyChallenges = fmt.Errorf("you have %d challenges waiting for an answer, the most there may be: withdraw one, or wait for answers",
		MaxChallenges)
	ErrNoChallenge      = errors.New("no challenge of yours has that ID (it may have been answered, withdrawn or expired)")
	ErrChallengeExpired = errors.New("that challenge expired")
	ErrNotYourChallenge = errors.New("that challenge is not for you")
	ErrOwnChallenge     = errors.New("that challenge is yours: withdraw it instead")
	ErrOutOfWindow      = errors.New("your rating in the game is outside the challenge's window")
	ErrRoomTaken        = errors.New("the room's code has an unfinished match")
)

func chalKey(kind, player, id string) []byte {
	if kind == "open" {
		return []byte("open\x00" + id)
	}
	return []byte(kind + "\x00" + player + "\x00" + id)
}

// challengeIn reads the challenge id; false when there is none.
func challengeIn(tx *bolt.Tx, id string) (record.Challenge, bool, error) {
	var c record.Challenge
	b := tx.Bucket(bucketChallenges)
	if b == nil {
		return c, false, nil
	}
	ok, err := getJSON(b, []byte(id), &c)
	return c, ok, err
}

// challengeKeys are the chalto entries of c.
func challengeKeys(c record.Challenge) [][]byte {
	keys := [][]byte{chalKey("from", c.From, c.ID)}
	if c.Open() {
		return append(keys, chalKey("open", "", c.ID))
	}
	return append(keys, chalKey("to", c.To, c.ID))
}

// dropChallenge takes c out of the store.
func dropChallenge(tx *bolt.Tx, c record.Challenge) error {
	for _, k := range challengeKeys(c) {
		if err := tx.Bucket(bucketChalTo).Delete(k); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketChallenges).Delete([]byte(c.ID))
}

// listChallenges returns the challenges under the chalto prefix (kind NUL [player NUL]), the
// expired ones at now too when all.
func listChallenges(tx *bolt.Tx, prefix []byte) []record.Challenge {
	var out []record.Challenge
	idx := tx.Bucket(bucketChalTo)
	if idx == nil {
		return nil
	}
	cur := idx.Cursor()
	for k, _ := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = cur.Next() {
		if c, ok, err := challengeIn(tx, string(k[len(prefix):])); err == nil && ok {
			out = append(out, c)
		}
	}
	return out
}

// applyChallenge stores c.Challenge, made at c.At, after dropping its challenger's expired
// ones: refused when the challenger challenges themselves, has MaxChallenges waiting, or names
// a player the store does not have; the player challenged may refuse challenges (prefsRefuse).
func applyChallenge(tx *bolt.Tx, c Change) error {
	ch := c.Challenge
	switch {
	case ch == nil || ch.ID == "" || ch.From == "" || ch.Game == "" || c.At.IsZero():
		return errors.New("a challenge needs an ID, its challenger, a game and a time")
	case ch.To == ch.From:
		return ErrChallengeSelf
	case playerName(tx, ch.From) == "":
		return errors.New("only a player with a name may challenge")
	case !ch.Open() && playerName(tx, ch.To) == "":
		return ErrUnknownName
	}
	if _, ok, _ := challengeIn(tx, ch.ID); ok {
		return fmt.Errorf("challenge ID %s is taken", ch.ID)
	}
	waiting := 0
	for _, old := range listChallenges(tx, []byte("from\x00"+ch.From+"\x00")) {
		if old.Expired(c.At) {
			if err := dropChallenge(tx, old); err != nil {
				return err
			}
			continue
		}
		waiting++
	}
	if waiting >= MaxChallenges {
		return ErrTooManyChallenges
	}
	if !ch.Open() {
		if err := refusesChallenge(tx, ch.To, ch.From, ch.ToName); err != nil {
			return err
		}
	}
	made := *ch
	made.Made, made.Expires = c.At.UTC(), c.At.UTC().Add(ChallengeLife)
	if err := putJSON(tx.Bucket(bucketChallenges), []byte(made.ID), made); err != nil {
		return err
	}
	for _, k := range challengeKeys(made) {
		if err := putIndex(tx.Bucket(bucketChalTo), k); err != nil {
			return err
		}
	}
	return nil
}

// ChallengeRefused is the refusal of a challenge by the player challenged (their settings, or
// an ignore); its text names them, as the challenger typed the name.
type ChallengeRefused struct {
	Name    string
	Friends bool // they take challenges from the players they follow
}

func (e *ChallengeRefused) Error() string {
	if e.Friends {
		return e.Name + " takes challenges only from the players they follow"
	}
	return e.Name + " takes no challenges"
}

// refusesChallenge returns the refusal when player refuses a challenge from challenger: their
// settings say off, or friends and they do not follow the challenger, or they ignore the
// challenger (told as "off": the challenger never learns of an ignore). name is how the
// refusal names the player.
func refusesChallenge(tx *bolt.Tx, player, challenger, name string) error {
	p := prefsIn(tx, player)
	switch {
	case p.Challenges == record.ChallengesOff || ignores(tx, player, challenger):
		return &ChallengeRefused{Name: name}
	case p.Challenges == record.ChallengesFriends && !follows(tx, player, challenger):
		return &ChallengeRefused{Name: name, Friends: true}
	}
	return nil
}

// applyAnswer answers the challenge c.ID for c.PlayerID at c.At: c.Answer is AnswerAccept (the
// player challenged, or for an open challenge anyone in its window but its challenger: the
// match c.Match begins, in room c.Code, as a start change begins one, its ID made from seq and
// c.At, or c.Match.ID for a server alone), AnswerDecline (the player challenged) or
// AnswerWithdraw (the challenger). An accept without a match (a live match, whose room the
// accepting node opens) only takes the challenge. It returns what the match's start does to the
// DB's memory.
func applyAnswer(tx *bolt.Tx, seq uint64, c Change) (func(*DB), error) {
	ch, ok, err := challengeIn(tx, c.ID)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, ErrNoChallenge
	case c.At.IsZero():
		return nil, errors.New("an answer needs a time")
	}
	switch c.Answer {
	case AnswerWithdraw:
		if c.PlayerID != ch.From {
			return nil, ErrNoChallenge
		}
		return nil, dropChallenge(tx, ch)
	case AnswerDecline:
		if ch.Open() || c.PlayerID != ch.To {
			return nil, ErrNotYourChallenge
		}
		return nil, dropChallenge(tx, ch)
	case AnswerAccept:
	default:
		return nil, fmt.Errorf("no answer %q to a challenge", c.Answer)
	}
	switch {
	case ch.Expired(c.At):
		return nil, ErrChallengeExpired
	case c.PlayerID == ch.From:
		return nil, ErrOwnChallenge
	case !ch.Open() && c.PlayerID != ch.To:
		return nil, ErrNotYourChallenge
	case ch.Open() && !inWindow(tx, ch, c.PlayerID):
		return nil, ErrOutOfWindow
	case ch.Open() && (ignores(tx, c.PlayerID, ch.From) || ignores(tx, ch.From, c.PlayerID)):
		return nil, ErrNoChallenge // an ignore is never told
	case c.Match == nil: // a live match: its room is opened by the node that took the challenge
		return nil, dropChallenge(tx, ch)
	case c.Code == "":
		return nil, errors.New("an accepted challenge's match needs its room")
	}
	if id, err := binding(tx.Bucket(bucketActive), []byte(c.Code)); err != nil || id != "" {
		return nil, ErrRoomTaken
	}
	h := c.Match
	id := h.ID
	if seq > 0 {
		id = MatchID(seq, c.At)
	}
	m := record.Match{Version: record.Version, ID: id, Code: c.Code, Game: ch.Game, Options: h.Options,
		Seed: h.Seed, Seats: h.Seats, Started: c.At.UTC(), Turn: h.Turn}
	if m.ID == "" || tx.Bucket(bucketMatches).Get([]byte(m.ID)) != nil {
		return nil, fmt.Errorf("match ID %q is taken", m.ID)
	}
	if err := dropChallenge(tx, ch); err != nil {
		return nil, err
	}
	if err := (startEntry{Match: m}).apply(tx); err != nil {
		return nil, err
	}
	if m.Turn != nil {
		return nil, nil // a correspondence match's binding is read from the file (activeID)
	}
	return func(d *DB) { d.active[m.Code] = m.ID }, nil
}

// inWindow reports whether player's rating in the challenge's game is in its window.
func inWindow(tx *bolt.Tx, ch record.Challenge, player string) bool {
	if ch.Min == 0 && ch.Max == 0 {
		return true
	}
	st := record.Standing{Rating: rating.Default}
	if ok, err := getJSON(tx.Bucket(bucketRatings), pairKey(ch.Game, player), &st); err != nil || !ok {
		st.Rating = rating.Default
	}
	r := int(st.Rating.R + 0.5)
	return r >= ch.Min && (ch.Max == 0 || r <= ch.Max)
}

// Challenges returns what waits of challenges for player at now: those to them, those they
// made, and the open ones of others (any window: see InWindow), each list oldest first; none
// expired.
func (d *DB) Challenges(player string, now time.Time) (to, from, open []record.Challenge, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		live := func(cs []record.Challenge) []record.Challenge {
			out := cs[:0]
			for _, c := range cs {
				if !c.Expired(now) {
					out = append(out, c)
				}
			}
			return out
		}
		to = live(listChallenges(tx, []byte("to\x00"+player+"\x00")))
		from = live(listChallenges(tx, []byte("from\x00"+player+"\x00")))
		for _, c := range live(listChallenges(tx, []byte("open\x00"))) {
			if c.From != player {
				open = append(open, c)
			}
		}
		return nil
	})
	return to, from, open, err
}

// Challenge returns the challenge id, expired or not; false when there is none.
func (d *DB) Challenge(id string) (record.Challenge, bool, error) {
	var c record.Challenge
	var ok bool
	err := d.view(func(tx *bolt.Tx) error {
		var err error
		c, ok, err = challengeIn(tx, id)
		return err
	})
	return c, ok, err
}

// InWindow reports whether the player's rating in the open challenge's game is in its window.
func (d *DB) InWindow(ch record.Challenge, player string) bool {
	in := false
	_ = d.view(func(tx *bolt.Tx) error {
		in = inWindow(tx, ch, player)
		return nil
	})
	return in
}
