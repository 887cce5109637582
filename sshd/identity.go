package sshd

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/sanitize"
)

// identify returns the player behind a session, and a notice when the SSH user name breaks the
// name rule (sanitize.ParseName): such a session plays as a guest with a name of the server's
// making, whatever key it used. The ID is the SHA256 fingerprint of the public key that
// authenticated this connection, read from the session itself: the auth callback may have been
// shown other keys first (a client may offer keys it cannot sign with), so nothing it saw is
// trusted. A session without a key is a guest with a fresh ID, named after its user name.
func identify(s ssh.Session) (rooms.Player, string) {
	name, err := sanitize.ParseName(s.User())
	if err != nil {
		g := guest("")
		return g, badNameNotice(s.User(), err, g.Name)
	}
	if key := s.PublicKey(); key != nil {
		return rooms.Player{ID: gossh.FingerprintSHA256(key), Name: name}, ""
	}
	return guest(name), ""
}

// guest returns a new guest called ~name, or ~guest-XXXX for an empty name: the tilde, which no
// keyed player's name can hold, shows everyone that the name is not bound to a key.
func guest(name string) rooms.Player {
	var b [4]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	if name == "" {
		name = "guest-" + id[:4]
	}
	return rooms.Player{ID: "guest-" + id, Name: "~" + name, Guest: true}
}

// player identifies the session's player and binds the name to the key. A session whose user
// name breaks the name rule, or asks for a name bound to another key, or whose name cannot be
// checked, plays as a guest, and notice says why and what to do, in one message: every path that
// makes a player (the lobby, new, join, watch, replay, whoami) shows it whole.
// The player's Source is the session's source address, as the hub's shares count it.
func (s *Server) player(sess ssh.Session) (p rooms.Player, notice string) {
	p, notice = s.claim(sess)
	if src := sourceOf(sess.RemoteAddr()); src.IsValid() {
		p.Source = src.String()
	}
	return p, notice
}

// claim is player without the Source: the key's player (the key's ID is the player's, which may
// be the first key of several), with the name bound to them.
func (s *Server) claim(sess ssh.Session) (p rooms.Player, notice string) {
	p, notice = identify(sess)
	if p.Guest || s.cfg.Accounts == nil {
		return p, notice
	}
	id, err := s.cfg.Accounts.Login(p.ID, p.Name)
	switch {
	case err == nil:
		p.ID = id
		return p, ""
	case errors.Is(err, sanitize.ErrNameTaken):
		s.log.Info("name refused", "name", p.Name, "key", p.ID)
		g := guest(p.Name)
		return g, fmt.Sprintf("The name %s belongs to another key, so you play as guest %s (unranked). "+
			"Pick another name: ssh NAME@host. If the name is yours, link this key to it: keys link from a key "+
			"of yours, then ssh %s@host keys claim CODE from this one.", p.Name, g.Name, p.Name)
	case errors.Is(err, record.ErrKeyRevoked):
		s.log.Info("revoked key", "name", p.Name, "key", p.ID)
		g := guest(p.Name)
		return g, fmt.Sprintf("%s, so you play as guest %s (unranked). To use it again, link it: keys link "+
			"from a key of yours, then keys claim CODE from this one.", sentenceStart(err.Error()), g.Name)
	case errors.Is(err, record.ErrNameRenamed):
		g := guest(p.Name)
		return g, fmt.Sprintf("%s, so you play as guest %s (unranked) under this one.", sentenceStart(err.Error()), g.Name)
	}
	s.log.Error("name not checked", "name", p.Name, "key", p.ID, "err", err)
	g := guest(p.Name)
	return g, fmt.Sprintf("Your name cannot be checked right now, so you play as guest %s (unranked). "+
		"Try again later.", g.Name)
}

// badNameNotice says why the user name asked for is refused, the rule, and the guest's name.
func badNameNotice(asked string, err error, guestName string) string {
	why := strings.TrimPrefix(err.Error(), sanitize.ErrBadName.Error()+": ")
	subject := "Your user name"
	if shown := sanitize.Line(asked, 2*sanitize.MaxName); shown != "" {
		subject = fmt.Sprintf("The name %q", shown)
	}
	return fmt.Sprintf("%s is not allowed: %s. Names are 1 to %d of a-z, 0-9, - and _, starting "+
		"and ending with a letter or digit. You play as guest %s (unranked). Pick a name: ssh NAME@host.",
		subject, why, sanitize.MaxName, guestName)
}

// sentenceStart gives s a capital first letter.
func sentenceStart(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
