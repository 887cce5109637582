package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/log/v2"

	"github.com/arcade/arcade/cluster"
	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/hostkeys"
	"github.com/arcade/arcade/inbox"
	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/sshd"
	"github.com/arcade/arcade/storage"
	"github.com/arcade/arcade/web"
)

// dbFile is the database's file name in the data folder.
const dbFile = "arcade.db"

// shutdownNotice is what players see when the server stops.
const shutdownNotice = "The arcade is restarting. Your seat is kept: join your room again in a minute."

// run applies the runtime's settings (tuneRuntime) and logs them, serves until ctx is done, then
// shuts down gracefully. When ready is not nil it receives the listening address once the server
// accepts connections.
func run(ctx context.Context, cfg config, out io.Writer, ready chan<- net.Addr) error {
	logger := log.NewWithOptions(os.Stderr, log.Options{ReportTimestamp: true, Prefix: "arcade"})
	if lvl, err := log.ParseLevel(cfg.logLevel); err == nil {
		logger.SetLevel(lvl)
	}
	logRuntime(logger, tuneRuntime(cfg.gcPercent, cfg.memoryLimit, os.Getenv, os.DirFS("/")), os.Getenv)
	if err := openDataFolder(cfg.data); err != nil {
		return err
	}
	signer, created, err := hostkeys.Load(filepath.Join(cfg.data, "host_ed25519"))
	if err != nil {
		return err
	}
	if created {
		logger.Info("created a new host key", "path", filepath.Join(cfg.data, "host_ed25519"))
	}
	dbPath := filepath.Join(cfg.data, dbFile)
	if cfg.clustered() {
		dbPath = filepath.Join(cfg.data, replicaFile)
	}
	db, err := storage.Open(dbPath, storage.Options{LockTimeout: 2 * time.Second, Logger: slog.New(logger),
		RatingRules: cfg.ratingRules})
	if err != nil {
		return withAdvice(err, dbPath)
	}
	defer db.Close()
	// The store: the database, or in a cluster the node's store, which writes to the cluster's
	// stream and reads from db, the node's replica of it.
	var store interface {
		matchlog.Log
		sshd.Prefs
		session.Records
		inbox.Store
		web.Records
	} = db
	var writer storage.Writer = db // the writes of keys, players and operators
	var cn *clusterNode
	if cfg.clustered() {
		if cn, err = joinCluster(ctx, cfg, db, logger); err != nil {
			return err
		}
		defer cn.close()
		store = cn.node.Store()
		writer = cn.node.Store()
	}
	accounts := storage.NewAccounts(db, writer)
	logf := func(format string, args ...any) { logger.Infof(format, args...) }
	var rec rooms.Recorder = matchlog.Recorder{Log: store}
	var mx *serverMetrics // --metrics: figures observed from outside the hub and the SSH server
	if cfg.metrics != "" {
		mx = newServerMetrics()
		rec = mx.recorder(rec)
	}
	var newSeed func(string, int) uint64 // nil: crypto/rand
	if cfg.loadSeeds {
		logger.Info("--load-test-seeds: every match's cards and discs follow from its room code; for load tests only")
		newSeed = rules.DerivedSeed
	}
	// Correspondence play: the notices of this process's sessions, the service, and (below) the
	// scheduler of deadlines and the wake of sleeping rooms.
	board := &session.Switchboard{}
	var svc *inbox.Service
	var deadlines *matchlog.Deadlines
	hubCfg := rooms.Config{
		Games:     games.Rules(),
		MaxRooms:  cfg.maxRooms,
		SeatGrace: zeroMeansNone(cfg.seatGrace),
		MoveLimit: zeroMeansNone(cfg.moveLimit),
		BotDelay:  zeroMeansNone(cfg.botDelay),
		Logf:      logf,
		Recorder:  rec,
		NewSeed:   newSeed,
		Shares: rooms.Shares{
			WaitingPerKey:     cfg.waitingPerKey,
			WaitingPerAddr:    cfg.waitingPerAddr,
			Unfinished:        cfg.unfinished,
			SpectatorsPerRoom: cfg.spectators,
		},
	}
	if mx != nil {
		hubCfg.Refused = mx.refused
	}
	hubCfg.TurnNotice = func(id string, n rooms.TurnNotice) { svc.TurnNotice(id, n) }
	hubCfg.Sleep = func(string) { deadlines.Poke() }
	hubCfg.Asleep = db.CorrespondenceCodes // the share of unfinished matches counts them
	var hub *rooms.Hub
	warnf := func(format string, args ...any) { logger.Warnf(format, args...) }
	wake := waker(db, func() *rooms.Hub { return hub }, logf, warnf)
	if cn != nil {
		hubCfg.ReserveCode = cn.node.ReserveCode // codes unique across the cluster
	} else {
		// A code of a sleeping room is taken, though no room is open under it.
		hubCfg.ReserveCode = func(code string) (bool, error) {
			_, taken := db.ActiveMatch(code)
			return !taken, nil
		}
		hubCfg.Wake = func(code string) bool { ok, _ := wake(code); return ok }
	}
	hub = rooms.NewHub(hubCfg)
	var sessionHub sshd.Hub = session.Local(hub)
	var srvRef atomic.Pointer[sshd.Server]  // the SSH server, once made: its sessions for the beats
	caughtUp := func() error { return nil } // what a backup waits for
	if cn != nil {
		// A node resumes nothing by itself: the rooms of a node that stopped are taken over by
		// the cluster's nodes, this one included, when its beat has lapsed.
		restore := func(m record.Match) error { return matchlog.Resume(hub, m) }
		online := func() int {
			if s := srvRef.Load(); s != nil {
				return s.Sessions()
			}
			return 0
		}
		if sessionHub, err = cn.node.Serve(cluster.ServeConfig{Hub: hub, Restore: restore, Online: online}); err != nil {
			return err
		}
		caughtUp = func() error {
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			return cn.node.CatchUp(ctx)
		}
	} else {
		resumed, err := resume(db, hub, logf, warnf)
		if err != nil {
			return withAdvice(fmt.Errorf("resume matches: %w", err), dbPath)
		}
		if resumed > 0 {
			logger.Info("resumed unfinished matches", "rooms", resumed)
		}
	}
	var tables inbox.Tables = localTables{hub: hub, wake: wake}
	var news inbox.News = board
	wakeDue := func(code string) { _, _ = wake(code) }
	if cn != nil {
		ch := sessionHub.(*cluster.Hub)
		tables, wakeDue = ch, ch.WakeDue
		news = cn.node.Notices(board)
	}
	svc = inbox.New(inbox.Config{Store: store, Tables: tables, News: news, MaxUnfinished: cfg.unfinished, Logf: logf})
	deadlines = matchlog.StartDeadlines(db, wakeDue, logf)
	defer deadlines.Close()
	// The start read the whole database (the walk of its pages, bbolt's rebuild of its free list,
	// the rooms' entries): its garbage, a few MiB for a database of thousands of matches, goes
	// back to the system now, not at the heap's first goal (16 MiB at --gc-percent 400), so that
	// a server with nobody connected holds what it keeps and no more; so do the database's pages
	// that the start mapped.
	debug.FreeOSMemory()
	db.ReleaseMapped()
	admin, err := listenAdmin(cfg.data)
	if err != nil {
		return err
	}
	defer admin.Close()
	go serveAdmin(admin, db, accounts, caughtUp, logf)
	var refused func(string) // nil: refusals are not counted
	if mx != nil {
		refused = mx.refused
	}
	srv, err := sshd.New(sshd.Config{
		Addr:               cfg.addr,
		HostKey:            signer,
		MaxSessions:        cfg.maxSessions,
		MaxSessionsPerKey:  cfg.sessionsPerKey,
		MaxSessionsPerAddr: cfg.sessionsPerAddr,
		IdleTimeout:        cfg.idleTimeout,
		StallTimeout:       cfg.stall,
		ConnRate:           cfg.connRate,
		ConnBurst:          cfg.connBurst,
		Logger:             logger,
		Accounts:           accounts,
		Prefs:              store,
		Records:            store,
		Post:               svc,
		Board:              board,
		Boards:             games.Boards(),

		KeystrokeObfuscation: cfg.keystrokeObfuscation,

		HandshakeTimeout:   cfg.handshake,
		MaxStartups:        cfg.startups,
		MaxStartupsPerAddr: cfg.startupsPer,
		PublicAddr:         cfg.publicAddr,
		PublicURL:          cfg.publicURL,
		QuickWait:          cfg.quickWait,
		Refused:            refused,
	}, sessionHub)
	if err != nil {
		return err
	}
	srvRef.Store(srv)
	// Every change that acts on sessions (a kick, a ban, a key removed, an announcement), made on
	// this node or applied from the cluster's stream, is carried out on this server's sessions.
	db.Watch(func(c storage.Change) { srv.Apply(orderOf(c)) })
	defer db.Watch(nil)
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if mx != nil {
		closer, err := mx.serve(cfg.metrics, srv, hub, out, logf)
		if err != nil {
			ln.Close()
			return err
		}
		defer closer.Close()
	}
	if cfg.http != "" {
		ws, err := serveWeb(cfg, sessionHub, store, srv.Online, ln.Addr().(*net.TCPAddr).Port, out, logger)
		if err != nil {
			ln.Close()
			return err
		}
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = ws.Shutdown(ctx)
		}()
	}
	fmt.Fprintf(out, "arcade listening on %s\nhost key %s\nplay: ssh -p %d localhost\n",
		ln.Addr(), hostkeys.Fingerprint(signer), ln.Addr().(*net.TCPAddr).Port)
	if ready != nil {
		ready <- ln.Addr()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	if cn != nil {
		// First out of the directory's sweeps: the rooms closed next stay listed, to be taken
		// over by the other nodes.
		cn.node.Close()
	}
	hub.Shutdown(shutdownNotice)
	sctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx, shutdownNotice); err != nil {
		logger.Warn("shutdown", "err", err)
	}
	return <-errc
}

// zeroMeansNone turns a flag's 0 ("no wait") into the rooms' way of saying it: a zero there means
// the default, a negative none.
func zeroMeansNone(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// orderOf is what a change that acts on sessions asks of them (sshd.Order).
func orderOf(c storage.Change) sshd.Order {
	o := sshd.Order{Kind: string(c.Kind), Name: c.Name, Text: c.Text, At: c.At, Until: c.Until}
	switch c.Kind {
	case storage.ChangeKick:
		o.Player = c.PlayerID
	case storage.ChangeRevoke:
		o.Key = c.Key
	case storage.ChangeBan:
		kind, target, _ := strings.Cut(c.Target, " ")
		switch kind {
		case record.BanKey:
			o.Key = target
		case record.BanPlayer:
			o.Player = target
		case record.BanAddr:
			o.Addr, _ = netip.ParsePrefix(target)
		}
	}
	return o
}
