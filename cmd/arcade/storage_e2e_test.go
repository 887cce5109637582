package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/storage"
)

// serverOn starts the real server in-process on data, and returns a stop function.
func serverOn(t *testing.T, data string) func() {
	t.Helper()
	cfg, err := parseConfig([]string{"--addr", "127.0.0.1:0", "--data", data, "--log-level", "error"},
		func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan net.Addr, 1), make(chan error, 1)
	go func() { done <- run(ctx, cfg, io.Discard, ready) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("server: %v", err)
	case <-time.After(deadline):
		t.Fatal("the server did not start")
	}
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	}
}

// TestBackupWhileRunning: `arcade backup FILE` copies the database of a running server through
// its admin socket; the copy opens as a database.
func TestBackupWhileRunning(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	stop := serverOn(t, data)
	defer stop()
	file := filepath.Join(t.TempDir(), "backup.db")
	var out bytes.Buffer
	if err := runBackup([]string{"--data", data, file}, func(string) string { return "" }, &out, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	if !strings.Contains(out.String(), "from the running server") {
		t.Errorf("backup said %q", out.String())
	}
	db, err := storage.Open(file, storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	db.Close()
}

// TestSecondServerOnTheSameFolder: a second server on a folder in use fails with a clear error
// instead of hanging.
func TestSecondServerOnTheSameFolder(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	stop := serverOn(t, data)
	defer stop()
	cfg, _ := parseConfig([]string{"--addr", "127.0.0.1:0", "--data", data}, func(string) string { return "" }, io.Discard)
	errc := make(chan error, 1)
	go func() { errc <- run(context.Background(), cfg, io.Discard, nil) }()
	select {
	case err := <-errc:
		if !errors.Is(err, storage.ErrLocked) {
			t.Errorf("second server: %v, want ErrLocked", err)
		}
	case <-time.After(deadline):
		t.Fatal("the second server hangs")
	}
}

// TestDamagedDatabaseIsRefused: the server refuses to start on a file that is not a database,
// says why, and leaves the file as it was.
func TestDamagedDatabaseIsRefused(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	junk := bytes.Repeat([]byte("this is not a bbolt file "), 400)
	path := filepath.Join(data, dbFile)
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := parseConfig([]string{"--addr", "127.0.0.1:0", "--data", data}, func(string) string { return "" }, io.Discard)
	err := run(context.Background(), cfg, io.Discard, nil)
	if !errors.Is(err, storage.ErrDamaged) || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("run on a damaged database: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, junk) {
		t.Error("the damaged file was changed")
	}
}

// TestNameBoundToKey: a name belongs to the first key that used it; another key asking for it
// plays as a guest and is told why.
func TestNameBoundToKey(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	first := connect(t, addr, "zoe", newKey(t), "")
	first.waitFor("Welcome", "zoe")
	second := connect(t, addr, "zoe", newKey(t), "")
	second.waitFor("~zoe (guest)", "belongs to another key")
}
