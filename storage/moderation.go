package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// Moderation: operators act through the admin socket (package main); each action is a change
// (ChangeBan, ChangeMute, ChangeKick, ChangeAnnounce, ChangeVoid, ChangeRename, and their undoing),
// stored with who did it in the moderation log (bucket actions), so that it survives restarts
// and, in a cluster, reaches every node through the stream. Bans (bucket bans) refuse a key, a
// player's every key, or an address at authentication; mutes (bucket mutes) refuse a player's chat.

// Limits of what operators write.
const (
	// MaxReason is the longest reason of a ban, mute or kick, in runes.
	MaxReason = 200
	// MaxAnnounce is the longest announcement, in runes.
	MaxAnnounce = 200
	// maxActions is the number of actions the moderation log keeps; the oldest go first.
	maxActions = 100_000
)

// Errors of moderation.
var (
	// ErrNotBanned: an unban of a target that has no ban.
	ErrNotBanned = errors.New("that is not banned")
	// ErrNotMuted: an unmute of a player who is not muted.
	ErrNotMuted = errors.New("that player is not muted")
)

// banKey returns the bucket bans' key of a ban of kind on target.
func banKey(kind, target string) []byte { return []byte(kind + " " + target) }

// seqKey returns a sequence as the key of the logs (actions, reports): 8 bytes, big-endian.
func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// logAction appends a to the moderation log, numbering it; the oldest action goes when the log
// holds maxActions. tx is writable.
func logAction(tx *bolt.Tx, a record.Action) error {
	b := tx.Bucket(bucketActions)
	n, err := b.NextSequence()
	if err != nil {
		return err
	}
	a.Seq, a.At = n, a.At.UTC()
	if err := putJSON(b, seqKey(n), a); err != nil {
		return err
	}
	if n > maxActions {
		return b.Delete(seqKey(n - maxActions))
	}
	return nil
}

// checkReason checks an operator's reason, or an announcement's text (max runes, one line).
func checkReason(what, s string, max int) error {
	if len([]rune(s)) > max || sanitize.Line(s, max) != s {
		return fmt.Errorf("%s is one line of at most %d characters", what, max)
	}
	return nil
}

// ParseBanTarget tells what a ban's target names: a key ("SHA256:..."), an address (an IP address,
// or a CIDR prefix such as 192.0.2.0/24, made canonical) or else a player's name. It returns the
// kind and the target as stored (a name is returned as given, for the caller to find its player).
func ParseBanTarget(s string) (kind, target string, err error) {
	switch {
	case strings.HasPrefix(s, "SHA256:"):
		if len(s) != len("SHA256:")+43 {
			return "", "", fmt.Errorf("%q is not a key's fingerprint (SHA256: and 43 characters)", sanitize.Line(s, 60))
		}
		return record.BanKey, s, nil
	case strings.Contains(s, "/"):
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return "", "", fmt.Errorf("%q is not an address prefix: %w", sanitize.Line(s, 60), err)
		}
		return record.BanAddr, p.Masked().String(), nil
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return record.BanAddr, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()).String(), nil
	}
	name, err := sanitize.ParseName(s)
	if err != nil {
		return "", "", fmt.Errorf("%q is neither a name, a key's fingerprint nor an address", sanitize.Line(s, 60))
	}
	return record.BanPlayer, name, nil
}

// applyBan bans c.Target ("KIND TARGET", see banKey) from c.At until c.Until (zero: for good),
// for c.Text, by c.By; a ban of the same target replaces the one before. A player is named in
// c.Name.
func applyBan(tx *bolt.Tx, c Change) error {
	kind, target, ok := strings.Cut(c.Target, " ")
	if !ok || target == "" {
		return fmt.Errorf("a ban of %q", c.Target)
	}
	switch kind {
	case record.BanKey:
		if _, known, err := keyOf(tx, target); err != nil || !known {
			return fmt.Errorf("no player has used the key %s", target)
		}
	case record.BanPlayer:
		if playerName(tx, target) == "" {
			return ErrUnknownName
		}
	case record.BanAddr:
		if _, err := netip.ParsePrefix(target); err != nil {
			return fmt.Errorf("a ban of the address %q: %w", target, err)
		}
	default:
		return fmt.Errorf("a ban of a %q", kind)
	}
	if err := checkReason("a reason", c.Text, MaxReason); err != nil {
		return err
	}
	if !c.Until.IsZero() && !c.Until.After(c.At) {
		return errors.New("a ban must end after it begins")
	}
	b := record.Ban{Kind: kind, Target: target, Name: c.Name, Reason: c.Text, By: c.By, At: c.At.UTC(), Until: c.Until.UTC()}
	if err := putJSON(tx.Bucket(bucketBans), banKey(kind, target), b); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "ban", Target: banShown(b), Text: c.Text, By: c.By, At: c.At, Until: c.Until})
}

// banShown is what the log and the lists call a ban's target: the name for a player.
func banShown(b record.Ban) string {
	if b.Kind == record.BanPlayer && b.Name != "" {
		return b.Name
	}
	return b.Target
}

