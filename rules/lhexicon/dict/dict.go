// Package dict is Lhex-i'-con's dictionary: the English words of the npm package word-list 4.1.0
// (MIT, LICENSE beside this file), a to z only and 2 letters or more, embedded in the binary as
// words.txt.gz and regenerated from the package by update.sh.
//
// Words returns the dictionary, built once per process on first use and shared by every room and
// bot: a minimal DAWG (directed acyclic word graph) in two flat arrays, which answers "is this a
// word" (Contains) and "which letters can follow this prefix" (Node.Next) without allocating.
package dict

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math/bits"
	"runtime/debug"
	"sync"
)

//go:embed words.txt.gz
var wordsGz []byte

// Words returns the dictionary. The first call builds it from the embedded list; every later call
// returns the same value. It panics only if the embedded list is damaged, which a test rules out.
var Words = sync.OnceValue(func() *Dict {
	d, err := Load(bytes.NewReader(wordsGz))
	if err != nil {
		panic(fmt.Errorf("lhexicon dictionary: %w", err))
	}
	// Building leaves several times the graph's size in garbage (the decompressed text, the
	// builder's tables); hand it back to the system now rather than keep it resident.
	debug.FreeOSMemory()
	return d
})

// terminal marks, in a node's mask, that the path to the node spells a word. Bits 0 to 25 are the
// letters a to z that may follow.
const terminal = 1 << 31

// Dict is a set of words of a to z, stored as a minimal DAWG: node i has mask[i] (the letters that
// follow, bit 0 for a, and the terminal bit) and its children, one per letter in alphabetical
// order, stored contiguously from base[i]. Equal sub-graphs are stored once. A Dict is read-only
// and safe for concurrent use.
type Dict struct {
	mask   []uint32
	base   []uint32
	height []uint8 // the most letters a word may still have after each node
	root   Node
	n      int
}

// Node is a position in the dictionary: the prefix spelled so far. The zero Node is not valid; get
// one from Dict.Root and Dict.Child.
type Node uint32

// Root returns the node of the empty prefix.
func (d *Dict) Root() Node { return d.root }

// Len returns the number of words.
func (d *Dict) Len() int { return d.n }

// Nodes returns the number of nodes of the graph.
func (d *Dict) Nodes() int { return len(d.mask) }

// Next returns the letters that may follow the node's prefix in some word, as a bit set: bit 0 for
// a, bit 25 for z.
func (d *Dict) Next(n Node) uint32 { return d.mask[n] &^ terminal }

// Longest returns the most letters a word starting with the node's prefix may have after it (0
// when no word continues it).
func (d *Dict) Longest(n Node) int { return int(d.height[n]) }

// IsWord reports whether the node's prefix is itself a word.
func (d *Dict) IsWord(n Node) bool { return d.mask[n]&terminal != 0 }

// Child returns the node of the prefix followed by letter c ('a' to 'z'), or false when no word
// starts so.
func (d *Dict) Child(n Node, c byte) (Node, bool) {
	i := uint(c - 'a')
	if i >= 26 {
		return 0, false
	}
	m := d.mask[n]
	if m&(1<<i) == 0 {
		return 0, false
	}
	return Node(d.base[n] + uint32(bits.OnesCount32(m&(1<<i-1)))), true
}

// Walk returns the node of prefix s from n, or false when no word starts so (or s holds a byte
// other than a to z).
func (d *Dict) Walk(n Node, s string) (Node, bool) {
	for i := range len(s) {
		var ok bool
		if n, ok = d.Child(n, s[i]); !ok {
			return 0, false
		}
	}
	return n, true
}

// Contains reports whether w is a word of the dictionary (lower case a to z).
func (d *Dict) Contains(w string) bool {
	n, ok := d.Walk(d.root, w)
	return ok && d.IsWord(n)
}

// HasPrefix reports whether some word starts with p.
func (d *Dict) HasPrefix(p string) bool {
	_, ok := d.Walk(d.root, p)
	return ok
}

// Load builds a dictionary from gzipped text, one word per line in strictly increasing byte order,
// each of a to z only (the form of words.txt.gz). Anything else is an error that names the line.
func Load(gz io.Reader) (*Dict, error) {
	zr, err := gzip.NewReader(gz)
	if err != nil {
		return nil, fmt.Errorf("read the word list: %w", err)
	}
	b := newBuilder()
	sc := bufio.NewScanner(zr)
	line := 0
	for sc.Scan() {
		line++
		if err := b.add(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("word list line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the word list: %w", err)
	}
	return b.finish(), nil
}
