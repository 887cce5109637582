//go:build nemesis

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hinshun/vt10x"
	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/cluster/clustertest"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

// The nemesis test: three nodes with embedded NATS and a fourth on an external NATS (node 1's,
// through a proxy) play scripted Stone Towers games through the real SSH path while a nemesis
// kills, freezes and cuts nodes at seeded random times; afterwards every move a client saw
// acknowledged must be stored at its number on every node, no number may have two moves, and
// every room must be reachable by its code from every node.
//
//	go test -tags nemesis -run Nemesis -count=1 -v ./cmd/arcade
//	NEMESIS_DURATION=1h NEMESIS_SEED=7 go test -tags nemesis -run Nemesis -timeout 2h -v ./cmd/arcade
//
// NEMESIS_KEEP=DIR keeps the nodes' data folders in DIR when the run fails.

const (
	nemesisGames = 4  // games played at once in a short run, each by two players on two nodes
	nemesisTurns = 60 // each player's turns (the most Stone Towers has): a game outlasts the run
	stepWait     = 8 * time.Second
	joinWait     = 8 * time.Second
	dialWait     = 5 * time.Second
)

// TestNemesis runs the nemesis for NEMESIS_DURATION (90 s by default) with seed NEMESIS_SEED
// (1 by default) and checks what the clients saw against what the nodes stored.
func TestNemesis(t *testing.T) {
	dur := 90 * time.Second
	if s := os.Getenv("NEMESIS_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("NEMESIS_DURATION: %v", err)
		}
		dur = d
	}
	seed := uint64(1)
	if s := os.Getenv("NEMESIS_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("NEMESIS_SEED: %v", err)
		}
		seed = n
	}
	runNemesis(t, seed, dur)
}

// nemesis is the cluster under test, with what the test knows of each node.
type nemesis struct {
	t   *testing.T
	c   *testCluster
	px  *clustertest.Proxy // node 4's way to NATS
	mu  sync.Mutex
	up  []bool // false while a node is killed and not yet restarted
	log []fault
	// took counts the takeovers the nodes logged; longest is the longest time from the start of
	// a fault to a takeover after it.
	took    int
	longest time.Duration
}

// fault is one fault the nemesis injected.
type fault struct {
	kind string // kill, stop, cut
	node int
	at   time.Time
	hold time.Duration
}

// describe says what the fault was and when, from start.
func (f fault) describe(start time.Time) string {
	return fmt.Sprintf("%s n%d at +%v for %v", f.kind, f.node+1, f.at.Sub(start).Round(100*time.Millisecond), f.hold.Round(100*time.Millisecond))
}

