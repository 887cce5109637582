package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataFolderWritableByOthers: the server refuses a data folder that group or others may
// write to, saying how to fix it, and creates nothing in it.
func TestDataFolderWritableByOthers(t *testing.T) {
	t.Parallel()
	for _, mode := range []os.FileMode{0o770, 0o707, 0o777, 0o1777} {
		data := t.TempDir()
		if err := os.Chmod(data, mode); err != nil {
			t.Fatal(err)
		}
		cfg, err := parseConfig([]string{"--addr", "127.0.0.1:0", "--data", data}, noEnv, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ready, done := make(chan net.Addr, 1), make(chan error, 1)
		go func() { done <- run(ctx, cfg, io.Discard, ready) }()
		select {
		case <-ready:
			t.Errorf("data folder mode %#o: the server started", mode)
			cancel()
			<-done
			continue
		case err = <-done:
		}
		cancel()
		if !errors.Is(err, errDataFolderOpen) || !strings.Contains(err.Error(), "chmod go-w "+data) {
			t.Errorf("data folder mode %#o: %v, want errDataFolderOpen with the fix", mode, err)
		}
		if entries, _ := os.ReadDir(data); len(entries) != 0 {
			t.Errorf("data folder mode %#o: %d files created in it", mode, len(entries))
		}
	}
}

// TestDataFolderCreated: a data folder that does not exist is created, mode 0700, and one that
// group may read (but not write) is accepted.
func TestDataFolderCreated(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "new", "data")
	serverOn(t, data)()
	info, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o700 {
		t.Errorf("created data folder has mode %#o, want 0700", info.Mode().Perm())
	}
	if err := os.Chmod(data, 0o750); err != nil {
		t.Fatal(err)
	}
	serverOn(t, data)()
}

// TestDatabaseIn: backup and check find a cluster node's replica.db in a folder without an
// arcade.db, and arcade.db otherwise.
func TestDatabaseIn(t *testing.T) {
	dir := t.TempDir()
	if got := databaseIn(dir); got != filepath.Join(dir, dbFile) {
		t.Errorf("empty folder: %s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, replicaFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := databaseIn(dir); got != filepath.Join(dir, replicaFile) {
		t.Errorf("a node's folder: %s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, dbFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := databaseIn(dir); got != filepath.Join(dir, dbFile) {
		t.Errorf("both: %s", got)
	}
}
