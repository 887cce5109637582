package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"strings"
	"sync"
	"time"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session/draw"
)

// watcher is the web's one subscription to a room, as a spectator, and the event streams it
// feeds. Each snapshot the room sends is drawn once (liveView, then the "live" template) into an
// event, which every stream is offered: a stream holds one event at most, the newest replacing
// one not yet written, so a slow browser never holds up the room, the watcher or the other
// streams. The subscription is left lingerFor after the last stream ends.
type watcher struct {
	s    *Server
	code string
	sub  interface {
		Updates() <-chan rooms.Snapshot
		OnUpdate(func())
		Leave()
	}
	board draw.Board    // the game's terminal board view: the seats' names as the room shows them
	wake  chan struct{} // the room has left a snapshot (capacity one)
	quit  chan struct{} // closed by stop
	ready chan struct{} // closed at the first event
	done  chan struct{} // closed when the subscription has ended

	mu      sync.Mutex
	streams map[*stream]struct{}
	last    *event
	idle    *time.Timer // stops the watcher when no stream has watched for lingerFor
	stopped bool
}

// lingerFor is how long a watcher keeps its subscription after its last stream ended: a page
// reloaded, or opened again, finds it still there.
const lingerFor = 30 * time.Second

// event is one state of the room, drawn: for the page, the SSE stream and the API.
type event struct {
	view liveView
	sse  []byte // the event as a stream writes it
	gz   []byte // sse compressed, as a stream that takes gzip writes it (deflate.go)
	raw  []byte // the HTML it carries
}

// stream is one browser's event stream of a room.
type stream struct{ ch chan *event }

// offer leaves ev for the stream without blocking, replacing an event not yet written.
func (st *stream) offer(ev *event) {
	select {
	case st.ch <- ev:
		return
	default:
	}
	select {
	case <-st.ch:
	default:
	}
	select {
	case st.ch <- ev:
	default:
	}
}

// errNoLiveRoom: no open room has the code.
var errNoLiveRoom = errors.New("no open room has that code")

// watch returns the watcher of the room of code, subscribing to the room when no watcher has it.
// A code that no room in the hub's list has is errNoLiveRoom, without asking the hub to find it
// (the hub counts failed finds against the one player the web watches as).
func (s *Server) watch(code string) (*watcher, error) {
	code, ok := rooms.NormalizeCode(code)
	if !ok {
		return nil, errNoLiveRoom
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil, errors.New("the server is stopping")
	}
	if w := s.watchers[code]; w != nil {
		s.mu.Unlock()
		return w, nil
	}
	s.mu.Unlock()
	listed := false
	for _, sum := range s.cfg.Hub.List() {
		if sum.Code == code && sum.Phase != rooms.Closed {
			listed = true
			break
		}
	}
	if !listed {
		return nil, errNoLiveRoom
	}
	room, err := s.cfg.Hub.Find(code, viewer)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoLiveRoom, err)
	}
	sub, err := room.Join(viewer, true)
	if err != nil {
		return nil, err
	}
	w := &watcher{s: s, code: code, sub: sub, wake: make(chan struct{}, 1), quit: make(chan struct{}),
		ready: make(chan struct{}), done: make(chan struct{}), streams: map[*stream]struct{}{}}
	w.idle = time.AfterFunc(lingerFor, w.stop)
	s.mu.Lock()
	if other := s.watchers[code]; other != nil || s.closing {
		s.mu.Unlock()
		w.idle.Stop()
		sub.Leave() // another request watched it meanwhile
		if other == nil {
			return nil, errors.New("the server is stopping")
		}
		return other, nil
	}
	s.watchers[code] = w
	s.mu.Unlock()
	sub.OnUpdate(w.poke)
	w.poke() // the first snapshot is there already
	go w.run()
	return w, nil
}

