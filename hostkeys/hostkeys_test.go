package hostkeys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCreateThenReuse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "host_ed25519")
	s1, created, err := Load(path)
	if err != nil || !created {
		t.Fatalf("first Load: created=%v err=%v", created, err)
	}
	if got := s1.PublicKey().Type(); got != "ssh-ed25519" {
		t.Errorf("key type %s, want ssh-ed25519", got)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %#o, want 0600", info.Mode().Perm())
	}
	s2, created, err := Load(path)
	if err != nil || created {
		t.Fatalf("second Load: created=%v err=%v", created, err)
	}
	if Fingerprint(s1) != Fingerprint(s2) {
		t.Errorf("key changed on reload: %s != %s", Fingerprint(s1), Fingerprint(s2))
	}
}

func TestRefuseReadableKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_ed25519")
	if _, _, err := Load(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(path); !errors.Is(err, ErrTooOpen) {
		t.Fatalf("Load of a 0644 key: %v, want ErrTooOpen", err)
	}
}

func TestRefuseGarbage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_ed25519")
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(path); err == nil {
		t.Fatal("Load accepted garbage")
	}
}
