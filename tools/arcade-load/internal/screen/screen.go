// Package screen is the load tool's least terminal: a grid of runes that follows the cursor
// movement and editing sequences the arcade's renderer sends, cheap enough for thousands of
// clients, and tells which rows changed.
package screen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Screen is the least terminal that can follow what the arcade's renderer sends: a grid of runes
// with a cursor. It keeps no colours, attributes, scrollback or modes, so that thousands of clients
// cost little; it does follow every cursor movement and editing sequence that Bubble Tea's
// renderer (ultraviolet) emits, because the renderer sends only the cells that changed and a
// marker such as "Turns left: R 24 · B 25" is rarely sent whole. Tests and --validate compare it
// with a full emulator (vt10x) on real streams.
//
// It is not safe for concurrent use.
type Screen struct {
	w, h   int
	cells  []rune // h rows of w runes
	dirty  []bool // rows changed since ClearDirty
	x, y   int
	wrap   bool // the last column was written: the next rune wraps first
	noWrap bool // autowrap (DECAWM) is off
	top    int  // scroll region, inclusive
	bot    int
	saveX  int
	saveY  int
	last   rune // last printed rune, for REP
	state  int
	params []int
	param  int
	hasP   bool
	priv   byte // CSI private marker (< = > ?), 0 if none
	inter  bool // CSI had an intermediate byte
	utf    [4]byte
	utfN   int
}

// Parser states.
const (
	stGround = iota
	stEsc
	stEscSkip // ESC ( B and friends: skip one byte
	stCSI
	stOSC
	stOSCEsc
	stStr // DCS, APC, PM, SOS: until ST
	stStrEsc
)

// New returns a blank screen of w columns and h rows, every row changed.
func New(w, h int) *Screen {
	s := &Screen{w: w, h: h, cells: make([]rune, w*h), dirty: make([]bool, h), params: make([]int, 0, 16)}
	s.reset()
	return s
}

func (s *Screen) reset() {
	for i := range s.cells {
		s.cells[i] = ' '
	}
	for i := range s.dirty {
		s.dirty[i] = true
	}
	s.x, s.y, s.wrap, s.noWrap = 0, 0, false, false
	s.top, s.bot = 0, s.h-1
	s.saveX, s.saveY = 0, 0
}

// Write feeds output to the screen. It never fails.
func (s *Screen) Write(p []byte) (int, error) {
	for _, b := range p {
		s.byte(b)
	}
	return len(p), nil
}

func (s *Screen) byte(b byte) {
	switch s.state {
	case stGround:
		s.ground(b)
	case stEsc:
		s.esc(b)
	case stEscSkip:
		s.state = stGround
	case stCSI:
		s.csiByte(b)
	case stOSC:
		switch b {
		case 0x07:
			s.state = stGround
		case 0x1b:
			s.state = stOSCEsc
		}
	case stOSCEsc:
		if b == '\\' {
			s.state = stGround
		} else {
			s.state = stOSC
		}
	case stStr:
		if b == 0x1b {
			s.state = stStrEsc
		}
	case stStrEsc:
		if b == '\\' {
			s.state = stGround
		} else {
			s.state = stStr
		}
	}
}

func (s *Screen) ground(b byte) {
	if s.utfN > 0 {
		if b&0xC0 == 0x80 {
			s.utf[s.utfN] = b
			s.utfN++
			if utf8.FullRune(s.utf[:s.utfN]) {
				r, _ := utf8.DecodeRune(s.utf[:s.utfN])
				s.utfN = 0
				s.print(r)
			}
			return
		}
		s.utfN = 0
		s.print(utf8.RuneError)
	}
	switch {
	case b == 0x1b:
		s.state = stEsc
	case b < 0x20 || b == 0x7f:
		s.control(b)
	case b < 0x80:
		s.print(rune(b))
	default:
		s.utf[0] = b
		s.utfN = 1
	}
}

func (s *Screen) control(b byte) {
	switch b {
	case '\r':
		s.x, s.wrap = 0, false
	case '\n', '\v', '\f':
		s.index()
	case '\b':
		if s.x > 0 {
			s.x--
		}
		s.wrap = false
	case '\t':
		s.x = min(s.w-1, (s.x/8+1)*8)
		s.wrap = false
	}
}

func (s *Screen) esc(b byte) {
	s.state = stGround
	switch b {
	case '[':
		s.state = stCSI
		s.params = s.params[:0]
		s.param, s.hasP, s.priv, s.inter = 0, false, 0, false
	case ']':
		s.state = stOSC
	case 'P', '_', '^', 'X':
		s.state = stStr
	case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ':
		s.state = stEscSkip
	case '7':
		s.saveX, s.saveY = s.x, s.y
	case '8':
		s.x, s.y, s.wrap = s.saveX, s.saveY, false
	case 'D':
		s.index()
	case 'E':
		s.x = 0
		s.index()
	case 'M':
		s.reverseIndex()
	case 'c':
		s.reset()
	}
}

