package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// The leaderboard index (bucket board) holds one key per standing, in leaderboard order, so that a
// page of a leaderboard is read with a cursor from its start: its cost is the page's, whatever the
// number of rated players. rate keeps it in the commit that changes the standing; Open builds it
// for a file without it and rebuilds it when it is not sound (below); Check compares it with every
// standing.
//
// The index also holds, under boardSumKey, the XOR of a hash of each of its keys and the number
// of standings it left out (damaged when it was built). Open checks both against the index and
// the ratings, reading keys and decoding nothing, so an entry lost, added or changed on disk is
// repaired at the next start.
//
// A key is: game NUL, class (0 established, 1 provisional: provisional ratings rank after
// established ones), the rating as 8 bytes that sort the highest first, the name NUL, the key
// fingerprint. Ties of rating go by name, as the leaderboard has always shown them. The value
// is empty: the standing itself is read from ratings.

// boardKey returns the index key of player id's standing st in game.
func boardKey(game, id string, st record.Standing) []byte {
	k := make([]byte, 0, len(game)+len(st.Name)+len(id)+12)
	k = append(append(k, game...), 0)
	class := byte(0)
	if st.Rating.Provisional() {
		class = 1
	}
	k = append(k, class)
	k = binary.BigEndian.AppendUint64(k, descending(st.Rating.R))
	k = append(append(k, st.Name...), 0)
	return append(k, id...)
}

// descending maps f to an integer whose big-endian bytes sort the highest f first.
func descending(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 == 0 {
		b |= 1 << 63 // positive: above every negative
	} else {
		b = ^b // negative: the more negative, the lower
	}
	return ^b
}

// boardPlayer returns the game and the key fingerprint of index key k.
func boardPlayer(k []byte) (game, id string, ok bool) {
	i, j := bytes.IndexByte(k, 0), bytes.LastIndexByte(k, 0)
	if i < 0 || j < i+10 {
		return "", "", false
	}
	return string(k[:i]), string(k[j+1:]), true
}

// boardEntry is the value of an index entry: empty, but not nil, which bbolt would give back as
// nil (a missing key) within the transaction that put it, so that a second change of the entry in
// one commit (two match ends of a player in one group) would miss it in the sum.
var boardEntry = []byte{}

// boardSumKey is the index's key of its sum: no game's key begins with NUL.
var boardSumKey = []byte("\x00sum")

// keyHash is the hash of an index key in the index's sum (FNV-1a, 64 bits).
func keyHash(k []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range k {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// boardSum returns the sum of the keys stored in the index b and the number of standings it left
// out (zeros when it has none).
func boardSum(b *bolt.Bucket) (sum, skipped uint64) {
	if v := b.Get(boardSumKey); len(v) == 16 {
		return binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:])
	}
	return 0, 0
}

// putBoardSum stores the sum of the keys of the index b and the number of standings it left out.
func putBoardSum(b *bolt.Bucket, sum, skipped uint64) error {
	return b.Put(boardSumKey, binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, sum), skipped))
}

// boardSound reports whether the index holds one entry per standing (but those it left out) and
// the sum of its keys it stored: what Open checks, without decoding a record.
func boardSound(tx *bolt.Tx) bool {
	b := tx.Bucket(bucketBoard)
	var n, sum uint64
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if bytes.Equal(k, boardSumKey) {
			continue
		}
		n++
		sum ^= keyHash(k)
	}
	stored, skipped := boardSum(b)
	return n+skipped == uint64(tx.Bucket(bucketRatings).Stats().KeyN) && sum == stored
}

