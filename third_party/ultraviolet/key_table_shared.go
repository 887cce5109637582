package uv

import "sync"

// Patched for arcade (third_party/ultraviolet.md): key tables are shared.
//
// A key table is about 140 KiB of map, built for every TerminalReader, that is for every Bubble
// Tea program; a server with a program per SSH session held one per session, and the garbage
// collector scanned them all. Nothing writes to a table once it is built, so readers of the same
// legacy flags, TERM and terminfo choice share one.

type keysTableKey struct {
	flags       LegacyKeyEncoding
	term        string
	useTerminfo bool
}

// maxSharedTables bounds the shared tables: TERM comes from the remote side, which could send a
// new value for every session. Past the bound, tables are built for their reader alone.
const maxSharedTables = 64

var sharedTables struct {
	sync.RWMutex
	m map[keysTableKey]map[string]Key
}

// buildKeysTable returns the table of key sequences for flags, term and useTerminfo (see
// newKeysTable), shared with every other reader of the same. Callers must not modify it.
func buildKeysTable(flags LegacyKeyEncoding, term string, useTerminfo bool) map[string]Key {
	k := keysTableKey{flags, term, useTerminfo}
	sharedTables.RLock()
	t, ok := sharedTables.m[k]
	sharedTables.RUnlock()
	if ok {
		return t
	}
	t = newKeysTable(flags, term, useTerminfo)
	sharedTables.Lock()
	defer sharedTables.Unlock()
	if old, ok := sharedTables.m[k]; ok {
		return old
	}
	if sharedTables.m == nil {
		sharedTables.m = map[keysTableKey]map[string]Key{}
	}
	if len(sharedTables.m) < maxSharedTables {
		sharedTables.m[k] = t
	}
	return t
}
