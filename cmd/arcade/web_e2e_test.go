package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arcade/arcade/cluster/clustertest"
)

// httpGet fetches url and returns its status and body.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// sseMessages reads n message events of the event stream at url (its "now" events and pings
// passed over) and returns their data.
func sseMessages(t *testing.T, url string, n int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out, data []string
	name := ""
	for len(out) < n && sc.Scan() {
		switch line := sc.Text(); {
		case line == "":
			if name == "" && data != nil {
				out = append(out, strings.Join(data, "\n"))
			}
			data, name = nil, ""
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		}
	}
	if len(out) < n {
		t.Fatalf("%s: %d events of %d", url, len(out), n)
	}
	return out
}

// TestWebCompanion: the real server with --http and --public-url: a room two bots play, opened
// over SSH, is on the web's front page and its own page, a move reaches its event stream, `rooms`
// links its page, and the web's leaderboard JSON is `leaderboard --json`'s, byte for byte.
func TestWebCompanion(t *testing.T) {
	t.Parallel()
	port := clustertest.FreePorts(t, 1)[0]
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	addr := startServerWith(t, "--http", "127.0.0.1:"+strconv.Itoa(port), "--public-url", base, "--bot-delay", "300ms")
	key := newKey(t)
	cat := connect(t, addr, "cat", key, "new stonetowers bots=2 size=8 turns=40")
	code := roomCode(t, cat.waitFor("Stone Towers · room"))

	if status, home := httpGet(t, base+"/"); status != http.StatusOK || !strings.Contains(home, "/r/"+code) {
		t.Errorf("the front page (%d) does not list room %s:\n%.2000s", status, code, home)
	}
	if status, page := httpGet(t, base+"/r/"+code); status != http.StatusOK || !strings.Contains(page, `<svg class="board"`) {
		t.Errorf("the room's page (%d) has no board:\n%.2000s", status, page)
	}
	evs := sseMessages(t, base+"/r/"+code+"/events", 2)
	if a, b := strings.Count(evs[0], "<li>"), strings.Count(evs[1], "<li>"); b <= a {
		t.Errorf("the second event lists %d moves, the first %d", b, a)
	}
	if rooms := plainCommand(t, addr, key, "rooms"); !strings.Contains(rooms, base+"/r/"+code) {
		t.Errorf("rooms gives no link to the room's page:\n%s", rooms)
	}
	for _, game := range []string{"", "stonetowers", "lhexicon"} {
		cmd, path := "leaderboard --json", "/api/leaderboard"
		if game != "" {
			cmd, path = fmt.Sprintf("leaderboard %s --json", game), path+"/"+game
		}
		want := plainCommand(t, addr, key, cmd)
		if status, got := httpGet(t, base+path); status != http.StatusOK || got != want {
			t.Errorf("%s (%d):\n%s\n`%s` prints:\n%s", path, status, got, cmd, want)
		}
	}
}

// webListening finds the web companion's address in what the server prints.
var webListening = regexp.MustCompile(`web on http://(\S+)/`)
