package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/storage"
)

// TestCheckBackupRestartRefuseAnOlderFile: on a data folder whose database a development build
// before v0.1.0 wrote (schema 1), `arcade check`, `arcade backup` and the server each refuse with a
// message that names both schemas and says to start with a new data folder; the file is left as
// it was.
func TestCheckBackupRestartRefuseAnOlderFile(t *testing.T) {
	data := newDataFolder(t)
	path := filepath.Join(data, dbFile)
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("1")) })
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	says := func(what string, err error) {
		t.Helper()
		t.Logf("%s said: %v", what, err)
		if !errors.Is(err, storage.ErrOlderSchema) {
			t.Errorf("%s: %v, want ErrOlderSchema", what, err)
			return
		}
		for _, want := range []string{"development build before v0.1.0", "schema 1", "schema 2", "new data folder"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", what, err, want)
			}
		}
	}

	var out bytes.Buffer
	status, err := runCheck([]string{"--data", data}, noEnv, &out, &out)
	if status != checkFailed {
		t.Errorf("arcade check: status %d, want %d", status, checkFailed)
	}
	says("arcade check", err)

	file := filepath.Join(t.TempDir(), "backup.db")
	says("arcade backup", runBackup([]string{"--data", data, file}, noEnv, io.Discard, io.Discard))
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("arcade backup of an older file wrote %s (%v)", file, err)
	}

	cfg, err := parseConfig([]string{"--addr", "127.0.0.1:0", "--data", data, "--log-level", "error"}, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	says("the server", run(ctx, cfg, io.Discard, nil))

	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the older file was written to")
	}
}
