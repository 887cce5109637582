package phase

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// WebResult is what the web phase measured: what a room watched by viewers browsers costs the
// arcade against the same number of SSH spectators, and what a page view of a leaderboard or a
// replay costs.
type WebResult struct {
	Viewers        int
	Browsers, SSH  WatchCost
	Players, Rated int // seeded for the leaderboard's pages
	MatchID        string
	MatchMoves     int
	Pages          []PageCost
	SeedSecs       float64
	BotDelay       time.Duration
	Window         time.Duration
}

// WatchCost is one room's viewers for a window: a room two bots play.
type WatchCost struct {
	Watching int // viewers that saw the room
	// BaseCPUPerMove is the arcade's CPU time a move in a window before any viewer came: the
	// bots' thinking and the room's own work, which the viewers' cost is counted above.
	BaseCPUPerMove time.Duration
	Moves          int           // moves the arcade made in the window
	CPU            time.Duration // the arcade's CPU time in the window
	CPUPerMove     time.Duration // CPU / Moves: one move shown to every viewer
	Received       uint64        // bytes the viewers received in the window, all together
	Events         int64         // events (browsers) in the window, all together
	RSSDelta       int64         // the arcade's RSS with the viewers on, less before them
	Goroutines     int           // the arcade's goroutines with the viewers on, less before
	Subscribers    int           // the rooms' subscribers with the viewers on, less before
}

// PageCost is one kind of page view, asked many times at once.
type PageCost struct {
	Path          string
	Requests      int
	CPUPerRequest time.Duration
	Answer        stats.Summary
	Bytes         int // of one answer
}

// Figures is the phase's figures in lines.
func (r *WebResult) Figures() string {
	w := func(name string, c WatchCost) string {
		return fmt.Sprintf("%s: %d watching, %d moves in %v, %s of server CPU a move (%s without viewers: %s a move a viewer), %s received a move a viewer, RSS %+.1f MiB, %+d goroutines, %+d room subscribers",
			name, c.Watching, c.Moves, r.Window, stats.MS(c.CPUPerMove), stats.MS(c.BaseCPUPerMove), perViewer(c.CPUPerMove-c.BaseCPUPerMove, c.Watching),
			perMove(c.Received, c.Moves, c.Watching), float64(c.RSSDelta)/(1<<20), c.Goroutines, c.Subscribers)
	}
	s := fmt.Sprintf("web: one Stone Towers room, two bots (--bot-delay %v): %s; %s", r.BotDelay, w("browsers (SSE)", r.Browsers), w("SSH spectators", r.SSH))
	for _, p := range r.Pages {
		s += fmt.Sprintf("; %s: %d requests, %s of server CPU each, answer %s, %d bytes", p.Path, p.Requests, stats.MS(p.CPUPerRequest), p.Answer, p.Bytes)
	}
	return s + fmt.Sprintf(" (%d rated players seeded, a replay of %d moves)", r.Rated, r.MatchMoves)
}

func perViewer(d time.Duration, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f µs", float64(d)/float64(n)/float64(time.Microsecond))
}

func perMove(b uint64, moves, viewers int) string {
	if moves == 0 || viewers == 0 {
		return "-"
	}
	return fmt.Sprintf("%d bytes", b/uint64(moves)/uint64(viewers))
}

