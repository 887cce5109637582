package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// verifyPages checks the structure of the bbolt file at path by reading it, without bbolt: that
// every page reachable from the current meta page lies inside the file, is referenced once, is a
// branch or leaf page whose elements lie inside it, and holds its keys in order within the range
// its parent gives it. It returns nil for a file bbolt can walk, and an error naming the first
// damaged page otherwise.
//
// bbolt reports these faults by panicking, and for some of them in a goroutine of its own (the
// free-page scan at Open, since the arcade does not sync the free list, and Tx.Check), where no
// recover can catch them: one flipped byte in a leaf page would end the process with a stack
// trace. This walk runs first, so that bbolt only ever walks a tree that holds together. A file
// whose meta pages are both invalid is left to bbolt's Open, which refuses it with an error.
func verifyPages(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	m, ok := currentMeta(f)
	if !ok {
		return nil
	}
	if m.pgid < 2 || uint64(info.Size())/uint64(m.pageSize) < m.pgid {
		return fmt.Errorf("the file holds %d bytes, less than its %d pages of %d bytes", info.Size(), m.pgid, m.pageSize)
	}
	w := &pageWalk{f: f, size: m.pageSize, hwm: m.pgid, seen: make([]bool, m.pgid)}
	w.seen[0], w.seen[1] = true, true
	return w.tree(m.root, nil, nil, 0)
}

// Layout of bbolt's file format (version 2), as bbolt writes it: native byte order.
const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16 // id 8, flags 2, count 2, overflow 4
	branchElemSize   = 16 // pos 4, ksize 4, pgid 8
	leafElemSize     = 16 // flags 4, pos 4, ksize 4, vsize 4
	bucketHeaderSize = 16 // root pgid 8, sequence 8
	metaSize         = 64 // magic, version, page size, flags, root bucket, freelist, pgid, txid, checksum
	flagBranch       = 0x01
	flagLeaf         = 0x02
	flagBucketLeaf   = 0x01
	maxTreeDepth     = 64 // a B+tree of a file this format can address is far shallower
)

// boltMeta is what the walk needs of a meta page.
type boltMeta struct {
	pageSize uint64
	root     uint64 // page of the root bucket
	pgid     uint64 // high-water mark: pages at and above it are not in use
	txid     uint64
}

// currentMeta reads both meta pages and returns the valid one with the higher transaction ID, as
// bbolt chooses; ok is false when neither is valid.
func currentMeta(f io.ReaderAt) (boltMeta, bool) {
	var best boltMeta
	found := false
	// The first meta page is at 0; the second one page further, at the size the first gives (or
	// bbolt's default when the first is unreadable).
	offsets := []int64{0, 4096}
	for i := 0; i < len(offsets); i++ {
		buf := make([]byte, pageHeaderSize+metaSize)
		if _, err := f.ReadAt(buf, offsets[i]); err != nil {
			continue
		}
		m, ok := parseMeta(buf[pageHeaderSize:])
		if !ok {
			continue
		}
		if i == 0 && m.pageSize != 4096 {
			offsets[1] = int64(m.pageSize)
		}
		if !found || m.txid > best.txid {
			best, found = m, true
		}
	}
	return best, found
}

