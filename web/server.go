package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// Records is what the web reads of the past: session.Records and the bounded reads of
// storage.DB that pages need (storage.DB and cluster.Store satisfy it).
type Records interface {
	session.Records
	// LeaderboardPage returns limit standings of game from the offset-th on, ranked.
	LeaderboardPage(game string, offset, limit int) ([]record.Standing, error)
	// RatingHistory returns a player's ratings after their latest rated matches of game, at most
	// limit, oldest first.
	RatingHistory(id, game string, limit int) ([]record.RatingPoint, error)
	// RecentMatches returns the newest finished matches, newest first, without moves.
	RecentMatches(limit int) ([]record.Match, error)
	// PlayerNamed returns the player a name is bound to (a renamed player's old name too) and
	// their latest name; false when nobody holds it.
	PlayerNamed(name string) (id, latest string, ok bool)
}

// Config is everything the web companion needs.
type Config struct {
	// Hub lists the rooms and lets the web watch them: session.Local of this process's hub, or a
	// cluster's, whose rooms of other nodes are watched as a remote spectator watches them.
	Hub session.Hub
	// Records serves leaderboards, profiles and matches; nil shows none.
	Records Records
	// Boards makes each game's terminal board view (the catalogue's): the asciicast of a match
	// is the replay's screens, drawn by them.
	Boards map[string]func() draw.Board
	// WebBoards draws each game's board on the pages (the catalogue's).
	WebBoards map[string]webdraw.Board
	// SSH is what players type after ssh to reach the arcade ("-p 2222 play.example.com"), shown
	// in the commands the pages give; "" shows HOST.
	SSH string
	// Online returns how many players are connected now; nil shows no count.
	Online func() int
	// Logf receives what the operator should know.
	Logf func(format string, args ...any)

	// MaxStreams bounds the event streams (live rooms and the front page) open at once; 0 is
	// DefaultMaxStreams. MaxStreamsPerAddr bounds one address's; 0 is DefaultMaxStreamsPerAddr.
	MaxStreams, MaxStreamsPerAddr int
	// Rate is the requests a second one address may make, with bursts of Burst; 0 is
	// DefaultRate and DefaultBurst.
	Rate  float64
	Burst int
}

// Defaults of Config's limits.
const (
	DefaultMaxStreams        = 2000
	DefaultMaxStreamsPerAddr = 16
	DefaultRate              = 10
	DefaultBurst             = 40
)

// Fixed limits of every connection: slowloris cannot hold a connection by sending its request
// slowly, nor by reading the answer slowly (an event stream's writes each get writeTimeout).
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 20 * time.Second
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 8 << 10
)

// Server is the web companion. Create it with New; its methods are safe for concurrent use.
type Server struct {
	cfg     Config
	games   []rules.Game
	pages   map[string]*template.Template
	handler http.Handler
	limiter *rateLimiter
	streams *streamCap
	replays *replayCache
	casts   *castCache
	castSem chan struct{} // bounds the casts drawn at once

	mu       sync.Mutex
	watchers map[string]*watcher // by room code
	lobby    *lobbyFeed
	closing  bool
	hs       *http.Server
}

// viewer is who the web watches rooms as: one spectator per room, whatever the number of
// browsers. The room's chat says "the web is watching" once.
var viewer = rooms.Player{ID: "web", Name: "the web", Guest: true}

// New returns the web companion of cfg; it does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.Hub == nil {
		return nil, errors.New("web: no hub")
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.MaxStreamsPerAddr <= 0 {
		cfg.MaxStreamsPerAddr = DefaultMaxStreamsPerAddr
	}
	if cfg.Rate <= 0 {
		cfg.Rate, cfg.Burst = DefaultRate, DefaultBurst
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg: cfg, games: cfg.Hub.Games(), pages: pages,
		limiter:  newRateLimiter(cfg.Rate, cfg.Burst),
		streams:  newStreamCap(cfg.MaxStreams, cfg.MaxStreamsPerAddr),
		replays:  newReplayCache(),
		casts:    newCastCache(),
		castSem:  make(chan struct{}, 2),
		watchers: map[string]*watcher{},
	}
	s.lobby = newLobbyFeed(s)
	s.handler = s.routes()
	return s, nil
}

// Handler returns the companion's HTTP handler, its limits included (but for the connection's
// own, which Serve sets).
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves on ln until Shutdown, with the connection limits above. It returns
// http.ErrServerClosed after Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          nil,
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return http.ErrServerClosed
	}
	s.hs = hs
	s.mu.Unlock()
	return hs.Serve(ln)
}

// Shutdown stops the listener, ends the event streams and the rooms' subscriptions, and waits
// for the requests under way until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	hs := s.hs
	ws := make([]*watcher, 0, len(s.watchers))
	for _, w := range s.watchers {
		ws = append(ws, w)
	}
	s.mu.Unlock()
	for _, w := range ws {
		w.stop()
	}
	s.lobby.stop()
	if hs == nil {
		return nil
	}
	return hs.Shutdown(ctx)
}

// routes is the companion's mux, behind the limits every request passes.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("GET /events", s.homeEvents)
	mux.HandleFunc("GET /leaderboard/{game}", s.leaderboardPage)
	mux.HandleFunc("GET /leaderboard/{$}", s.leaderboards)
	mux.HandleFunc("GET /r/{code}", s.roomPage)
	mux.HandleFunc("GET /r/{code}/events", s.roomEvents)
	mux.HandleFunc("GET /m/{id}", s.matchPage)
	mux.HandleFunc("GET /api/leaderboard", s.apiLeaderboard)
	mux.HandleFunc("GET /api/leaderboard/{game}", s.apiLeaderboard)
	mux.HandleFunc("GET /api/rooms", s.apiRooms)
	mux.HandleFunc("GET /api/rooms/{code}", s.apiRoom)
	mux.HandleFunc("GET /api/players/{name}", s.apiPlayer)
	mux.HandleFunc("GET /api/matches", s.apiMatches)
	mux.HandleFunc("GET /api/matches/{id}", s.apiMatch)
	mux.Handle("GET /static/", http.StripPrefix("/static/", staticFiles()))
	mux.HandleFunc("GET /{page}", s.profileOrMissing) // /@NAME; the mux's patterns cannot start with @
	return s.guard(mux)
}

// guard is what every request passes first: only GET and HEAD (the companion changes nothing),
// the rate limit of its source address, and the headers of every answer.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		// The player builds its terminal in WebAssembly and styles it inline.
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "+
			"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "this site is read-only: GET and HEAD only", http.StatusMethodNotAllowed)
			return
		}
		if !s.limiter.allow(source(r)) {
			h.Set("Retry-After", "2")
			http.Error(w, "too many requests from your address; try again in a few seconds", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Exposed says, for the operator's log, what the companion serves to anyone who reaches addr.
func Exposed(addr string) string {
	return fmt.Sprintf("--http %s is not on loopback: anyone who reaches it reads the open rooms as a spectator sees them (boards, seats, moves; "+
		"never chat, racks or hands), every finished match and its moves, the leaderboards, and each player's name, key fingerprint, ratings and recent matches", addr)
}

// isLoopback reports whether host is a loopback address or localhost.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// OnLoopback reports whether the listening address addr (host:port) takes connections from this
// machine only. An empty host (":8080") listens everywhere.
func OnLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && isLoopback(host)
}