// boardMove moves player id's entry in the index of game from its standing before (nil: none) to
// after, and marks the index changed (its sequence, which the page cache compares). tx is
// writable.
func boardMove(tx *bolt.Tx, game, id string, before *record.Standing, after record.Standing) error {
	b := tx.Bucket(bucketBoard)
	sum, skipped := boardSum(b)
	if before != nil {
		k := boardKey(game, id, *before)
		if b.Get(k) != nil {
			sum ^= keyHash(k)
		}
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	k := boardKey(game, id, after)
	if b.Get(k) == nil {
		sum ^= keyHash(k)
	}
	if err := b.Put(k, boardEntry); err != nil {
		return err
	}
	if err := putBoardSum(b, sum, skipped); err != nil {
		return err
	}
	_, err := b.NextSequence()
	return err
}

// boardDrop removes player id's entry for the standing st from the index of game, and marks the
// index changed. tx is writable.
func boardDrop(tx *bolt.Tx, game, id string, st record.Standing) error {
	b := tx.Bucket(bucketBoard)
	sum, skipped := boardSum(b)
	k := boardKey(game, id, st)
	if b.Get(k) != nil {
		sum ^= keyHash(k)
	}
	if err := b.Delete(k); err != nil {
		return err
	}
	if err := putBoardSum(b, sum, skipped); err != nil {
		return err
	}
	_, err := b.NextSequence()
	return err
}

// boardDiff compares the index with the ratings and describes at most max disagreements (an
// entry that no standing has, a standing without its entry). A damaged standing may have its
// entry or not: Check reports the standing itself.
func boardDiff(tx *bolt.Tx, max int) []string {
	want := map[string]bool{}
	damaged := map[string]bool{}
	_ = tx.Bucket(bucketRatings).ForEach(func(k, v []byte) error {
		var st record.Standing
		i := bytes.IndexByte(k, 0)
		if i < 0 || decode(k, v, &st) != nil {
			damaged[string(k)] = true
			return nil
		}
		want[string(boardKey(string(k[:i]), string(k[i+1:]), st))] = true
		return nil
	})
	var out []string
	_ = tx.Bucket(bucketBoard).ForEach(func(k, _ []byte) error {
		if bytes.Equal(k, boardSumKey) {
			return nil
		}
		if want[string(k)] {
			delete(want, string(k))
			return nil
		}
		game, id, ok := boardPlayer(k)
		if ok && damaged[game+"\x00"+id] {
			return nil
		}
		if len(out) < max {
			out = append(out, fmt.Sprintf("the leaderboard index has an entry %q that no standing has", k))
		}
		return nil
	})
	missing := make([]string, 0, len(want))
	for k := range want {
		missing = append(missing, k)
	}
	slices.Sort(missing)
	for _, k := range missing {
		if len(out) >= max {
			break
		}
		game, id, _ := boardPlayer([]byte(k))
		out = append(out, fmt.Sprintf("the standing of %s in %s is missing from the leaderboard index", id, game))
	}
	return out
}

// rebuildAdvice ends the report of a disagreement of the index.
const rebuildAdvice = " (the server rebuilds the index at its next start when the index changed on disk; " +
	"if this stays after a start, the ratings changed without it: report it)"

// maxBoardFaults bounds the disagreements of the index that a Report keeps.
const maxBoardFaults = 20

// checkDerived reads the derived buckets: the counts of the pairs' rated matches (sealed
// records), and the leaderboard index against the ratings, decoding every standing. A file
// without them (v0.1.0's, read-only) has nothing to check.
func checkDerived(tx *bolt.Tx, r *Report) {
	if pairs := tx.Bucket(bucketPairs); pairs != nil {
		_ = pairs.ForEach(func(k, v []byte) error {
			var n int
			r.Records++
			if err := decode(k, v, &n); err != nil {
				r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("pairs record %q: %v", k, err)})
			}
			return nil
		})
	}
	if tx.Bucket(bucketBoard) == nil {
		return
	}
	for _, s := range boardDiff(tx, maxBoardFaults) {
		r.Damaged = append(r.Damaged, Damage{Reason: s + rebuildAdvice})
	}
}

// syncBoard rebuilds the index from the ratings, with its sum, unless it is sound (see
// boardSound). Damaged standings are left out. tx is writable.
func syncBoard(tx *bolt.Tx) error {
	if boardSound(tx) {
		return nil
	}
	seq := tx.Bucket(bucketBoard).Sequence()
	if err := tx.DeleteBucket(bucketBoard); err != nil {
		return fmt.Errorf("rebuild the leaderboard index: %w", err)
	}
	b, err := tx.CreateBucket(bucketBoard)
	if err != nil {
		return fmt.Errorf("rebuild the leaderboard index: %w", err)
	}
	if err := b.SetSequence(seq + 1); err != nil {
		return err
	}
	var keys [][]byte
	var skipped uint64
	_ = tx.Bucket(bucketRatings).ForEach(func(k, v []byte) error {
		var st record.Standing
		if i := bytes.IndexByte(k, 0); i >= 0 && decode(k, v, &st) == nil {
			keys = append(keys, boardKey(string(k[:i]), string(k[i+1:]), st))
		} else {
			skipped++
		}
		return nil
	})
	// Written in order, into full pages: what bbolt writes fastest.
	slices.SortFunc(keys, bytes.Compare)
	b.FillPercent = 1
	var sum uint64
	for _, k := range keys {
		sum ^= keyHash(k)
		if err := b.Put(k, boardEntry); err != nil {
			return err
		}
	}
	return putBoardSum(b, sum, skipped)
}

