package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arcade/arcade/storage"
)

// The running server answers backups and operators' commands (admin.go) on a unix socket in its
// data folder, of mode 0600. Only whoever may read the data folder (mode 0700) may connect, which
// is exactly who may read the database anyway; on Linux the server also asks the kernel who the
// peer is, and answers its own user and root only.
const adminSocket = "admin.sock"

// sizedRequest asks the admin socket for a backup preceded by a line "size N": the client can then
// tell a complete copy from one the server cut short.
const sizedRequest = "backup sized"

// serveAdmin answers backup requests (sizedRequest) and operators' commands (adminRequest) on the
// admin socket until ln is closed, each from the server's own user or root only (peerAllowed):
// a backup connection gets a consistent copy of the database, once caughtUp has returned (a
// cluster node's replica has every change the cluster had stored when the backup was asked for);
// a command is carried out through acc (answerAdmin).
func serveAdmin(ln net.Listener, db *storage.DB, acc *storage.Accounts, caughtUp func() error, logf func(string, ...any)) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			by, ok := peerAllowed(conn)
			if !ok {
				logf("admin socket: refused a process of user %s", by)
				fmt.Fprintln(conn, "error: the admin socket answers the arcade's own user and root only")
				return
			}
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(io.LimitReader(conn, maxAdminLine)).ReadString('\n')
			if err != nil {
				return
			}
			var announce func(int64) error
			switch line = strings.TrimSpace(line); {
			case line == sizedRequest:
				announce = func(size int64) error {
					_, err := fmt.Fprintf(conn, "size %d\n", size)
					return err
				}
			case strings.HasPrefix(line, adminRequest) && acc != nil:
				_ = conn.SetReadDeadline(time.Time{})
				answerAdmin(conn, acc, strings.TrimPrefix(line, adminRequest), by, logf)
				return
			default:
				fmt.Fprintln(conn, "error: unknown request")
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

// Errors of backup for a target it refuses, returned wrapped, before anything is written.
var (
	// errTargetInData: writing in the data folder could replace the live database under the
	// running server, or under its lock.
	errTargetInData = errors.New("the backup would be written inside the data folder")
	// errTargetHeld: the target is the database of a running arcade (of any data folder), which
	// would go on writing to the file the backup replaced, and lose every write.
	errTargetHeld = errors.New("a running arcade server holds the target")
	// errTargetExists: the target exists, and --force was not given.
	errTargetExists = errors.New("the target exists")
)

// backup writes a consistent copy of the database in dataDir to file: from the running server
// through its admin socket, or, when no server runs, from the file itself. It writes only a new
// file, or, with force, over a file no process holds; a file in the data folder (after resolving
// links) or one that a running arcade holds (its lock, see checkHeld) is refused, with or without
// force, before anything is written. The copy is written to a temporary file beside file, synced,
// and renamed into place, so file is never half written.
func backup(dataDir, file string, force bool, out io.Writer) error {
	if err := checkTarget(dataDir, file); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	exists, err := checkHeld(file)
	if err == nil && exists && !force {
		err = fmt.Errorf("%w: %s; write the backup to a new file, or add --force to replace it", errTargetExists, file)
	}
	if err != nil {
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
	if err == nil && exists {
		_, err = checkHeld(file) // a server may have started on it while the copy was made
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

// checkHeld reports whether file exists, and fails with errTargetHeld when a process holds it as
// bbolt holds its database (see heldByAnother): a server of any data folder holds its database so,
// and `arcade check` too. A link is followed to its file; a folder, or a file that cannot be
// opened to try, is refused.
func checkHeld(file string) (bool, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		_, lerr := os.Lstat(file) // a link to nothing is there, to be replaced
		return lerr == nil, nil
	}
	if err != nil {
		return true, fmt.Errorf("cannot tell whether a running arcade holds %s: %w", file, err)
	}
	defer f.Close() // and the lock with it
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return true, fmt.Errorf("%s is a folder; name the backup file", file)
	}
	switch held, err := heldByAnother(f); {
	case held:
		return true, fmt.Errorf("%w: %s is the database of a running arcade server (or of arcade check), "+
			"which would go on writing to the file the backup replaced and lose every write: write the backup elsewhere", errTargetHeld, file)
	case err != nil:
		return true, fmt.Errorf("cannot tell whether a running arcade holds %s: %w", file, err)
	}
	return true, nil
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
