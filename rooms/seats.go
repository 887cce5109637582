package rooms

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arcade/arcade/rules"
)

// seatState is one seat of a room. Owned by the room goroutine.
type seatState struct {
	player     Player         // the holder; zero when the seat is free or a bot's
	bot        string         // the bot's level, "" for a human or a free seat
	level      rules.BotLevel // the bot, when bot != ""
	botName    string         // the bot's name with its level, "Ada (easy bot)", when bot != ""
	sub        *Sub           // the holder's connection, nil when not connected
	graceUntil time.Time      // when a dropped holder's seat is abandoned; zero unless dropped
	graceTimer *time.Timer    // fires graceOver
	graceGen   uint64         // bumped whenever the grace is cleared, so that stale timers do nothing
	abandoned  bool           // the grace ran out
	rematch    bool           // the holder voted for a rematch
	drawOffer  bool           // the holder offers a draw (Sub.OfferDraw)
	resigned   bool           // the holder resigned, and a bot plays the seat on: ranked last
	takeback   bool           // the holder asks for, or agrees to, a takeback (Sub.TakeBack)
	// held is the player a table's seat is kept for while the room waits (OpenTable): only
	// they may take it.
	held Player
}

func (st *seatState) empty() bool { return st.player.ID == "" && st.bot == "" }

// away reports whether the seat's human holder is not connected to the room.
func (st *seatState) away() bool { return st.bot == "" && !st.empty() && st.sub == nil }

// key returns the ID of the seat's holder when a player with a key holds it, else "" (a free
// seat, a bot's, a guest's).
func (st *seatState) key() string {
	if st.empty() && st.held.ID != "" && !st.held.Guest {
		return st.held.ID
	}
	if st.bot != "" || st.player.Guest {
		return ""
	}
	return st.player.ID
}

func (st *seatState) name() string {
	if st.bot != "" {
		return st.botName
	}
	return st.player.Name
}

// botNames are the names bots get, each followed by its level: "Ada (easy bot)". They are short,
// so that name and level show beside a seat's colour in the room's panel, and the name comes
// first, so that bots stay told apart where a column is narrow.
var botNames = []string{"Ada", "Bo", "Cy", "Dot", "Eli", "Fay", "Gus", "Ivy", "Jo", "Kit", "Lu", "Max"}

// seatBot gives st to a bot of level lv, named name when that is set and no other seat holds it
// (a restored bot keeps its name), else with the first of botNames no other seat holds, starting
// at the seat's own so that bots seated together differ. Room goroutine only.
func (r *Room) seatBot(st *seatState, lv rules.BotLevel, name string) {
	taken := func(n string) bool {
		for _, o := range r.seats {
			if o != st && !o.empty() && o.name() == n {
				return true
			}
		}
		return false
	}
	st.player, st.bot, st.level = Player{}, lv.Name, lv
	if name != "" && !taken(name) {
		st.botName = name
		return
	}
	start := slices.Index(r.seats, st)
	for i := range len(botNames) + len(r.seats) {
		n := botNames[(start+i)%len(botNames)] + " (" + lv.Name + " bot)"
		if i >= len(botNames) {
			n = fmt.Sprintf("%s%d (%s bot)", botNames[start%len(botNames)], i, lv.Name)
		}
		if !taken(n) {
			st.botName = n
			return
		}
	}
}

// seatOf returns the seat held by the human with the given ID, or -1. Room goroutine only.
func (r *Room) seatOf(id string) int {
	for i, st := range r.seats {
		if st.bot == "" && st.player.ID == id {
			return i
		}
	}
	return -1
}

// freeSeat returns the first free seat that is kept for no one, or -1. Room goroutine only.
func (r *Room) freeSeat() int {
	for i, st := range r.seats {
		if st.empty() && st.held.ID == "" {
			return i
		}
	}
	return -1
}

// heldFor returns the seat kept for the player with the given ID while the room waits, or -1.
// Room goroutine only.
func (r *Room) heldFor(id string) int {
	for i, st := range r.seats {
		if st.empty() && st.held.ID == id {
			return i
		}
	}
	return -1
}

