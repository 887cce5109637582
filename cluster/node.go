package cluster

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/storage"
)

// Names of the stream, its subjects and the key-value buckets.
const (
	streamName     = "ARCADE"
	subjectLog     = "arcade.log.>"
	subjectRoomLog = "arcade.log.room." // + room code: the changes of the room's matches
	subjectPlayers = "arcade.log.players"
	bucketNames    = "arcade_names"
	bucketRooms    = "arcade_rooms"
	bucketNodes    = "arcade_nodes"
	bucketQuick    = "arcade_quick"
)

// Config configures a Node. The zero value of a duration means its default.
type Config struct {
	// Conn is the node's connection to NATS. The node does not close it.
	Conn *nats.Conn
	// Name names the node in logs and the room directory (the host name, say); each start adds
	// a random suffix, so that a node that restarts is a new node to the others.
	Name string
	// Replicas is the replication factor of the stream and the buckets (1 to 5), applied when
	// the node creates them.
	Replicas int
	// DB is the node's replica of the store: a bbolt file that only this node writes, with the
	// changes of the stream.
	DB *storage.DB
	// Beat is how often the node says it is alive and sweeps its rooms into the directory
	// (default 1s); TTL is how long after its last beat a node counts as gone, and its rooms are
	// taken over (default 5s).
	Beat, TTL time.Duration
	// Timeout bounds each request to NATS (default 5s).
	Timeout time.Duration
	// Logf and Warnf log for the operator (default: nothing).
	Logf, Warnf func(format string, args ...any)

	// retain is how many changes before the newest snapshot the stream keeps (0: retainWindow);
	// tests make it small.
	retain uint64
	// noSnapshots: the node takes no snapshot by itself (tests take theirs with Snapshot).
	noSnapshots bool
}