// runNemesis starts the cluster and the games, lets the nemesis loose for dur, heals every node,
// then checks that each room is reachable from each node and each replica has every move
// acknowledged at its number and is clean; it logs the faults and a summary ("figures:").
// The max takeover time is from the start of the latest fault to a node's log of a takeover.
func runNemesis(t *testing.T, seed uint64, dur time.Duration) {
	began := time.Now()
	creds := filepath.Join(t.TempDir(), "secret")
	var px *clustertest.Proxy
	// Matches end only by their moves: the nemesis is about what is stored and where, and a run on
	// a loaded machine may keep players out of their rooms for longer than a clock or a seat's
	// grace would wait (a match over on time is dropped from the directory when taken over).
	c := startClusterWith(t, []string{"--move-limit", "0", "--seat-grace", "2h"}, 3, func(c *testCluster) []string {
		if err := os.WriteFile(creds, c.secret, 0o600); err != nil {
			t.Fatal(err)
		}
		px = clustertest.NewProxy(t, strings.TrimPrefix(c.nodes[0].nats, "nats://"))
		return []string{"--nats", "nats://" + px.Addr(), "--nats-creds", creds}
	})
	c.dumpLogs(t)
	if keep := os.Getenv("NEMESIS_KEEP"); keep != "" {
		// A failed run by hand keeps the nodes' data folders (replicas, NATS's storage) to read.
		t.Cleanup(func() {
			if !t.Failed() {
				return
			}
			for _, p := range c.nodes {
				dst := filepath.Join(keep, p.name)
				if out, err := exec.Command("cp", "-a", p.data, dst).CombinedOutput(); err != nil {
					t.Logf("keep %s: %v: %s", p.name, err, out)
				}
			}
			t.Logf("the nodes' data folders are in %s", keep)
		})
	}
	n := &nemesis{t: t, c: c, px: px, up: []bool{true, true, true, true}}
	t.Cleanup(n.healAll)
	t.Logf("seed %d, duration %v: the cluster started in %v", seed, dur, time.Since(began).Round(100*time.Millisecond))

	// A longer run plays more games at once (4 more a 3 minutes, up to 16), each at a slower pace.
	gs := make([]*nemesisGame, min(16, nemesisGames*int((dur+3*time.Minute-1)/(3*time.Minute))))
	for g := range gs {
		gs[g] = n.newGame(g, seed, dur)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, g := range gs {
		wg.Go(func() { g.play(n, stop) })
	}
	watching := make(chan struct{})
	go n.watchTakeovers(watching)
	start := time.Now()
	n.run(rand.New(rand.NewPCG(seed, 0xfa17)), start.Add(dur))
	close(stop)
	wg.Wait()
	n.healAll()
	t.Logf("faults over after %v; games stopped", time.Since(start).Round(100*time.Millisecond))

	// Every room reachable from every node, by a key that never played.
	for _, g := range gs {
		for i := range c.nodes {
			if why := n.probe(i, g.code); why != "" {
				t.Errorf("room %s from node n%d: %s", g.code, i+1, why)
			}
		}
	}
	// Every node's replica: clean, and every acknowledged move at its number.
	for i, p := range c.nodes {
		n.verify(i, p, gs)
	}

	moves, rejoins, noRoom := 0, 0, 0
	for _, g := range gs {
		moves += len(g.acked)
		rejoins += g.rejoins
		noRoom += g.noRoom
		for _, a := range g.anomalies {
			t.Errorf("game %s: %s", g.code, a)
		}
	}
	close(watching)
	n.mu.Lock()
	takeovers, maxTake := n.took, n.longest
	n.mu.Unlock()
	var fs []string
	for _, f := range n.log {
		fs = append(fs, f.describe(start))
	}
	t.Logf("figures: faults %s", strings.Join(fs, "; "))
	t.Logf("figures: nemesis seed %d, %v of faults: %d games, %d moves acknowledged, %d faults injected, %d rejoins (%d told no such room), %d takeovers seen, max takeover time %v",
		seed, dur, len(gs), moves, len(n.log), rejoins, noRoom, takeovers, maxTake.Round(100*time.Millisecond))
}

// run injects one fault at a time until end: after a pause of 2-6 s, a kill -9 of a node (restarted
// on its data folder 2-10 s later), a SIGSTOP of a node (SIGCONT 2-9 s later; it also freezes its
// embedded NATS server), or a cut of node 4's NATS connection through the proxy (2-9 s). Holds
// shorter and longer than a beat's TTL (5 s): a node back in time keeps its rooms, one later
// finds them taken over.
func (n *nemesis) run(r *rand.Rand, end time.Time) {
	for {
		pause := time.Duration(2000+r.IntN(4000)) * time.Millisecond
		if time.Now().Add(pause).After(end) {
			return
		}
		time.Sleep(pause)
		f := fault{node: r.IntN(4), at: time.Now()}
		switch k := r.IntN(3); {
		case k == 0:
			f.kind, f.hold = "kill", time.Duration(2000+r.IntN(8000))*time.Millisecond
		case k == 1:
			f.kind, f.hold = "stop", time.Duration(2000+r.IntN(7000))*time.Millisecond
		default:
			f.kind, f.node, f.hold = "cut", 3, time.Duration(2000+r.IntN(7000))*time.Millisecond
		}
		n.mu.Lock()
		n.log = append(n.log, f)
		n.mu.Unlock()
		p := n.c.nodes[f.node]
		switch f.kind {
		case "kill":
			n.setUp(f.node, false)
			n.c.kill(n.t, f.node)
			time.Sleep(f.hold)
			n.restart(f.node)
		case "stop":
			_ = p.cmd.Process.Signal(syscall.SIGSTOP)
			time.Sleep(f.hold)
			_ = p.cmd.Process.Signal(syscall.SIGCONT)
		case "cut":
			n.px.Cut()
			time.Sleep(f.hold)
			n.px.Heal()
		}
	}
}

func (n *nemesis) setUp(i int, up bool) {
	n.mu.Lock()
	n.up[i] = up
	n.mu.Unlock()
}

// addr returns node i's SSH address, or nil while it is down.
func (n *nemesis) addr(i int) net.Addr {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.up[i] {
		return nil
	}
	return n.c.nodes[i].addr
}

// lastFault describes the latest fault injected, for the log of a failed join.
func (n *nemesis) lastFault() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.log) == 0 {
		return "no fault yet"
	}
	f := n.log[len(n.log)-1]
	return fmt.Sprintf("last fault %s n%d %v ago, held %v", f.kind, f.node+1, time.Since(f.at).Round(100*time.Millisecond), f.hold.Round(100*time.Millisecond))
}

