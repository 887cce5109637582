package storage

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// A journal is the write-ahead log of moves: a move is durable once its record is in the journal
// (one append and one fdatasync for a whole group of moves, where a bbolt commit waits for two
// fsyncs), and the moves are written into the database later, at a checkpoint (see groupCommit),
// after which the journal is emptied. At open, the records left in the journal are written into
// the database before anything else reads it.
//
// A record is its payload's length (4 bytes, little-endian), the payload's CRC-32C (4 bytes),
// then the payload. A record cut short by a crash, or one whose checksum does not match, ends
// the journal: it and anything after it are dropped.
type journal struct {
	f    *os.File
	size int64 // bytes of whole records
	buf  []byte
}

// maxRecord bounds a record's payload: a move is far smaller.
const maxRecord = 1 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// openJournal opens (or creates) the journal at path and returns it with the payloads of its
// records. A damaged tail is cut off.
func openJournal(path string) (*journal, [][]byte, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open journal: %w", err)
	}
	j := &journal{f: f}
	var payloads [][]byte
	r := bufio.NewReader(f)
	var head [8]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			break // the end, or a record cut short
		}
		n := binary.LittleEndian.Uint32(head[:4])
		if n > maxRecord {
			break
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(r, p); err != nil {
			break
		}
		if crc32.Checksum(p, castagnoli) != binary.LittleEndian.Uint32(head[4:]) {
			break
		}
		payloads = append(payloads, p)
		j.size += 8 + int64(n)
	}
	if info, err := f.Stat(); err == nil && info.Size() != j.size {
		if err := j.truncate(j.size); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return j, payloads, nil
}

// append writes payloads as records at the end of the journal and returns once they are on disk.
// When it fails, the journal is as it was.
func (j *journal) append(payloads [][]byte) error {
	b := j.buf[:0]
	for _, p := range payloads {
		if len(p) > maxRecord {
			return fmt.Errorf("journal record of %d bytes", len(p))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(p, castagnoli))
		b = append(b, p...)
	}
	j.buf = b
	if _, err := j.f.WriteAt(b, j.size); err != nil {
		_ = j.truncate(j.size)
		return fmt.Errorf("write journal: %w", err)
	}
	if err := datasync(j.f); err != nil {
		// What was written may or may not be on disk; cut it off so that it cannot come back.
		_ = j.truncate(j.size)
		return fmt.Errorf("sync journal: %w", err)
	}
	j.size += int64(len(b))
	return nil
}

// truncate cuts the journal to size bytes, durably.
func (j *journal) truncate(size int64) error {
	if err := j.f.Truncate(size); err != nil {
		return fmt.Errorf("truncate journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("sync journal: %w", err)
	}
	j.size = size
	return nil
}

// reset empties the journal (its records are in the database).
func (j *journal) reset() error {
	if j.size == 0 {
		return nil
	}
	return j.truncate(0)
}

// close closes the journal's file.
func (j *journal) close() error {
	return j.f.Close()
}
