// Added by the arcade's fork (third_party/nats-server.md): upstream hard-codes these timings.

package server

import (
	"errors"
	"time"
)

// SetRaftTimings sets, for the whole process, the raft groups' election timeout (each follower
// waits a random time in [minElection, maxElection) without hearing a leader before it stands
// for election) and the leader's heartbeat interval. The defaults are 4s, 9s and 1s. It must be
// called before any server of the process starts (the timings are read without locks by running
// groups), and every server of a cluster should use the same timings. It refuses timings where a
// follower could give up on a live leader: a heartbeat not shorter than a third of minElection,
// or maxElection not above minElection.
func SetRaftTimings(minElection, maxElection, heartbeat time.Duration) error {
	if heartbeat <= 0 || minElection < 3*heartbeat {
		return errors.New("raft timings: the minimum election timeout must be at least three heartbeats")
	}
	if maxElection <= minElection {
		return errors.New("raft timings: the maximum election timeout must be above the minimum")
	}
	minElectionTimeout, maxElectionTimeout, hbInterval = minElection, maxElection, heartbeat
	return nil
}
