package rooms

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
)

// Player is someone who joins rooms.
type Player struct {
	// ID identifies the player: the SHA256 fingerprint of their key, or "guest-..." for a guest. A
	// seat belongs to an ID.
	ID string
	// Name is shown to others. Rooms show it as one line of printable text (sanitize.Line) of at
	// most MaxName runes, "player" if that is empty.
	Name string
	// Guest is set for players without a key; they play unranked.
	Guest bool
	// Source is the address the player connects from, as shares count it (an IPv4 address, or
	// the /64 of an IPv6 one): a guest's rooms count against it, and every room against its
	// address's share (Config.Shares). Empty: counted by ID alone.
	Source string
}

// MaxName is the longest player name, in runes, that rooms show.
const MaxName = 32

// Room is one room of the hub: a goroutine that owns the room's seats, subscribers, chat and match.
// Its methods are safe for concurrent use; they hand requests to the room's goroutine.
type Room struct {
	hub     *Hub
	cfg     *Config
	code    string
	game    rules.Game
	created time.Time
	inbox   chan func()
	done    chan struct{}   // closed when the goroutine has stopped
	ctx     context.Context // cancelled when the room stops; bots think under it
	cancel  context.CancelFunc
	summary atomic.Pointer[Summary] // published by the room goroutine for Hub.List
	owner   string                  // who created the room, as shares count it (ownerOf); "" none
	source  string                  // the creator's Player.Source

	// Everything below is owned by the room goroutine (and by newRoom before it starts).
	opts       rules.Options
	phase      Phase
	seq        uint64
	seats      []*seatState
	subs       map[*Sub]struct{}
	spectators int
	engine     rules.Engine // nil until the first match starts
	seed       uint64
	match      int
	moves      []MoveRecord
	outcome    rules.Outcome
	unrated    bool
	casual     bool       // the room's settings are not all standard: no match of it is rated (casual.go)
	chat       []ChatLine // replaced, never modified, when a line is added
	watchers   []ChatLine // the spectators' chat of the match being played (chat.go), replaced alike
	notice     string
	stopped    bool
	emptyGen   uint64
	emptyTimer *time.Timer
	thinking   map[rules.Seat]botToken // bots asked for a move, and for which position
	turn       *turnTimer              // the timed turn's timer, nil when none runs
	turnGen    uint64                  // turnTimer.gen of the latest timer
	result     EndResult               // what recording the match's end did (EndRecorder)
	takebackBy rules.Seat              // the seat whose last move a takeback request is for; -1 none
	reshuffles []rules.Reshuffle       // the match's takebacks' reshuffles (rules.Reshuffler), in order

	// The room's clock (clock.go): the one set (nil: the default), the match's, each player's
	// time with a game clock, and the running clock's timer, seat and start.
	clockSet   *Clock
	clock      Clock
	times      []time.Duration
	clockGen   uint64
	clockTimer *time.Timer
	clockSeat  rules.Seat
	clockSince time.Time
	// turnFrom is when a restored correspondence turn began, for the clock's first arming.
	turnFrom time.Time

	// asleep: the room stopped as a correspondence room nobody watched (sleep), its match
	// unfinished, to be woken from the store (Config.Wake).
	asleep bool
}

// inboxSize is the capacity of a room's inbox.
const inboxSize = 16

// newRoom makes a room of g with opts (resolved), the clock set (nil: the default) and seats;
// casual: its settings are not all standard (casualOf). Its goroutine is not started.
func newRoom(h *Hub, code string, g rules.Game, opts rules.Options, clock *Clock, casual bool, seats int) *Room {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Room{
		hub:        h,
		cfg:        &h.cfg,
		code:       code,
		game:       g,
		created:    time.Now(),
		inbox:      make(chan func(), inboxSize),
		done:       make(chan struct{}),
		ctx:        ctx,
		cancel:     cancel,
		opts:       maps.Clone(opts), // the room's own, shared read-only with snapshots
		subs:       map[*Sub]struct{}{},
		thinking:   map[rules.Seat]botToken{},
		takebackBy: -1,
		clockSet:   clock,
		casual:     casual,
	}
	for range seats {
		r.seats = append(r.seats, &seatState{})
	}
	r.armEmpty()
	r.publish(nil)
	return r
}

