package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Older arcades wrote the rooms' writes to a journal beside the database before the database
// took them. The journal is a series of segment files, PATH.journal.N with N counting up from 1;
// a record is its payload's length (4 bytes, little-endian), the payload's CRC-32C (4 bytes) and
// the payload, an entry's kind (one byte) and its JSON; a length of 0, and zeros to the end of
// the file, end the records. The meta bucket's "journal" key holds the position (segment and
// offset, 8 bytes each, big-endian) the database has every record before; the segments from its
// segment on, numbered without a gap, hold the records the database may lack.
//
// migrateJournal applies those records once and removes the journal. A record that cannot be
// read is reported with its file and offset; the records before it are applied, and its file
// and every later one are kept, renamed PATH.journal.N.damaged, for inspection. Segments that do
// not continue the database (it is a restored copy older than the journal) are kept the same way
// and none of their records applied. Either way nothing is left to be applied at a later start.

// keyJournal is the meta key of the database's journal position.
var keyJournal = []byte("journal")

// keptSuffix is added to the name of a journal segment kept for inspection.
const keptSuffix = ".damaged"

// legacyMaxRecord bounds a record's payload, as the journal's writer did.
const legacyMaxRecord = 1 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// The kinds of entries, the first byte of a journal record's payload.
const (
	kindStart   = 's'
	kindMove    = 'm'
	kindSeats   = 't'
	kindAbandon = 'a'
	kindEnd     = 'e'
)

// journalPos is a place in the journal: a segment and an offset in it.
type journalPos struct {
	gen uint64
	off int64
}

func (p journalPos) bytes() []byte {
	b := binary.BigEndian.AppendUint64(nil, p.gen)
	return binary.BigEndian.AppendUint64(b, uint64(p.off))
}

// segmentPath names segment gen of the journal of the database at path.
func segmentPath(path string, gen uint64) string {
	return path + ".journal." + strconv.FormatUint(gen, 10)
}

// listSegments returns the numbers of the journal segments of the database at path, in order.
func listSegments(path string) ([]uint64, error) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("list old journal: %w", err)
	}
	prefix := filepath.Base(path) + ".journal."
	var gens []uint64
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Name(), prefix); ok {
			if n, err := strconv.ParseUint(rest, 10, 64); err == nil && n > 0 {
				gens = append(gens, n)
			}
		}
	}
	slices.Sort(gens)
	return gens, nil
}

// legacyRecord is an entry read from a journal segment, with the offset just past its record.
type legacyRecord struct {
	e   entry
	end int64
}

// journalDamage is a record that cannot be read: where and why.
type journalDamage struct {
	off int64
	why string
}

// readSegment returns the entries of the segment file name from offset from on, up to the end
// of its records or to the first record that cannot be read, which it returns as damage.
func readSegment(name string, from int64) ([]legacyRecord, *journalDamage, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("read old journal: %w", err)
	}
	if from > int64(len(data)) {
		return nil, &journalDamage{from, "the file ends before the database's position in it"}, nil
	}
	var recs []legacyRecord
	off := from
	for off < int64(len(data)) {
		rest := data[off:]
		zeros := !slices.ContainsFunc(rest, func(b byte) bool { return b != 0 })
		if zeros {
			break // the end of the records
		}
		if len(rest) < 8 {
			return recs, &journalDamage{off, "a record header cut short"}, nil
		}
		n := int64(binary.LittleEndian.Uint32(rest))
		switch {
		case n == 0:
			return recs, &journalDamage{off, "data after the end of the records"}, nil
		case n > legacyMaxRecord || n > int64(len(rest))-8:
			return recs, &journalDamage{off, fmt.Sprintf("a record of %d bytes, cut short or too long", n)}, nil
		}
		p := rest[8 : 8+n]
		if crc32.Checksum(p, castagnoli) != binary.LittleEndian.Uint32(rest[4:]) {
			return recs, &journalDamage{off, "a record whose checksum does not match"}, nil
		}
		e, err := decodeEntry(p)
		if err != nil {
			return recs, &journalDamage{off, err.Error()}, nil
		}
		off += 8 + n
		recs = append(recs, legacyRecord{e: e, end: off})
	}
	return recs, nil, nil
}

// decodeEntry reads a journal record's payload.
func decodeEntry(p []byte) (entry, error) {
	decode := map[byte]func([]byte) (entry, error){
		kindStart:   decodeAs[startEntry],
		kindMove:    decodeAs[moveEntry],
		kindSeats:   decodeAs[seatsEntry],
		kindAbandon: decodeAs[abandonEntry],
		kindEnd:     decodeAs[endEntry],
	}[p[0]]
	if decode == nil {
		return nil, fmt.Errorf("a record of unknown kind %q", p[0])
	}
	e, err := decode(p[1:])
	if err != nil {
		return nil, fmt.Errorf("a record that does not decode: %w", err)
	}
	return e, nil
}

