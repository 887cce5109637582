package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// errDataFolderOpen is returned (wrapped) by openDataFolder for a folder that group or others
// may write to: whoever can write there can replace the database or the host key.
var errDataFolderOpen = errors.New("the data folder is writable by others")

// openDataFolder creates the data folder (mode 0700) when it does not exist, and refuses one that
// is not a folder or that group or others may write to, as a host key readable by others is.
func openDataFolder(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("data folder: %s is not a folder", dir)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("%w: %s has mode %#o; run: chmod go-w %s", errDataFolderOpen, dir, perm, dir)
	}
	return nil
}

// databaseIn returns the database of the data folder dir for backup and check: arcade.db, or a
// cluster node's replica.db when the folder has that and no arcade.db.
func databaseIn(dir string) string {
	single := filepath.Join(dir, dbFile)
	if _, err := os.Stat(single); err != nil {
		if replica := filepath.Join(dir, replicaFile); fileExists(replica) {
			return replica
		}
	}
	return single
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
