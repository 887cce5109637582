package wire_test

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/cluster/wire"
	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

const seed = 7

func init() {
	if err := wire.Register(games.Rules()); err != nil {
		panic(err)
	}
	if err := wire.Register(games.Rules()); err != nil { // twice is the same as once
		panic(err)
	}
}

// watcher keeps the newest snapshot of a subscription.
type watcher struct {
	sub  *rooms.Sub
	last rooms.Snapshot
	got  bool
}

// latest returns the newest snapshot of w's subscription: one waiting, else the one read before.
func (w *watcher) latest(t *testing.T) rooms.Snapshot {
	t.Helper()
	for {
		select {
		case sn, ok := <-w.sub.Updates():
			if ok {
				w.last, w.got = sn, true
				continue
			}
		default:
		}
		if !w.got {
			t.Fatal("no snapshot yet")
		}
		return w.last
	}
}

// render draws snap with a fresh board of its game: the board, the status panel and the scores.
func render(t *testing.T, snap rooms.Snapshot) string {
	t.Helper()
	b := games.Boards()[snap.GameID]()
	st := *draw.NewStyles(true, false)
	var out []string
	out = append(out, b.View(&snap, st, 100, 40)...)
	out = append(out, "--")
	out = append(out, b.Status(&snap, st, 28)...)
	for i := range snap.Seats {
		out = append(out, b.Score(&snap, i))
	}
	return strings.Join(out, "\n")
}

// normal returns snap without its view, with what gob cannot keep made alike on both sides: empty
// slices and maps nil, times without their monotonic reading.
func normal(s rooms.Snapshot) rooms.Snapshot {
	s.View = nil
	if len(s.Options) == 0 {
		s.Options = nil
	}
	s.Seats = nilEmpty(slices.Clone(s.Seats))
	for i := range s.Seats {
		s.Seats[i].GraceUntil = s.Seats[i].GraceUntil.Round(0)
	}
	s.ToMove = nilEmpty(s.ToMove)
	s.Times = nilEmpty(s.Times)
	s.Clock.Ends = s.Clock.Ends.Round(0)
	s.Outcome.Scores = nilEmpty(s.Outcome.Scores)
	s.Outcome.Ranks = nilEmpty(s.Outcome.Ranks)
	s.Result.Ratings = nilEmpty(s.Result.Ratings)
	s.Moves = nilEmpty(slices.Clone(s.Moves))
	for i := range s.Moves {
		s.Moves[i].At = s.Moves[i].At.Round(0)
	}
	s.Chat = nilEmpty(slices.Clone(s.Chat))
	for i := range s.Chat {
		s.Chat[i].At = s.Chat[i].At.Round(0)
	}
	return s
}

func nilEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// checkTrip round-trips snap and checks that the board draws it the same and that every other
// field is kept.
func checkTrip(t *testing.T, who string, snap rooms.Snapshot) int {
	t.Helper()
	b, err := wire.EncodeSnapshot(snap)
	if err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	got, err := wire.DecodeSnapshot(b)
	if err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	if reflect.TypeOf(got.View) != reflect.TypeOf(snap.View) {
		t.Fatalf("%s: view of type %T comes back as %T", who, snap.View, got.View)
	}
	if snap.View != nil {
		if want, have := render(t, snap), render(t, got); want != have {
			t.Errorf("%s (seq %d): the board draws the decoded snapshot otherwise:\n%s\n-- want --\n%s", who, snap.Seq, have, want)
		}
	}
	if d := diff("View", reflect.ValueOf(snap.View), reflect.ValueOf(got.View)); d != "" {
		t.Errorf("%s (seq %d): the view differs after the trip: %s", who, snap.Seq, d)
	}
	if want, have := normal(snap), normal(got); !reflect.DeepEqual(want, have) {
		t.Errorf("%s (seq %d): fields differ after the trip:\n got %+v\nwant %+v", who, snap.Seq, have, want)
	}
	return len(b)
}