// poke wakes the watcher's goroutine; called on the room's goroutine, so it never blocks.
func (w *watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// run draws each snapshot into an event and offers it to the streams, until the subscription
// ends or the watcher is stopped.
func (w *watcher) run() {
	defer w.finish()
	for {
		select {
		case <-w.wake:
		case <-w.quit:
			w.sub.Leave()
			return
		}
		var snap rooms.Snapshot
		got, closed := false, false
	drain:
		for {
			select {
			case sn, open := <-w.sub.Updates():
				if !open {
					closed = true
					break drain
				}
				snap, got = sn, true
			default:
				break drain
			}
		}
		if got {
			w.publish(w.event(&snap))
		}
		if closed || got && snap.Phase == rooms.Closed {
			return
		}
	}
}

// publish makes ev the newest event and offers it to every stream.
func (w *watcher) publish(ev *event) {
	w.mu.Lock()
	first := w.last == nil
	w.last = ev
	for st := range w.streams {
		st.offer(ev)
	}
	w.mu.Unlock()
	if first {
		close(w.ready)
	}
}

// finish ends the watcher: the streams are told the room is gone, and the code is free for a new
// watcher (a room that moved to another node is found there by the next).
func (w *watcher) finish() {
	w.s.mu.Lock()
	if w.s.watchers[w.code] == w {
		delete(w.s.watchers, w.code)
	}
	w.s.mu.Unlock()
	w.mu.Lock()
	w.stopped = true
	if w.idle != nil {
		w.idle.Stop()
	}
	w.mu.Unlock()
	select {
	case <-w.ready:
	default:
		close(w.ready)
	}
	close(w.done)
}

// stop leaves the room (the watcher's goroutine does, and ends).
func (w *watcher) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.stopped = true
	close(w.quit)
}

// current waits for the watcher's first event (at most wait) and returns the newest; nil when
// the room ended first.
func (w *watcher) current(wait time.Duration) *event {
	select {
	case <-w.ready:
	case <-time.After(wait):
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// add opens a stream, offered the newest event at once; false when the watcher has ended.
func (w *watcher) add() (*stream, bool) {
	st := &stream{ch: make(chan *event, 1)}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return nil, false
	}
	w.streams[st] = struct{}{}
	w.idle.Stop()
	if w.last != nil {
		st.offer(w.last)
	}
	return st, true
}

// remove closes a stream; the last one arms the linger.
func (w *watcher) remove(st *stream) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.streams, st)
	if len(w.streams) == 0 && !w.stopped {
		w.idle.Reset(lingerFor)
	}
}

// watchers returns the number of rooms the web watches, and of streams open on them.
func (s *Server) watching() (rooms, streams int) {
	s.mu.Lock()
	ws := make([]*watcher, 0, len(s.watchers))
	for _, w := range s.watchers {
		ws = append(ws, w)
	}
	s.mu.Unlock()
	for _, w := range ws {
		w.mu.Lock()
		streams += len(w.streams)
		w.mu.Unlock()
	}
	return len(ws), streams
}

// liveView is a room as the pages draw it and the API gives it.
type liveView struct {
	Code       string        `json:"code"`
	Game       string        `json:"game"`
	GameName   string        `json:"game_name"`
	Phase      string        `json:"phase"`
	State      string        `json:"state"`
	Seq        uint64        `json:"seq"`
	Seats      []seatView    `json:"seats"`
	Moves      []moveView    `json:"moves"`
	FirstMove  int           `json:"first_move"`
	Plies      int           `json:"plies"`
	Result     string        `json:"result,omitempty"`
	MatchID    string        `json:"match,omitempty"`
	Spectators int           `json:"spectators"`
	Board      template.HTML `json:"-"`
}

// seatView is a seat of a live room or a replay position.
type seatView struct {
	Label   string `json:"seat"`
	Letter  string `json:"-"`
	Class   string `json:"-"`
	Name    string `json:"name"`
	Link    bool   `json:"-"`
	Bot     string `json:"bot,omitempty"`
	Note    string `json:"note,omitempty"`
	Score   string `json:"score,omitempty"`
	ToMove  bool   `json:"to_move"`
	Clock   string `json:"clock,omitempty"`
	ClockMS int64  `json:"clock_ms,omitempty"`
	Running bool   `json:"running,omitempty"`
	// Ends is when a running clock runs out, Unix milliseconds.
	Ends int64 `json:"ends,omitempty"`
}

