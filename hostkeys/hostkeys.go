// Package hostkeys loads the server's ed25519 SSH host key, creating it on first start.
//
// The key lives in one PEM file (OpenSSH private key format) with mode 0600. A key file that group
// or others may read is refused, as OpenSSH refuses one: a leaked host key lets anyone pose as the
// server.
package hostkeys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/crypto/ssh"
)

// ErrTooOpen is returned (wrapped) by Load when the key file may be read by group or others.
var ErrTooOpen = errors.New("host key file is readable by others")

// Load returns the signer for the host key at path, creating a new ed25519 key there (and its
// folder, mode 0700) when the file does not exist. created reports whether it did.
func Load(path string) (signer ssh.Signer, created bool, err error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		signer, err := create(path)
		return signer, err == nil, err
	case err != nil:
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, false, fmt.Errorf("%w: %s has mode %#o; run: chmod 600 %s",
			ErrTooOpen, path, info.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	signer, err = ssh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("host key %s: %w", path, err)
	}
	return signer, false, nil
}

// Fingerprint returns the SHA256 fingerprint of the signer's public key, as ssh-keygen -l shows it.
func Fingerprint(s ssh.Signer) string {
	return ssh.FingerprintSHA256(s.PublicKey())
}

func create(path string) (ssh.Signer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("host key folder: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate host key: %w", err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "arcade host key")
	if err != nil {
		return nil, fmt.Errorf("encode host key: %w", err)
	}
	// O_EXCL: never overwrite a key another process created meanwhile.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("write host key: %w", err)
	}
	if err := pem.Encode(f, block); err != nil {
		f.Close()
		return nil, fmt.Errorf("write host key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write host key: %w", err)
	}
	return ssh.NewSignerFromKey(priv)
}
