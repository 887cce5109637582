package storage

import (
	"errors"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// The changes of correspondence play, with the fields of Change each reads. They are written the
// same way by a server alone (Do) and by a cluster's replica (Apply): both run applyChange, so
// that a refusal is the same error either way, written for the player.
const (
	// ChangeTurn: room Code's correspondence match is at Turn (after a takeback).
	ChangeTurn ChangeKind = "turn"
	// ChangeChallenge: Challenge is made at At.
	ChangeChallenge ChangeKind = "challenge"
	// ChangeAnswer: PlayerID answers the challenge ID at At with Answer; an accept begins the
	// match Match (its seats, seed, options and first turn) in room Code.
	ChangeAnswer ChangeKind = "answer"
	// ChangeFollow: PlayerID follows Target (named Name) from At; ChangeUnfollow no longer.
	ChangeFollow   ChangeKind = "follow"
	ChangeUnfollow ChangeKind = "unfollow"
	// ChangePrefs: PlayerID's settings of correspondence play are Prefs.
	ChangePrefs ChangeKind = "prefs"
)

// corrChanges apply the changes of correspondence play that touch nothing of the DB's memory
// (ChangeAnswer, which may begin a match, is applyChange's own).
var corrChanges = map[ChangeKind]func(*bolt.Tx, Change) error{
	ChangeTurn: func(tx *bolt.Tx, c Change) error {
		if c.Turn == nil {
			return errors.New("a turn change without its turn")
		}
		if _, err := activeIn(tx, c.Code); err != nil {
			return err
		}
		return turnEntry{Code: c.Code, Turn: *c.Turn}.apply(tx)
	},
	ChangeChallenge: applyChallenge,
	ChangeFollow:    applyFollow,
	ChangeUnfollow:  applyUnfollow,
	ChangePrefs:     applyPrefs,
}

// MakeChallenge stores ch (its ID, challenger, challenged or none, game and options set), made
// now; it expires after ChallengeLife. Refused, writing nothing, with an error for the player:
// ErrChallengeSelf, ErrTooManyChallenges, ErrUnknownName, or a *ChallengeRefused.
func (d *DB) MakeChallenge(ch record.Challenge) error {
	return d.Do(Change{Kind: ChangeChallenge, Challenge: &ch, At: d.now().UTC()})
}

// Decline declines the challenge id to the player by, now (ErrNoChallenge, ErrNotYourChallenge).
func (d *DB) Decline(id, by string) error {
	return d.Do(Change{Kind: ChangeAnswer, ID: id, PlayerID: by, Answer: AnswerDecline, At: d.now().UTC()})
}

// Withdraw withdraws the challenge id of the player by, now (ErrNoChallenge).
func (d *DB) Withdraw(id, by string) error {
	return d.Do(Change{Kind: ChangeAnswer, ID: id, PlayerID: by, Answer: AnswerWithdraw, At: d.now().UTC()})
}

// Accept accepts the challenge id for the player by, now. With a match m (its seats, seed,
// options and first turn: a correspondence match), m begins in room code, unfinished, and Accept
// returns its ID; with none (a live match, whose room the caller opens) the challenge is taken
// and Accept returns "". Refused, writing nothing, with an error for the player
// (ErrNoChallenge, ErrChallengeExpired, ErrNotYourChallenge, ErrOwnChallenge, ErrOutOfWindow),
// or ErrRoomTaken.
func (d *DB) Accept(id, by, code string, m *record.Match) (string, error) {
	c := Change{Kind: ChangeAnswer, ID: id, PlayerID: by, Answer: AnswerAccept, Code: code, At: d.now().UTC()}
	if m != nil {
		mm := *m
		d.mu.Lock()
		mm.ID = d.newID()
		d.mu.Unlock()
		c.Match = &mm
	}
	if err := d.Do(c); err != nil {
		return "", err
	}
	if c.Match == nil {
		return "", nil
	}
	return c.Match.ID, nil
}

// Follow records that player follows other, named name (ErrFollowSelf, ErrUnknownName,
// ErrTooManyFollows); following twice is once.
func (d *DB) Follow(player, other, name string) error {
	return d.Do(Change{Kind: ChangeFollow, PlayerID: player, Target: other, Name: name, At: d.now().UTC()})
}

// Unfollow forgets that player follows other (ErrNotFollowing).
func (d *DB) Unfollow(player, other string) error {
	return d.Do(Change{Kind: ChangeUnfollow, PlayerID: player, Target: other, At: d.now().UTC()})
}

// SetPrefs sets player's settings of correspondence play; the player must have claimed a name
// (ErrNoPlayer).
func (d *DB) SetPrefs(player string, p record.Prefs) error {
	return d.Do(Change{Kind: ChangePrefs, PlayerID: player, Prefs: &p, At: d.now().UTC()})
}
