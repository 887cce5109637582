package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"
)

// A record (a player, a standing, a best solo score, a match header, a move) is stored sealed: a format byte, its
// JSON, and the CRC-32C of its key, the format byte and the JSON, 4 bytes big-endian. The key is
// in the sum so that a record found under another key (a flipped bit in a move's ply) is damaged
// too. A record that fails its sum is damaged and never used.
//
// Files of schema 1 (before records were sealed) hold bare JSON; Open seals them in place (see
// sealAll). Only a read-only Open of such a file reads bare JSON, as it was written.

// sealed is the format byte of a sealed record. Bare JSON records begin with '{'.
const sealed = 0x01

// sealedBuckets hold sealed records.
var sealedBuckets = [][]byte{bucketPlayers, bucketRatings, bucketSolo, bucketMatches, bucketMoves}

// errBadSum: a record's checksum does not match it.
var errBadSum = errors.New("its checksum does not match (the bytes changed on disk)")

// seal returns the stored form of the JSON data under key.
func seal(key, data []byte) []byte {
	v := make([]byte, 0, 1+len(data)+4)
	v = append(append(v, sealed), data...)
	sum := crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, v)
	return binary.BigEndian.AppendUint32(v, sum)
}

// unseal returns the JSON of the stored value v under key, checking its sum. bare accepts a
// record written before records were sealed (a read-only look at a schema 1 file).
func unseal(key, v []byte, bare bool) ([]byte, error) {
	if len(v) > 0 && v[0] == '{' && bare {
		return v, nil
	}
	if len(v) < 5 || v[0] != sealed {
		return nil, fmt.Errorf("not a sealed record (%d bytes)", len(v))
	}
	body, sum := v[:len(v)-4], binary.BigEndian.Uint32(v[len(v)-4:])
	if crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, body) != sum {
		return nil, errBadSum
	}
	return body[1:], nil
}

// putJSON stores v as a sealed JSON record under key.
func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, seal(key, data))
}

// getJSON reads the record under key into v; it reports false when the key is missing. A record
// that fails its sum or does not decode is an error wrapping ErrDamaged. The value is decoded
// inside the transaction, so nothing of bbolt's memory is kept.
func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	raw := b.Get(key)
	if raw == nil {
		return false, nil
	}
	return true, decode(key, raw, v, false)
}

// get is getJSON for the store's readers: a read-only look at a schema 1 file reads unsealed
// records too.
func (d *DB) get(b *bolt.Bucket, key []byte, v any) (bool, error) {
	raw := b.Get(key)
	if raw == nil {
		return false, nil
	}
	return true, decode(key, raw, v, d.bare)
}

// decode reads the stored value raw under key into v (see unseal for bare).
func decode(key, raw []byte, v any, bare bool) error {
	data, err := unseal(key, raw, bare)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return nil
}

// sealBatch bounds the records sealed in one transaction, to bound the memory of a migration.
const sealBatch = 10_000

// sealAll seals every bare record of a schema 1 file, in transactions of at most sealBatch records.
// A record already sealed is left alone, so a migration cut short by a crash goes on at the next
// Open (the schema version is raised only after it). The bytes are sealed as they are: a bare
// record that no longer decodes stays damaged.
func (d *DB) sealAll() (int, error) {
	n := 0
	for _, name := range sealedBuckets {
		var after []byte // the last key sealed; nil: from the first
		for {
			done := true
			err := d.db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket(name)
				c := b.Cursor()
				k, v := c.First()
				if after != nil {
					if k, v = c.Seek(after); k != nil && string(k) == string(after) {
						k, v = c.Next()
					}
				}
				type kv struct{ k, v []byte }
				var batch []kv
				for ; k != nil && len(batch) < sealBatch; k, v = c.Next() {
					if len(v) > 0 && v[0] != sealed {
						batch = append(batch, kv{append([]byte(nil), k...), seal(k, v)})
					}
					after = append(after[:0], k...)
				}
				done = k == nil
				for _, r := range batch {
					if err := b.Put(r.k, r.v); err != nil {
						return err
					}
				}
				n += len(batch)
				return nil
			})
			if err != nil {
				return n, fmt.Errorf("seal the records of %s: %w", name, err)
			}
			if done {
				break
			}
		}
	}
	return n, nil
}
