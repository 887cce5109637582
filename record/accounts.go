package record

import (
	"errors"
	"time"
)

// Errors of logging in that the layers above the store tell apart (storage returns them
// wrapped, with what to say).
var (
	// ErrKeyRevoked: the key was removed from its player; it plays as a guest.
	ErrKeyRevoked = errors.New("this key was removed from its player")
	// ErrNameRenamed: an operator renamed the name; its player goes by the new one.
	ErrNameRenamed = errors.New("the name was renamed")
)

// Key is one SSH key of a player: a player (the identity that seats, ratings and matches belong
// to) holds one key or several, linked with a one-time code.
type Key struct {
	// Fingerprint is the key's SHA256 fingerprint, as OpenSSH writes it ("SHA256:...").
	Fingerprint string `json:"key"`
	// Player is the identity the key belongs to (the fingerprint of the player's first key).
	Player string `json:"player"`
	// Comment is what the player called the key ("laptop"), or empty.
	Comment string `json:"comment,omitempty"`
	// Added is when the key was first used, or linked to the player.
	Added time.Time `json:"added"`
	// Used is the UTC day the key was last used (its midnight).
	Used time.Time `json:"used,omitzero"`
	// Revoked is when the player removed the key; zero while it is theirs. A revoked key plays
	// as a guest until it is linked again.
	Revoked time.Time `json:"revoked,omitzero"`
}

// Ban keeps a key, a player (every key of theirs) or an address out: it is refused at
// authentication, with its reason and its end.
type Ban struct {
	// Kind is BanKey, BanPlayer or BanAddr; Target the key's fingerprint, the player's identity
	// or the address (an IP address or a CIDR prefix).
	Kind   string `json:"kind"`
	Target string `json:"target"`
	// Name is the player's name when the ban named a player, for the operator's lists.
	Name   string `json:"name,omitempty"`
	Reason string `json:"reason,omitempty"`
	// By is the operator who banned (the user of the machine at the admin socket).
	By string    `json:"by"`
	At time.Time `json:"at"`
	// Until is when the ban ends; zero: never.
	Until time.Time `json:"until,omitzero"`
}

// The kinds of ban.
const (
	BanKey    = "key"
	BanPlayer = "player"
	BanAddr   = "addr"
)

// Active reports whether the ban holds at now.
func (b Ban) Active(now time.Time) bool { return b.Until.IsZero() || now.Before(b.Until) }

// Mute keeps a player's chat lines from every room until it ends.
type Mute struct {
	Player string    `json:"player"`
	Name   string    `json:"name"`
	Reason string    `json:"reason,omitempty"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
	// Until is when the mute ends; zero: never.
	Until time.Time `json:"until,omitzero"`
}

// Active reports whether the mute holds at now.
func (m Mute) Active(now time.Time) bool { return m.Until.IsZero() || now.Before(m.Until) }

// Ignored is a player someone ignores: they no longer see that player's chat.
type Ignored struct {
	Player string    `json:"player"`
	Name   string    `json:"name"`
	At     time.Time `json:"at"`
}

// ChatLine is a chat line as a report keeps it.
type ChatLine struct {
	From string    `json:"from,omitempty"`
	Text string    `json:"text"`
	At   time.Time `json:"at,omitzero"`
}

// Report is a player's report of another, for the operators, with the chat of the room it was
// made from.
type Report struct {
	// Seq numbers the reports in the order they were stored, from 1.
	Seq    uint64 `json:"seq"`
	By     string `json:"by"`
	ByName string `json:"by_name"`
	Player string `json:"player"`
	Name   string `json:"name"`
	Text   string `json:"text,omitempty"`
	// Room is the code of the room the report was made from; empty from the lobby.
	Room string `json:"room,omitempty"`
	// Chat holds the room's last chat lines (at most 50), oldest first.
	Chat []ChatLine `json:"chat,omitempty"`
	At   time.Time  `json:"at"`
}

// Action is one operator's action, as the moderation log keeps it.
type Action struct {
	// Seq numbers the actions in the order they were stored, from 1.
	Seq uint64 `json:"seq"`
	// Kind is what was done: ban, unban, mute, unmute, kick, announce, void, rename.
	Kind string `json:"kind"`
	// Target is what it was done to: a name, a fingerprint, an address or a match ID.
	Target string `json:"target,omitempty"`
	// Text is the reason, the announcement, or a rename's new name.
	Text  string    `json:"text,omitempty"`
	By    string    `json:"by"`
	At    time.Time `json:"at"`
	Until time.Time `json:"until,omitzero"`
}