// applyUnban lifts the ban of c.Target ("KIND TARGET"), by c.By.
func applyUnban(tx *bolt.Tx, c Change) error {
	kind, target, _ := strings.Cut(c.Target, " ")
	b := tx.Bucket(bucketBans)
	var ban record.Ban
	if ok, err := getJSON(b, banKey(kind, target), &ban); err != nil || !ok || !ban.Active(c.At) {
		return ErrNotBanned
	}
	if err := b.Delete(banKey(kind, target)); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "unban", Target: banShown(ban), By: c.By, At: c.At})
}

// Banned returns the ban that keeps out the key fp (its own, or its player's) or the address addr
// (either may be empty) at now: false when none does. A damaged ban counts as none (Check
// reports it).
func (d *DB) Banned(fp string, addr netip.Addr, now time.Time) (ban record.Ban, banned bool) {
	_ = d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBans)
		if b == nil {
			return nil
		}
		get := func(kind, target string) bool {
			var x record.Ban
			if ok, err := getJSON(b, banKey(kind, target), &x); ok && err == nil && x.Active(now) {
				ban, banned = x, true
			}
			return banned
		}
		if fp != "" {
			if get(record.BanKey, fp) {
				return nil
			}
			if k, known, err := keyOf(tx, fp); known && err == nil && get(record.BanPlayer, k.Player) {
				return nil
			}
		}
		if !addr.IsValid() {
			return nil
		}
		addr = addr.Unmap()
		prefix := banKey(record.BanAddr, "")
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var x record.Ban
			if decode(k, v, &x) != nil || !x.Active(now) {
				continue
			}
			if p, err := netip.ParsePrefix(x.Target); err == nil && p.Contains(addr) {
				ban, banned = x, true
				return nil
			}
		}
		return nil
	})
	return ban, banned
}

// Bans returns the bans in force at now, by target.
func (d *DB) Bans(now time.Time) ([]record.Ban, error) {
	var out []record.Ban
	err := d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBans).ForEach(func(k, v []byte) error {
			var b record.Ban
			if decode(k, v, &b) == nil && b.Active(now) {
				out = append(out, b)
			}
			return nil
		})
	})
	return out, err
}

// applyMute mutes the player c.PlayerID (named c.Name) from c.At until c.Until (zero: for good),
// for c.Text, by c.By.
func applyMute(tx *bolt.Tx, c Change) error {
	if playerName(tx, c.PlayerID) == "" {
		return ErrUnknownName
	}
	if err := checkReason("a reason", c.Text, MaxReason); err != nil {
		return err
	}
	if !c.Until.IsZero() && !c.Until.After(c.At) {
		return errors.New("a mute must end after it begins")
	}
	m := record.Mute{Player: c.PlayerID, Name: c.Name, Reason: c.Text, By: c.By, At: c.At.UTC(), Until: c.Until.UTC()}
	if err := putJSON(tx.Bucket(bucketMutes), []byte(c.PlayerID), m); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "mute", Target: c.Name, Text: c.Text, By: c.By, At: c.At, Until: c.Until})
}

// applyUnmute lifts the mute of c.PlayerID, by c.By.
func applyUnmute(tx *bolt.Tx, c Change) error {
	b := tx.Bucket(bucketMutes)
	var m record.Mute
	if ok, err := getJSON(b, []byte(c.PlayerID), &m); err != nil || !ok || !m.Active(c.At) {
		return ErrNotMuted
	}
	if err := b.Delete([]byte(c.PlayerID)); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "unmute", Target: m.Name, By: c.By, At: c.At})
}

// Muted returns the mute of player at now; false when they are not muted.
func (d *DB) Muted(player string, now time.Time) (record.Mute, bool) {
	var m record.Mute
	var muted bool
	_ = d.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketMutes); b != nil {
			ok, err := getJSON(b, []byte(player), &m)
			muted = ok && err == nil && m.Active(now)
		}
		return nil
	})
	return m, muted
}

// applyKick logs the kick of c.PlayerID (named c.Name) by c.By: every node ends the player's
// sessions when it applies it (see DB.Watch).
func applyKick(tx *bolt.Tx, c Change) error {
	if playerName(tx, c.PlayerID) == "" {
		return ErrUnknownName
	}
	if err := checkReason("a reason", c.Text, MaxReason); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "kick", Target: c.Name, Text: c.Text, By: c.By, At: c.At})
}

// applyAnnounce logs the announcement c.Text by c.By: every node shows it to its sessions when it
// applies it (see DB.Watch).
func applyAnnounce(tx *bolt.Tx, c Change) error {
	if c.Text == "" {
		return errors.New("an announcement needs a text")
	}
	if err := checkReason("an announcement", c.Text, MaxAnnounce); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "announce", Text: c.Text, By: c.By, At: c.At})
}

// Actions returns the latest limit actions of the moderation log (0: all), newest first.
func (d *DB) Actions(limit int) ([]record.Action, error) {
	var out []record.Action
	err := d.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketActions).Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			var a record.Action
			if decode(k, v, &a) == nil {
				out = append(out, a)
			}
		}
		return nil
	})
	return out, err
}
