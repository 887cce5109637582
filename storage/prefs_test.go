package storage

import (
	"errors"
	"testing"
	"time"
)

// TestBell: the bell rings unless the key turned it off; the setting survives a new claim of the
// name and a reopening; a key that claimed no name has no settings.
func TestBell(t *testing.T) {
	d, path := openTemp(t)
	if !d.Bell("SHA256:ann") {
		t.Error("an unknown key's bell is off")
	}
	if err := d.SetBell("SHA256:ann", false); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("SetBell before a claim: %v", err)
	}
	if err := d.Claim("SHA256:ann", "ann"); err != nil {
		t.Fatal(err)
	}
	if err := d.SetBell("SHA256:ann", false); err != nil {
		t.Fatal(err)
	}
	if err := d.Claim("SHA256:ann", "annie"); err != nil { // a new name rewrites the record
		t.Fatal(err)
	}
	if d.Bell("SHA256:ann") {
		t.Error("the bell rings after it was turned off and the name changed")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Bell("SHA256:ann") {
		t.Error("the bell rings after a reopening")
	}
	if err := d.SetBell("SHA256:ann", true); err != nil || !d.Bell("SHA256:ann") {
		t.Errorf("the bell is not back on: %v", err)
	}
}
