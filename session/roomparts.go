package session

import (
	"reflect"
	"slices"
	"time"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// The room screen in parts: the board's column, the header, the panel's head (seats, turn), its
// clock, its status and its foot (chat or moves), and the prompt's lines each keep the lines they
// last drew, with the widths of those lines and the key of what they were drawn from, and are
// drawn again only when their key changes. A frame composes the screen from them: a clock's tick
// draws the clock's lines again, a chat line the panel's foot, a move the parts that show the
// match; a frame in which nothing changed draws nothing. The keys say what a part's drawing
// depends on, beside the screen's generation (roomScreen.gen), which counts the changes of what
// the board and the panel show: a snapshot that differs in more than its chat (sameLook), or a
// key or click the board took.

// theme is what of a session's styles decides how a part is drawn: draw.NewStyles' arguments.
type theme struct{ noColor, ascii bool }

func themeOf(st draw.Styles) theme { return theme{noColor: st.NoColor, ascii: st.ASCII} }

// lineSet is lines as drawn, each with its width (draw.TextWidth), so that the screen is composed
// from them without measuring them again.
type lineSet struct {
	lines  []string
	widths []int
}

// keep makes drawn the set's lines, in place: a line equal to the one drawn at its place before
// keeps that string and its width, measured then; the others are measured. drawn is not kept.
func (s *lineSet) keep(drawn []string) {
	for i, l := range drawn {
		if i < len(s.lines) {
			if s.lines[i] != l {
				s.lines[i], s.widths[i] = l, draw.TextWidth(l)
			}
			continue
		}
		s.lines = append(s.lines, l)
		s.widths = append(s.widths, draw.TextWidth(l))
	}
	clear(s.lines[len(drawn):])
	s.lines, s.widths = s.lines[:len(drawn)], s.widths[:len(drawn)]
}

// linesOf is lines as a lineSet, each measured.
func linesOf(lines []string) *lineSet {
	s := &lineSet{}
	s.keep(lines)
	return s
}

// add appends t's lines, with their widths, to s.
func (s *lineSet) add(t *lineSet) {
	s.lines = append(s.lines, t.lines...)
	s.widths = append(s.widths, t.widths...)
}

// addFirst appends t's first n lines (all when it has fewer), with their widths, to s.
func (s *lineSet) addFirst(t *lineSet, n int) {
	n = max(0, min(n, len(t.lines)))
	s.lines = append(s.lines, t.lines[:n]...)
	s.widths = append(s.widths, t.widths[:n]...)
}

// at returns line i and its width; an empty line past the last.
func (s *lineSet) at(i int) (string, int) {
	if i < len(s.lines) {
		return s.lines[i], s.widths[i]
	}
	return "", 0
}

// part is a part of the room screen as last drawn, with the key of what it was drawn from.
type part[K comparable] struct {
	lineSet
	key   K
	drawn bool
	ver   uint64 // counts the drawings, for the part drawn over this one (the notation)
}

// get returns the part's lines for key: those drawn last when key is theirs, else draw's, kept
// for the next frame.
func (p *part[K]) get(key K, draw func() []string) *lineSet {
	if !p.drawn || p.key != key {
		p.keep(draw())
		p.key, p.drawn = key, true
		p.ver++
	}
	return &p.lineSet
}

// Keys of the parts: what each part's lines are drawn from, beside the styles (theme).
type (
	// boardKey: the board's column, the board or the room's code (while seats are free).
	boardKey struct {
		gen    uint64
		w, h   int        // the screen's width, the body's height
		layout layoutKind // (the rest of the layout follows from the board's drawing)
		theme
	}
	// columnKey: the board's column with the game's notation under it (the move prompt).
	columnKey struct {
		board uint64 // the board part's drawing (part.ver)
		theme
	}
	// headerKey: the line over the body (the viewer's seat tag is the board's for the match).
	headerKey struct {
		game, code string
		phase      rooms.Phase
		mode       string // rated or casual (roomMode)
		match      int
		you        int
		w          int
		theme
	}
	// helpKey: the help line, but for the rules' (whose keys follow the pager's scroll).
	helpKey struct {
		gen    uint64
		focus  focus
		w      int
		moving bool
		asked  string // what yes to the question asked does ("leave", "resign"), or ""
		layout layoutKind
		up     bool // the whole panel shows in the board's place
		moves  bool // (there, with the moves: tab goes back to the board)
		theme
	}
	// panelKey: the panel's head and status (with the away seats' countdowns for the head); the
	// status's rule says what the foot shows and how many lines the spectators' chat holds.
	panelKey struct {
		gen                  uint64
		w                    int
		showMoves, replaying bool
		spectators           bool // the foot shows the spectators' chat (roomPanel.showingSpectators)
		heard                int  // the spectators' lines (Snapshot.SpectatorChat)
		mode                 panelMode
		theme
	}
	// clockKey: the clock's lines, drawn again when the clock shows another value.
	clockKey struct {
		gen   uint64
		w     int
		shown time.Duration
		theme
	}
	// tailKey: the panel's foot, chat or moves (with the chats it shows, for the chat).
	tailKey struct {
		gen                  uint64 // the moves' (0 for the chat, which the generation does not count)
		w, room              int
		showMoves, replaying bool
		spectators           bool // the spectators' chat alone (roomPanel.showingSpectators)
		watching             bool // a spectator's: both chats as one (roomPanel.footChats)
		theme
	}
	// sizeKey: the board's smallest drawing (boardMin), on a compact window.
	sizeKey struct {
		gen  uint64
		w, h int
	}
	// promptKey: the lines under the board (with the open line's text).
	promptKey struct {
		w      int
		most   int // the most lines it may take (0: its own limit)
		kind   lineKind
		msg    string
		msgErr bool
		prompt string
		pos    int
		upper  bool
		theme
	}
)

// roomParts are the parts of a room screen as last drawn, and the body's rows composed from them.
type roomParts struct {
	board            part[boardKey]
	layout           roomLayout // the board part's layout (roomLayout.place)
	sized            bool       // the board's smallest drawing, minW x minH, is known for sizeOf
	sizeOf           sizeKey
	minW, minH       int
	column           part[columnKey]
	header           part[headerKey]
	head             part[panelKey]  // (the seats alone under the board)
	away             []time.Duration // the away countdowns the head shows
	clock            part[clockKey]
	turn             part[panelKey] // whose turn it is, or the result, under the board
	status           part[panelKey]
	tail             part[tailKey]
	chat             []rooms.ChatLine // the chats the tail shows from: the room's,
	spectatorChat    []rooms.ChatLine // and the spectators'
	prompt           part[promptKey]
	typed            []rune // the open line's text the prompt shows
	help             part[helpKey]
	title, yourTitle string // the window's title, for titleOf, and on the viewer's turn
	titleOf          titleKey

	panel   lineSet  // the panel's lines in this frame, from its parts
	under   lineSet  // the second column of the panel under the board in this frame
	scratch []string // scratch space for a part's lines as drawn, reused
	// The screen's lines in this frame, in pieces: the body's rows are the board's line, the
	// panel's and the spaces between, never joined; every line's pieces are in flat, one line
	// after the other, line i ending at ends[i]; screen is the lines as slices of flat. All are
	// reused from frame to frame.
	flat   []string
	ends   []int32
	screen [][]string
}

// rowPieces is how many pieces a row of the body is made of (roomScreen.body).
const rowPieces = 6

// addLine adds a line of one piece to the screen's lines.
func (ps *roomParts) addLine(l string) {
	ps.flat = append(ps.flat, l)
	ps.endLine()
}

// endLine ends the screen's line whose pieces are the last added.
func (ps *roomParts) endLine() { ps.ends = append(ps.ends, int32(len(ps.flat))) }

// lines returns the screen's lines, each its pieces.
func (ps *roomParts) lines() [][]string {
	ps.screen = ps.screen[:0]
	start := int32(0)
	for _, end := range ps.ends {
		ps.screen = append(ps.screen, ps.flat[start:end:end])
		start = end
	}
	clear(ps.flat[len(ps.flat):cap(ps.flat)]) // pieces of the frames before
	return ps.screen
}

// titleKey is what the window's title says.
type titleKey struct{ game, code string }

// sameLook reports whether the board and the panel draw b as they drew a: the snapshots differ
// at most in the chats (the panel's foot has a key of its own, and its rule counts the
// spectators' lines) and in what neither draws (the
// sequence number, the room's notice, Replaced). The cheap fields are compared first; the game's
// view, made again for every snapshot, is compared in depth only when they are all the same (a
// chat line, a player who came back), so a move costs no deep comparison.
func sameLook(a, b *rooms.Snapshot) bool {
	if a.Code != b.Code || a.GameID != b.GameID || a.GameName != b.GameName || a.Phase != b.Phase ||
		a.Match != b.Match || a.You != b.You || a.Clock != b.Clock || a.TimeControl != b.TimeControl ||
		a.Unrated != b.Unrated || a.Spectators != b.Spectators || len(a.Moves) != len(b.Moves) ||
		!slices.Equal(a.Seats, b.Seats) || !slices.Equal(a.ToMove, b.ToMove) || !slices.Equal(a.Times, b.Times) {
		return false
	}
	x, y := *a, *b
	x.Seq, y.Seq, x.Chat, y.Chat, x.Notice, y.Notice, x.Replaced, y.Replaced = 0, 0, nil, nil, "", "", false, false
	x.SpectatorChat, y.SpectatorChat = nil, nil
	return reflect.DeepEqual(x, y)
}
