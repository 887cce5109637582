package storage

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A journal is the write-ahead log of what rooms write while they play (see groupCommit): a write
// is durable once its record is in the journal, one append and one fdatasync for a whole group of
// writes, where a bbolt commit waits for two fsyncs and writes whole pages. The database takes the
// writes later, at a checkpoint, in a commit that also records how far into the journal it got
// (journalPos, in the meta bucket), so that every record is applied exactly once: at a checkpoint,
// or when the database is opened after a crash.
//
// The journal is a series of segment files beside the database, PATH.journal.N with N counting up
// from 1, each segmentBytes long, written full of zeros before it is used (see prepareSegment).
// Appends go to one segment until it is full, then to the next, prepared meanwhile; a segment is
// removed once the database has every record in it.
//
// A record is its payload's length (4 bytes, little-endian), the payload's CRC-32C (4 bytes),
// then the payload (never empty); zeros (a length of 0) end the records. A record cut short by a crash, or one whose checksum does not
// match, ends its segment: it and anything after it are dropped.
//
// A journal is not safe for concurrent use: the group commit's append stage owns it.
type journal struct {
	path string   // the database's path; segments are named after it
	gen  uint64   // the segment being appended to
	f    *os.File // that segment
	size int64    // bytes of whole records in it
	// limit is the size of a segment (segmentBytes): appends that would pass it go to the next.
	limit int64
	next  chan error // the preparation of the next segment: its outcome, once
	buf   []byte
}

// journalPos is a place in the journal: a segment and an offset in it. The database records the
// position it has every record before.
type journalPos struct {
	gen uint64
	off int64
}

func (p journalPos) after(q journalPos) bool {
	return p.gen > q.gen || p.gen == q.gen && p.off > q.off
}

func (p journalPos) bytes() []byte {
	b := binary.BigEndian.AppendUint64(nil, p.gen)
	return binary.BigEndian.AppendUint64(b, uint64(p.off))
}

func parseJournalPos(b []byte) (journalPos, bool) {
	if len(b) != 16 {
		return journalPos{}, false
	}
	return journalPos{gen: binary.BigEndian.Uint64(b), off: int64(binary.BigEndian.Uint64(b[8:]))}, true
}

const (
	// segmentBytes is the size of a segment: some 25,000 moves.
	segmentBytes = 4 << 20
	// maxRecord bounds a record's payload: a move is some 100 bytes, a match start under 1 KiB.
	maxRecord = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// segmentPath names segment gen of the journal of the database at path.
func segmentPath(path string, gen uint64) string {
	return path + ".journal." + strconv.FormatUint(gen, 10)
}

// listSegments returns the numbers of the journal segments of the database at path, in order.
func listSegments(path string) ([]uint64, error) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("list journal: %w", err)
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

// readSegment returns the payloads of the whole records of a segment from offset from on, each
// with the offset just past it. A missing segment has none.
func readSegment(name string, from int64) (payloads [][]byte, ends []int64, err error) {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, nil, fmt.Errorf("read journal: %w", err)
	}
	r := bufio.NewReader(f)
	off := from
	var head [8]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return payloads, ends, nil // the end, or a record cut short
		}
		n := binary.LittleEndian.Uint32(head[:4])
		if n == 0 || n > maxRecord {
			return payloads, ends, nil
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(r, p); err != nil {
			return payloads, ends, nil
		}
		if crc32.Checksum(p, castagnoli) != binary.LittleEndian.Uint32(head[4:]) {
			return payloads, ends, nil
		}
		off += 8 + int64(n)
		payloads = append(payloads, p)
		ends = append(ends, off)
	}
}

// createJournal prepares segment gen and makes it the one appended to, and starts preparing the
// next one.
func createJournal(path string, gen uint64, limit int64) (*journal, error) {
	if err := prepareSegment(path, gen, limit); err != nil {
		return nil, err
	}
	j := &journal{path: path, limit: limit}
	if err := j.open(gen); err != nil {
		return nil, err
	}
	return j, nil
}

// prepareSegment writes segment gen full of zeros (limit bytes, a zero length ends the records),
// so that an append overwrites data in place: its fdatasync then flushes only the data, without
// waiting for the file system's journal, which a growing file needs at every sync. The segment
// is written under a temporary name and renamed when it is on disk.
func prepareSegment(path string, gen uint64, limit int64) error {
	name := segmentPath(path, gen)
	tmp := name + ".new"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("prepare journal segment: %w", err)
	}
	zeros := make([]byte, min(limit, 256<<10))
	for off := int64(0); off < limit && err == nil; off += int64(len(zeros)) {
		_, err = f.WriteAt(zeros[:min(int64(len(zeros)), limit-off)], off)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("prepare journal segment: %w", err)
	}
	return nil
}

// open makes the prepared segment gen the one appended to, and starts preparing the next.
func (j *journal) open(gen uint64) error {
	f, err := os.OpenFile(segmentPath(j.path, gen), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	if j.f != nil {
		j.f.Close()
	}
	j.f, j.gen, j.size = f, gen, 0
	j.prepareNext()
	return nil
}

// prepareNext starts preparing the segment after the current one, in the background.
func (j *journal) prepareNext() {
	ready := make(chan error, 1)
	j.next = ready
	path, gen, limit := j.path, j.gen+1, j.limit
	go func() { ready <- prepareSegment(path, gen, limit) }()
}

// append writes payloads as records at the end of the journal, and returns once they are on
// disk, with the position just past them. When it fails the journal is as it was.
func (j *journal) append(payloads [][]byte) (journalPos, error) {
	b := j.buf[:0]
	for _, p := range payloads {
		if len(p) == 0 || len(p) > maxRecord {
			return journalPos{}, fmt.Errorf("journal record of %d bytes", len(p))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(p, castagnoli))
		b = append(b, p...)
	}
	j.buf = b
	if j.size > 0 && j.size+int64(len(b)) > j.limit {
		// On to the next segment, prepared while this one filled. If it cannot be had, this one
		// goes on growing, which costs speed and nothing else.
		if err := <-j.next; err != nil || j.open(j.gen+1) != nil {
			j.prepareNext() // to try again at the next append
		}
	}
	if _, err := j.f.WriteAt(b, j.size); err != nil {
		_ = j.f.Truncate(j.size)
		return journalPos{}, fmt.Errorf("write journal: %w", err)
	}
	if err := datasync(j.f); err != nil {
		// What was written may or may not be on disk; cut it off so that it cannot come back.
		_ = j.f.Truncate(j.size)
		return journalPos{}, fmt.Errorf("sync journal: %w", err)
	}
	j.size += int64(len(b))
	return journalPos{gen: j.gen, off: j.size}, nil
}

// close closes the segment being appended to, once the next one is prepared.
func (j *journal) close() error {
	if j.next != nil {
		<-j.next
		j.next = nil
	}
	return j.f.Close()
}

// removeSegments removes the journal segments numbered below gen (the database has their
// records). What cannot be removed now is removed at the next open.
func removeSegments(path string, below uint64) {
	gens, err := listSegments(path)
	if err != nil {
		return
	}
	for _, g := range gens {
		if g < below {
			_ = os.Remove(segmentPath(path, g))
		}
	}
}

// removeUnprepared removes segments whose preparation a crash interrupted.
func removeUnprepared(path string) {
	names, _ := filepath.Glob(path + ".journal.*.new")
	for _, n := range names {
		_ = os.Remove(n)
	}
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