// Code returns the room's code.
func (r *Room) Code() string { return r.code }

// Game returns the room's game.
func (r *Room) Game() rules.Game { return r.game }

// Done returns a channel that is closed once the room has stopped.
func (r *Room) Done() <-chan struct{} { return r.done }

// run is the room goroutine.
func (r *Room) run() {
	defer close(r.done)
	for !r.stopped {
		(<-r.inbox)()
	}
}

// post hands f to the room goroutine. It reports false, without running f, when the room has
// stopped.
func (r *Room) post(f func()) bool {
	select {
	case r.inbox <- f:
		return true
	case <-r.done:
		return false
	}
}

// call runs f on the room goroutine and returns its error. It blocks until f has run, the room
// has stopped (ErrRoomClosed) or ctx is done (ctx.Err(); f may still run unless ctx was done
// before the call).
func (r *Room) call(ctx context.Context, f func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	reply := make(chan error, 1)
	select {
	case r.inbox <- func() { reply <- f() }:
	case <-r.done:
		return ErrRoomClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-r.done:
		select {
		case err := <-reply:
			return err
		default:
			return ErrRoomClosed
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Join subscribes p to the room and returns the subscription; its first snapshot is waiting in
// Updates when Join returns. Join blocks until the room has answered.
//
// With watch false, p takes back the seat p holds, if any (a connection of p already on that seat
// is replaced: it gets a last snapshot with Replaced set, then its channel closes); else p takes
// the first free seat while the room is Waiting; else p watches. With watch true, p watches.
// When the last free seat is taken while Waiting, the match starts.
func (r *Room) Join(p Player, watch bool) (*Sub, error) {
	if p.ID == "" {
		return nil, ErrNoPlayer
	}
	p.Name = cleanName(p.Name)
	s := &Sub{room: r, player: p, ch: make(chan Snapshot, 1), seat: rules.Spectator}
	s.seatNow.Store(int64(rules.Spectator))
	if err := r.call(context.Background(), func() error { return r.join(s, watch) }); err != nil {
		return nil, err
	}
	return s, nil
}

// cleanName is a player's name as the room shows it (Player.Name).
func cleanName(name string) string {
	if name = sanitize.Line(name, MaxName); name == "" {
		name = "player"
	}
	return name
}

// join seats or admits s. Room goroutine only.
func (r *Room) join(s *Sub, watch bool) error {
	seat := rules.Spectator
	if !watch {
		if i := r.seatOf(s.player.ID); i >= 0 {
			st := r.seats[i]
			if old := st.sub; old != nil {
				r.endSub(old, ErrReplaced)
			} else if r.phase == Playing || r.phase == Finished {
				r.system("%s is back", s.player.Name)
			}
			st.player, st.sub = s.player, s
			r.clearGrace(st)
			seat = rules.Seat(i)
		} else if r.phase == Waiting {
			i := r.heldFor(s.player.ID)
			if i < 0 {
				i = r.freeSeat()
			}
			if i >= 0 {
				st := r.seats[i]
				st.player, st.sub = s.player, s
				seat = rules.Seat(i)
				r.system("%s sits down", s.player.Name)
			}
		}
	}
	if seat == rules.Spectator && r.cfg.Shares.SpectatorsPerRoom > 0 && r.spectators >= r.cfg.Shares.SpectatorsPerRoom {
		r.cfg.Refused(LimitSpectators)
		return shareError{ErrTooManySpectators, fmt.Sprintf("this room already has %d spectators (limit --max-spectators); try again later", r.spectators)}
	}
	s.setSeat(seat)
	r.subs[s] = struct{}{}
	r.hub.subs.Add(1)
	if seat == rules.Spectator {
		r.spectators++
		r.system("%s is watching", s.player.Name)
	}
	r.cancelEmpty()
	if r.phase == Waiting && r.full() {
		r.startMatch()
	}
	r.broadcast()
	return nil
}

// leave ends s. Room goroutine only.
func (r *Room) leave(s *Sub, chosen bool) {
	if _, ok := r.subs[s]; !ok {
		return
	}
	r.endSub(s, ErrLeft)
	if s.seat >= 0 {
		st := r.seats[s.seat]
		st.sub = nil
		switch r.phase {
		case Waiting:
			st.player = Player{}
			r.system("%s left", s.player.Name)
		case Playing:
			r.drop(st, chosen)
		default:
			r.system("%s left", s.player.Name)
		}
	} else {
		r.system("%s stopped watching", s.player.Name)
	}
	if len(r.subs) == 0 {
		r.armEmpty()
	}
	r.broadcast()
}

// endSub removes s from the room and closes its channel; a replaced s first gets a last snapshot
// with Replaced set. Room goroutine only.
func (r *Room) endSub(s *Sub, why error) {
	delete(r.subs, s)
	r.hub.subs.Add(-1)
	if s.seat < 0 {
		r.spectators--
	}
	s.gone = why
	if why == ErrReplaced {
		r.seq++
		snap := r.snapshotFor(s, r.newShared())
		snap.Replaced = true
		Offer(s.ch, snap)
	}
	close(s.ch)
	s.updated()
}

// check returns nil when s is still subscribed, else why it is not. Room goroutine only.
func (r *Room) check(s *Sub) error {
	if _, ok := r.subs[s]; ok {
		return nil
	}
	if s.gone != nil {
		return s.gone
	}
	return ErrLeft
}

// stop ends the room: every subscriber gets a last snapshot (Phase Closed, Notice notice) and its
// channel closes; timers and bots stop; the hub forgets the room. Room goroutine only.
func (r *Room) stop(notice string) { r.stopAs(notice, false) }

// stopAs is stop; moved: the room moved to another server, and its subscriptions say so (Sub.Moved).
func (r *Room) stopAs(notice string, moved bool) {
	if r.stopped {
		return
	}
	r.phase, r.notice = Closed, notice
	r.seq++
	sh := r.newShared()
	for s := range r.subs {
		Offer(s.ch, r.snapshotFor(s, sh))
		s.moved.Store(moved)
		close(s.ch)
		s.updated()
		s.gone = ErrRoomClosed
		r.hub.subs.Add(-1)
	}
	clear(r.subs)
	r.cancelEmpty()
	r.stopTurn()
	r.stopClock()
	for _, st := range r.seats {
		r.clearGrace(st)
	}
	r.cancel()
	r.publish(nil)
	r.hub.remove(r)
	r.stopped = true
}

// armEmpty starts the countdown of an empty room: EmptyExpiry, or for a finished match only the
// seat grace (a player who left may come back for a rematch; nobody else will). A
// correspondence match being played does not expire: it sleeps after Config.SleepAfter (sleep).
// Room goroutine only.
func (r *Room) armEmpty() {
	r.cancelEmpty()
	expiry := r.cfg.EmptyExpiry
	asleep := r.phase == Playing && r.corr()
	if asleep {
		expiry = r.cfg.SleepAfter
	}
	if expiry < 0 {
		return
	}
	if r.phase == Finished {
		expiry = min(expiry, max(r.cfg.SeatGrace, 0))
	}
	gen := r.emptyGen
	r.emptyTimer = time.AfterFunc(expiry, func() {
		r.post(func() {
			switch {
			case gen != r.emptyGen || len(r.subs) > 0:
			case r.phase == Playing && r.corr():
				r.sleep()
			default:
				r.cfg.Logf("rooms: room %s expired", r.code)
				r.stop("the room expired")
			}
		})
	})
}

// sleep stops a correspondence room that nobody watches, its match unfinished and recorded as it
// is: it costs nothing more until it is woken from the store (Config.Wake: a player joins, or
// its deadline comes). A room with a bot to move waits for the bot first. Room goroutine only.
func (r *Room) sleep() {
	if r.phase != Playing || !r.corr() {
		return
	}
	for _, seat := range r.engine.ToMove() {
		if r.seats[seat].bot != "" {
			r.armEmpty() // after the bot's move
			return
		}
	}
	r.asleep = true
	r.stop("the room sleeps until its players come back")
	if r.cfg.Sleep != nil {
		r.cfg.Sleep(r.code)
	}
}

// cancelEmpty stops the countdown of an empty room. Room goroutine only.
func (r *Room) cancelEmpty() {
	r.emptyGen++
	if r.emptyTimer != nil {
		r.emptyTimer.Stop()
		r.emptyTimer = nil
	}
}

// system adds a system line to the chat. Room goroutine only.
func (r *Room) system(format string, args ...any) {
	r.say(ChatLine{Text: fmt.Sprintf(format, args...), At: time.Now()})
}

// startMatch starts a match with the seats as they are. Room goroutine only.
func (r *Room) startMatch() {
	seed := r.cfg.NewSeed(r.code, r.match+1)
	eng, err := r.game.New(maps.Clone(r.opts), len(r.seats), seed)
	if err != nil {
		r.cfg.Logf("rooms: room %s: %s: cannot start a match: %v", r.code, r.game.ID, err)
		r.notice = "the match could not start: " + err.Error()
		return
	}
	r.engine, r.seed = eng, seed
	r.match++
	r.moves, r.reshuffles = nil, nil
	r.result = EndResult{}
	r.outcome = eng.Outcome()
	r.unrated = false
	r.phase = Playing
	r.notice = ""
	clear(r.thinking)
	names := make([]string, len(r.seats))
	r.clearTakeback()
	for i, st := range r.seats {
		st.rematch, st.drawOffer, st.resigned = false, false, false
		r.clearGrace(st)
		names[i] = st.name()
	}
	r.hub.matches.Add(1)
	r.startClock()
	start := Event{Kind: EventStart}
	if r.clock.Correspondence() {
		start.ToMove, start.Due = eng.ToMove(), r.due()
	}
	if err := r.record(start); err != nil {
		r.cfg.Logf("rooms: room %s: recording the start of match %d: %v", r.code, r.match, err)
	}
	if len(names) == 1 {
		r.system("the match begins: %s plays alone", names[0])
	} else {
		r.system("the match begins: %s", strings.Join(names, " vs "))
	}
	if r.outcome.Over {
		r.finish(r.outcome, false)
		return
	}
	r.armTurn(true)
	r.armClock()
	r.kickBots()
	r.tellTurns(rules.Spectator, "")
}

// tellTurns tells the players whose move it has become, and who are not connected to the room,
// through Config.TurnNotice: after a move of seat mover by the player named by (rules.Spectator
// and "" at a match's start), the seats to move other than mover's. Room goroutine only.
func (r *Room) tellTurns(mover rules.Seat, by string) {
	if r.cfg.TurnNotice == nil || r.phase != Playing {
		return
	}
	away := false
	for _, st := range r.seats {
		away = away || (st.key() != "" && st.sub == nil)
	}
	if !away { // the usual case: everyone is here, and the engine is not asked
		return
	}
	var ends time.Time
	for _, seat := range r.engine.ToMove() {
		st := r.seats[seat]
		if st.key() == "" || st.sub != nil || seat == mover {
			continue
		}
		if ends.IsZero() {
			ends = r.turnClock().Ends
			if s, e, ok := r.clockEnds(); ok && s == seat && (ends.IsZero() || e.Before(ends)) {
				ends = e
			}
		}
		r.cfg.TurnNotice(st.key(), TurnNotice{Code: r.code, GameID: r.game.ID, GameName: r.game.Name,
			By: by, Ends: ends})
	}
}

// apply plays move for seat: the engine judges it, the Recorder records it, and everybody sees it.
// The engine's error is returned as is. Room goroutine only.
func (r *Room) apply(seat rules.Seat, move string) error {
	switch r.phase {
	case Waiting:
		return ErrNotPlaying
	case Finished, Closed:
		return rules.ErrGameOver
	}
	next, err := r.engine.Apply(seat, move)
	if err != nil {
		return err
	}
	move = rules.CanonicalMove(r.engine, seat, move) // recorded as the game writes it: "a3" is "b a3"
	out := next.Outcome()
	ply := len(r.moves)
	ev := Event{Kind: EventMove, Ply: ply, Seat: seat, Move: move, Outcome: out}
	if r.clock.Correspondence() && !out.Over {
		ev.ToMove, ev.Due = next.ToMove(), r.due()
	}
	if err := r.record(ev); err != nil {
		r.cfg.Logf("rooms: room %s: recording move %d: %v", r.code, ply, err)
		switch {
		case errors.Is(err, ErrStorageDown):
			return ErrStorageDown
		case errors.Is(err, ErrNotSaved):
			return err // the Recorder says why, for the player
		}
		return ErrNotSaved
	}
	r.engine = next
	r.declineDraws(seat)
	r.moves = append(r.moves, MoveRecord{Seat: seat, Move: move, Name: r.seats[seat].name(),
		Public: rules.ConcealMove(r.engine, move), At: time.Now()})
	r.outcome = out
	r.hub.moves.Add(1)
	r.chargeClock(seat)
	if !out.Over {
		r.armTurn(false)
		r.armClock()
		r.kickBots()
		r.broadcast()
		r.tellTurns(seat, r.seats[seat].name())
		return nil
	}
	// The last move is on disk, and the end follows from it: were the server to stop before
	// the end is recorded, restoring the room would finish the match again. So the players see
	// the move, and the result, without waiting for a second write.
	r.conclude(out, false)
	r.broadcast()
	r.recordEnd()
	if r.result.MatchID != "" || r.result.Ratings != nil {
		r.broadcast() // the match's ID and the rating changes
	}
	return nil
}

// finish ends the match with out and records the end. Room goroutine only.
func (r *Room) finish(out rules.Outcome, unrated bool) {
	r.conclude(out, unrated)
	r.recordEnd()
}

// conclude makes the room Finished with out, and says how it ended. Room goroutine only.
func (r *Room) conclude(out rules.Outcome, unrated bool) {
	r.phase = Finished
	r.outcome, r.unrated = r.rankResignedLast(out), unrated
	clear(r.thinking)
	r.stopTurn()
	r.stopClock()
	for _, st := range r.seats {
		r.clearGrace(st)
	}
	r.openSpectatorChat()
	r.system("%s", r.resultLine())
}

// recordEnd records the end of the match (Finished), and keeps what that did (EndRecorder) for
// the snapshots. Room goroutine only.
func (r *Room) recordEnd() {
	var err error
	if er, ok := r.cfg.Recorder.(EndRecorder); ok {
		r.result, err = er.RecordEnd(r.code, r.event(Event{Kind: EventEnd}))
	} else {
		err = r.record(Event{Kind: EventEnd})
	}
	if err != nil {
		r.cfg.Logf("rooms: room %s: recording the end of match %d: %v", r.code, r.match, err)
	}
}

// resultLine says how the match ended: who won, or alone, the score. Room goroutine only.
func (r *Room) resultLine() string {
	out := r.outcome
	solo := len(r.seats) == 1
	switch {
	case r.unrated && solo:
		return "the match ended without a score: " + out.Reason
	case r.unrated:
		return "the match ended without rating: " + out.Reason
	}
	var line string
	switch w := out.Winners(); {
	case solo && len(out.Scores) == 1:
		// Alone, nobody wins: the score is the result.
		line = fmt.Sprintf("game over: %s scored %d", r.seats[0].name(), out.Scores[0])
	case len(w) == 0:
		line = "game over"
	case len(w) == len(r.seats) && len(w) > 1:
		line = "game over: a draw"
	case len(w) == 1:
		line = "game over: " + r.seats[w[0]].name() + " wins"
		if won, lost, ok := out.WinningScore(w[0]); ok && len(r.seats) == 2 {
			line += fmt.Sprintf(" %d-%d", won, lost) // as the end screen says it
		}
	default:
		names := make([]string, len(w))
		for i, s := range w {
			names[i] = r.seats[s].name()
		}
		line = "game over: " + strings.Join(names, " and ") + " share first place"
	}
	if out.Reason != "" {
		line += " (" + out.Reason + ")"
	}
	return line
}

// record hands e, completed with the match's details, to the Recorder. Room goroutine only.
func (r *Room) record(e Event) error {
	if r.cfg.Recorder == nil {
		return nil
	}
	return r.cfg.Recorder.Record(r.code, r.event(e))
}

// event completes e with the match's details. Room goroutine only.
func (r *Room) event(e Event) Event {
	e.GameID = r.game.ID
	e.Match = r.match
	e.Options = r.optionsRecorded()
	e.Seed = r.seed
	e.Seats = r.seatInfos()
	e.Casual = r.casual
	if e.Kind != EventMove && e.Kind != EventTakeback {
		e.Outcome = r.outcome
		e.Unrated = r.unrated
		e.Ply = len(r.moves)
	}
	return e
}
