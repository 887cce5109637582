package storage

import (
	"cmp"
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

// sealed is the format byte of a sealed record.
const sealed = 0x01

// castagnoli is the table of the records' checksum, CRC-32C.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errBadSum: a record's checksum does not match it.
var errBadSum = errors.New("its checksum does not match (the bytes changed on disk)")

// seal returns the stored form of the JSON data under key.
func seal(key, data []byte) []byte {
	v := make([]byte, 0, 1+len(data)+4)
	v = append(append(v, sealed), data...)
	sum := crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, v)
	return binary.BigEndian.AppendUint32(v, sum)
}

// unseal returns the JSON of the stored value v under key, checking its sum.
func unseal(key, v []byte) ([]byte, error) {
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
	return true, decode(key, raw, v)
}

// decode reads the stored value raw under key into v, checking its sum (see unseal). A record
// that fails it or does not decode is an error wrapping ErrDamaged.
func decode(key, raw []byte, v any) error {
	data, err := unseal(key, raw)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return nil
}

// A binding (names: a name -> the key that holds it; active: a room code -> its unfinished
// match's ID) is a sealed record too, its JSON a string, so that a flipped bit in it is damage
// found by its sum, never a name bound to another key or a room given another match.

// putBinding binds key to to in b.
func putBinding(b *bolt.Bucket, key []byte, to string) error {
	return putJSON(b, key, to)
}

// binding returns what key is bound to in b: "" when the key is missing, an error wrapping
// ErrDamaged when the value fails its sum or does not decode (or is empty).
func binding(b *bolt.Bucket, key []byte) (string, error) {
	raw := b.Get(key)
	if raw == nil {
		return "", nil
	}
	return decodeBinding(key, raw, false)
}

// decodeBinding reads the stored binding raw under key. bare: the file is of schema 2 (v0.1.0),
// opened read-only, whose bindings are the bare string, with no sum (a file opened for writing is
// migrated; see migrate).
func decodeBinding(key, raw []byte, bare bool) (string, error) {
	if bare {
		return string(raw), nil
	}
	var s string
	if err := decode(key, raw, &s); err != nil {
		return "", err
	}
	if s == "" {
		return "", fmt.Errorf("%w: an empty binding", ErrDamaged)
	}
	return s, nil
}

// An index entry (byplayer: a key and a match of theirs) is all key: its value is the seal of
// nothing, a format byte and the key's sum, so that a flipped bit in the key is damage too.

// putIndex stores the index entry key in b.
func putIndex(b *bolt.Bucket, key []byte) error {
	return b.Put(key, seal(key, nil))
}

// checkIndex checks the stored value raw of the index entry key (see putIndex). bare: as for
// decodeBinding, schema 2's entries have an empty value and no sum.
func checkIndex(key, raw []byte, bare bool) error {
	if bare {
		return nil
	}
	if data, err := unseal(key, raw); err != nil || len(data) > 0 {
		return fmt.Errorf("%w: an index entry: %w", ErrDamaged, cmp.Or(err, errors.New("it holds a value")))
	}
	return nil
}
