// Package remote serves a room to sessions on other arcade nodes over NATS, and gives those
// sessions a session.Room that reaches it.
//
// A room lives on one node (the host). A session on another node dials the room by its code and
// its host's name, as the room directory has them (Dial), and joins it like a local one; the host
// (Serve) makes a real rooms.Sub for each remote join and relays its snapshots and the
// subscriber's requests. The requests' subjects carry the host's name, so that a node that once
// hosted the room and no longer does (it lost the room while cut off, and has not heard yet) is
// never asked: only the host the directory names answers.
//
// Subjects, CODE being the room code in upper case, HOST the host's name as a subject token
// (Token) and SUB a NUID that the joining node makes:
//
//   - arcade.room.CODE.HOST.join: request {"player":{...rooms.Player},"watch":bool,"sub":SUB},
//     reply {"error":wire.Error} (no error: joined).
//   - arcade.room.CODE.HOST.in: request {"sub":SUB,"op":OP,"text":...,"seat":...,"level":...} with OP
//     one of move, chat, addbot, endmatch, rematch, resign, offerdraw, takeback, leave, ping;
//     reply {"error":wire.Error}. Each op is the rooms.Sub method of the same name; the reply
//     comes once the room has answered (for a move: judged and stored it).
//   - arcade.snap.CODE.SUB: the host publishes the subscription's snapshots there, one subject per
//     subscription, so that a seat's private view goes to nobody else. A message is one kind byte
//     then its body: 's' and a snapshot (wire.EncodeSnapshot); 'c' alone: the subscription has
//     ended (its last snapshot came before), nothing follows; 'g' alone: the host stopped serving
//     the room (Host.Close) and ended the subscription, which the client shows as its node
//     stopping (StoppedNotice, and Moved: the session follows the room to its next host).
//
// Requests and replies are JSON; a request over MaxRequest bytes is refused. Snapshots are gob:
// both nodes must have registered the games' views (wire.Register) first.
//
// Liveness: the joining node pings each of its subscriptions every PingTimeout/4. The host Leaves
// a subscription that has not pinged for PingTimeout (its seat then waits its grace, as after a
// dropped connection); a client whose pings have failed for PingTimeout (the host died or is cut
// off) ends its subscription with StoppedNotice, as Moved.
package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arcade/arcade/cluster/wire"
	"github.com/arcade/arcade/rooms"
)

// MaxRequest is the largest request, in bytes, a host takes.
const MaxRequest = 4 << 10

// ErrTooLarge: a request was over MaxRequest bytes.
var ErrTooLarge = errors.New("request too large")

// ErrUnknownOp: a request named no op the host knows.
var ErrUnknownOp = errors.New("unknown request")

// The ops of arcade.room.CODE.in.
const (
	OpMove      = "move"
	OpChat      = "chat"
	OpAddBot    = "addbot"
	OpEndMatch  = "endmatch"
	OpRematch   = "rematch"
	OpResign    = "resign"
	OpOfferDraw = "offerdraw"
	OpTakeBack  = "takeback"
	OpLeave     = "leave"
	OpPing      = "ping"
)

// Options tune both sides; the zero value of a field means its default.
type Options struct {
	// Timeout bounds each request (default 5s): the client's wait for a reply, and on the host
	// the wait of a move for the room's answer.
	Timeout time.Duration
	// PingTimeout is how long a subscription lives without a successful ping (default 10s); the
	// client pings every PingTimeout/4.
	PingTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.PingTimeout <= 0 {
		o.PingTimeout = 10 * time.Second
	}
	return o
}

// joinRequest is the body of a request on arcade.room.CODE.join.
type joinRequest struct {
	Player rooms.Player `json:"player"`
	Watch  bool         `json:"watch,omitempty"`
	Sub    string       `json:"sub"`
}

// inRequest is the body of a request on arcade.room.CODE.in.
type inRequest struct {
	Sub   string `json:"sub"`
	Op    string `json:"op"`
	Text  string `json:"text,omitempty"`
	Seat  int    `json:"seat,omitempty"`
	Level string `json:"level,omitempty"`
	// Chosen marks a leave the player chose (rooms.Sub.LeaveByChoice), not a dropped session.
	Chosen bool `json:"chosen,omitempty"`
}

// reply is the body of every reply.
type reply struct {
	Error wire.Error `json:"error"`
}

// Kinds of the messages on arcade.snap.CODE.SUB (their first byte).
const (
	kindSnapshot = 's'
	kindClosed   = 'c'
	kindStopped  = 'g'
)

// subject returns the subject of the requests of kind ("join" or "in") to host's room.
func subject(code, host, kind string) string {
	return "arcade.room." + strings.ToUpper(code) + "." + Token(host) + "." + kind
}

// Token returns host as one token of a subject: the characters a token cannot hold are
// replaced with '_', and an empty name is "_".
func Token(host string) string {
	if host == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(".*> \t\r\n", r) {
			return '_'
		}
		return r
	}, host)
}

// snapSubject returns the subject of a subscription's snapshots.
func snapSubject(code, sub string) string { return "arcade.snap." + strings.ToUpper(code) + "." + sub }

// validToken reports whether s may stand as one token of a subject.
func validToken(s string) bool {
	return s != "" && !strings.ContainsAny(s, ".*> \t\r\n")
}

func encodeReply(err error) []byte {
	b, _ := json.Marshal(reply{Error: wire.EncodeError(err)})
	return b
}

func decodeReply(data []byte) error {
	var rep reply
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("bad reply from the room's server: %w", err)
	}
	return rep.Error.Err()
}
