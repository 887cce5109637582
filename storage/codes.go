package storage

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// A link code joins a new key to a player: a key of the player makes it (keys link), and the new
// key, connecting with the player's name, claims it (keys claim CODE) within CodeLife. A code is
// used once. The store keeps only its SHA-256 (bucket codes), so that neither the file, a backup
// nor a cluster's stream holds a code that works; logs show its first two characters at most
// (package sshd).

// Limits of link codes.
const (
	// CodeLife is how long a code may be claimed.
	CodeLife = 10 * time.Minute
	// MaxLiveCodes is the most codes of a player that may be claimed at once.
	MaxLiveCodes = 3
	// CodesPerHour is the most codes a player makes in an hour.
	CodesPerHour = 10
	// codeKeep is how long a code is kept after it expired, so that a late claim is told it
	// expired rather than that it never was.
	codeKeep = 24 * time.Hour
)

// codeAlphabet spells codes: upper-case letters and digits without look-alikes (no 0, O, 1, I,
// L), as room codes.
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// codeLen is the number of characters of a code: 31^12, about 2^59 codes.
const codeLen = 12

// Errors of link codes, written for the player.
var (
	ErrBadCode      = errors.New("that code is not one this arcade made: check it, or make a new one with keys link")
	ErrCodeUsed     = errors.New("that code was used already: codes work once; make a new one with keys link")
	ErrCodeExpired  = fmt.Errorf("that code has expired (a code works for %v): make a new one with keys link", CodeLife)
	ErrTooManyCodes = fmt.Errorf("you have made too many codes: at most %d at once and %d an hour; use one, or wait", MaxLiveCodes, CodesPerHour)
	// ErrCodeName: the code links keys to another name than the one connected with. The error is
	// a *CodeNameError.
	ErrCodeName = errors.New("that code is for another name")
)

// CodeNameError is ErrCodeName with the name the code is for.
type CodeNameError struct{ Name string }

func (e *CodeNameError) Error() string {
	return fmt.Sprintf("that code links keys to %s: connect as %s (ssh %s@host keys claim CODE)", e.Name, e.Name, e.Name)
}

func (e *CodeNameError) Unwrap() error { return ErrCodeName }

// linkCode is a code's record in the bucket codes, under its hash.
type linkCode struct {
	Player  string    `json:"player"`
	Key     string    `json:"key"` // the key that made it
	Made    time.Time `json:"made"`
	Expires time.Time `json:"expires"`
	Used    time.Time `json:"used,omitzero"`
	UsedBy  string    `json:"used_by,omitempty"`
}

// NewCode returns a new link code, as the player types it: three groups of four ("K7QX-M2P9-ABCD").
func NewCode() string {
	var b [codeLen]byte
	_, _ = rand.Read(b[:])
	var s strings.Builder
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			s.WriteByte('-')
		}
		s.WriteByte(codeAlphabet[int(c)%len(codeAlphabet)]) // 256 % 31: a bias of under 1%
	}
	return s.String()
}

// normalCode returns code as it is hashed: upper case, without dashes and spaces; "" when it is
// not a code's shape.
func normalCode(code string) string {
	code = strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code))
	if len(code) != codeLen || strings.Trim(code, codeAlphabet) != "" {
		return ""
	}
	return code
}

// CodeHash returns what the store keeps of code: the hex of its SHA-256, as typed in any case,
// with or without its dashes; "" for text that is not a code's shape.
func CodeHash(code string) string {
	n := normalCode(code)
	if n == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(n))
	return hex.EncodeToString(sum[:])
}

// applyCode stores the code of hash c.Hash that the key c.Key of c.PlayerID made at c.At, valid
// CodeLife; the player may have MaxLiveCodes at once and make CodesPerHour an hour. Codes expired
// for codeKeep are forgotten.
func applyCode(tx *bolt.Tx, c Change) error {
	if c.Hash == "" || c.At.IsZero() {
		return errors.New("a code needs its hash and a time")
	}
	k, known, err := keyOf(tx, c.Key)
	if err != nil {
		return err
	}
	if !known || k.Player != c.PlayerID || !k.Revoked.IsZero() {
		return ErrNotYourKey
	}
	b := tx.Bucket(bucketCodes)
	if b.Get([]byte(c.Hash)) != nil {
		return errors.New("that code exists already")
	}
	live, lastHour := 0, 0
	var stale [][]byte
	cur := b.Cursor()
	for key, v := cur.First(); key != nil; key, v = cur.Next() {
		var lc linkCode
		if decode(key, v, &lc) != nil {
			continue // Check reports it
		}
		if c.At.Sub(lc.Expires) > codeKeep && len(stale) < 64 {
			stale = append(stale, bytes.Clone(key))
		}
		if lc.Player != c.PlayerID {
			continue
		}
		if lc.Used.IsZero() && c.At.Before(lc.Expires) {
			live++
		}
		if c.At.Sub(lc.Made) < time.Hour {
			lastHour++
		}
	}
	for _, key := range stale {
		if err := b.Delete(key); err != nil {
			return err
		}
	}
	if live >= MaxLiveCodes || lastHour >= CodesPerHour {
		return ErrTooManyCodes
	}
	return putJSON(b, []byte(c.Hash), linkCode{Player: c.PlayerID, Key: c.Key, Made: c.At.UTC(), Expires: c.At.UTC().Add(CodeLife)})
}

// applyLink links the key c.Key to the player of the code of hash c.Hash, as of c.At: the key
// connected with c.Name, which must be a name of that player, and calls itself c.Comment. The code
// must exist (ErrBadCode), be unused (ErrCodeUsed) and unexpired (ErrCodeExpired); the key must be
// no other player's (ErrKeyHeld), and the player hold fewer than MaxKeys.
func applyLink(tx *bolt.Tx, c Change) error {
	if c.Key == "" || c.At.IsZero() {
		return errors.New("a link needs a key and a time")
	}
	b := tx.Bucket(bucketCodes)
	var lc linkCode
	ok, err := getJSON(b, []byte(c.Hash), &lc)
	switch {
	case err != nil:
		return err
	case !ok:
		return ErrBadCode
	case !lc.Used.IsZero():
		return ErrCodeUsed
	case !c.At.Before(lc.Expires):
		return ErrCodeExpired
	}
	if owner, err := binding(tx.Bucket(bucketNames), []byte(c.Name)); err != nil || owner != lc.Player {
		return &CodeNameError{Name: playerName(tx, lc.Player)}
	}
	k, known, err := keyOf(tx, c.Key)
	switch {
	case err != nil:
		return err
	case known && k.Revoked.IsZero() && k.Player == lc.Player:
		return ErrKeyLinked
	case known && k.Revoked.IsZero():
		return ErrKeyHeld
	case len(playerKeys(tx, lc.Player)) >= MaxKeys:
		return ErrTooManyKeys
	}
	if len([]rune(c.Comment)) > MaxComment || sanitize.Line(c.Comment, MaxComment) != c.Comment {
		return fmt.Errorf("a key's comment is one line of at most %d characters", MaxComment)
	}
	lc.Used, lc.UsedBy = c.At.UTC(), c.Key
	if err := putJSON(b, []byte(c.Hash), lc); err != nil {
		return err
	}
	return putKey(tx, record.Key{Fingerprint: c.Key, Player: lc.Player, Comment: c.Comment, Added: c.At.UTC(), Used: day(c.At)})
}