// full reports whether every seat is held. Room goroutine only.
func (r *Room) full() bool {
	return !slices.ContainsFunc(r.seats, (*seatState).empty)
}

// seatInfos describes the seats. Room goroutine only.
func (r *Room) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(r.seats))
	for i, st := range r.seats {
		out[i] = SeatInfo{
			Name:       st.name(),
			PlayerID:   st.player.ID,
			Guest:      st.player.Guest,
			Bot:        st.bot,
			Connected:  st.bot != "" || st.sub != nil,
			Empty:      st.empty(),
			GraceUntil: st.graceUntil,
			Abandoned:  st.abandoned,
			Rematch:    st.rematch || (r.phase == Finished && st.bot != ""),
			DrawOffer:  st.drawOffer,
			TakeBack:   st.takeback,
			Resigned:   st.resigned,
		}
	}
	return out
}

// drop starts the grace of a seat whose holder left during the match, by choice (chosen: "alice
// left") or as their connection ended ("alice dropped"). Room goroutine only.
func (r *Room) drop(st *seatState, chosen bool) {
	r.clearGrace(st)
	if r.corr() {
		// A correspondence seat waits as long as its clock: players come and go between moves.
		if chosen {
			r.system("%s left; the match waits for them", st.player.Name)
		}
		return
	}
	grace := r.cfg.SeatGrace
	gen := st.graceGen
	st.graceUntil = time.Now().Add(grace)
	st.graceTimer = time.AfterFunc(grace, func() {
		r.post(func() { r.graceOver(st, gen) })
	})
	how := "dropped"
	if chosen {
		how = "left"
	}
	r.system("%s %s; their seat waits %s for them", st.player.Name, how, words(grace))
}

// graceOver marks a dropped seat abandoned when its grace has run out. Room goroutine only.
func (r *Room) graceOver(st *seatState, gen uint64) {
	if r.phase != Playing || gen != st.graceGen || st.sub != nil || st.bot != "" {
		return
	}
	st.abandoned = true
	if r.deserted() {
		// Nobody is left to give the seat to a bot or end the match: the match ends unrated and
		// the room closes, rather than be listed as playing until it expires.
		r.system("%s did not come back, and no other player is here", st.player.Name)
		r.finish(r.abandonedOutcome(), true)
		r.cfg.Logf("rooms: room %s: every player left; the match ended unrated", r.code)
		r.stop("every player left; the match ended without rating")
		return
	}
	r.system("%s did not come back: give their seat to a bot, or end the match unrated", st.player.Name)
	r.broadcast()
}

// deserted reports whether the match has human players and all of them are away with their
// graces run out. Room goroutine only.
func (r *Room) deserted() bool {
	humans := false
	for _, st := range r.seats {
		if st.bot != "" || st.empty() {
			continue
		}
		if !st.away() || !st.abandoned {
			return false
		}
		humans = true
	}
	return humans
}

// abandonedOutcome is the outcome of a match ended because a seat was abandoned: the scores so
// far, no ranks. Room goroutine only.
func (r *Room) abandonedOutcome() rules.Outcome {
	out := r.engine.Outcome()
	out.Scores = append([]int(nil), out.Scores...)
	out.Over, out.Ranks, out.Reason = true, nil, "abandoned"
	return out
}

// clearGrace ends a seat's grace, if any. Room goroutine only.
func (r *Room) clearGrace(st *seatState) {
	st.graceGen++
	if st.graceTimer != nil {
		st.graceTimer.Stop()
		st.graceTimer = nil
	}
	st.graceUntil = time.Time{}
	st.abandoned = false
}

// words says d for people: "2 minutes", "30 seconds", "1m30s".
func words(d time.Duration) string {
	switch {
	case d == time.Minute:
		return "1 minute"
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	case d == time.Second:
		return "1 second"
	case d > 0 && d < time.Minute && d%time.Second == 0:
		return fmt.Sprintf("%d seconds", d/time.Second)
	}
	return d.Round(time.Second).String()
}