func (s *Screen) csiByte(b byte) {
	switch {
	case b >= '0' && b <= '9':
		s.param = s.param*10 + int(b-'0')
		if s.param > 1<<16 {
			s.param = 1 << 16
		}
		s.hasP = true
	case b == ';' || b == ':':
		s.push()
	case b >= '<' && b <= '?':
		s.priv = b
	case b >= 0x20 && b <= 0x2f:
		s.inter = true
	case b >= 0x40 && b <= 0x7e:
		s.push()
		s.state = stGround
		s.csi(b)
	default:
		s.state = stGround // a control byte inside CSI: give up on the sequence
	}
}

func (s *Screen) push() {
	if len(s.params) < cap(s.params) {
		if s.hasP {
			s.params = append(s.params, s.param)
		} else {
			s.params = append(s.params, -1)
		}
	}
	s.param, s.hasP = 0, false
}

// arg returns parameter i, or def when absent or zero (as most sequences read it).
func (s *Screen) arg(i, def int) int {
	if i >= len(s.params) || s.params[i] <= 0 {
		return def
	}
	return s.params[i]
}

func (s *Screen) csi(final byte) {
	if s.priv != 0 || s.inter {
		if s.priv == '?' && (final == 'h' || final == 'l') {
			for _, p := range s.params {
				if p == 7 {
					s.noWrap = final == 'l'
				}
				if p == 1049 || p == 1047 || p == 47 {
					if final == 'h' && p == 1049 {
						s.saveX, s.saveY = s.x, s.y
					}
					s.clear(0, s.h*s.w)
					if final == 'l' && p == 1049 {
						s.x, s.y = s.saveX, s.saveY
					}
				}
			}
		}
		return // modes, keyboard protocols, queries: nothing on the grid
	}
	n := s.arg(0, 1)
	switch final {
	case 'A':
		s.moveTo(s.x, max(s.y-n, s.upperLimit()))
	case 'B', 'e':
		s.moveTo(s.x, min(s.y+n, s.lowerLimit()))
	case 'C', 'a':
		s.moveTo(s.x+n, s.y)
	case 'D':
		s.moveTo(s.x-n, s.y)
	case 'E':
		s.moveTo(0, min(s.y+n, s.lowerLimit()))
	case 'F':
		s.moveTo(0, max(s.y-n, s.upperLimit()))
	case 'G', '`':
		s.moveTo(n-1, s.y)
	case 'H', 'f':
		s.moveTo(s.arg(1, 1)-1, n-1)
	case 'd':
		s.moveTo(s.x, n-1)
	case 'I':
		s.moveTo(min(s.w-1, (s.x/8+n)*8), s.y)
	case 'Z':
		s.moveTo(max(0, ((s.x+7)/8-n)*8), s.y)
	case 'J':
		switch s.arg(0, 0) {
		case 0:
			s.clear(s.y*s.w+s.x, s.h*s.w)
		case 1:
			s.clear(0, s.y*s.w+s.x+1)
		default:
			s.clear(0, s.h*s.w)
		}
	case 'K':
		row := s.y * s.w
		switch s.arg(0, 0) {
		case 0:
			s.clear(row+s.x, row+s.w)
		case 1:
			s.clear(row, row+s.x+1)
		default:
			s.clear(row, row+s.w)
		}
	case 'X':
		row := s.y * s.w
		s.clear(row+s.x, row+min(s.w, s.x+n))
	case '@':
		line := s.line(s.y)
		n = min(n, s.w-s.x)
		copy(line[s.x+n:], line[s.x:s.w-n])
		for i := s.x; i < s.x+n; i++ {
			line[i] = ' '
		}
		s.dirty[s.y] = true
	case 'P':
		line := s.line(s.y)
		n = min(n, s.w-s.x)
		copy(line[s.x:], line[s.x+n:])
		for i := s.w - n; i < s.w; i++ {
			line[i] = ' '
		}
		s.dirty[s.y] = true
	case 'L':
		if s.y >= s.top && s.y <= s.bot {
			s.scrollDown(s.y, n)
			s.x, s.wrap = 0, false
		}
	case 'M':
		if s.y >= s.top && s.y <= s.bot {
			s.scrollUp(s.y, n)
			s.x, s.wrap = 0, false
		}
	case 'S':
		s.scrollUp(s.top, n)
	case 'T':
		s.scrollDown(s.top, n)
	case 'r':
		top, bot := s.arg(0, 1)-1, s.arg(1, s.h)-1
		if top < bot && bot < s.h {
			s.top, s.bot = top, bot
		} else {
			s.top, s.bot = 0, s.h-1
		}
		s.moveTo(0, 0)
	case 'b':
		for range min(n, s.w*s.h) {
			s.print(s.last)
		}
	case 's':
		s.saveX, s.saveY = s.x, s.y
	case 'u':
		s.x, s.y, s.wrap = s.saveX, s.saveY, false
	}
}

func (s *Screen) upperLimit() int {
	if s.y >= s.top {
		return s.top
	}
	return 0
}