// Web seeds a database with players rated players and a long finished match, starts the arcade
// on it with --http, then: a room of two bots watched by viewers browsers (event streams read by
// this tool) for window, the same for a new room watched by viewers SSH spectators ("watch
// CODE"), reading the arcade's CPU time, RSS and goroutines around each; then requests page
// views from 8 clients at once, requests of each: the leaderboard's first page and a deep one
// (page 100), the replay's page at a random move, and the leaderboard's JSON.
func Web(ctx context.Context, arcades Arcades, viewers, players, requests int, window time.Duration, dialers int, logf func(string, ...any), errs *stats.ErrorLog) (*WebResult, error) {
	res := &WebResult{Viewers: viewers, Players: players, Window: window, BotDelay: 500 * time.Millisecond}
	dir, db, err := arcades.NewData()
	if err != nil {
		return res, err
	}
	t0 := time.Now()
	if res.Rated, err = seedRatings(ctx, db, players); err != nil {
		return res, fmt.Errorf("seed the ratings: %w", err)
	}
	if res.MatchID, res.MatchMoves, err = seedLongMatch(db, 400); err != nil {
		return res, fmt.Errorf("seed the match: %w", err)
	}
	res.SeedSecs = time.Since(t0).Seconds()
	port, err := freePort()
	if err != nil {
		return res, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	places := fmt.Sprint(viewers + 100)
	srv, err := arcades.Start(ctx, dir, []string{"ARCADE_MAX_SESSIONS_PER_ADDR=" + places},
		"--max-sessions", places, "--max-spectators", places, "--bot-delay", res.BotDelay.String(),
		"--http", "127.0.0.1:"+strconv.Itoa(port), "--http-rate", "1000000",
		"--http-max-streams", places, "--http-max-streams-per-addr", places)
	if err != nil {
		return res, err
	}
	defer srv.Stop()
	o := client.DialOpts{Addr: srv.Addr, Timeout: refusalTimeout}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 0}}

	// Browsers.
	code, owner, err := botRoom(ctx, o, 400000)
	if err != nil {
		return res, err
	}
	res.Browsers, err = measureWatch(ctx, srv, window, viewers, func(ctx context.Context, seen func(), got func(int, bool)) error {
		var wg sync.WaitGroup
		for range viewers {
			wg.Go(func() {
				if err := readStream(ctx, hc, base+"/r/"+code+"/events", seen, got); err != nil && ctx.Err() == nil {
					errs.Add("web: stream", err)
				}
			})
		}
		wg.Wait()
		return nil
	})
	owner.Close()
	if err != nil {
		return res, err
	}
	logf("web: browsers: %+v", res.Browsers)

	// SSH spectators, on an arcade of their own: its moves are this room's alone.
	dir2, _, err := arcades.NewData()
	if err != nil {
		return res, err
	}
	srv2, err := arcades.Start(ctx, dir2, []string{"ARCADE_MAX_SESSIONS_PER_ADDR=" + places},
		"--max-sessions", places, "--max-spectators", places, "--bot-delay", res.BotDelay.String())
	if err != nil {
		return res, err
	}
	o2 := client.DialOpts{Addr: srv2.Addr, Timeout: refusalTimeout}
	code, owner, err = botRoom(ctx, o2, 400001)
	if err != nil {
		return res, err
	}
	res.SSH, err = measureWatch(ctx, srv2, window, viewers, func(ctx context.Context, seen func(), got func(int, bool)) error {
		var (
			next atomic.Int64
			mu   sync.Mutex
			open []*client.Client
			wg   sync.WaitGroup
		)
		for range min(dialers, viewers) {
			wg.Go(func() {
				for ctx.Err() == nil {
					i := int(next.Add(1)) - 1
					if i >= viewers {
						return
					}
					c, err := client.Dial(ctx, o2, 410000+i, "watch "+code)
					if err != nil {
						errs.Add("web: watch", err)
						continue
					}
					mu.Lock()
					open = append(open, c)
					mu.Unlock()
					if err := c.WaitText(ctx, code, refusalTimeout); err != nil {
						errs.Add("web: watch", err)
						continue
					}
					seen()
				}
			})
		}
		wg.Wait()
		<-ctx.Done()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range open {
			got(int(c.Bytes(0)), false)
			c.Close()
		}
		return nil
	})
	owner.Close()
	srv2.Stop()
	if err != nil {
		return res, err
	}
	logf("web: SSH spectators: %+v", res.SSH)

	// Page views.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, path := range []string{"/leaderboard/stonetowers", "/leaderboard/stonetowers?page=100", "/m/" + res.MatchID + "?at=RANDOM", "/api/leaderboard/stonetowers"} {
		p, err := measurePages(ctx, srv, hc, base, path, requests, rng, res.MatchMoves)
		if err != nil {
			return res, err
		}
		res.Pages = append(res.Pages, p)
	}
	logf("%s", res.Figures())
	return res, nil
}

// freePort returns a loopback port free now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

var roomPattern = regexp.MustCompile(`room ([A-Z2-9]{5})`)

// botRoom opens a room of two bots (a 12 x 12 board, 60 turns each) as client key, who watches
// it, and returns its code and the client.
func botRoom(ctx context.Context, o client.DialOpts, key int) (string, *client.Client, error) {
	c, err := client.Dial(ctx, o, key, "new stonetowers bots=2 size=12 turns=60")
	if err != nil {
		return "", nil, err
	}
	if err := c.WaitText(ctx, "playing", refusalTimeout); err != nil {
		c.Close()
		return "", nil, err
	}
	m := roomPattern.FindStringSubmatch(c.Text())
	if m == nil {
		c.Close()
		return "", nil, fmt.Errorf("no room code on the screen: %s", screenText(c.Text()))
	}
	return m[1], c, nil
}