// restart starts node i again with its flags and data folder, and waits until it accepts SSH.
func (n *nemesis) restart(i int) {
	t := n.t
	p := n.c.nodes[i]
	fmt.Fprintf(p.logs, "=== nemesis: restarted\n")
	cmd := exec.Command(p.cmd.Path, p.cmd.Args[1:]...)
	cmd.Stderr = p.logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan net.Addr, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if m := listening.FindStringSubmatch(lines.Text()); m != nil {
				if a, err := net.ResolveTCPAddr("tcp", m[1]); err == nil {
					addr <- a
				}
			}
		}
	}()
	n.mu.Lock()
	p.cmd, p.dead = cmd, false
	n.mu.Unlock()
	select {
	case a := <-addr:
		n.mu.Lock()
		p.addr, n.up[i] = a, true
		n.mu.Unlock()
	case <-time.After(deadline):
		t.Fatalf("node n%d did not start again within %v:\n%s", i+1, deadline, p.logs)
	}
}

// healAll resumes every node, heals the proxy and starts a node that is down.
func (n *nemesis) healAll() {
	n.px.Heal()
	for i, p := range n.c.nodes {
		if !p.dead {
			_ = p.cmd.Process.Signal(syscall.SIGCONT)
		}
		if n.addr(i) == nil {
			n.restart(i)
		}
	}
}

// watchTakeovers polls the nodes' logs every 100 ms until stop is closed, and notes when each
// takeover ("took over room") shows there and how long after the start of the latest fault.
func (n *nemesis) watchTakeovers(stop <-chan struct{}) {
	seen := make([]int, len(n.c.nodes))
	for {
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
		for i, p := range n.c.nodes {
			k := strings.Count(p.logs.String(), "took over room")
			n.mu.Lock()
			for ; seen[i] < k; seen[i]++ {
				n.took++
				if len(n.log) > 0 {
					n.longest = max(n.longest, time.Since(n.log[len(n.log)-1].at))
				}
			}
			n.mu.Unlock()
		}
	}
}

// nemesisGame is one scripted Stone Towers game: its players' keys and current sessions, the
// test's copy of the match, and every move a client saw acknowledged, by number.
type nemesisGame struct {
	t         *testing.T
	code      string
	names     [2]string
	keys      [2]ssh.Signer
	ps        [2]*player
	state     rules.Engine
	acked     []string // acked[ply] is the move number ply+1 that a screen showed applied
	anomalies []string
	noRoom    int // joins of the open room told it has no such code
	rejoins   int
	r         *rand.Rand
	pace      time.Duration // a player's mean time to think
}

// newGame has the creator open a room on node g%4 and the joiner join it from node (g+1)%4.
func (n *nemesis) newGame(g int, seed uint64, dur time.Duration) *nemesisGame {
	t := n.t
	ng := &nemesisGame{t: t, pace: dur / (3 * nemesisTurns / 2), names: [2]string{"red" + strconv.Itoa(g), "blue" + strconv.Itoa(g)},
		keys: [2]ssh.Signer{newKey(t), newKey(t)}, r: rand.New(rand.NewPCG(seed, uint64(g)))}
	opts := "size=8 turns=" + strconv.Itoa(nemesisTurns)
	ng.ps[0] = connect(t, n.addr(g%4), ng.names[0], ng.keys[0], "new stonetowers "+opts)
	ng.code = roomCode(t, ng.ps[0].waitFor("Waiting for players"))
	ng.ps[1] = rejoin(t, n.addr((g+1)%4), ng.names[1], ng.keys[1], "join "+ng.code, "(Blue)")
	ng.ps[0].waitFor("playing", "(Red)")
	var err error
	if ng.state, err = stonetowers.Game.New(rules.Options{"size": "8", "turns": strconv.Itoa(nemesisTurns)}, 2, 0); err != nil {
		t.Fatal(err)
	}
	return ng
}

