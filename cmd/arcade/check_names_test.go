package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestCheckReportsADamagedName: one bit flipped in the binding of a name (names bucket) makes
// `arcade check` exit 1 and name the damaged binding, where it said ok before names carried a
// checksum.
func TestCheckReportsADamagedName(t *testing.T) {
	data := newDataFolder(t)
	raw, err := bolt.Open(filepath.Join(data, dbFile), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("names"))
		v := bytes.Clone(b.Get([]byte("alice")))
		if !bytes.Contains(v, []byte("SHA256:alice")) {
			t.Fatalf("alice's binding is %q", v)
		}
		v[bytes.Index(v, []byte("alice"))] ^= 0x01 // "SHA256:`lice": another key, were it not sealed
		return b.Put([]byte("alice"), v)
	})
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	status, err := runCheck([]string{"--data", data}, noEnv, &out, &out)
	if status != checkDamaged || err == nil {
		t.Errorf("arcade check: status %d, %v; want %d", status, err, checkDamaged)
	}
	for _, want := range []string{`damaged: a record: the binding of the name "alice"`, "checksum", "result: DAMAGED"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("arcade check does not say %q:\n%s", want, out.String())
		}
	}
}