// Leaderboard returns the standings of game, best first, at most limit of them (0: all), ranked
// from 1. Provisional ratings are marked; they rank after established ones; equal ratings go by
// name. A damaged standing is left out (Check reports it). It reads the leaderboard index from its
// start, so a page costs the same whatever the number of rated players; a first page of at most
// cachedPage standings comes from a cache while no rating has changed, for at most cacheFor.
func (d *DB) Leaderboard(game string, limit int) ([]record.Standing, error) {
	var out []record.Standing
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBoard)
		if b == nil { // a read-only file of a release before the index: sort the table
			out = sortedBoard(tx, game, limit)
			return nil
		}
		if limit <= 0 || limit > cachedPage {
			out, _ = readBoard(tx, b, game, limit)
			return nil
		}
		seq := b.Sequence()
		page, ok := d.boards.get(game, seq)
		if !ok {
			page, _ = readBoard(tx, b, game, cachedPage)
			d.boards.put(game, seq, page)
		}
		out = slices.Clone(page[:min(limit, len(page))])
		return nil
	})
	return out, err
}

// readBoard reads the first limit standings (0: all) of game in the index b, and returns them
// with the number of index entries it read.
func readBoard(tx *bolt.Tx, b *bolt.Bucket, game string, limit int) (out []record.Standing, read int) {
	ratings := tx.Bucket(bucketRatings)
	prefix := append([]byte(game), 0)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		read++
		_, id, ok := boardPlayer(k)
		if !ok {
			continue
		}
		var st record.Standing
		if found, err := getJSON(ratings, pairKey(game, id), &st); err != nil || !found {
			continue // damaged (Check reports it)
		}
		if !bytes.Equal(boardKey(game, id, st), k) {
			continue // an entry the standing does not have: not where it belongs (Check reports it)
		}
		st.Provisional = st.Rating.Provisional()
		st.Rank = len(out) + 1
		out = append(out, st)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, read
}

// sortedBoard is readBoard for a file without the index: it reads and sorts game's whole table.
func sortedBoard(tx *bolt.Tx, game string, limit int) []record.Standing {
	type keyed struct {
		key []byte
		st  record.Standing
	}
	var all []keyed
	prefix := append([]byte(game), 0)
	c := tx.Bucket(bucketRatings).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var st record.Standing
		if decode(k, v, &st) != nil {
			continue
		}
		st.Provisional = st.Rating.Provisional()
		all = append(all, keyed{boardKey(game, string(k[len(prefix):]), st), st})
	}
	slices.SortFunc(all, func(a, b keyed) int { return bytes.Compare(a.key, b.key) })
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	out := make([]record.Standing, len(all))
	for i, e := range all {
		out[i] = e.st
		out[i].Rank = i + 1
	}
	return out
}

const (
	// cachedPage is the length of the first page the cache keeps per game: what the lobby and
	// the leaderboard command show fits in it.
	cachedPage = 100
	// cacheFor is how long a cached page is used at most.
	cacheFor = time.Second
)

// boardCache holds the first page of each game's leaderboard, as of the index's sequence, so
// that a burst of requests costs one read of the index. Safe for concurrent use.
type boardCache struct {
	mu    sync.Mutex
	pages map[string]boardPage
}

// boardPage is a cached first page: read at time at, from the index at sequence seq.
type boardPage struct {
	seq  uint64
	at   time.Time
	list []record.Standing
}

// reset forgets every cached page (the database was replaced by a snapshot).
func (c *boardCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.pages)
}

// get returns the cached page of game if it was read at sequence seq less than cacheFor ago.
// The caller must not change it.
func (c *boardCache) get(game string, seq uint64) ([]record.Standing, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[game]
	if !ok || p.seq != seq || time.Since(p.at) >= cacheFor {
		return nil, false
	}
	return p.list, true
}

// put caches list as the page of game at sequence seq, unless a page of a later sequence is
// cached already.
func (c *boardCache) put(game string, seq uint64, list []record.Standing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[string]boardPage{}
	}
	if p, ok := c.pages[game]; ok && p.seq > seq {
		return
	}
	c.pages[game] = boardPage{seq: seq, at: time.Now(), list: list}
}