func (s *Screen) lowerLimit() int {
	if s.y <= s.bot {
		return s.bot
	}
	return s.h - 1
}

func (s *Screen) moveTo(x, y int) {
	s.x = min(max(x, 0), s.w-1)
	s.y = min(max(y, 0), s.h-1)
	s.wrap = false
}

func (s *Screen) line(y int) []rune { return s.cells[y*s.w : (y+1)*s.w] }

func (s *Screen) clear(from, to int) {
	for i := from; i < to; i++ {
		s.cells[i] = ' '
	}
	for y := from / s.w; y <= (to-1)/s.w && y < s.h; y++ {
		s.dirty[y] = true
	}
}

// index moves down a line, scrolling the region at its bottom.
func (s *Screen) index() {
	s.wrap = false
	if s.y == s.bot {
		s.scrollUp(s.top, 1)
	} else if s.y < s.h-1 {
		s.y++
	}
}

func (s *Screen) reverseIndex() {
	s.wrap = false
	if s.y == s.top {
		s.scrollDown(s.top, 1)
	} else if s.y > 0 {
		s.y--
	}
}

// scrollUp moves the lines from..bot up by n, blanking the n lines at the bottom.
func (s *Screen) scrollUp(from, n int) {
	n = min(n, s.bot-from+1)
	copy(s.cells[from*s.w:(s.bot+1-n)*s.w], s.cells[(from+n)*s.w:(s.bot+1)*s.w])
	s.clear((s.bot+1-n)*s.w, (s.bot+1)*s.w)
	for y := from; y <= s.bot; y++ {
		s.dirty[y] = true
	}
}

// scrollDown moves the lines from..bot down by n, blanking the n lines at from.
func (s *Screen) scrollDown(from, n int) {
	n = min(n, s.bot-from+1)
	copy(s.cells[(from+n)*s.w:(s.bot+1)*s.w], s.cells[from*s.w:(s.bot+1-n)*s.w])
	s.clear(from*s.w, (from+n)*s.w)
	for y := from; y <= s.bot; y++ {
		s.dirty[y] = true
	}
}

func (s *Screen) print(r rune) {
	wd := runeWidth(r)
	if wd == 0 {
		return
	}
	if s.wrap || s.x+wd > s.w {
		s.x, s.wrap = 0, false
		s.index()
	}
	i := s.y*s.w + s.x
	s.cells[i] = r
	if wd == 2 && s.x+1 < s.w {
		s.cells[i+1] = 0 // the right half of a wide rune
	}
	s.dirty[s.y] = true
	s.last = r
	if s.x+wd >= s.w {
		s.x = s.w - 1
		s.wrap = !s.noWrap
	} else {
		s.x += wd
	}
}

// runeWidth is 0 for combining marks, 2 for the common wide ranges, else 1: enough for what the
// arcade draws (its own screens use only narrow runes).
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200B:
		return 0
	case r >= 0x1100 && (r <= 0x115f || r == 0x2329 || r == 0x232a ||
		(r >= 0x2e80 && r <= 0xa4cf && r != 0x303f) || (r >= 0xac00 && r <= 0xd7a3) ||
		(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe30 && r <= 0xfe6f) || (r >= 0xff00 && r <= 0xff60) ||
		(r >= 0xffe0 && r <= 0xffe6) || (r >= 0x1f300 && r <= 0x1f64f) || (r >= 0x1f900 && r <= 0x1f9ff) ||
		(r >= 0x20000 && r <= 0x3fffd)):
		return 2
	}
	return 1
}

// rowContains reports whether row y shows target.
func (s *Screen) rowContains(y int, target []rune) bool {
	line := s.line(y)
	n := len(target)
	if n == 0 {
		return true
	}
	for i := 0; i+n <= len(line); i++ {
		if line[i] != target[0] {
			continue
		}
		j := 1
		for j < n && line[i+j] == target[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

// Contains reports whether any row shows target.
func (s *Screen) Contains(target []rune) bool {
	for y := range s.h {
		if s.rowContains(y, target) {
			return true
		}
	}
	return false
}

// DirtyContains reports whether a row changed since the last ClearDirty shows target.
func (s *Screen) DirtyContains(target []rune) bool {
	for y, d := range s.dirty {
		if d && s.rowContains(y, target) {
			return true
		}
	}
	return false
}

// ClearDirty marks every row unchanged.
func (s *Screen) ClearDirty() { clear(s.dirty) }

// AnyDirty reports whether a row changed since the last ClearDirty.
func (s *Screen) AnyDirty() bool {
	for _, d := range s.dirty {
		if d {
			return true
		}
	}
	return false
}

// Row returns row y as text, without trailing spaces.
func (s *Screen) Row(y int) string {
	var b strings.Builder
	for _, r := range s.line(y) {
		if r != 0 {
			b.WriteRune(r)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// String returns the screen as text: one line per row, trailing spaces removed.
func (s *Screen) String() string {
	var b strings.Builder
	for y := range s.h {
		b.WriteString(s.Row(y))
		b.WriteByte('\n')
	}
	return b.String()
}
