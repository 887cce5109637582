// Added by the arcade's fork (third_party/nats-server.md).

package server

import (
	"testing"
	"time"
)

func TestArcadeSetRaftTimings(t *testing.T) {
	was := [3]time.Duration{minElectionTimeout, maxElectionTimeout, hbInterval}
	defer func() { minElectionTimeout, maxElectionTimeout, hbInterval = was[0], was[1], was[2] }()

	for _, bad := range [][3]time.Duration{
		{time.Second, 3 * time.Second, 0},                      // no heartbeat
		{time.Second, 3 * time.Second, 500 * time.Millisecond}, // two heartbeats per election
		{2 * time.Second, 2 * time.Second, 500 * time.Millisecond},
	} {
		if err := SetRaftTimings(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("SetRaftTimings%v: no error", bad)
		}
		if got := [3]time.Duration{minElectionTimeout, maxElectionTimeout, hbInterval}; got != was {
			t.Errorf("SetRaftTimings%v refused but set %v", bad, got)
		}
	}
	if err := SetRaftTimings(1500*time.Millisecond, 3*time.Second, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if et := randElectionTimeout(); et < 1500*time.Millisecond || et >= 3*time.Second {
			t.Fatalf("election timeout %v outside [1.5s, 3s)", et)
		}
	}
	if hbInterval != 500*time.Millisecond {
		t.Errorf("heartbeat %v, want 500ms", hbInterval)
	}
}
