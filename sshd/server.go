package sshd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/ratelimiter"
	"charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session"
)

// Config sets up a Server. Zero limits take the defaults shown.
type Config struct {
	// Addr is the TCP address to listen on, e.g. ":2222".
	Addr string
	// HostKey signs the server's side of every handshake.
	HostKey gossh.Signer
	// PublicAddr is the address players reach the server at, "host" or "host:port", shown in the
	// commands the rooms and help give to pass on. Empty: the address each client connected to. A
	// host without a port keeps the port the client connected to.
	PublicAddr string
	// PublicURL is the web companion's address as players reach it ("https://arcade.example.com"):
	// the end screen, rooms, replay and the lobby print links to it. Empty prints none.
	PublicURL string
	// QuickWait is how long a quick match looks for an opponent before it offers a bot; 0 is
	// session.DefaultQuickWait.
	QuickWait time.Duration
	// MaxSessions caps concurrent SSH sessions; one more is refused politely. Default 4000.
	MaxSessions int
	// MaxSessionsPerKey caps the concurrent sessions of one key (guests are counted by address
	// only); one more is refused with a line naming the limit. Default 8.
	MaxSessionsPerKey int
	// MaxSessionsPerAddr caps the concurrent sessions from one source address (an IPv6 /64
	// counts as one address), keys and guests together. Default 32.
	MaxSessionsPerAddr int
	// IdleTimeout closes a connection that has sent and received nothing for this long. Default 30m.
	IdleTimeout time.Duration
	// HandshakeTimeout closes a connection that has not opened a session this long after it
	// connected: the handshake's and authentication's deadline (OpenSSH's LoginGraceTime).
	// Default 30s.
	HandshakeTimeout time.Duration
	// MaxStartups caps the connections starting at once, from all addresses: accepted but not yet
	// in a session (see startups.go). One more is refused as it is accepted, before any key
	// exchange, with a line ssh shows. Its last quarter is kept for addresses with none
	// starting, so that a few flooding addresses cannot fill it. Default 200: a start takes a few round trips and one key
	// exchange, under a second, so 200 at once admits well over the 70 a second that refill all
	// 4,000 places within a minute of a restart, while holding only a few MB and little CPU.
	MaxStartups int
	// MaxStartupsPerAddr caps the connections starting at once from one source address (an
	// IPv6 /64 counts as one address), refused as MaxStartups' are. Default 10: enough for a
	// household or an office behind one NAT address to start about 10 connections a second,
	// twice the default ConnRate.
	MaxStartupsPerAddr int
	// StallTimeout ends a session whose output has not drained for this long: its client stopped
	// reading it (a terminal stopped by flow control, a frozen link). Default 30s.
	StallTimeout time.Duration
	// ConnRate and ConnBurst limit new sessions per source address. Default 5 a second, burst 20.
	ConnRate  float64
	ConnBurst int
	// Refused, when not nil, is told the name of a limit each time it refuses a connection or a
	// session: "sessions", "sessions_per_key", "sessions_per_addr", "startups", "startups_per_addr".
	// It is called concurrently and must be quick.
	Refused func(limit string)
	// Logger receives connection logs. Default: charm log's standard logger.
	Logger *log.Logger
	// Accounts binds user names to players and keys to players, keeps what players do about
	// each other, and the bans that keep keys and addresses out (moderation.go); nil binds
	// nothing, and every key plays as itself.
	Accounts Accounts
	// Prefs keeps players' preferences (the bell); nil keeps none: the bell rings for everyone.
	Prefs Prefs
	// Records serves leaderboards, profiles and replays; nil keeps no records.
	Records session.Records
	// Boards makes the board view of each of the hub's games (the catalogue's, games.Boards).
	Boards session.Boards
	// KeystrokeObfuscation advertises ping@openssh.com, with which OpenSSH 9.5 and later hide
	// the timing of a player's keystrokes: while the player types, and for a random while after,
	// their client sends a ping every 20 ms and the server answers each. Off by default: the
	// pings of a typing player cost the server more than the rest of the arcade's work for that
	// player (docs/performance.md, Keystroke obfuscation).
	KeystrokeObfuscation bool
}

// Prefs keeps each key's preferences. storage.DB satisfies it.
type Prefs interface {
	// Bell reports whether the bell rings for the key when it becomes the player's turn.
	Bell(id string) bool
	// SetBell turns the bell on or off for the key, which must have claimed a name.
	SetBell(id string, on bool) error
}

func (c *Config) defaults() {
	if c.MaxSessions <= 0 {
		c.MaxSessions = 4000
	}
	if c.MaxSessionsPerKey <= 0 {
		c.MaxSessionsPerKey = 8
	}
	if c.MaxSessionsPerAddr <= 0 {
		c.MaxSessionsPerAddr = 32
	}
	if c.Refused == nil {
		c.Refused = func(string) {}
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Minute
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 30 * time.Second
	}
	if c.MaxStartups <= 0 {
		c.MaxStartups = 200
	}
	if c.MaxStartupsPerAddr <= 0 {
		c.MaxStartupsPerAddr = 10
	}
	if c.StallTimeout <= 0 {
		c.StallTimeout = 30 * time.Second
	}
	if c.ConnRate <= 0 {
		c.ConnRate = 5
	}
	if c.ConnBurst <= 0 {
		c.ConnBurst = 20
	}
	if c.Logger == nil {
		c.Logger = log.Default()
	}
}

// Hub is what the SSH layer needs of the rooms: the catalogue and the open rooms, and what the
// sessions need besides: session.Local of a *rooms.Hub, or a cluster's hub (package cluster). A
// hub with a method Elsewhere() int counts players connected elsewhere (a cluster's other nodes),
// and the lobby's front page adds them to this server's.
type Hub interface {
	session.Hub
	List() []rooms.Summary
}