// measureWatch runs watch (the viewers: each calls seen once it shows the room, and got with
// the bytes it received, and whether an event came) until all viewers have seen the room, then
// reads the arcade for window and stops them.
func measureWatch(ctx context.Context, srv *server.Server, window time.Duration, viewers int,
	watch func(ctx context.Context, seen func(), got func(int, bool)) error) (WatchCost, error) {
	var c WatchCost
	b0, err := srv.Sample()
	if err != nil {
		return c, err
	}
	mb := server.Scrape(srv)
	select {
	case <-time.After(window):
	case <-ctx.Done():
		return c, ctx.Err()
	}
	before, err := srv.Sample()
	if err != nil {
		return c, err
	}
	m0 := server.Scrape(srv)
	if n := int(m0["arcade_moves_total"] - mb["arcade_moves_total"]); n > 0 {
		c.BaseCPUPerMove = (before.CPU - b0.CPU) / time.Duration(n)
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		seenN    atomic.Int64
		counting atomic.Bool
		bytes    atomic.Uint64
		events   atomic.Int64
		all      = make(chan struct{})
		once     sync.Once
	)
	seen := func() {
		if seenN.Add(1) == int64(viewers) {
			once.Do(func() { close(all) })
		}
	}
	got := func(n int, event bool) {
		if counting.Load() || !event { // SSH viewers report their bytes at the end
			bytes.Add(uint64(n))
			if event {
				events.Add(1)
			}
		}
	}
	done := make(chan error, 1)
	go func() { done <- watch(wctx, seen, got) }()
	select {
	case <-all:
	case <-time.After(5 * time.Minute):
	case <-ctx.Done():
		return c, ctx.Err()
	}
	time.Sleep(time.Second) // the last to join settle
	s0, err := srv.Sample()
	if err != nil {
		return c, err
	}
	m1 := server.Scrape(srv)
	counting.Store(true)
	select {
	case <-time.After(window):
	case <-ctx.Done():
		return c, ctx.Err()
	}
	counting.Store(false)
	s1, err := srv.Sample()
	if err != nil {
		return c, err
	}
	m2 := server.Scrape(srv)
	sshBytes := bytes.Load()
	stop()
	<-done
	c.Watching = int(seenN.Load())
	c.Moves = int(m2["arcade_moves_total"] - m1["arcade_moves_total"])
	c.CPU = s1.CPU - s0.CPU
	if c.Moves > 0 {
		c.CPUPerMove = c.CPU / time.Duration(c.Moves)
	}
	c.Received, c.Events = bytes.Load(), events.Load()
	if c.Events == 0 { // SSH: the whole time's bytes, scaled to the window's share of the moves
		c.Received = sshBytes
		if total := int(m2["arcade_moves_total"] - m0["arcade_moves_total"]); total > 0 {
			c.Received = bytes.Load() * uint64(c.Moves) / uint64(total)
		}
	}
	c.RSSDelta = int64(s0.RSS) - int64(before.RSS)
	c.Goroutines = int(m1["go_goroutines"] - m0["go_goroutines"])
	c.Subscribers = int(m1["arcade_room_subscribers"] - m0["arcade_room_subscribers"])
	return c, nil
}

// readStream reads the event stream at url until ctx is done, as a browser does (asking for
// gzip), calling seen at its first event and got with the bytes each event took on the wire.
func readStream(ctx context.Context, hc *http.Client, url string, seen func(), got func(int, bool)) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport leaves the body as it came
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	wire := &countingReader{r: resp.Body}
	var body io.Reader = wire
	if resp.Header.Get("Content-Encoding") == "gzip" {
		if body, err = gzip.NewReader(wire); err != nil {
			return err
		}
	}
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	message, first, last := false, true, 0
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if message {
				if first {
					seen()
					first = false
				}
				got(wire.n-last, true)
			}
			last, message = wire.n, false
		case len(line) > 5 && string(line[:5]) == "data:" && !message:
			message = true
		case len(line) > 6 && string(line[:6]) == "event:":
			message = false
			for sc.Scan() && len(sc.Bytes()) > 0 { // a "now" event: not the room's
			}
			last = wire.n
		}
	}
	return nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// measurePages asks path requests times from 8 clients at once (RANDOM in it replaced by a move
// number below moves) and reads the arcade's CPU time around them.
func measurePages(ctx context.Context, srv *server.Server, hc *http.Client, base, path string, requests int, rng *rand.Rand, moves int) (PageCost, error) {
	p := PageCost{Path: regexp.MustCompile(`RANDOM`).ReplaceAllString(path, "N")}
	paths := make([]string, requests)
	for i := range paths {
		paths[i] = regexp.MustCompile(`RANDOM`).ReplaceAllString(path, strconv.Itoa(rng.IntN(moves+1)))
	}
	get := func(u string) (int, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+u, nil)
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("%s: %s", u, resp.Status)
		}
		return len(b), err
	}
	var err error
	if p.Bytes, err = get(paths[0]); err != nil { // warm: the caches' first read is not the figure
		return p, err
	}
	before, err := srv.Sample()
	if err != nil {
		return p, err
	}
	var (
		lat  stats.Latencies
		next atomic.Int64
		fail atomic.Pointer[error]
		wg   sync.WaitGroup
	)
	for range 8 {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < requests && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				t := time.Now()
				if _, err := get(paths[i]); err != nil {
					fail.CompareAndSwap(nil, &err)
					return
				}
				lat.Add(time.Since(t))
			}
		})
	}
	wg.Wait()
	if e := fail.Load(); e != nil {
		return p, *e
	}
	after, err := srv.Sample()
	if err != nil {
		return p, err
	}
	p.Requests, p.Answer = requests, lat.Summary()
	p.CPUPerRequest = (after.CPU - before.CPU) / time.Duration(requests)
	return p, nil
}