// TestSnapshotRoundTrip plays a match of every game through a room, with legal moves chosen by a
// seeded generator, and round-trips each seat's and a spectator's snapshots at several points.
func TestSnapshotRoundTrip(t *testing.T) {
	for _, g := range games.Rules() {
		t.Run(g.ID, func(t *testing.T) {
			h := rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, MoveLimit: -1,
				NewSeed: func(string, int) uint64 { return seed }, Logf: t.Logf})
			t.Cleanup(func() { h.Shutdown("test over") })
			seats := g.StartSeats()
			if seats < 2 && g.MaxSeats >= 2 {
				seats = 2
			}
			r, err := h.Create(g.ID, rules.Options{rooms.ClockOption: "10m+5s"}, seats, rooms.Player{ID: "p0"})
			if err != nil {
				t.Fatal(err)
			}
			sp, err := r.Join(rooms.Player{ID: "spec", Name: "spec"}, true)
			if err != nil {
				t.Fatal(err)
			}
			spec := &watcher{sub: sp}
			checkTrip(t, "spectator while waiting", spec.latest(t))
			subs := make([]*watcher, seats)
			for i := range subs {
				s, err := r.Join(rooms.Player{ID: fmt.Sprint("p", i), Name: fmt.Sprint("player", i)}, false)
				if err != nil {
					t.Fatal(err)
				}
				subs[i] = &watcher{sub: s}
			}
			if err := subs[0].sub.Chat("hello there"); err != nil {
				t.Fatal(err)
			}
			first := subs[0].latest(t)
			if first.Phase != rooms.Playing {
				t.Fatalf("phase %v, want playing", first.Phase)
			}
			state, err := g.New(maps.Clone(first.Options), seats, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 1))
			const maxPlies = 80
			sizes := 0
			check := func(when string) {
				t.Helper()
				for i, s := range subs {
					checkTrip(t, fmt.Sprintf("seat %d %s", i, when), s.latest(t))
				}
				sizes = checkTrip(t, "spectator "+when, spec.latest(t))
			}
			check("at the start")
			for ply := 0; ply < maxPlies && !state.Outcome().Over; ply++ {
				seat := state.ToMove()[0]
				legal := state.Legal(seat)
				if len(legal) == 0 {
					t.Fatalf("ply %d: seat %d to move has no legal move", ply, seat)
				}
				mv := legal[rng.IntN(len(legal))]
				if err := subs[seat].sub.Move(context.Background(), mv); err != nil {
					t.Fatalf("ply %d: move %q of seat %d: %v", ply, mv, seat, err)
				}
				if state, err = state.Apply(seat, mv); err != nil {
					t.Fatal(err)
				}
				if ply%7 == 3 {
					check(fmt.Sprintf("after ply %d", ply))
				}
				if ply == 17 {
					t.Logf("%s: a spectator's snapshot after 18 plies: %d bytes", g.ID, sizes)
				}
			}
			check("at the end")
			h.Shutdown("bye")
			for i, s := range subs {
				checkTrip(t, fmt.Sprintf("seat %d closed", i), s.latest(t))
			}
		})
	}
}

// TestErrorRoundTrip: every sentinel keeps its identity and its text; wrapping text is kept too.
func TestErrorRoundTrip(t *testing.T) {
	if e := wire.EncodeError(nil); !e.IsZero() || e.Err() != nil {
		t.Errorf("nil encodes as %+v, decodes as %v", e, e.Err())
	}
	for _, s := range wire.Sentinels() {
		for _, err := range []error{s, fmt.Errorf("room ABCD: %w", s)} {
			got := wire.EncodeError(err).Err()
			if !errors.Is(got, s) {
				t.Errorf("%q: errors.Is(%v) fails after the trip", err, s)
			}
			if got.Error() != err.Error() {
				t.Errorf("%q reads %q after the trip", err, got)
			}
			for _, other := range wire.Sentinels() {
				if other != s && errors.Is(got, other) && !errors.Is(err, other) {
					t.Errorf("%q is %q after the trip", err, other)
				}
			}
		}
	}
	// Two at once (a Recorder's error wrapping ErrStorageDown, say, inside another).
	both := fmt.Errorf("%w: %w", rooms.ErrNotSaved, rooms.ErrStorageDown)
	got := wire.EncodeError(both).Err()
	if !errors.Is(got, rooms.ErrNotSaved) || !errors.Is(got, rooms.ErrStorageDown) {
		t.Errorf("%q loses a sentinel: %v", both, got)
	}
	// An engine's own message, wrapping rules' sentinel.
	eng := fmt.Errorf("%w: wait for Blue", rules.ErrNotYourTurn)
	if got := wire.EncodeError(eng).Err(); got.Error() != eng.Error() || !errors.Is(got, rules.ErrNotYourTurn) {
		t.Errorf("%q comes back as %q", eng, got)
	}
	// Not a sentinel: the text alone.
	plain := errors.New("something else")
	if got := wire.EncodeError(plain).Err(); got.Error() != plain.Error() {
		t.Errorf("%q comes back as %q", plain, got)
	}
}