// Server is the arcade's SSH server. Its methods are safe for concurrent use.
type Server struct {
	cfg Config
	hub Hub
	srv *ssh.Server
	log *log.Logger

	mu       sync.Mutex
	programs map[*tea.Program]programOf // whose each interactive session is (Apply)
	claims   claimLimiter               // wrong link codes per key and address (keys claim)
	closing  bool
	active   int
	byKey    map[string]int       // sessions open per key fingerprint; no zero entries
	byAddr   map[netip.Prefix]int // sessions open per source (sourceOf); no zero entries
	ln       net.Listener         // what Serve accepts on, once it is called
	ptys     sync.Map             // the PTY each session asked for (pty.go)
}

// New builds a server for hub; it does not listen yet.
func New(cfg Config, hub Hub) (*Server, error) {
	cfg.defaults()
	if cfg.HostKey == nil {
		return nil, errors.New("sshd: no host key")
	}
	s := &Server{cfg: cfg, hub: hub, log: cfg.Logger, programs: map[*tea.Program]programOf{},
		byKey: map[string]int{}, byAddr: map[netip.Prefix]int{}}
	limiter := ratelimiter.NewRateLimiter(rate.Limit(cfg.ConnRate), cfg.ConnBurst, 10_000)
	starting := newStartups(cfg.MaxStartups, cfg.MaxStartupsPerAddr, cfg.Logger)
	starting.onRefuse = cfg.Refused
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Addr),
		func(srv *ssh.Server) error { srv.AddHostKey(cfg.HostKey); return nil },
		// A session's environment is bounded (requests.go); charm.land/ssh's handler does the rest.
		func(srv *ssh.Server) error {
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": sessionChannel}
			return nil
		},
		// PTYs emulated without charm.land/ssh's writer, which copies every frame (pty.go).
		func(srv *ssh.Server) error { srv.PtyHandler = s.ptyRequested; return nil },
		// Keystroke obfuscation only when asked for (see Config.KeystrokeObfuscation).
		func(srv *ssh.Server) error {
			srv.ServerConfigCallback = func(ctx ssh.Context) *gossh.ServerConfig {
				// The connection is kept for the banner that tells a banned key why it is refused.
				return &gossh.ServerConfig{OmitPingExtension: !cfg.KeystrokeObfuscation, PreAuthConnCallback: preAuth(ctx)}
			}
			return nil
		},
		// Connections still starting are counted per address and in all, and one past either
		// cap is refused as it is accepted, before any key exchange (see startups.go); idle,
		// handshake and stalled-write deadlines are kept by idleConn (see idle.go), not by the
		// library.
		func(srv *ssh.Server) error {
			srv.ConnCallback = starting.admit(wrapIdle(cfg.IdleTimeout, cfg.HandshakeTimeout, cfg.StallTimeout))
			return nil
		},
		// Any key is welcome but a banned one: the key is the identity. Which key really
		// authenticated is read again in the session (see identify), never kept from here. A
		// banned key or address is refused with a banner that says why and until when, and the
		// connection with it, whatever it tries next (moderation.go).
		wish.WithPublicKeyAuth(s.allowKey),
		// No key: a guest, asked nothing (unless the address is banned).
		wish.WithKeyboardInteractiveAuth(s.allowGuest),
		// Middleware runs from the last listed to the first:
		//   recover   outermost, so a panic anywhere below ends one session, not the server;
		//   started   the connection's first session ends its start: it no longer counts
		//             against MaxStartups (see startups.go), as logging's opened lifts the
		//             handshake deadline;
		//   logging   every session's start and end, with sanitised fields (the command cut
		//             short, never parsed);
		//   stall     every write to the session is watched: one that has not drained within
		//             StallTimeout ends the session (stall.go), whatever runs below;
		//   rate      new sessions per source address, before any work is done for them;
		//   length    a command line longer than maxCommand is refused before it is parsed;
		//   capacity  the concurrent-session caps, in all, per key and per address, with a
		//             polite refusal naming the limit;
		//   route     the end of the chain: plain-text commands answer and exit; interactive
		//             ones play their Bubble Tea program (wish's bubbletea middleware, which
		//             also ends the program when the session's channel closes) and put the
		//             terminal back.
		wish.WithMiddleware(
			recover.MiddlewareWithLogger(cfg.Logger.StandardLog(),
				last(s.route),
				s.capacity,
				commandLength,
				ratelimiter.Middleware(limiter),
				s.stallGuard,
				s.logging,
				started,
			),
		),
	)
	if err != nil {
		return nil, fmt.Errorf("sshd: %w", err)
	}
	s.srv = srv
	return s, nil
}

// Serve accepts connections on ln until Shutdown, which may come before Serve. It blocks; after
// Shutdown it returns nil.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return ln.Close()
	}
	s.ln = ln
	s.mu.Unlock()
	err := s.srv.Serve(ln)
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing || errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown tells every interactive session that the server is going away, waits up to ctx for
// them to end, then closes every connection. It blocks until done.
func (s *Server) Shutdown(ctx context.Context, notice string) error {
	s.mu.Lock()
	s.closing = true
	if s.ln != nil {
		// charm.land/ssh's Shutdown closes the listeners its Serve has begun to accept on; a
		// Serve that has yet to begin would take its Shutdown for a previous life's and serve.
		_ = s.ln.Close()
	}
	progs := make([]*tea.Program, 0, len(s.programs))
	for p := range s.programs {
		progs = append(progs, p)
	}
	s.mu.Unlock()
	for _, p := range progs {
		go p.Send(session.ShutdownMsg{Notice: notice})
	}
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return errors.Join(err, s.srv.Close())
}

// Sessions returns the number of SSH sessions now open.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active
}
