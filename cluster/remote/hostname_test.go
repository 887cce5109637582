package remote_test

import (
	"errors"
	"testing"

	"github.com/arcade/arcade/cluster/remote"
	"github.com/arcade/arcade/rooms"
)

// TestRequestsGoToTheNamedHost: a room's requests go to the host they name, as the directory
// names it: another node serving the code (a host that lost the room) is never asked, and a name
// that serves nothing is rooms.ErrNoRoom. Any host name makes a subject token.
func TestRequestsGoToTheNamedHost(t *testing.T) {
	c := newCluster(t, "discon", 2)
	const name = "n1.example.com-0a1b"
	h, err := remote.Serve(c.hostNC, c.room, name, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	if got := remote.Token(name); got != "n1_example_com-0a1b" {
		t.Errorf("Token(%q) = %q", name, got)
	}
	if _, err := remote.Dial(c.otherNC, c.room.Code(), "elsewhere", opt).Join(bob, true); !errors.Is(err, rooms.ErrNoRoom) {
		t.Errorf("a join to a host that serves nothing: %v, want ErrNoRoom", err)
	}
	s, err := remote.Dial(c.otherNC, c.room.Code(), name, opt).Join(bob, false)
	if err != nil {
		t.Fatalf("a join to the named host: %v", err)
	}
	t.Cleanup(s.Leave)
	if h.Subs() != 1 || c.host.Subs() != 0 {
		t.Errorf("subscriptions: %d on the named host, %d on the other, want 1 and 0", h.Subs(), c.host.Subs())
	}
}