// botLevel returns the game's bot of the given level; "" means the weakest.
func (r *Room) botLevel(level string) (rules.BotLevel, error) {
	bots := r.game.Bots
	if len(bots) == 0 {
		return rules.BotLevel{}, fmt.Errorf("%w: %s has no bots", ErrNoSuchBot, r.game.Name)
	}
	if level == "" {
		return bots[0], nil
	}
	if lv, ok := r.game.Bot(level); ok {
		return lv, nil
	}
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	return rules.BotLevel{}, fmt.Errorf("%w %q; the levels are %s", ErrNoSuchBot, level, strings.Join(names, ", "))
}

// addBot seats a bot for s. Room goroutine only.
func (r *Room) addBot(s *Sub, seat rules.Seat, level string) error {
	if err := r.check(s); err != nil {
		return err
	}
	lv, err := r.botLevel(level)
	if err != nil {
		return err
	}
	if seat < 0 || int(seat) >= len(r.seats) {
		return ErrNoSuchSeat
	}
	st := r.seats[seat]
	switch r.phase {
	case Waiting:
		if !st.empty() {
			return ErrSeatTaken
		}
		r.seatBot(st, lv, "")
		r.system("%s takes seat %d", st.name(), seat+1)
		if r.full() {
			r.startMatch()
		}
	case Playing, Finished:
		if s.seat < 0 {
			return ErrNotSeated
		}
		if st.bot != "" || st.sub != nil {
			return ErrSeatTaken
		}
		if r.phase == Playing && !st.abandoned {
			return ErrInGrace
		}
		old := st.player.Name
		r.clearGrace(st)
		r.seatBot(st, lv, "")
		r.system("%s takes over %s's seat", st.name(), old)
		if r.phase == Playing {
			if err := r.record(Event{Kind: EventTakeover, Seat: seat}); err != nil {
				r.cfg.Logf("rooms: room %s: recording a bot takeover: %v", r.code, err)
			}
			r.kickBots()
		} else {
			r.maybeRematch()
		}
	default:
		return ErrRoomClosed
	}
	r.broadcast()
	return nil
}

// endMatch ends the match unrated for s, once a seat has been abandoned. Room goroutine only.
func (r *Room) endMatch(s *Sub) error {
	if err := r.check(s); err != nil {
		return err
	}
	if r.phase != Playing {
		return ErrNotPlaying
	}
	if s.seat < 0 {
		return ErrNotSeated
	}
	abandoned := false
	for _, st := range r.seats {
		abandoned = abandoned || (st.abandoned && st.bot == "" && st.sub == nil)
	}
	if !abandoned {
		return ErrNotAbandoned
	}
	r.finish(r.abandonedOutcome(), true)
	r.broadcast()
	return nil
}

// rematch records s's vote for a rematch. Room goroutine only.
func (r *Room) rematch(s *Sub) error {
	if err := r.check(s); err != nil {
		return err
	}
	if r.phase != Finished {
		return ErrNotFinished
	}
	if s.seat < 0 {
		return ErrNotSeated
	}
	st := r.seats[s.seat]
	if st.rematch {
		return nil
	}
	st.rematch = true
	r.system("%s wants a rematch", st.name())
	r.maybeRematch()
	r.broadcast()
	return nil
}

// maybeRematch starts the rematch once every human seat holder has voted: the seats rotate by one
// (seat i goes to the holder of seat i+1, the holder of seat 0 moves to the last), so colours and
// the first move pass round the table. Room goroutine only.
func (r *Room) maybeRematch() {
	for _, st := range r.seats {
		if st.bot == "" && !st.rematch {
			return
		}
	}
	n := len(r.seats)
	rotated := make([]*seatState, n)
	for i := range rotated {
		rotated[i] = r.seats[(i+1)%n]
	}
	r.seats = rotated
	for s := range r.subs {
		if s.seat >= 0 {
			s.setSeat((s.seat - 1 + rules.Seat(n)) % rules.Seat(n))
		}
	}
	r.startMatch()
}
