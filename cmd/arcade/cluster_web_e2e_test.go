package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestClusterWeb: every node of a cluster serves the same pages: a room two bots play on node 1
// is on node 2's front page and its own page there, watched as node 2's remote spectator (a move
// reaches node 2's event stream), and both nodes' leaderboard JSON is the same.
func TestClusterWeb(t *testing.T) {
	t.Parallel()
	c := startClusterWith(t, []string{"--http", "127.0.0.1:0", "--bot-delay", "300ms"}, 2)
	c.dumpLogs(t)
	for i, p := range c.nodes {
		if p.web == "" {
			t.Fatalf("node %d printed no web address", i+1)
		}
	}
	ann := connect(t, c.addr(0), "ann", newKey(t), "new stonetowers bots=2 size=8 turns=40")
	code := roomCode(t, ann.waitFor("Stone Towers · room"))
	other := c.nodes[1].web
	eventually(t, func() string {
		if status, home := httpGet(t, other+"/"); status != http.StatusOK || !strings.Contains(home, "/r/"+code) {
			return "node 2's front page does not list room " + code
		}
		return ""
	})
	if status, page := httpGet(t, other+"/r/"+code); status != http.StatusOK || !strings.Contains(page, `<svg class="board"`) {
		t.Fatalf("node 2's page of room %s (%d) has no board:\n%.2000s", code, status, page)
	}
	evs := sseMessages(t, other+"/r/"+code+"/events", 2)
	if a, b := strings.Count(evs[0], "<li>"), strings.Count(evs[1], "<li>"); b <= a {
		t.Errorf("node 2's stream: the second event lists %d moves, the first %d", b, a)
	}
	_, first := httpGet(t, c.nodes[0].web+"/api/leaderboard")
	if _, second := httpGet(t, other+"/api/leaderboard"); first != second {
		t.Errorf("the nodes' leaderboards differ:\n%s\n%s", first, second)
	}
}
