package storage

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// Writer writes the changes of keys, players and operators: a DB itself (a server alone), or a
// cluster's store, which publishes each change to the cluster's stream and returns once its
// replica (the DB it reads) has applied it, with the error that refused it.
type Writer interface {
	// Do writes c; its error is the one applyChange met, or why it could not be stored.
	Do(c Change) error
	// Bind is called before a change binds name to player (a claim, a rename): free says the name
	// was released and its date has come, so that it may be taken from its holder. A server alone
	// has nothing to do (the change's apply decides); a cluster's store reserves the name in the
	// cluster's bucket of names, which decides between nodes, and fails with ErrNameTaken when
	// another player has it.
	Bind(name, player string, free bool) error
	// Decides reports whether the database decides names itself (a server alone): a cluster's
	// replica binds what the cluster's bucket of names decided (see applyEnv.strict).
	Decides() bool
}

// Bind implements Writer for a server alone: the change's apply decides.
func (d *DB) Bind(string, string, bool) error { return nil }

// Decides implements Writer: a server alone decides names itself.
func (d *DB) Decides() bool { return true }

// Accounts are the operations on players' keys and names, on what players do about each other,
// and the operators' actions, over a database (the reads) and a Writer (the writes): the same
// database for a server alone, a cluster's store for a node. Every write is a Change, tried on the
// database first (Try), so that a refusal is said before anything is published. Safe for
// concurrent use.
type Accounts struct {
	db  *DB
	w   Writer
	now func() time.Time
}

// NewAccounts returns the accounts of db, written through w (db itself for a server alone).
func NewAccounts(db *DB, w Writer) *Accounts {
	return &Accounts{db: db, w: w, now: func() time.Time { return time.Now().UTC() }}
}

// do writes c; a change a cluster's node would publish is tried on its replica first (a server
// alone refuses it in the same commit that would write it).
func (a *Accounts) do(c Change) error {
	if !a.w.Decides() {
		if err := a.db.Try(c, false); err != nil {
			return err
		}
	}
	return a.w.Do(c)
}

// Login binds name to the player of the key fp and returns the player: see DB.Login, whose
// contract it keeps, names decided by the Writer.
func (a *Accounts) Login(fp, name string) (string, error) {
	if fp == "" {
		return "", errors.New("claim: empty id")
	}
	now := a.now()
	strict := a.w.Decides()
	id, write, err := a.db.LoginCheck(fp, name, now, strict)
	if err != nil || !write {
		return id, err
	}
	if !strict {
		owner, _, _ := a.db.PlayerNamed(name)
		if owner != id {
			if err := a.w.Bind(name, id, a.db.NameReleased(name, now)); err != nil {
				return "", err
			}
		}
	}
	return id, a.w.Do(Change{Kind: ChangeClaim, PlayerID: id, Key: fp, Name: name, At: now})
}

// Keys returns the player's keys, the oldest first.
func (a *Accounts) Keys(player string) ([]record.Key, error) { return a.db.Keys(player) }

// LinkCode makes a one-time code with which another key joins player, asked by the player's key
// fp; the code works until expires, once. The code is returned to be shown to the player, never
// stored or logged (see CodeHash, CodeHint).
func (a *Accounts) LinkCode(player, fp string) (code string, expires time.Time, err error) {
	now := a.now()
	code = NewCode()
	if err := a.do(Change{Kind: ChangeCode, PlayerID: player, Key: fp, Hash: CodeHash(code), At: now}); err != nil {
		return "", time.Time{}, err
	}
	return code, now.Add(CodeLife), nil
}

// ClaimCode links the key fp, connected as name, to the player of code, calling the key comment;
// it returns the player. A code not of a code's shape is ErrBadCode.
func (a *Accounts) ClaimCode(fp, name, code, comment string) (string, error) {
	hash := CodeHash(code)
	if hash == "" {
		return "", ErrBadCode
	}
	if err := a.do(Change{Kind: ChangeLink, Key: fp, Hash: hash, Name: name, Comment: comment, At: a.now()}); err != nil {
		return "", err
	}
	id, _ := a.db.PlayerOf(fp)
	return id, nil
}