func (c *Config) defaults() {
	if c.Beat <= 0 {
		c.Beat = time.Second
	}
	if c.TTL <= 0 {
		c.TTL = 5 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = 5 * time.Second
	}
	if c.Replicas <= 0 {
		c.Replicas = 1
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	if c.Warnf == nil {
		c.Warnf = c.Logf
	}
}

// Node is one arcade node of a cluster: its store (Store), and once Serve is called, its rooms'
// place in the directory and its part in taking over the rooms of nodes that are gone. Its
// methods are safe for concurrent use.
type Node struct {
	cfg    Config
	id     string // Name-suffix: this start of the node
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	made   time.Time             // when the stream was made: the replica follows that stream only
	names  kv                    // arcade_names
	dir    kv                    // arcade_rooms
	beats  kv                    // arcade_nodes
	quick  jetstream.KeyValue    // the quick-match pool (quick.go)
	snaps  jetstream.ObjectStore // arcade_snapshots (snapshot.go)
	snapMu sync.Mutex            // one snapshot at a time
	rep    *replica
	store  *Store

	ctx    context.Context // ends with Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	presence presence // the others' presence subjects (Node.absent)

	mu     sync.Mutex
	served *served // set by Serve

	quickOnce sync.Once
	quickPool *pool // set by the first Hub.Seek
}

// Start makes the stream and the buckets when they are missing, applies the stream to the
// node's replica until it has every change stored so far, and starts following it. It returns
// when the replica has caught up, or ctx is done. A replica that is empty, or lacks changes the
// stream no longer holds (trimmed behind a snapshot, retention.go), first restores the newest
// snapshot (snapshot.go). A node whose replica has applied changes never makes the stream: when it
// is missing, or holds fewer changes than the replica, or starts after the replica's position and
// no snapshot holds the changes between, Start fails with an error wrapping ErrStreamGone.
func Start(ctx context.Context, cfg Config) (*Node, error) {
	cfg.defaults()
	if cfg.Conn == nil || cfg.DB == nil {
		return nil, errors.New("cluster: a node needs a NATS connection and a database")
	}
	js, err := jetstream.New(cfg.Conn)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	suffix := make([]byte, 4)
	_, _ = crand.Read(suffix)
	n := &Node{cfg: cfg, id: cfg.Name + "-" + hex.EncodeToString(suffix), nc: cfg.Conn, js: js,
		presence: presence{answered: map[string]bool{}}}
	if err := n.setupRetrying(ctx); err != nil {
		return nil, err
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.rep = newReplica(cfg.DB, cfg.Warnf, n.snaps, n.made)
	if err := n.rep.join(ctx, n.stream.CachedInfo()); err != nil {
		n.cancel()
		return nil, err
	}
	if err := n.rep.follow(n.ctx, js, n.stream, &n.wg); err != nil {
		n.cancel()
		return nil, err
	}
	n.store = &Store{n: n, db: cfg.DB}
	if err := n.catchUp(ctx); err != nil {
		n.Close()
		return nil, err
	}
	cfg.Logf("cluster: node %s joined; replica at change %d", n.id, cfg.DB.Applied())
	if !cfg.noSnapshots {
		n.wg.Go(func() { n.snapshotLoop(n.ctx) })
	}
	return n, nil
}

// setupRetrying runs setup until it succeeds or ctx is done: in a cluster just formed, JetStream
// may not answer a request (several nodes create the stream at once), or not place its replicas
// yet (its meta leader has not heard from every server).
func (n *Node) setupRetrying(ctx context.Context) error {
	var doubted time.Time // since when setup has said, without a break, that the stream is gone
	for {
		// Short attempts: a create that several nodes send at once may get no answer at all.
		actx, cancel := context.WithTimeout(ctx, time.Second+rand.N(time.Second))
		err := n.setup(actx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		switch {
		case !errors.Is(err, ErrStreamGone):
			doubted = time.Time{}
		case !errors.As(err, new(doubtful)):
			return err
		case doubted.IsZero():
			doubted = time.Now()
		case time.Since(doubted) >= streamDoubt:
			return err
		}
		n.cfg.Logf("cluster: setting up the stream and buckets: %v; trying again", err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// setup opens the stream and the buckets, creating those that are missing: one that exists is
// used as it is (its replicas stay what the node that made it asked for, whatever this node
// counted). The stream is made only by a node whose replica is empty, and a node follows only a
// stream that holds no fewer changes than its replica (checkStream); one that starts after the
// replica's position is for a snapshot to bridge (replica.join).
func (n *Node) setup(ctx context.Context) error {
	r := n.cfg.Replicas
	applied := n.cfg.DB.Applied()
	var err error
	n.stream, err = n.js.Stream(ctx, streamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		if applied > 0 {
			return doubtful{streamGone("it is missing, and this node's replica has applied changes up to %d", applied)}
		}
		n.stream, err = n.js.CreateStream(ctx, jetstream.StreamConfig{
			Name:        streamName,
			Description: "the arcade's history: every change of its store, in order",
			Subjects:    []string{subjectLog},
			Storage:     jetstream.FileStorage,
			Replicas:    r,
			Duplicates:  2 * time.Minute,
		})
	}
	if err != nil {
		return fmt.Errorf("cluster: stream %s: %w", streamName, err)
	}
	info := n.stream.CachedInfo()
	if err := checkStream(info, applied); err != nil {
		return err
	}
	// The replica records which stream it follows: one of the same name made at another time is
	// another history, even when it holds as many changes.
	made := info.Created.UTC().Format(time.RFC3339Nano)
	switch origin := n.cfg.DB.Origin(); {
	case origin == made:
	case origin == "" || applied == 0:
		if err := n.cfg.DB.SetOrigin(made); err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
	default:
		return streamGone("it was made at %s, and this node's replica follows the one made at %s", made, origin)
	}
	n.made = info.Created
	var names, dir, beats jetstream.KeyValue
	buckets := []struct {
		kv  *jetstream.KeyValue
		cfg jetstream.KeyValueConfig
	}{
		{&names, jetstream.KeyValueConfig{Bucket: bucketNames, Replicas: r, Storage: jetstream.FileStorage,
			Description: "lower-case name -> the key it is bound to"}},
		{&dir, jetstream.KeyValueConfig{Bucket: bucketRooms, Replicas: r, Storage: jetstream.FileStorage,
			Description: "room code -> hosting node and summary"}},
		{&beats, jetstream.KeyValueConfig{Bucket: bucketNodes, Replicas: r, Storage: jetstream.MemoryStorage,
			TTL: n.cfg.TTL, Description: "node -> its last beat"}},
		{&n.quick, jetstream.KeyValueConfig{Bucket: bucketQuick, Replicas: r, Storage: jetstream.MemoryStorage,
			TTL: n.cfg.TTL, Description: "quick-match ticket -> the player waiting, and the room once paired"}},
	}
	for _, b := range buckets {
		*b.kv, err = n.js.KeyValue(ctx, b.cfg.Bucket)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			*b.kv, err = n.js.CreateKeyValue(ctx, b.cfg)
		}
		if err != nil {
			return fmt.Errorf("cluster: bucket %s: %w", b.cfg.Bucket, err)
		}
	}
	n.names, n.dir, n.beats = newJSKV(n.nc, names), newJSKV(n.nc, dir), newJSKV(n.nc, beats)
	n.snaps, err = n.js.ObjectStore(ctx, bucketSnapshots)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		n.snaps, err = n.js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: bucketSnapshots, Replicas: r,
			Storage: jetstream.FileStorage, Description: "snapshots of a replica, each with the stream's position it holds"})
	}
	if err != nil {
		return fmt.Errorf("cluster: bucket %s: %w", bucketSnapshots, err)
	}
	return nil
}

// catchUp waits until the replica has applied every change the stream held when it was called.
func (n *Node) catchUp(ctx context.Context) error {
	info, err := n.stream.Info(ctx)
	if err != nil {
		return fmt.Errorf("cluster: stream %s: %w", streamName, err)
	}
	return n.rep.wait(ctx, info.State.LastSeq)
}

// ID returns the node's name for this start (Config.Name and a random suffix).
func (n *Node) ID() string { return n.id }

// Store returns the node's store: names, preferences, records and the match log.
func (n *Node) Store() *Store { return n.store }

// CatchUp waits until the node's replica has every change the stream holds now: after it, the
// node's database (and a backup of it) holds the whole store as of the call.
func (n *Node) CatchUp(ctx context.Context) error { return n.catchUp(ctx) }

// Close stops following the stream and serving rooms; it does not close the rooms (the hub's
// Shutdown does) nor the NATS connection. The node's rooms stay in the directory; another node
// takes them over once it finds the node gone (no connection answers for it, or its beat lapsed).
func (n *Node) Close() {
	n.cancel()
	n.wg.Wait()
	if s := n.serving(); s != nil {
		s.closeHosts()
	}
}

// request returns a context for one request to NATS.
func (n *Node) request() (context.Context, context.CancelFunc) {
	return context.WithTimeout(n.ctx, n.cfg.Timeout)
}
