package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/storage"
)

// noEnv is a getenv with nothing set.
func noEnv(string) string { return "" }

// newDataFolder returns a data folder holding a database with one player in it, closed.
func newDataFolder(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	db, err := storage.Open(filepath.Join(data, dbFile), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Claim("SHA256:alice", "alice"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return data
}

// checkBackup fails unless file opens as a database holding the player newDataFolder made.
func checkBackup(t *testing.T, file string) {
	t.Helper()
	db, err := storage.Open(file, storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer db.Close()
	if err := db.Claim("SHA256:mallory", "alice"); !errors.Is(err, storage.ErrNameTaken) {
		t.Errorf("claiming alice's name in the backup: %v, want ErrNameTaken", err)
	}
}

// TestBackupRefusesTheDataFolder: a target that is the database, inside the data folder, or
// reaches into it through a link is refused with a clear error, with or without a running
// server, and the database is left as it was.
func TestBackupRefusesTheDataFolder(t *testing.T) {
	t.Parallel()
	for _, running := range []bool{false, true} {
		data := newDataFolder(t)
		if running {
			stop := serverOn(t, data)
			defer stop()
		}
		db := filepath.Join(data, dbFile)
		before, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		elsewhere := t.TempDir()
		linkToFolder := filepath.Join(elsewhere, "folder")
		linkToDB := filepath.Join(elsewhere, "db")
		if err := os.Symlink(data, linkToFolder); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(db, linkToDB); err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{
			db,
			filepath.Join(data, "copy.db"),
			filepath.Join(data, ".", "..", filepath.Base(data), dbFile),
			data,
			filepath.Join(linkToFolder, dbFile),
			filepath.Join(linkToFolder, "copy.db"),
			linkToDB,
		} {
			var out bytes.Buffer
			err := runBackup([]string{"--data", data, target}, noEnv, &out, io.Discard)
			if !errors.Is(err, errTargetInData) {
				t.Errorf("running %v, backup to %s: %v, want errTargetInData", running, target, err)
			}
		}
		entries, err := os.ReadDir(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if name := e.Name(); name != dbFile && name != adminSocket && name != "host_ed25519" {
				t.Errorf("running %v: %s left in the data folder", running, name)
			}
		}
		after, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		if !os.SameFile(before, after) || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("running %v: the database was replaced or written", running)
		}
	}
	checkBackup(t, filepath.Join(newDataFolder(t), dbFile)) // the helper's own check works
}

// TestBackupWithoutServer: with no server running the backup copies the file itself, and the
// copy is a complete database; nothing but the copy is left beside it.
func TestBackupWithoutServer(t *testing.T) {
	data := newDataFolder(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "backup.db")
	var out bytes.Buffer
	if err := runBackup([]string{"--data", data, file}, noEnv, &out, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	if !strings.Contains(out.String(), "no server was running") {
		t.Errorf("backup said %q", out.String())
	}
	checkBackup(t, file)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files beside the backup, want only it", len(entries))
	}
}

// TestBackupFlagsAfterFile: `arcade backup FILE --data DIR` works as `arcade backup --data DIR
// FILE` does.
func TestBackupFlagsAfterFile(t *testing.T) {
	data := newDataFolder(t)
	file := filepath.Join(t.TempDir(), "backup.db")
	if err := runBackup([]string{file, "--data", data}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatalf("backup FILE --data DIR: %v", err)
	}
	checkBackup(t, file)
	if err := runBackup([]string{file, "--data", data, "extra"}, noEnv, io.Discard, io.Discard); err == nil {
		t.Error("backup with two file names succeeded")
	}
}

// TestBackupAfterDoubleDash: after "--" a name that starts with "-" is a file name.
func TestBackupAfterDoubleDash(t *testing.T) {
	data := newDataFolder(t)
	dir := t.TempDir()
	t.Chdir(dir)
	if err := runBackup([]string{"--data", data, "--", "-backup.db"}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatalf("backup -- -backup.db: %v", err)
	}
	checkBackup(t, filepath.Join(dir, "-backup.db"))
}

// TestBackupCutShort: when the server's copy ends early (it failed, or died, while sending), the
// backup fails and the target keeps what it held before.
func TestBackupCutShort(t *testing.T) {
	data := t.TempDir()
	ln, err := net.Listen("unix", filepath.Join(data, adminSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = bufio.NewReader(conn).ReadString('\n')
			fmt.Fprintf(conn, "size 65536\n")
			_, _ = conn.Write(make([]byte, 4096)) // then the server fails
			conn.Close()
		}
	}()
	file := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(file, []byte("yesterday's backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := runBackup([]string{"--data", data, file}, noEnv, io.Discard, io.Discard); err == nil {
		t.Fatal("a backup cut short succeeded")
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "yesterday's backup" {
		t.Errorf("the target after a failed backup: %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
		t.Errorf("%d files beside the target, want only it", len(entries))
	}
}