// diff returns where a and b differ, "" when they do not, as reflect.DeepEqual would say but with
// an empty slice or map equal to nil and times compared with Equal (gob keeps no more). Unexported
// fields count: gob drops them, and a view that had any would show here.
func diff(path string, a, b reflect.Value) string {
	if a.IsValid() != b.IsValid() {
		return path + ": one is nil"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: %v against %v", path, a.Type(), b.Type())
	}
	if a.Type() == reflect.TypeOf(time.Time{}) {
		if !a.Interface().(time.Time).Equal(b.Interface().(time.Time)) {
			return path + ": times differ"
		}
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": one is nil"
			}
			return ""
		}
		return diff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if d := diff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d against %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d keys against %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			if d := diff(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), b.MapIndex(k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path + ": differs"
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d against %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d against %d", path, a.Uint(), b.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return path + ": differs"
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q against %q", path, a.String(), b.String())
		}
	default:
		return fmt.Sprintf("%s: cannot compare a %v", path, a.Kind())
	}
	return ""
}

// oldChatLine and oldSnapshot are a chat line and a snapshot as a node built before the
// spectators' chat and casual rooms encodes and decodes them (a subset of the fields).
type oldChatLine struct {
	From, Text string
	At         time.Time
}

type oldSnapshot struct {
	Code  string
	Phase rooms.Phase
	Seats []rooms.SeatInfo
	Chat  []oldChatLine
}

// TestSnapshotFieldsOldNodesDoNotKnow: a snapshot with the spectators' chat and Casual decodes on
// a node that knows neither (it keeps the room's chat), and one from such a node decodes with
// neither: no spectators' lines, and Casual false, so that the seats alone say whether the
// match is rated, as before.
func TestSnapshotFieldsOldNodesDoNotKnow(t *testing.T) {
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	b, err := wire.EncodeSnapshot(rooms.Snapshot{Code: "K7QXM", Phase: rooms.Playing, Casual: true,
		Chat:          []rooms.ChatLine{{From: "ann", Text: "hi", At: at}},
		SpectatorChat: []rooms.ChatLine{{From: "cy", Text: "go e5", At: at, Spectator: true}}})
	if err != nil {
		t.Fatal(err)
	}
	var old oldSnapshot
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&old); err != nil {
		t.Fatalf("an old node cannot decode a new snapshot: %v", err)
	}
	if old.Code != "K7QXM" || len(old.Chat) != 1 || old.Chat[0].Text != "hi" {
		t.Errorf("an old node decodes %+v", old)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(oldSnapshot{Code: "K7QXM", Phase: rooms.Playing,
		Chat: []oldChatLine{{From: "cy", Text: "go e5", At: at}}}); err != nil {
		t.Fatal(err)
	}
	snap, err := wire.DecodeSnapshot(buf.Bytes())
	if err != nil {
		t.Fatalf("an old node's snapshot does not decode: %v", err)
	}
	if snap.Casual || snap.SpectatorChat != nil || len(snap.Chat) != 1 || snap.Chat[0].Spectator || snap.Chat[0].Text != "go e5" {
		t.Errorf("an old node's snapshot decodes as %+v", snap)
	}
}
