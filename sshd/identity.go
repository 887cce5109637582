package sshd

import (
	"crypto/rand"
	"encoding/hex"

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
	var b [4]byte
	_, _ = rand.Read(b[:])
	return rooms.Player{ID: "guest-" + hex.EncodeToString(b[:]), Name: name, Guest: true}
}