// parseMeta decodes and validates a meta page's body (magic, version, checksum).
func parseMeta(b []byte) (boltMeta, bool) {
	ne := binary.NativeEndian
	h := fnv.New64a()
	h.Write(b[:56])
	if ne.Uint32(b[0:]) != boltMagic || ne.Uint32(b[4:]) != boltVersion || ne.Uint64(b[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	m := boltMeta{pageSize: uint64(ne.Uint32(b[8:])), root: ne.Uint64(b[16:]), pgid: ne.Uint64(b[40:]),
		txid: ne.Uint64(b[48:])}
	if m.pageSize < 1024 || m.pageSize > 1<<20 {
		return boltMeta{}, false
	}
	return m, true
}

// pageWalk walks the tree of pages of one file.
type pageWalk struct {
	f    io.ReaderAt
	size uint64   // page size
	hwm  uint64   // pages in use: 0 to hwm-1
	seen []bool   // pages already reached
	free [][]byte // buffers of one page, for reuse
}

// errPage is the walk's error for damage at page id.
func errPage(id uint64, format string, args ...any) error {
	return fmt.Errorf("page %d: %s", id, fmt.Sprintf(format, args...))
}

// read returns page id with its overflow pages, after checking it is in the file and reached once.
func (w *pageWalk) read(id uint64) ([]byte, error) {
	if id < 2 || id >= w.hwm {
		return nil, errPage(id, "outside the %d pages in use", w.hwm)
	}
	var buf []byte
	if n := len(w.free); n > 0 {
		buf, w.free = w.free[n-1], w.free[:n-1]
	} else {
		buf = make([]byte, w.size)
	}
	if _, err := w.f.ReadAt(buf, int64(id*w.size)); err != nil {
		return nil, errPage(id, "unreadable: %v", err)
	}
	ne := binary.NativeEndian
	if got := ne.Uint64(buf); got != id {
		return nil, errPage(id, "says it is page %d", got)
	}
	overflow := uint64(ne.Uint32(buf[12:]))
	if overflow >= w.hwm-id {
		return nil, errPage(id, "its %d overflow pages run past the pages in use", overflow)
	}
	for p := id; p <= id+overflow; p++ {
		if w.seen[p] {
			return nil, errPage(id, "page %d is referenced twice", p)
		}
		w.seen[p] = true
	}
	if overflow > 0 {
		buf = append(buf, make([]byte, overflow*w.size)...)
		if _, err := w.f.ReadAt(buf[w.size:], int64((id+1)*w.size)); err != nil {
			return nil, errPage(id, "unreadable: %v", err)
		}
	}
	return buf, nil
}

// tree checks the subtree at page id, whose keys must lie in [lo, hi) (nil: unbounded).
func (w *pageWalk) tree(id uint64, lo, hi []byte, depth int) error {
	if depth > maxTreeDepth {
		return errPage(id, "the tree is deeper than %d levels", maxTreeDepth)
	}
	buf, err := w.read(id)
	if err != nil {
		return err
	}
	defer func() {
		if uint64(len(buf)) == w.size {
			w.free = append(w.free, buf) // nothing refers to it once its subtree is walked
		}
	}()
	ne := binary.NativeEndian
	flags, count := ne.Uint16(buf[8:]), int(ne.Uint16(buf[10:]))
	switch flags {
	case flagBranch:
		keys, children := make([][]byte, count), make([]uint64, count)
		for i := range count {
			e := pageHeaderSize + i*branchElemSize
			if e+branchElemSize > len(buf) {
				return errPage(id, "%d elements do not fit in the page", count)
			}
			k, err := slice(buf, e, ne.Uint32(buf[e:]), ne.Uint32(buf[e+4:]))
			if err != nil {
				return errPage(id, "key %d: %v", i, err)
			}
			keys[i], children[i] = k, ne.Uint64(buf[e+8:])
		}
		if err := inOrder(keys, lo, hi); err != nil {
			return errPage(id, "%v", err)
		}
		for i, child := range children {
			next := hi
			if i+1 < count {
				next = keys[i+1]
			}
			if err := w.tree(child, keys[i], next, depth+1); err != nil {
				return err
			}
		}
		return nil
	case flagLeaf:
		return w.leaf(id, buf, lo, hi, depth, false)
	default:
		return errPage(id, "neither a branch nor a leaf page (flags %#x)", flags)
	}
}

// leaf checks the leaf page in buf (page id, or a bucket inlined in a value of page id), and the
// buckets its elements hold.
func (w *pageWalk) leaf(id uint64, buf []byte, lo, hi []byte, depth int, inline bool) error {
	ne := binary.NativeEndian
	if len(buf) < pageHeaderSize {
		return errPage(id, "an inline bucket is cut short")
	}
	if flags := ne.Uint16(buf[8:]); flags != flagLeaf {
		return errPage(id, "an inline bucket is not a leaf (flags %#x)", flags)
	}
	count := int(ne.Uint16(buf[10:]))
	keys := make([][]byte, count)
	var buckets [][]byte
	for i := range count {
		e := pageHeaderSize + i*leafElemSize
		if e+leafElemSize > len(buf) {
			return errPage(id, "%d elements do not fit in the page", count)
		}
		pos, ksize, vsize := ne.Uint32(buf[e+4:]), ne.Uint32(buf[e+8:]), ne.Uint32(buf[e+12:])
		k, err := slice(buf, e, pos, ksize)
		if err != nil {
			return errPage(id, "key %d: %v", i, err)
		}
		v, err := slice(buf, e, pos+ksize, vsize)
		if err != nil || pos+ksize < pos {
			return errPage(id, "value %d: %v", i, err)
		}
		keys[i] = k
		if ne.Uint32(buf[e:])&flagBucketLeaf != 0 {
			if inline {
				return errPage(id, "an inline bucket holds a bucket")
			}
			buckets = append(buckets, v)
		}
	}
	if err := inOrder(keys, lo, hi); err != nil {
		return errPage(id, "%v", err)
	}
	for _, v := range buckets {
		if len(v) < bucketHeaderSize {
			return errPage(id, "a bucket's header is cut short")
		}
		if root := ne.Uint64(v); root != 0 {
			if err := w.tree(root, nil, nil, depth+1); err != nil {
				return err
			}
		} else if err := w.leaf(id, v[bucketHeaderSize:], nil, nil, depth+1, true); err != nil {
			return err
		}
	}
	return nil
}

// slice returns the n bytes at off+pos of buf (a page element's key or value is at pos bytes
// from the element), or an error when they are not all in buf.
func slice(buf []byte, off int, pos, n uint32) ([]byte, error) {
	start := uint64(off) + uint64(pos)
	end := start + uint64(n)
	if end > uint64(len(buf)) {
		return nil, errors.New("points outside the page")
	}
	return buf[start:end], nil
}

// inOrder checks that keys rise strictly and lie in [lo, hi) (nil: unbounded).
func inOrder(keys [][]byte, lo, hi []byte) error {
	for i, k := range keys {
		if i > 0 && bytes.Compare(keys[i-1], k) >= 0 {
			return fmt.Errorf("key %d is out of order", i)
		}
		if lo != nil && bytes.Compare(k, lo) < 0 || hi != nil && bytes.Compare(k, hi) >= 0 {
			return fmt.Errorf("key %d lies outside the range its parent page gives it", i)
		}
	}
	return nil
}
