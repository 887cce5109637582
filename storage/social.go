package storage

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// What players do about each other: ignore a player (bucket ignores: they no longer see the
// other's chat; the other is not told) and report one to the operators (bucket reports, with the
// chat of the room the report was made from).

// Limits of ignores and reports.
const (
	// MaxIgnores is the most players one ignores.
	MaxIgnores = 200
	// MaxReport is the longest text of a report, in runes.
	MaxReport = 500
	// MaxReportChat is the most chat lines a report keeps (a room's whole chat).
	MaxReportChat = 50
	// ReportsPerDay is the most reports a player makes in a day.
	ReportsPerDay = 10
	// maxChatText bounds a reported chat line, in runes (a room's limit is lower).
	maxChatText = 400
)

// Errors of ignores and reports, written for the player.
var (
	ErrIgnoreSelf     = errors.New("you cannot ignore yourself")
	ErrNotIgnoring    = errors.New("you do not ignore that player")
	ErrTooManyIgnores = fmt.Errorf("you ignore %d players already, the most there may be: unignore one first", MaxIgnores)
	ErrReportSelf     = errors.New("you cannot report yourself")
	ErrTooManyReports = fmt.Errorf("you have made %d reports today, the most there may be: the operators have them", ReportsPerDay)
)

// ignoreKey returns the bucket ignores' key of player ignoring other.
func ignoreKey(player, other string) []byte { return []byte(player + "\x00" + other) }

// applyIgnore records that c.PlayerID ignores c.Target (named c.Name), from c.At.
func applyIgnore(tx *bolt.Tx, c Change) error {
	switch {
	case c.Target == c.PlayerID:
		return ErrIgnoreSelf
	case playerName(tx, c.Target) == "":
		return ErrUnknownName
	}
	b := tx.Bucket(bucketIgnores)
	if b.Get(ignoreKey(c.PlayerID, c.Target)) != nil {
		return nil // already: nothing changes
	}
	if len(ignoring(tx, c.PlayerID)) >= MaxIgnores {
		return ErrTooManyIgnores
	}
	return putJSON(b, ignoreKey(c.PlayerID, c.Target), record.Ignored{Player: c.Target, Name: c.Name, At: c.At.UTC()})
}

// applyUnignore forgets that c.PlayerID ignores c.Target.
func applyUnignore(tx *bolt.Tx, c Change) error {
	b := tx.Bucket(bucketIgnores)
	if b.Get(ignoreKey(c.PlayerID, c.Target)) == nil {
		return ErrNotIgnoring
	}
	return b.Delete(ignoreKey(c.PlayerID, c.Target))
}

// ignoring returns whom player ignores. tx may be read-only.
func ignoring(tx *bolt.Tx, player string) []record.Ignored {
	var out []record.Ignored
	b := tx.Bucket(bucketIgnores)
	if b == nil {
		return nil
	}
	prefix := []byte(player + "\x00")
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var ig record.Ignored
		if decode(k, v, &ig) == nil {
			out = append(out, ig)
		}
	}
	return out
}

// Ignoring returns the players player ignores, each with the name they had when ignored.
func (d *DB) Ignoring(player string) ([]record.Ignored, error) {
	var out []record.Ignored
	err := d.view(func(tx *bolt.Tx) error {
		out = ignoring(tx, player)
		for i := range out {
			if n := playerName(tx, out[i].Player); n != "" {
				out[i].Name = n // the name they go by now
			}
		}
		return nil
	})
	return out, err
}

// applyReport stores the report c.Report, made at c.At: by a player of another player (or of a
// guest, by the name "~name" the room showed, with no player), with a text of at most MaxReport runes and at most MaxReportChat chat lines; a player makes at most
// ReportsPerDay a day.
func applyReport(tx *bolt.Tx, c Change) error {
	r := c.Report
	switch {
	case r == nil || c.At.IsZero():
		return errors.New("a report needs its report and a time")
	case r.By == r.Player:
		return ErrReportSelf
	case playerName(tx, r.By) == "":
		return errors.New("only a player with a name may report")
	case r.Player == "" && (!strings.HasPrefix(r.Name, "~") || sanitize.Line(r.Name, 2*sanitize.MaxName) != r.Name):
		return ErrUnknownName // a guest is reported by their name, "~name"
	case r.Player != "" && playerName(tx, r.Player) == "":
		return ErrUnknownName
	case len(r.Chat) > MaxReportChat:
		return fmt.Errorf("a report keeps at most %d chat lines", MaxReportChat)
	}
	if err := checkReason("a report", r.Text, MaxReport); err != nil {
		return err
	}
	for _, l := range r.Chat {
		if sanitize.Line(l.Text, maxChatText) != l.Text || sanitize.Line(l.From, 2*sanitize.MaxName) != l.From {
			return errors.New("a report's chat lines are lines of text")
		}
	}
	b := tx.Bucket(bucketReports)
	made := 0
	cur := b.Cursor()
	for k, v := cur.Last(); k != nil; k, v = cur.Prev() {
		var old record.Report
		if decode(k, v, &old) != nil {
			continue
		}
		if c.At.Sub(old.At) >= 24*time.Hour {
			break
		}
		if old.By == r.By {
			made++
		}
	}
	if made >= ReportsPerDay {
		return ErrTooManyReports
	}
	n, err := b.NextSequence()
	if err != nil {
		return err
	}
	rep := *r
	rep.Seq, rep.At = n, c.At.UTC()
	return putJSON(b, seqKey(n), rep)
}

// Reports returns the latest limit reports (0: all), newest first.
func (d *DB) Reports(limit int) ([]record.Report, error) {
	var out []record.Report
	err := d.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketReports).Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			var r record.Report
			if decode(k, v, &r) == nil {
				out = append(out, r)
			}
		}
		return nil
	})
	return out, err
}
