package web_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/web"
)

// TestOneSubscriptionForManyStreams: fifty browsers watching a room are one spectator of it,
// and a move reaches every one of their streams.
func TestOneSubscriptionForManyStreams(t *testing.T) {
	a := startWith(t, func(c *web.Config) { c.MaxStreamsPerAddr = 100 }, 100*time.Millisecond)
	room, _ := a.botRoom("stonetowers", rules.Options{"size": "12", "turns": "60"}, 2, "cat")
	before := a.hub.Stats().Subscribers
	const browsers = 50
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	moved := make(chan bool, browsers)
	for range browsers {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+"/r/"+room.Code()+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("stream: %v, %v", resp, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer resp.Body.Close()
			// The first event is the room as it is; a later one with more moves is a move seen.
			evs, err := scanEvents(resp.Body, 2)
			moved <- err == nil && movesIn(evs[1]) > movesIn(evs[0])
		}()
	}
	time.Sleep(100 * time.Millisecond)
	if got := a.hub.Stats().Subscribers; got != before+1 {
		t.Errorf("%d browsers watching: %d subscribers, want %d (the web's one more)", browsers, got, before+1)
	}
	wg.Wait()
	close(moved)
	for m := range moved {
		if !m {
			t.Error("a stream's second event shows no more moves than its first")
		}
	}
}

// movesIn counts the moves listed in a live room's HTML.
func movesIn(html string) int { return strings.Count(html, "<li><span class=\"seat") }

// TestStreamLimits: past the streams' cap per address, a stream is refused; a page is not.
func TestStreamLimits(t *testing.T) {
	a := start(t, func(c *web.Config) { c.MaxStreamsPerAddr = 2 })
	room, _ := a.botRoom("stonetowers", nil, 2, "cat")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range 2 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+"/r/"+room.Code()+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("stream: %v %v", resp, err)
		}
		defer resp.Body.Close()
	}
	if code, body := a.get("/r/" + room.Code() + "/events"); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many live pages") {
		t.Errorf("a third stream: %d %q", code, body)
	}
	a.page("/r/"+room.Code(), http.StatusOK)
}

// TestRateLimit: an address past its burst is told to wait, with 429.
func TestRateLimit(t *testing.T) {
	a := start(t, func(c *web.Config) { c.Rate, c.Burst = 1, 3 })
	codes := map[int]int{}
	for range 6 {
		code, _ := a.get("/leaderboard/")
		codes[code]++
	}
	if codes[http.StatusOK] != 3 || codes[http.StatusTooManyRequests] != 3 {
		t.Errorf("six requests at a burst of 3: %v", codes)
	}
}

// TestReadOnly: nothing but GET and HEAD is taken.
func TestReadOnly(t *testing.T) {
	a := start(t, nil)
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		req, _ := http.NewRequest(method, a.http.URL+"/", strings.NewReader("x=1"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s /: %d", method, resp.StatusCode)
		}
	}
	if body := a.page("/", http.StatusOK); strings.Contains(body, "<form") {
		t.Error("the front page has a form")
	}
}

// TestSlowHeaders: a connection that sends its headers slowly is closed by the server
// (the header timeout), not held for ever.
func TestSlowHeaders(t *testing.T) {
	a := start(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go a.web.Serve(ln) //nolint:errcheck // ends with the test's Shutdown
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = conn.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n")) // and never the end of the headers
	_ = conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	start := time.Now()
	_, err = bufio.NewReader(conn).ReadByte()
	if err == nil || time.Since(start) > 14*time.Second {
		t.Errorf("a request whose headers never end: %v after %v", err, time.Since(start))
	}
}

// TestLeaderboardJSONIsTheCommand: /api/leaderboard is what `leaderboard --json` prints, byte for
// byte (both are session.Leaderboards.WriteJSON; cmd/arcade's end-to-end test compares the two
// over SSH and HTTP).
func TestLeaderboardJSONIsTheCommand(t *testing.T) {
	a := start(t, nil)
	a.recordMatch("ROOMA", a.players())
	for _, only := range []string{"", "stonetowers", "lhexicon"} {
		l, err := session.ReadLeaderboards(a.db, games.Rules(), only, session.LeaderboardSize)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := l.WriteJSON(&want); err != nil {
			t.Fatal(err)
		}
		path := "/api/leaderboard"
		if only != "" {
			path += "/" + only
		}
		if got := a.page(path, http.StatusOK); got != want.String() {
			t.Errorf("%s:\n%s\nwant\n%s", path, got, want.String())
		}
	}
}

// TestCast is the golden asciicast of a short Stone Towers match (regenerate with -update and
// read the diff: it is the replay's screens, so a change of the replay's screen changes it).
func TestCast(t *testing.T) {
	g, _ := games.Find("stonetowers")
	opts, err := g.Game.Resolve(rules.Options{"size": "8", "turns": "10"})
	if err != nil {
		t.Fatal(err)
	}
	m := record.Match{ID: "2k9xq4m7a8b", Code: "KCF6G", Game: "stonetowers", Options: opts, Seed: 1,
		Seats:   []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {Name: "Bo (greedy bot)", Bot: "greedy"}},
		Started: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), Ended: time.Date(2026, 11, 21, 12, 5, 0, 0, time.UTC),
		Moves:   []record.Move{{Seat: 0, Move: "b d4"}, {Seat: 1, Move: "b e5"}, {Seat: 0, Move: "f d4"}, {Seat: 1, Move: "b h8"}},
		Outcome: rules.Outcome{Over: true, Scores: []int{5, 4}, Ranks: []int{1, 2}, Reason: "Blue resigned"}}
	var out bytes.Buffer
	if err := web.WriteCast(&out, m, g.Game, g.Board()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1+len(m.Moves)+1 {
		t.Errorf("%d lines: a header and %d frames, want %d", len(lines), len(lines)-1, len(m.Moves)+1)
	}
	golden.RequireEqual(t, out.Bytes())
}