// FindKey returns the key of player's that arg names: its fingerprint, or a part of it after
// "SHA256:" of at least 6 characters that no other key of theirs begins with.
func (a *Accounts) FindKey(player, arg string) (record.Key, error) {
	keys, err := a.db.Keys(player)
	if err != nil {
		return record.Key{}, err
	}
	part := strings.TrimPrefix(arg, "SHA256:")
	var found []record.Key
	for _, k := range keys {
		if k.Fingerprint == arg {
			return k, nil
		}
		if len(part) >= 6 && strings.HasPrefix(strings.TrimPrefix(k.Fingerprint, "SHA256:"), part) {
			found = append(found, k)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return record.Key{}, fmt.Errorf("%q is the beginning of %d of your keys: give more of it", sanitize.Line(arg, 60), len(found))
	case len(part) < 6 && arg != "":
		return record.Key{}, fmt.Errorf("%w: give the fingerprint, or at least its first 6 characters after SHA256:", ErrNotYourKey)
	}
	return record.Key{}, ErrNotYourKey
}

// Revoke removes the key arg names (see FindKey) from player: never their last key. The key's
// sessions end (the Watch of every node's database).
func (a *Accounts) Revoke(player, arg string) (record.Key, error) {
	k, err := a.FindKey(player, arg)
	if err != nil {
		return k, err
	}
	return k, a.do(Change{Kind: ChangeRevoke, PlayerID: player, Key: k.Fingerprint, At: a.now()})
}

// Comment calls the key arg names (see FindKey) of player text.
func (a *Accounts) Comment(player, arg, text string) (record.Key, error) {
	k, err := a.FindKey(player, arg)
	if err != nil {
		return k, err
	}
	return k, a.do(Change{Kind: ChangeComment, PlayerID: player, Key: k.Fingerprint, Comment: text})
}

// Release releases name, held by player: it becomes free ReleaseAfter from now (or from when it
// was released already), the date returned.
func (a *Accounts) Release(player, name string) (time.Time, error) {
	if err := a.do(Change{Kind: ChangeRelease, PlayerID: player, Name: name, At: a.now()}); err != nil {
		return time.Time{}, err
	}
	return a.db.ReleasedUntil(name), nil
}

// Keep takes back player's release of name.
func (a *Accounts) Keep(player, name string) error {
	return a.do(Change{Kind: ChangeKeep, PlayerID: player, Name: name, At: a.now()})
}

// ReleasedUntil returns when the released name becomes free; zero when it is not released.
func (a *Accounts) ReleasedUntil(name string) time.Time { return a.db.ReleasedUntil(name) }

// named returns the player holding name (sanitize.ParseName'd), or ErrUnknownName.
func (a *Accounts) named(name string) (id, latest string, err error) {
	n, err := sanitize.ParseName(name)
	if err != nil {
		return "", "", fmt.Errorf("%w: %q", ErrUnknownName, sanitize.Line(name, 2*sanitize.MaxName))
	}
	id, latest, ok := a.db.PlayerNamed(n)
	if !ok {
		return "", "", fmt.Errorf("%w: %s", ErrUnknownName, n)
	}
	return id, latest, nil
}

// Ignore has player ignore the player called name, and returns whom: they no longer see that
// player's chat (the session filters it), and the other is not told.
func (a *Accounts) Ignore(player, name string) (record.Ignored, error) {
	id, latest, err := a.named(name)
	if err != nil {
		return record.Ignored{}, err
	}
	ig := record.Ignored{Player: id, Name: latest}
	return ig, a.do(Change{Kind: ChangeIgnore, PlayerID: player, Target: id, Name: latest, At: a.now()})
}

// Unignore has player no longer ignore the player called name.
func (a *Accounts) Unignore(player, name string) (record.Ignored, error) {
	id, latest, err := a.named(name)
	if err != nil {
		return record.Ignored{}, err
	}
	return record.Ignored{Player: id, Name: latest}, a.do(Change{Kind: ChangeUnignore, PlayerID: player, Target: id, At: a.now()})
}

// Ignoring returns the players player ignores.
func (a *Accounts) Ignoring(player string) ([]record.Ignored, error) { return a.db.Ignoring(player) }

// Report stores the report r of the player called name by r.By (named r.ByName); r.Player and
// r.Name are found from name. A guest ("~name") is reported by the name the room showed, with no
// player (their address is in the server's log of connections).
func (a *Accounts) Report(name string, r record.Report) error {
	if strings.HasPrefix(name, "~") {
		r.Player, r.Name = "", sanitize.Line(name, 2*sanitize.MaxName)
		return a.do(Change{Kind: ChangeReport, Report: &r, At: a.now()})
	}
	id, latest, err := a.named(name)
	if err != nil {
		return err
	}
	r.Player, r.Name = id, latest
	return a.do(Change{Kind: ChangeReport, Report: &r, At: a.now()})
}

// Muted returns the player's mute, if they are muted now.
func (a *Accounts) Muted(player string) (record.Mute, bool) { return a.db.Muted(player, a.now()) }

// Banned returns the ban that keeps out the key fp or the address addr now, if any.
func (a *Accounts) Banned(fp string, addr netip.Addr) (record.Ban, bool) {
	return a.db.Banned(fp, addr, a.now())
}

// Ban bans what target names (ParseBanTarget: a name, a key's fingerprint or an address) until
// until (zero: for good), for reason, by the operator by; it returns the ban. A name nobody holds,
// and a key nobody used, is refused.
func (a *Accounts) Ban(target string, until time.Time, reason, by string) (record.Ban, error) {
	kind, t, err := ParseBanTarget(target)
	if err != nil {
		return record.Ban{}, err
	}
	var name string
	if kind == record.BanPlayer {
		if t, name, err = a.named(t); err != nil {
			return record.Ban{}, err
		}
	}
	now := a.now()
	c := Change{Kind: ChangeBan, Target: kind + " " + t, Name: name, Text: reason, By: by, At: now, Until: until}
	if err := a.do(c); err != nil {
		return record.Ban{}, err
	}
	return record.Ban{Kind: kind, Target: t, Name: name, Reason: reason, By: by, At: now, Until: until}, nil
}

// Unban lifts the ban of target (as Ban names it), by the operator by.
func (a *Accounts) Unban(target, by string) error {
	kind, t, err := ParseBanTarget(target)
	if err != nil {
		return err
	}
	if kind == record.BanPlayer {
		if t, _, err = a.named(t); err != nil {
			return err
		}
	}
	return a.do(Change{Kind: ChangeUnban, Target: kind + " " + t, By: by, At: a.now()})
}

// Bans returns the bans in force.
func (a *Accounts) Bans() ([]record.Ban, error) { return a.db.Bans(a.now()) }

// Mute mutes the player called name until until (zero: for good), for reason, by by.
func (a *Accounts) Mute(name string, until time.Time, reason, by string) error {
	id, latest, err := a.named(name)
	if err != nil {
		return err
	}
	return a.do(Change{Kind: ChangeMute, PlayerID: id, Name: latest, Text: reason, By: by, At: a.now(), Until: until})
}

// Unmute lifts the mute of the player called name, by by.
func (a *Accounts) Unmute(name, by string) error {
	id, _, err := a.named(name)
	if err != nil {
		return err
	}
	return a.do(Change{Kind: ChangeUnmute, PlayerID: id, By: by, At: a.now()})
}

// Kick ends the sessions of the player called name on every node, for reason, by by.
func (a *Accounts) Kick(name, reason, by string) error {
	id, latest, err := a.named(name)
	if err != nil {
		return err
	}
	return a.do(Change{Kind: ChangeKick, PlayerID: id, Name: latest, Text: reason, By: by, At: a.now()})
}

// Announce shows text to every session of every node, by by.
func (a *Accounts) Announce(text, by string) error {
	return a.do(Change{Kind: ChangeAnnounce, Text: text, By: by, At: a.now()})
}

// Void takes match id out of the ratings, for reason, by by: its game's ratings are recomputed
// without it.
func (a *Accounts) Void(id, reason, by string) error {
	return a.do(Change{Kind: ChangeVoid, ID: strings.ToLower(id), Text: reason, By: by, At: a.now()})
}

// Rename renames the player called old to new, by by: see applyRename.
func (a *Accounts) Rename(old, new, by string) error {
	id, _, err := a.named(old)
	if err != nil {
		return err
	}
	n, err := sanitize.ParseName(new)
	if err != nil {
		return fmt.Errorf("rename to %q: %w", sanitize.Line(new, 2*sanitize.MaxName), err)
	}
	o, _ := sanitize.ParseName(old)
	c := Change{Kind: ChangeRename, Name: o, Target: n, By: by, At: a.now()}
	if !a.w.Decides() {
		if err := a.db.Try(c, false); err != nil {
			return err
		}
		if err := a.w.Bind(n, id, a.db.NameReleased(n, c.At)); err != nil {
			return err
		}
	}
	return a.w.Do(c)
}

// Reports returns the latest limit reports, newest first.
func (a *Accounts) Reports(limit int) ([]record.Report, error) { return a.db.Reports(limit) }

// Actions returns the latest limit actions of the moderation log, newest first.
func (a *Accounts) Actions(limit int) ([]record.Action, error) { return a.db.Actions(limit) }
