package dict

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// builder makes a minimal DAWG from words given in increasing order, in one pass: the nodes of
// the previous word below the prefix it shares with the next are final, so they are written out
// bottom-up, each node's children as one block; a block equal to one written before is shared,
// which is exactly the minimisation (two nodes are equivalent when they are both words or both
// not and have equivalent children letter by letter).
type builder struct {
	mask, base []uint32
	blocks     map[string]uint32 // a children block of 2 or more: its bytes -> its first node
	singles    map[uint64]uint32 // a block of one child: mask<<32 | base -> its node
	prev       []byte
	key        []byte    // scratch: a children block's bytes
	stack      []pending // stack[0] is the root; stack[k] the node of prev[:k]
	n          int
}

// pending is a node of the word being built whose children are not all known yet.
type pending struct {
	word     bool
	children []entry
}

// entry is a finished child: its letter and its node's mask and base.
type entry struct {
	letter     byte
	mask, base uint32
}

func newBuilder() *builder {
	return &builder{
		mask:    make([]uint32, 0, 1<<17),
		base:    make([]uint32, 0, 1<<17),
		blocks:  make(map[string]uint32, 1<<15),
		singles: make(map[uint64]uint32, 1<<17),
		stack:   []pending{{}},
	}
}

func (b *builder) add(w []byte) error {
	if len(w) == 0 {
		return errors.New("empty word")
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return fmt.Errorf("%q is not all a to z", w)
		}
	}
	common := 0
	for common < len(w) && common < len(b.prev) && w[common] == b.prev[common] {
		common++
	}
	if b.n > 0 && (common == len(w) || common < len(b.prev) && w[common] < b.prev[common]) {
		return fmt.Errorf("%q is out of order or repeated", w)
	}
	b.fold(common)
	for range len(w) - common {
		// Reuse the slot's children slice: most of the word list's nodes pass through here.
		k := len(b.stack)
		if k < cap(b.stack) {
			b.stack = b.stack[:k+1]
			b.stack[k] = pending{children: b.stack[k].children[:0]}
		} else {
			b.stack = append(b.stack, pending{})
		}
	}
	b.stack[len(b.stack)-1].word = true
	b.prev = append(b.prev[:0], w...)
	b.n++
	return nil
}

// fold finishes the nodes deeper than depth, adding each to its parent's children.
func (b *builder) fold(depth int) {
	for len(b.stack)-1 > depth {
		k := len(b.stack) - 1
		top := b.stack[k]
		m, base := b.write(top)
		b.stack = b.stack[:k]
		parent := &b.stack[k-1]
		parent.children = append(parent.children, entry{letter: b.prev[k-1] - 'a', mask: m, base: base})
	}
}

// write stores a finished node's children block (or finds an equal one) and returns the node's
// mask and base.
func (b *builder) write(p pending) (mask, base uint32) {
	if p.word {
		mask = terminal
	}
	for _, e := range p.children {
		mask |= 1 << e.letter
	}
	if len(p.children) == 0 {
		return mask, 0
	}
	if len(p.children) == 1 {
		e := p.children[0]
		k := uint64(e.mask)<<32 | uint64(e.base)
		if at, ok := b.singles[k]; ok {
			return mask, at
		}
		at := uint32(len(b.mask))
		b.mask = append(b.mask, e.mask)
		b.base = append(b.base, e.base)
		b.singles[k] = at
		return mask, at
	}
	b.key = b.key[:0]
	for _, e := range p.children {
		b.key = binary.LittleEndian.AppendUint32(b.key, e.mask)
		b.key = binary.LittleEndian.AppendUint32(b.key, e.base)
	}
	if at, ok := b.blocks[string(b.key)]; ok {
		return mask, at
	}
	at := uint32(len(b.mask))
	for _, e := range p.children {
		b.mask = append(b.mask, e.mask)
		b.base = append(b.base, e.base)
	}
	b.blocks[string(b.key)] = at
	return mask, at
}

func (b *builder) finish() *Dict {
	b.fold(0)
	m, base := b.write(b.stack[0])
	b.mask = append(b.mask, m)
	b.base = append(b.base, base)
	d := &Dict{root: Node(len(b.mask) - 1), n: b.n}
	// Copied to exact size, so that the builder's spare capacity and its map are garbage.
	d.mask = append([]uint32(nil), b.mask...)
	d.base = append([]uint32(nil), b.base...)
	// A node's children are written before it, so one pass in order finds every height.
	d.height = make([]uint8, len(d.mask))
	for i, m := range d.mask {
		if m&^terminal == 0 {
			continue
		}
		n := int(bits.OnesCount32(m &^ terminal))
		for c := range n {
			d.height[i] = max(d.height[i], d.height[int(d.base[i])+c]+1)
		}
	}
	return d
}
