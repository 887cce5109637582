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

// sizedRequest asks the admin socket for a backup preceded by a line "size N": the client can then
// tell a complete copy from one the server cut short.
const sizedRequest = "backup sized"

// serveAdmin answers backup requests (sizedRequest) on the admin socket until ln is closed: each connection
// gets a consistent copy of the database, once caughtUp has returned (a cluster node's replica has
// every change the cluster had stored when the backup was asked for).
func serveAdmin(ln net.Listener, db *storage.DB, caughtUp func() error, logf func(string, ...any)) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
			var announce func(int64) error
			switch strings.TrimSpace(line) {
			case sizedRequest:
				announce = func(size int64) error {
					_, err := fmt.Fprintf(conn, "size %d\n", size)
					return err
				}
			default:
				fmt.Fprintln(conn, "error: unknown request")
				return
			}
			if err != nil {
				return
			}
			_ = conn.SetReadDeadline(time.Time{})
			if err := caughtUp(); err != nil { // a cluster node's replica: the whole store first
				fmt.Fprintln(conn, "error:", err)
				return
			}
			if n, err := db.BackupSized(conn, announce); err != nil {
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

// errTargetInData is returned (wrapped) by backup for a target in the data folder: writing there
// could replace the live database under the running server, or under its lock.
var errTargetInData = errors.New("the backup would be written inside the data folder")

// backup writes a consistent copy of the database in dataDir to file: from the running server
// through its admin socket, or, when no server runs, from the file itself. A file in the data
// folder (after resolving links) is refused before anything is written. The copy is written to a
// temporary file beside file, synced, and renamed into place, so file is never half written.
func backup(dataDir, file string, out io.Writer) error {
	if err := checkTarget(dataDir, file); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	dir := filepath.Dir(file)
	tmp, err := os.CreateTemp(dir, ".arcade-backup-*")
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
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(out, "wrote %d bytes to %s (%s)\n", n, file, how)
	return nil
}

// checkTarget refuses a backup target that is the data folder, lies inside it, or is the
// database, after resolving links: the folder's own path, its ancestors' and a link's target are
// all compared as files, so another name for the same folder (a link, a bind mount) is caught too.
func checkTarget(dataDir, file string) error {
	refuse := func() error {
		return fmt.Errorf("%w: %s is in %s; write it elsewhere", errTargetInData, file, dataDir)
	}
	data, err := os.Stat(dataDir)
	if err != nil {
		return nil // no data folder: nothing to overwrite, and copyDatabase will say so
	}
	if info, err := os.Stat(file); err == nil {
		if os.SameFile(info, data) {
			return refuse()
		}
		if db, err := os.Stat(databaseIn(dataDir)); err == nil && os.SameFile(info, db) {
			return refuse()
		}
	}
	// The folder the file will be renamed into, and every folder above it.
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return err
	}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	if resolved, err := filepath.EvalSymlinks(file); err == nil {
		// An existing link: refuse a target it leads into the folder, though the rename replaces
		// only the link, since whoever named it meant the file it leads to.
		if d, err := filepath.Abs(filepath.Dir(resolved)); err == nil && inside(d, data) {
			return refuse()
		}
	}
	if inside(dir, data) {
		return refuse()
	}
	return nil
}

// inside reports whether dir, an absolute path, is the folder data or lies below it.
func inside(dir string, data os.FileInfo) bool {
	for {
		if info, err := os.Stat(dir); err == nil && os.SameFile(info, data) {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyDatabase writes the database in dataDir to w, and says where it came from. What opening the
// file itself has to report goes to logOut.
func copyDatabase(dataDir string, w, logOut io.Writer) (int64, string, error) {
	conn, err := net.Dial("unix", filepath.Join(dataDir, adminSocket))
	if err == nil {
		defer conn.Close()
		if _, err := io.WriteString(conn, sizedRequest+"\n"); err != nil {
			return 0, "", err
		}
		n, err := copySized(w, bufio.NewReader(conn))
		return n, "from the running server", err
	}
	db, err := storage.Open(databaseIn(dataDir), storage.Options{LockTimeout: 2 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logOut, nil))})
	if err != nil {
		return 0, "", err
	}
	defer db.Close()
	n, err := db.Backup(w)
	return n, "no server was running", err
}

// copySized copies the running server's answer to a sizedRequest to w: the line "size N", then N
// bytes. Fewer bytes is an error, so a copy cut short is never taken for a backup.
func copySized(w io.Writer, r *bufio.Reader) (int64, error) {
	line, err := r.ReadString('\n')
	if err != nil && line == "" {
		return 0, fmt.Errorf("the running server sent nothing: %w", err)
	}
	line = strings.TrimSpace(line)
	if msg, ok := strings.CutPrefix(line, "error: "); ok {
		return 0, fmt.Errorf("the running server refused: %s", msg)
	}
	var size int64
	if _, err := fmt.Sscanf(line, "size %d", &size); err != nil || size <= 0 {
		return 0, fmt.Errorf("unexpected answer from the running server: %.40q", line)
	}
	n, err := io.CopyN(w, r, size)
	if err != nil {
		return n, fmt.Errorf("the running server's copy ended after %d of %d bytes: %w", n, size, err)
	}
	return n, nil
}
