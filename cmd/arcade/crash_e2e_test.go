package main

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

// TestKillUnderLoadLosesNoAcknowledgedMove: players in several rooms move as fast as their screens
// follow on the real binary; it is killed with SIGKILL in the middle, and started again on the
// same folder. Every move a mover's screen showed as played (the room shows a move only once it
// is committed) is in the database, in order.
func TestKillUnderLoadLosesNoAcknowledgedMove(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, data := binary(t), t.TempDir()
	server, addr := startBinary(t, bin, data)
	const rooms = 6
	type room struct {
		code  string
		alice string   // the player ID of the room's creator
		moves []string // played; the first acked were shown on the mover's screen
		acked int
	}
	var acked atomic.Int64
	played := make([]*room, rooms)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	ended := make(chan struct{}) // every room's player has stopped: the match ended, or a screen never came
	for i := range rooms {
		key := newKey(t)
		alice := connect(t, addr, "alice"+strconv.Itoa(i), key, "new stonetowers size=8 turns=60")
		r := &room{code: roomCode(t, alice.waitFor("Waiting for players")), alice: ssh.FingerprintSHA256(key.PublicKey())}
		played[i] = r
		bob := connect(t, addr, "bob"+strconv.Itoa(i), newKey(t), "join "+r.code)
		bob.waitFor("playing")
		wg.Go(func() {
			state, err := stonetowers.Game.New(rules.Options{"size": "8", "turns": "60"}, 2, 0)
			if err != nil {
				t.Error(err)
				return
			}
			players := []*player{alice, bob}
			for ply := 0; !state.Outcome().Over; ply++ {
				seat := state.ToMove()[0]
				move := stonetowers.Greedy{}.Move(context.Background(), state, seat, rand.New(rand.NewPCG(uint64(i), uint64(ply))))
				if state, err = state.Apply(seat, move); err != nil {
					t.Errorf("engine refused %q: %v", move, err)
					return
				}
				v := state.View(rules.Spectator).(stonetowers.View)
				shown := "Turns left: R " + strconv.Itoa(v.TurnsLeft[0]) + " · B " + strconv.Itoa(v.TurnsLeft[1])
				p := players[seat]
				if !p.type_(":") || !p.shows("move:", stop) || !p.type_(move+"\r") {
					return
				}
				r.moves = append(r.moves, move)
				if !p.shows(shown, stop) {
					return
				}
				r.acked++
				acked.Add(1)
			}
		})
	}
	go func() { wg.Wait(); close(ended) }()
	// Killed when the matches are about half played (6 x 120 moves in all).
	for acked.Load() < rooms*50 {
		select {
		case <-ended:
			t.Fatalf("the players stopped after %d moves acknowledged, before the kill", acked.Load())
		case <-time.After(time.Millisecond):
		}
	}
	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	_ = server.Wait()

	// Started again, the server resumes the rooms; stopped, it leaves the database to be read.
	server, _ = startBinary(t, bin, data)
	if err := server.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := server.Wait(); err != nil {
		t.Fatalf("the restarted server: %v", err)
	}
	db, err := storage.Open(filepath.Join(data, dbFile), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	total := 0
	for _, r := range played {
		var got []string
		if p, err := db.Profile(r.alice, 1); err != nil || len(p.Recent) != 1 {
			t.Errorf("room %s: its match is not among its creator's (%v)", r.code, err)
		} else if m, err := db.Match(p.Recent[0].ID); err != nil {
			t.Error(err)
		} else {
			for _, mv := range m.Moves {
				got = append(got, mv.Move)
			}
		}
		total += r.acked
		if len(got) < r.acked || len(got) > len(r.moves) || !slices.Equal(got, r.moves[:len(got)]) {
			t.Errorf("room %s: %d moves acknowledged of %d sent, the database has %d: %s",
				r.code, r.acked, len(r.moves), len(got), strings.Join(got, " "))
		}
	}
	if total == 0 {
		t.Fatal("no move was acknowledged before the kill")
	}
	t.Logf("%d moves acknowledged in %d rooms before the kill", total, rooms)
}

// type_ types keys, and reports whether they were sent.
func (p *player) type_(keys string) bool {
	_, err := p.stdin.Write([]byte(keys))
	return err == nil
}

// shows waits until the screen shows want, and reports whether it did before stop was closed
// (or the deadline passed).
func (p *player) shows(want string, stop <-chan struct{}) bool {
	until := time.After(deadline)
	for !strings.Contains(p.screen(), want) {
		select {
		case <-stop:
			return strings.Contains(p.screen(), want)
		case <-until:
			return false
		case <-time.After(5 * time.Millisecond):
		}
	}
	return true
}