// moveView is a move of a list.
type moveView struct {
	N       int    `json:"n"`
	Seat    int    `json:"seat"`
	Letter  string `json:"-"`
	Class   string `json:"-"`
	Move    string `json:"move"`
	Current bool   `json:"-"`
}

// liveMoves is how many of the latest moves a live room lists (the replay has them all).
const liveMoves = 40

// event draws snap into an event.
func (w *watcher) event(snap *rooms.Snapshot) *event {
	if w.board == nil {
		if mk := w.s.cfg.Boards[snap.GameID]; mk != nil {
			w.board = mk()
		}
	}
	v := w.s.liveView(snap, w.board, time.Now())
	var html bytes.Buffer
	if err := w.s.pages["room"].ExecuteTemplate(&html, "live", v); err != nil {
		w.s.cfg.Logf("web: room %s: %v", w.code, err)
	}
	return newEvent(v, sseEvent("", v.Seq, html.Bytes()), html.Bytes())
}

// newEvent is an event of view v, its stream's bytes sse (compressed here, once for every stream)
// and its HTML raw.
func newEvent(v liveView, sse, raw []byte) *event {
	return &event{view: v, sse: sse, gz: deflated(sse), raw: raw}
}

// sseEvent frames data as one Server-Sent Event of type name ("" for a message) with id seq.
func sseEvent(name string, seq uint64, data []byte) []byte {
	var b bytes.Buffer
	if name != "" {
		fmt.Fprintf(&b, "event: %s\n", name)
	}
	fmt.Fprintf(&b, "id: %d\n", seq)
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(bytes.TrimRight(line, "\r"))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// liveView describes snap, a spectator's snapshot, for a page: never its chat.
func (s *Server) liveView(snap *rooms.Snapshot, board draw.Board, now time.Time) liveView {
	v := liveView{Code: snap.Code, Game: snap.GameID, GameName: snap.GameName, Phase: snap.Phase.String(), Seq: snap.Seq,
		Spectators: snap.Spectators, Plies: len(snap.Moves), MatchID: snap.Result.MatchID}
	if wb := s.cfg.WebBoards[snap.GameID]; wb != nil && snap.View != nil && snap.You == rules.Spectator {
		v.Board = wb(snap)
	}
	if board != nil && snap.View != nil {
		board.Status(snap, *draw.NewStyles(true, false), 28) // a board that names seats from what it was shown
	}
	v.Seats = s.seatViews(snap, board, now)
	v.State = stateText(snap, v.Seats)
	first := max(0, len(snap.Moves)-liveMoves)
	v.FirstMove = first + 1
	for i, mv := range snap.Moves[first:] {
		text := mv.Move
		if mv.Public != "" {
			text = mv.Public // what the mover alone may know stays with them
		}
		letter, _ := seatLabel(board, int(mv.Seat))
		v.Moves = append(v.Moves, moveView{N: first + i + 1, Seat: int(mv.Seat), Letter: letter, Class: seatClass(board, int(mv.Seat)), Move: text})
	}
	if snap.Phase == rooms.Finished || snap.Outcome.Over {
		v.Result = outcomeText(snap.Outcome, v.Seats, snap.Unrated)
	}
	return v
}

// seatLabel is seat i's letter and name as the game's board names them.
func seatLabel(board draw.Board, i int) (string, string) {
	if board == nil {
		return draw.SeatLetter(i), draw.SeatName(i)
	}
	return draw.SeatLabel(board, i)
}

// seatClass is the CSS class of seat i's colour: the room's seat colours, or the board's own
// (DISCON's Orange) by name.
func seatClass(board draw.Board, i int) string {
	if _, own := board.(draw.SeatLabeler); own {
		_, name := seatLabel(board, i)
		return "c-" + strings.ToLower(name)
	}
	return fmt.Sprintf("s%d", i)
}

// seatViews describes the seats of snap at now.
func (s *Server) seatViews(snap *rooms.Snapshot, board draw.Board, now time.Time) []seatView {
	out := make([]seatView, len(snap.Seats))
	for i, st := range snap.Seats {
		letter, label := seatLabel(board, i)
		sv := seatView{Label: label, Letter: letter, Class: seatClass(board, i), Name: st.Name, Bot: st.Bot,
			Link: st.Bot == "" && !st.Guest && st.PlayerID != "" && sanitize.ValidName(st.Name)}
		switch {
		case st.Empty:
			sv.Name, sv.Note = "(free)", ""
		case st.Abandoned:
			sv.Note = "gone"
		case !st.GraceUntil.IsZero():
			sv.Note = "away"
		case st.Resigned:
			sv.Note = "resigned"
		case st.DrawOffer:
			sv.Note = "offers a draw"
		case st.TakeBack:
			sv.Note = "asks for a takeback"
		case snap.Phase == rooms.Finished && st.Rematch && st.Bot == "":
			sv.Note = "wants a rematch"
		}
		if i < len(snap.Outcome.Scores) {
			sv.Score = fmt.Sprint(snap.Outcome.Scores[i])
		}
		if snap.Phase == rooms.Playing {
			for _, seat := range snap.ToMove {
				sv.ToMove = sv.ToMove || int(seat) == i
			}
			running := int(snap.Clock.Seat) == i && !snap.Clock.Ends.IsZero()
			var left time.Duration
			switch {
			case running:
				left = max(snap.Clock.Ends.Sub(now), 0)
			case snap.TimeControl.Game > 0 && i < len(snap.Times):
				left = snap.Times[i]
			}
			if running || snap.TimeControl.Game > 0 && i < len(snap.Times) {
				sv.Clock, sv.ClockMS, sv.Running = clockText(left), left.Milliseconds(), running
				if running {
					sv.Ends = snap.Clock.Ends.UnixMilli()
				}
			}
		}
		out[i] = sv
	}
	return out
}

// clockText writes a time left as m:ss, rounded up to the second (0:00 has run out).
func clockText(d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d:%02d", secs/60, secs%60)
}

// who names a seat and its holder: "Red (ann)", or "Red, Bo (easy bot)" for a name that has its
// own brackets.
func (sv seatView) who() string {
	if strings.Contains(sv.Name, "(") {
		return sv.Label + ", " + sv.Name
	}
	return sv.Label + " (" + sv.Name + ")"
}

// stateText says in a few words where the room is.
func stateText(snap *rooms.Snapshot, seats []seatView) string {
	switch snap.Phase {
	case rooms.Waiting:
		free := 0
		for _, st := range snap.Seats {
			if st.Empty {
				free++
			}
		}
		if free == 1 {
			return "Waiting for 1 player."
		}
		return fmt.Sprintf("Waiting for %d players.", free)
	case rooms.Playing:
		var who []string
		for _, sv := range seats {
			if sv.ToMove {
				who = append(who, sv.who())
			}
		}
		if len(who) == 0 {
			return "Playing."
		}
		return "Playing: " + strings.Join(who, " and ") + " to move."
	case rooms.Finished:
		return "Finished."
	}
	return "The room has closed."
}

// outcomeText says how a match ended: "Red (ann) wins.", "A draw.", with the reason.
func outcomeText(o rules.Outcome, seats []seatView, unrated bool) string {
	var won []string
	for _, seat := range o.Winners() {
		if int(seat) < len(seats) {
			won = append(won, seats[seat].who())
		}
	}
	var out string
	switch {
	case !o.Over:
		out = "The match ended early."
	case len(seats) == 1 && len(o.Scores) == 1:
		out = fmt.Sprintf("Score: %d.", o.Scores[0])
	case len(won) == 0 || len(won) == len(seats):
		out = "A draw."
	case len(won) == 1:
		out = won[0] + " wins."
	default:
		out = strings.Join(won, " and ") + " win."
	}
	if o.Reason != "" {
		out += " " + strings.ToUpper(o.Reason[:1]) + o.Reason[1:] + "."
	}
	if unrated {
		out += " Unrated."
	}
	return out
}