// turnsShown matches the turns left a Stone Towers screen shows.
var turnsShown = regexp.MustCompile(`Turns left: R (\d+) · B (\d+)`)

// plyShown returns how many moves a screen shows played, or -1.
func plyShown(screen string) int {
	m := turnsShown.FindStringSubmatch(screen)
	if m == nil {
		return -1
	}
	r, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	return 2*nemesisTurns - r - b
}

// notices are what a session shows when its room is no longer reachable through it.
var notices = []string{"server stopped", "moved to another server", "lost touch", "could not be saved", "No room has that code", "Could not enter"}

func troubled(screen string) bool {
	for _, s := range notices {
		if strings.Contains(screen, s) {
			return true
		}
	}
	return false
}

// play plays the game until stop is closed or the match is over: each move is typed at the
// mover's prompt; once either screen shows it applied it is acknowledged. A notice, or a screen
// that does not move on within stepWait, makes both players join again on random nodes.
func (g *nemesisGame) play(n *nemesis, stop <-chan struct{}) {
	for !g.state.Outcome().Over {
		// A player thinks for about pace, so that a game spans the nemesis's run.
		select {
		case <-stop:
			g.close()
			return
		case <-time.After(g.pace/2 + time.Duration(g.r.Int64N(int64(g.pace)))):
		}
		if g.ps[0] == nil {
			if !g.rejoin(n, stop) {
				return
			}
			continue
		}
		seat, move := greedyMove(g.t, g.state)
		after, err := g.state.Apply(seat, move)
		if err != nil {
			g.anomalies = append(g.anomalies, fmt.Sprintf("the engine refused %q: %v", move, err))
			return
		}
		want := turnsLeft(after)
		p := g.ps[seat]
		if !g.step(p, ":", "move:", nil) || !g.step(p, move+"\r", want, func() { g.ack(move) }) {
			g.close()
			continue
		}
		g.state = after
		if !g.waitBoth(want) {
			g.close()
		}
	}
	g.close()
}

// ack records the next move as acknowledged, once.
func (g *nemesisGame) ack(move string) { g.acked = append(g.acked, move) }

