package main

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestClusterMeasureTakeover measures takeover after kill -9 through the real binary: for each of
// ARCADE_MEASURE_KILLS rounds (unset: skipped), a fresh cluster of three, alice on node 1 and bob
// on node 2 play two moves, node 1 is killed with SIGKILL; it reports when bob's session was told
// (the notice; or, when the room was back first, that bob's session followed it) and when another
// node logged the takeover, each round and their p50/p99/max. It
// measures, so it asserts only that both happen; ARCADE_MEASURE_LOGS=1 logs the surviving nodes'
// logs (see docs/performance.md, "Several nodes").
func TestClusterMeasureTakeover(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("ARCADE_MEASURE_KILLS"))
	if rounds <= 0 {
		t.Skip("set ARCADE_MEASURE_KILLS=N to measure N kills")
	}
	var notices, takeovers []time.Duration
	silent := 0 // rounds in which bob followed the room without being told
	for i := range rounds {
		t.Run(strconv.Itoa(i+1), func(t *testing.T) {
			c := startCluster(t, 3)
			c.dumpLogs(t)
			alice, bob, _, _, code, state := c.killableMatch(t)
			playMoves(t, state, 2, []*player{alice, bob})
			c.waitListed(t, code, []int{1, 2}, "alice", "bob")

			killed := time.Now()
			c.kill(t, 0)
			var notice, takeover time.Duration
			for notice == 0 || takeover == 0 {
				if time.Since(killed) > deadline {
					t.Fatalf("after %v: notice %v, takeover %v; bob's screen:\n%s", deadline, notice, takeover, bob.screen())
				}
				if notice == 0 && strings.Contains(bob.screen(), "The room's server stopped") {
					notice = time.Since(killed)
				}
				if takeover == 0 && (strings.Contains(c.nodes[1].logs.String(), "took over room "+code) ||
					strings.Contains(c.nodes[2].logs.String(), "took over room "+code)) {
					takeover = time.Since(killed)
				}
				if notice == 0 && takeover != 0 && time.Since(killed) > takeover+3*time.Second {
					break // the room was back before bob's node noticed its server gone: see below
				}
				time.Sleep(20 * time.Millisecond)
			}
			if notice == 0 {
				// A room taken over before bob's node missed its server's answers is found there
				// at once: the notice is on the screen for less than a frame's pause, if at all.
				// That bob followed it is shown by the room's line saying he is back.
				bob.waitFor("bob is back")
				silent++
				t.Logf("kill %d: bob followed the room without a notice, room taken over after %v", i+1,
					takeover.Round(10*time.Millisecond))
			} else {
				t.Logf("kill %d: bob told after %v, room taken over after %v", i+1,
					notice.Round(10*time.Millisecond), takeover.Round(10*time.Millisecond))
				notices = append(notices, notice)
			}
			bob.close()
			alice.close()
			takeovers = append(takeovers, takeover)
			if os.Getenv("ARCADE_MEASURE_LOGS") != "" {
				for _, p := range c.nodes[1:] {
					t.Logf("log of node %s:\n%s", p.name, p.logs)
				}
			}
		})
	}
	t.Logf("notice:   %s; %d followed the room before a notice", quantiles(notices), silent)
	t.Logf("takeover: %s", quantiles(takeovers))
}

// quantiles describes ds by their p50, p99 and max.
func quantiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return "p50 " + at(0.5).Round(10*time.Millisecond).String() + ", p99 " + at(0.99).Round(10*time.Millisecond).String() +
		", max " + s[len(s)-1].Round(10*time.Millisecond).String() + " (" + strconv.Itoa(len(s)) + " kills)"
}
