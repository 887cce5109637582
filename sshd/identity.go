package sshd

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/sanitize"
)

// maxNameLen bounds a player's name in runes.
const maxNameLen = 16

// identify returns the player behind a session. The ID is the SHA256 fingerprint of the public
// key that authenticated this connection, read from the session itself: the auth callback may
// have been shown other keys first (a client may offer keys it cannot sign with), so nothing it
// saw is trusted. A session without a key is a guest with a fresh ID.
func identify(s ssh.Session) rooms.Player {
	name := sanitize.Name(s.User(), maxNameLen)
	if name == "" {
		name = "player"
	}
	if key := s.PublicKey(); key != nil {
		return rooms.Player{ID: gossh.FingerprintSHA256(key), Name: name}
	}
	return guest(name)
}

// guest returns a new guest called ~name: the tilde, which no keyed player's name can hold, shows
// everyone that the name is not bound to a key.
func guest(name string) rooms.Player {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return rooms.Player{ID: "guest-" + hex.EncodeToString(b[:]), Name: "~" + name, Guest: true}
}

// player identifies the session's player and binds the name to the key. A key asking for a name
// bound to another key plays as a guest, and notice says why.
func (s *Server) player(sess ssh.Session) (p rooms.Player, notice string) {
	p = identify(sess)
	if p.Guest || s.cfg.Names == nil {
		return p, ""
	}
	if err := s.cfg.Names.Claim(p.ID, p.Name); err != nil {
		s.log.Info("name refused", "name", p.Name, "key", p.ID, "err", err)
		return guest(p.Name), fmt.Sprintf("The name %s belongs to another key, so you play as guest %s (unranked). "+
			"Pick another name with ssh NAME@host.", p.Name, "~"+p.Name)
	}
	return p, ""
}
