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
// backup fails and the target (replaced with --force) keeps what it held before.
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
	if err := runBackup([]string{"--data", data, "--force", file}, noEnv, io.Discard, io.Discard); err == nil {
		t.Fatal("a backup cut short succeeded")
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "yesterday's backup" {
		t.Errorf("the target after a failed backup: %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
		t.Errorf("%d files beside the target, want only it", len(entries))
	}
}

// TestBackupOverAnExistingFile: an existing file no process holds is replaced with --force only;
// without it the backup is refused, with a message that says what to do, and the file is left as
// it was. A folder is refused with or without --force.
func TestBackupOverAnExistingFile(t *testing.T) {
	data := newDataFolder(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "backup.db")
	if err := os.WriteFile(file, []byte("yesterday's backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := runBackup([]string{"--data", data, file}, noEnv, io.Discard, io.Discard)
	if !errors.Is(err, errTargetExists) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("backup over an existing file without --force: %v, want errTargetExists naming --force", err)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "yesterday's backup" {
		t.Fatalf("the refused target: %q, %v", got, err)
	}
	if err := runBackup([]string{"--data", data, "--force", file}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatalf("backup --force over an idle file: %v", err)
	}
	checkBackup(t, file)
	for _, args := range [][]string{{dir}, {"--force", dir}} {
		if err := runBackup(append([]string{"--data", data}, args...), noEnv, io.Discard, io.Discard); err == nil ||
			!strings.Contains(err.Error(), "is a folder") {
			t.Errorf("backup %v: %v, want a folder refused", args, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files beside the backup, want only it", len(entries))
	}
}

// TestBackupRefusesARunningServersDatabase: `arcade backup --data OTHER d7/arcade.db`, where a
// server (a process of its own) runs on d7, is refused, with --force too and through a link: the
// server keeps its file, and a name bound before and one bound after are both in it when the
// server is killed. So is a backup over a database that `arcade check` (a read-only open) holds.
func TestBackupRefusesARunningServersDatabase(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := binary(t)
	other := newDataFolder(t)
	d7 := t.TempDir()
	server, addr, logs := startLogged(t, bin, d7)
	if addr == nil {
		t.Fatalf("the server did not start:\n%s", logs.String())
	}
	claim := func(name string) {
		t.Helper()
		out, errOut, err := runPlainAs(t, addr, name, newKey(t), "whoami")
		if err != nil || !strings.Contains(out, "name: "+name+"\n") {
			t.Fatalf("whoami as %s: %q %q, %v", name, out, errOut, err)
		}
	}
	claim("before")
	live := filepath.Join(d7, dbFile)
	was, err := os.Stat(live)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(live, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{live}, {"--force", live}, {"--force", link}} {
		err := runBackup(append([]string{"--data", other}, args...), noEnv, io.Discard, io.Discard)
		if !errors.Is(err, errTargetHeld) || !strings.Contains(err.Error(), "running arcade server") {
			t.Errorf("backup %v onto a running server's database: %v, want errTargetHeld", args, err)
		}
	}
	if now, err := os.Stat(live); err != nil || !os.SameFile(was, now) {
		t.Fatalf("the running server's database was replaced (%v)", err)
	}
	claim("after")
	_ = server.Process.Kill()
	_ = server.Wait()
	db, err := storage.Open(live, storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"before", "after"} {
		if err := db.Claim("SHA256:mallory", name); !errors.Is(err, storage.ErrNameTaken) {
			t.Errorf("the name %s bound while the backup was refused: %v, want ErrNameTaken (kept)", name, err)
		}
	}
	db.Close()

	ro, err := storage.Open(live, storage.Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := runBackup([]string{"--data", other, "--force", live}, noEnv, io.Discard, io.Discard); !errors.Is(err, errTargetHeld) {
		t.Errorf("backup onto a database arcade check holds: %v, want errTargetHeld", err)
	}
}