// TestPlayerAssets: the embedded asciinema-player is the one web/update-player.sh fetched and
// checked against its pin: each file's sha256 is in SHA256SUMS, which the script wrote from the
// verified tarball, and VERSION names the script's pinned version and integrity.
func TestPlayerAssets(t *testing.T) {
	sums, err := os.ReadFile("static/player/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(sums)) {
		sum, name, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: %q", line)
		}
		data, err := os.ReadFile("static/player/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s is not the file fetched: sha256 %x, want %s", name, got, sum)
		}
		n++
	}
	if n != 3 {
		t.Errorf("SHA256SUMS lists %d files, want the bundle, its style sheet and LICENSE", n)
	}
	script, err := os.ReadFile("update-player.sh")
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`(?m)^version=(\S+)$`).FindSubmatch(script)
	integrity := regexp.MustCompile(`(?m)^integrity=(\S+)$`).FindSubmatch(script)
	pinned, _ := os.ReadFile("static/player/VERSION")
	if version == nil || integrity == nil || strings.TrimSpace(string(pinned)) != "asciinema-player "+string(version[1])+" "+string(integrity[1]) {
		t.Errorf("VERSION %q is not the script's pin", pinned)
	}
	if lic, _ := os.ReadFile("static/player/LICENSE"); !bytes.Contains(lic, []byte("Apache License")) {
		t.Error("the player's licence is not kept")
	}
}

// TestStreamsCompressed: a stream asked with gzip is one gzip stream, each event compressed once
// for all streams; it decodes to the same events, in a fraction of the bytes.
func TestStreamsCompressed(t *testing.T) {
	a := startWith(t, nil, 100*time.Millisecond)
	room, _ := a.botRoom("stonetowers", rules.Options{"size": "12", "turns": "60"}, 2, "cat")
	read := func(gz bool) (events []string, wire int) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+"/r/"+room.Code()+"/events", nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport leaves the body as it came
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if got := resp.Header.Get("Content-Encoding"); (got == "gzip") != gz {
			t.Fatalf("Content-Encoding %q, asked gzip: %v", got, gz)
		}
		counted := &countingReader{r: resp.Body}
		var body io.Reader = counted
		if gz {
			zr, err := gzip.NewReader(counted)
			if err != nil {
				t.Fatal(err)
			}
			body = zr
		}
		return readEvents(t, body, 3), counted.n
	}
	plain, plainBytes := read(false)
	zipped, zippedBytes := read(true)
	if !strings.Contains(zipped[0], `<svg class="board"`) || !strings.Contains(plain[0], `<svg class="board"`) {
		t.Errorf("the events have no board: %.200s", zipped[0])
	}
	t.Logf("3 events: %d bytes compressed, %d plain", zippedBytes, plainBytes)
	if zippedBytes*4 > plainBytes {
		t.Errorf("3 events: %d bytes compressed, %d plain", zippedBytes, plainBytes)
	}
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

// TestDeflateSegments: segments compressed apart, and stored ones, make one stream that decodes
// to their data in order, whatever segments it is made of.
func TestDeflateSegments(t *testing.T) {
	parts := [][]byte{[]byte("retry: 3000\n\n"), bytes.Repeat([]byte("<rect class=\"sq\"/>"), 500), []byte("event: now\ndata: 1\n\n"),
		bytes.Repeat([]byte("x"), 70000), bytes.Repeat([]byte("<rect class=\"sq\"/>"), 400)}
	var stream bytes.Buffer
	stream.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	var want []byte
	for i, p := range parts {
		if i%2 == 0 {
			stream.Write(web.StoredForTest(p))
		} else {
			stream.Write(web.DeflatedForTest(p))
		}
		want = append(want, p...)
	}
	zr, err := gzip.NewReader(&stream)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if !bytes.Equal(got, want) || err != io.ErrUnexpectedEOF { // no trailer: a stream ends with its connection
		t.Errorf("decoded %d bytes of %d (%v)", len(got), len(want), err)
	}
}