func decodeAs[E entry](data []byte) (entry, error) {
	var e E
	err := json.Unmarshal(data, &e)
	return e, err
}

// migrateJournal applies the records of an older arcade's journal beside the database at path
// that the database lacks, and removes the journal (see the comment at the top of this file).
// The records, and the position reached, are committed together, so that a crash on the way
// applies none twice. It fails only when the database cannot be written or the files cannot be
// removed; the journal is then left as it was, to be applied at the next start.
func (d *DB) migrateJournal(path string) error {
	news, _ := filepath.Glob(path + ".journal.*.new") // segments a crash left half prepared
	for _, n := range news {
		if err := os.Remove(n); err != nil {
			return fmt.Errorf("remove old journal: %w", err)
		}
	}
	gens, err := listSegments(path)
	if err != nil {
		return err
	}
	pos, hasPos, err := d.journalPos()
	if err != nil || len(gens) == 0 && !hasPos {
		return err
	}

	var calls []commitCall
	var where []string // each call's record, file:offset
	var gone, kept []uint64
	var damage *journalDamage
	reached, want := pos, pos.gen // want: the segment that continues the database
	for i, gen := range gens {
		if hasPos && gen < pos.gen {
			gone = append(gone, gen) // the database has its records
			continue
		}
		if !hasPos || gen != want {
			kept = gens[i:] // a gap: what follows does not continue this database
			break
		}
		want++
		from := int64(0)
		if gen == pos.gen {
			from = pos.off
		}
		recs, bad, err := readSegment(segmentPath(path, gen), from)
		if err != nil {
			return err
		}
		for _, r := range recs {
			calls = append(calls, commitCall{fn: r.e.apply, done: make(chan error, 1)})
			where = append(where, fmt.Sprintf("%s:%d", segmentPath(path, gen), r.end))
		}
		reached = journalPos{gen: gen, off: from}
		if n := len(recs); n > 0 {
			reached.off = recs[n-1].end
		}
		if bad != nil {
			damage, kept = bad, gens[i:]
			break
		}
		gone = append(gone, gen)
	}

	if len(calls) > 0 {
		last := commitCall{fn: func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Put(keyJournal, reached.bytes())
		}, done: make(chan error, 1)}
		d.writes.commit(append(calls, last))
		if err := <-last.done; err != nil {
			return fmt.Errorf("apply old journal: %w", err)
		}
		for i, c := range calls {
			if err := <-c.done; err != nil {
				// The old arcade dropped it too, when it met it.
				d.log.Warn("storage: a record of the old journal does not apply; skipped", "record", where[i], "err", err)
			}
		}
	}
	for _, gen := range gone {
		if err := os.Remove(segmentPath(path, gen)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove old journal: %w", err)
		}
	}
	var keptNames []string
	for _, gen := range kept {
		name := segmentPath(path, gen)
		if err := os.Rename(name, name+keptSuffix); err != nil {
			return fmt.Errorf("keep old journal: %w", err)
		}
		keptNames = append(keptNames, name+keptSuffix)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return err
	}
	err = d.writes.do(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keyJournal) })
	if err != nil {
		return fmt.Errorf("apply old journal: %w", err)
	}

	switch {
	case damage != nil:
		d.log.Error("storage: the old journal is damaged; the records before the damage were applied, "+
			"the damaged file and those after it are kept for inspection",
			"file", segmentPath(path, kept[0]), "byte", damage.off, "damage", damage.why,
			"applied", len(calls), "kept", strings.Join(keptNames, " "))
	case len(kept) > 0:
		d.log.Error("storage: old journal files do not continue the database (is it a restored copy?); "+
			"none of their records were applied, and they are kept for inspection",
			"applied", len(calls), "kept", strings.Join(keptNames, " "))
	case len(gens) > 0:
		d.log.Info("storage: applied the journal of an older arcade to the database and removed it",
			"records", len(calls), "files", len(gens))
	}
	return nil
}

// journalPos reads the database's position in an old journal, if it has one.
func (d *DB) journalPos() (pos journalPos, ok bool, err error) {
	err = d.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketMeta).Get(keyJournal)
		if v == nil {
			return nil
		}
		if len(v) != 16 {
			return fmt.Errorf("%w: journal position %x", ErrDamaged, v)
		}
		pos = journalPos{gen: binary.BigEndian.Uint64(v), off: int64(binary.BigEndian.Uint64(v[8:]))}
		ok = true
		return nil
	})
	return pos, ok, err
}

// syncDir makes the names in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