// step types keys at p and waits until p's or the other player's screen shows want; then it calls
// seen (if not nil). False on a notice, a closed session or stepWait without want.
func (g *nemesisGame) step(p *player, keys, want string, seen func()) bool {
	if _, err := p.stdin.Write([]byte(keys)); err != nil {
		return false
	}
	until := time.Now().Add(stepWait)
	for time.Now().Before(until) {
		for _, q := range g.ps {
			s := q.screen()
			if strings.Contains(s, want) {
				if seen != nil {
					seen()
				}
				return true
			}
		}
		for _, q := range g.ps {
			if troubled(q.screen()) {
				return false
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// waitBoth waits until both screens show want.
func (g *nemesisGame) waitBoth(want string) bool {
	until := time.Now().Add(stepWait)
	for time.Now().Before(until) {
		if strings.Contains(g.ps[0].screen(), want) && strings.Contains(g.ps[1].screen(), want) {
			return true
		}
		if troubled(g.ps[0].screen()) || troubled(g.ps[1].screen()) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func (g *nemesisGame) close() {
	for i, p := range g.ps {
		if p != nil {
			p.close()
			g.ps[i] = nil
		}
	}
}

// rejoin has both players join the room again on random live nodes until both screens show the
// same number of moves: the moves acknowledged, or one more (the move in flight was applied, and
// is acknowledged now). Fewer is a lost move, an anomaly that ends the game. False when the game
// ends.
func (g *nemesisGame) rejoin(n *nemesis, stop <-chan struct{}) bool {
	g.rejoins++
	said := "" // the last failure logged
	for {
		select {
		case <-stop:
			return false
		default:
		}
		ok := true
		for i := range g.ps {
			via := g.r.IntN(4)
			p, why := tryJoin(g.t, n.addr(via), g.names[i], g.keys[i], "join "+g.code, []string{"(" + [2]string{"Red", "Blue"}[i] + ")", "Turns left"})
			if p == nil {
				if strings.Contains(why, "No room has that code") {
					// The room is open (the game is not over): a join while it moves waits
					// for it, and a wrong code is what a join of a room that exists is never told.
					g.noRoom++
					if g.noRoom == 1 {
						g.anomalies = append(g.anomalies, fmt.Sprintf("join via n%d: told the open room %s has no such code (%s)", via+1, g.code, n.lastFault()))
					}
				}
				if why != said {
					g.t.Logf("%s: join %s via n%d: %s (%s)", g.names[i], g.code, via+1, why, n.lastFault())
					said = why
				}
				ok = false
				break
			}
			g.ps[i] = p
		}
		if !ok {
			g.close()
			time.Sleep(200 * time.Millisecond)
			continue
		}
		ply := len(g.acked)
		until := time.Now().Add(joinWait)
		for time.Now().Before(until) {
			a, b := plyShown(g.ps[0].screen()), plyShown(g.ps[1].screen())
			if a != b {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			switch {
			case a == ply:
				return true
			case a == ply+1:
				seat, move := greedyMove(g.t, g.state)
				after, err := g.state.Apply(seat, move)
				if err != nil {
					g.anomalies = append(g.anomalies, fmt.Sprintf("the engine refused %q: %v", move, err))
					return false
				}
				g.ack(move)
				g.state = after
				return true
			case a < ply:
				g.anomalies = append(g.anomalies, fmt.Sprintf("lost: the room shows %d moves after a rejoin, %d were acknowledged", a, ply))
				g.close()
				return false
			default:
				g.anomalies = append(g.anomalies, fmt.Sprintf("the room shows %d moves, only %d were played", a, ply))
				g.close()
				return false
			}
		}
		g.close()
	}
}

// tryJoin connects as user to addr with command, and waits for a screen with every one of want,
// again while the node says the room is not there or moving, up to joinWait. It returns the player,
// or nil and why not. Unlike connect it never fails the test, so that it may run on any goroutine.
func tryJoin(t *testing.T, addr net.Addr, user string, key ssh.Signer, command string, want []string) (*player, string) {
	if addr == nil {
		return nil, "the node is down"
	}
	p, err := dialPlayer(t, addr, user, key, command)
	if err != nil {
		return nil, err.Error()
	}
	until := time.Now().Add(joinWait)
	for time.Now().Before(until) {
		s := p.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return p, ""
		}
		if troubled(s) {
			p.close()
			return nil, "refused: " + firstLine(s, notices)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s := p.screen()
	p.close()
	return nil, "no room screen within " + joinWait.String() + ": " + firstLine(s, nil)
}

// firstLine returns the first line of screen with one of words (any non-blank one when words is nil).
func firstLine(screen string, words []string) string {
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if words == nil || slices.ContainsFunc(words, func(w string) bool { return strings.Contains(l, w) }) {
			return l
		}
	}
	return ""
}

// dialPlayer is connect without failing the test: a dial or handshake that takes longer than
// dialWait (a frozen node) is an error.
func dialPlayer(t *testing.T, addr net.Addr, user string, key ssh.Signer, command string) (*player, error) {
	raw, err := net.DialTimeout("tcp", addr.String(), dialWait)
	if err != nil {
		return nil, err
	}
	_ = raw.SetDeadline(time.Now().Add(dialWait))
	cc, chans, reqs, err := ssh.NewClientConn(raw, addr.String(), &ssh.ClientConfig{User: user,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(key)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		raw.Close()
		return nil, err
	}
	conn := ssh.NewClient(cc, chans, reqs)
	sess, err := conn.NewSession()
	if err != nil {
		conn.Close()
		return nil, err
	}
	p := &player{t: t, name: user, conn: conn, sess: sess, vt: vt10x.New(vt10x.WithSize(80, 24)), done: make(chan struct{})}
	fail := func(err error) (*player, error) { p.close(); return nil, err }
	if err := sess.RequestPty("xterm-256color", 24, 80, ssh.TerminalModes{}); err != nil {
		return fail(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	if p.stdin, err = sess.StdinPipe(); err != nil {
		return fail(err)
	}
	if err := sess.Start(command); err != nil {
		return fail(err)
	}
	_ = raw.SetDeadline(time.Time{})
	go func() {
		defer close(p.done)
		buf := make([]byte, 32*1024)
		for {
			k, err := out.Read(buf)
			if k > 0 {
				p.mu.Lock()
				_, _ = p.vt.Write(buf[:k])
				p.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return p, nil
}

// probe joins room code through node i with a key that never played, until the room's screen
// (its board, or its end) shows, and returns "" or why not.
func (n *nemesis) probe(i int, code string) string {
	key := newKey(n.t)
	until := time.Now().Add(deadline / 2)
	why := ""
	for time.Now().Before(until) {
		p, err := dialPlayer(n.t, n.addr(i), "probe"+strings.ToLower(code)+strconv.Itoa(i+1), key, "join "+code)
		if err != nil {
			why = err.Error()
			time.Sleep(200 * time.Millisecond)
			continue
		}
		end := time.Now().Add(joinWait)
		for time.Now().Before(end) {
			s := p.screen()
			if strings.Contains(s, "room "+code) && (strings.Contains(s, "Turns left") || strings.Contains(s, "GAME OVER")) {
				p.close()
				return ""
			}
			if troubled(s) {
				why = firstLine(s, notices)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if why == "" {
			why = "no room screen:\n" + p.screen()
		}
		p.close()
		time.Sleep(200 * time.Millisecond)
	}
	return why
}

// verify backs node i's replica up (once it has caught up with the stream) until every game's
// stored moves begin with the moves acknowledged, then checks the backup with `arcade check`
// (storage's Check: a second move of one number is damage).
func (n *nemesis) verify(i int, p *clusterProc, gs []*nemesisGame) {
	t := n.t
	file := filepath.Join(t.TempDir(), "backup.db")
	until := time.Now().Add(deadline)
	for {
		why := n.compare(p, file, gs)
		if why == "" {
			break
		}
		if time.Now().After(until) {
			t.Errorf("node n%d: %s", i+1, why)
			return
		}
		time.Sleep(time.Second)
	}
	var out bytes.Buffer
	if status, err := runCheck([]string{file}, noEnv, &out, io.Discard); err != nil || status != checkClean {
		t.Errorf("node n%d: check of its replica: status %d, %v\n%s", i+1, status, err, out.String())
	}
}

// compare backs p's replica up into file and compares each game's stored match with its moves
// acknowledged; "" when every acknowledged move is stored at its number.
func (n *nemesis) compare(p *clusterProc, file string, gs []*nemesisGame) string {
	var out, errOut bytes.Buffer
	if err := runBackup([]string{"--data", p.data, file}, noEnv, &out, &errOut); err != nil {
		return fmt.Sprintf("backup: %v %s", err, errOut.String())
	}
	db, err := storage.Open(file, storage.Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		return err.Error()
	}
	defer db.Close()
	for _, g := range gs {
		prof, err := db.Profile(ssh.FingerprintSHA256(g.keys[0].PublicKey()), 10)
		if err != nil {
			return err.Error()
		}
		var found []string
		for _, m := range prof.Recent {
			if m.Code != g.code {
				continue
			}
			found = append(found, m.ID)
			full, err := db.Match(m.ID)
			if err != nil {
				return fmt.Sprintf("room %s, match %s: %v", g.code, m.ID, err)
			}
			for ply, mv := range g.acked {
				if ply >= len(full.Moves) {
					return fmt.Sprintf("room %s: move %d (%s) acknowledged, %d stored", g.code, ply+1, mv, len(full.Moves))
				}
				if full.Moves[ply].Move != mv {
					return fmt.Sprintf("room %s: move %d acknowledged as %s, stored as %s", g.code, ply+1, mv, full.Moves[ply].Move)
				}
			}
		}
		if len(found) != 1 {
			return fmt.Sprintf("room %s: %d matches stored (%v), want 1", g.code, len(found), found)
		}
	}
	return ""
}
