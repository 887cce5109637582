package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arcade/arcade/storage"
)

// The running server answers backups on a unix socket in its data folder. Only whoever may read
// the data folder (mode 0700) may connect, which is exactly who may read the database anyway.
const adminSocket = "admin.sock"

// serveAdmin answers "backup" requests on the admin socket until ln is closed: each connection
// gets a consistent copy of the database.
func serveAdmin(ln net.Listener, db *storage.DB, logf func(string, ...any)) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
			if err != nil || strings.TrimSpace(line) != "backup" {
				fmt.Fprintln(conn, "error: unknown request")
				return
			}
			_ = conn.SetReadDeadline(time.Time{})
			if n, err := db.Backup(conn); err != nil {
				logf("backup failed after %d bytes: %v", n, err)
			}
		}()
	}
}

// listenAdmin opens the admin socket, replacing a stale one left by a crash.
func listenAdmin(dataDir string) (net.Listener, error) {
	path := filepath.Join(dataDir, adminSocket)
	if conn, err := net.Dial("unix", path); err == nil {
		conn.Close()
		return nil, fmt.Errorf("another arcade server answers on %s", path)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// backup writes a consistent copy of the database in dataDir to file: from the running server
// through its admin socket, or, when no server runs, from the file itself. The copy is written
// beside file and renamed into place, so file is never half written.
func backup(dataDir, file string, out io.Writer) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".arcade-backup-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(tmp.Name())
	n, how, err := copyDatabase(dataDir, tmp, out)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && n == 0 {
		err = errors.New("the server sent nothing")
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(out, "wrote %d bytes to %s (%s)\n", n, file, how)
	return nil
}

// copyDatabase writes the database in dataDir to w, and says where it came from. Opening the file
// itself applies the journal of an older arcade, if one is there, and says so on logOut.
func copyDatabase(dataDir string, w, logOut io.Writer) (int64, string, error) {
	conn, err := net.Dial("unix", filepath.Join(dataDir, adminSocket))
	if err == nil {
		defer conn.Close()
		if _, err := io.WriteString(conn, "backup\n"); err != nil {
			return 0, "", err
		}
		n, err := io.Copy(w, conn)
		return n, "from the running server", err
	}
	db, err := storage.Open(filepath.Join(dataDir, dbFile), storage.Options{LockTimeout: 2 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logOut, nil))})
	if err != nil {
		return 0, "", err
	}
	defer db.Close()
	n, err := db.Backup(w)
	return n, "no server was running", err
}
