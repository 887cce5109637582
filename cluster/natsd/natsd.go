// Package natsd runs a NATS server with JetStream inside the arcade process (--nats-embed), alone
// or in a cluster of such servers (--nats-routes), so that several arcade processes make a cluster
// with nothing else installed. The server is closed: its client port admits only the node user
// of the cluster's Secret, its cluster port only servers with the secret's route password, and a
// port off loopback only with TLS.
package natsd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultClusterName is the cluster name used when Config.ClusterName is empty.
const DefaultClusterName = "arcade"

// DefaultReadyTimeout bounds Start's wait when Config.ReadyTimeout is zero.
const DefaultReadyTimeout = 10 * time.Second

// routeScheme is the URL scheme of NATS route URLs.
const routeScheme = "nats-route"

// The raft timings of every embedded server (JetStream's meta group, and the stream's and each
// bucket's): a follower that hears no leader for electionMin to electionMax stands for election,
// and a leader sends a heartbeat every heartbeat. nats-server's own (4 to 9 s, 1 s) are what a
// takeover after a kill -9 waited for when the killed node's server led the stream or the
// directory; these keep three heartbeats within the shortest election timeout, so that a loaded
// machine's late heartbeat does not start an election (see third_party/nats-server.md).
const (
	electionMin = 1500 * time.Millisecond
	electionMax = 3 * time.Second
	heartbeat   = 500 * time.Millisecond
)

// raftTimings sets the raft timings once, before the process's first server starts: nats-server
// reads them without locks.
var raftTimings = sync.OnceValue(func() error {
	return server.SetRaftTimings(electionMin, electionMax, heartbeat)
})

// Config configures an embedded server. Only Listen and StoreDir are required; a server in a
// cluster also needs Cluster, at least one route, and a Name unique in the cluster.
type Config struct {
	// Name names the server in the cluster (unique per server; the arcade passes its node name).
	Name string
	// Listen is the client address, host:port ("127.0.0.1:4222"; port 0 or -1 picks a free one).
	Listen string
	// Cluster is the route listen address for other servers, host:port; "" for a server alone.
	Cluster string
	// ClusterName names the cluster (default "arcade").
	ClusterName string
	// Routes are the other servers' route URLs ("nats-route://host:6222" or "host:6222"), or "" entries ignored.
	Routes []string
	// StoreDir is where JetStream keeps its files (the arcade passes DATA/nats).
	StoreDir string
	// Logf, when set, gets the server's notices and errors (not debug/trace).
	Logf func(format string, args ...any)
	// ReadyTimeout bounds Start's wait for the server to accept clients (default 10s).
	ReadyTimeout time.Duration
	// Secret is the cluster's secret (required): the client port admits only its node user, with
	// NodePermissions, and the cluster port only servers that give its route password.
	Secret *Secret
	// TLS is the TLS of the client and cluster ports, required when either is off loopback;
	// peers must then show a certificate its CA signed.
	TLS TLSFiles
}

// Server is a running embedded NATS server. Its methods are safe for concurrent use.
type Server struct {
	ns         *server.Server
	clientURL  string
	clusterURL string
	once       sync.Once
}

// Start starts the server and returns once it accepts client connections (JetStream may still be
// electing its meta leader in a cluster; see WaitJetStream). It fails, leaving nothing running,
// when the configuration is invalid (no Secret; a port off loopback without TLS), a listener
// cannot bind, JetStream cannot start on StoreDir, or the server is not ready within ReadyTimeout.
func Start(cfg Config) (*Server, error) {
	opts, err := options(cfg)
	if err != nil {
		return nil, err
	}
	if err := raftTimings(); err != nil {
		return nil, fmt.Errorf("natsd: %w", err)
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsd: new server: %w", err)
	}
	lg := &logger{logf: cfg.Logf}
	ns.SetLogger(lg, false, false)
	ns.Start()

	wait := cfg.ReadyTimeout
	if wait <= 0 {
		wait = DefaultReadyTimeout
	}
	// Start enables JetStream synchronously and gives up (logging through Fatalf) when it cannot.
	if !ns.JetStreamEnabled() {
		stop(ns)
		if f := lg.lastFatal(); f != "" {
			return nil, fmt.Errorf("natsd: jetstream did not start: %s", f)
		}
		return nil, errors.New("natsd: jetstream did not start")
	}
	// A listener that cannot bind reports through Fatalf; poll so that fails at once, not after wait.
	for deadline := time.Now().Add(wait); !ns.ReadyForConnections(50 * time.Millisecond); {
		if f := lg.lastFatal(); f != "" {
			stop(ns)
			return nil, fmt.Errorf("natsd: server did not start: %s", f)
		}
		if time.Now().After(deadline) {
			stop(ns)
			return nil, fmt.Errorf("natsd: server not ready for connections after %s", wait)
		}
	}
	s := &Server{ns: ns, clientURL: ns.ClientURL()}
	if opts.Cluster.Port != 0 {
		addr := ns.ClusterAddr()
		if addr == nil {
			stop(ns)
			return nil, errors.New("natsd: route listener missing after start")
		}
		host := opts.Cluster.Host
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			// Bound on every interface: the best single name for it is the loopback; a cluster
			// across machines lists its routes by their real addresses.
			host = "127.0.0.1"
		}
		s.clusterURL = (&url.URL{Scheme: routeScheme, Host: net.JoinHostPort(host, strconv.Itoa(addr.Port))}).String()
	}
	return s, nil
}

// options turns cfg into the nats-server options, refusing what cannot make a working server.
func options(cfg Config) (*server.Options, error) {
	if cfg.StoreDir == "" {
		return nil, errors.New("natsd: store dir is empty")
	}
	host, port, err := listenAddr(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("natsd: listen address: %w", err)
	}
	opts := &server.Options{
		ServerName: cfg.Name,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   cfg.StoreDir,
		NoSigs:     true,
		NoLog:      cfg.Logf == nil,
	}
	var routes []*url.URL
	for _, r := range cfg.Routes {
		if strings.TrimSpace(r) == "" {
			continue
		}
		u, err := parseRoute(r)
		if err != nil {
			return nil, fmt.Errorf("natsd: %w", err)
		}
		routes = append(routes, u)
	}
	if cfg.Cluster == "" {
		if len(routes) > 0 {
			return nil, errors.New("natsd: routes given without a cluster address")
		}
		return opts, secure(opts, cfg, nil)
	}
	if cfg.Name == "" {
		return nil, errors.New("natsd: a server in a cluster needs a name")
	}
	if len(routes) == 0 {
		return nil, errors.New("natsd: a server in a cluster needs at least one route (jetstream clustering refuses to start without)")
	}
	chost, cport, err := listenAddr(cfg.Cluster)
	if err != nil {
		return nil, fmt.Errorf("natsd: cluster address: %w", err)
	}
	opts.Cluster.Name = cfg.ClusterName
	if opts.Cluster.Name == "" {
		opts.Cluster.Name = DefaultClusterName
	}
	opts.Cluster.Host = chost
	opts.Cluster.Port = cport
	opts.Routes = routes
	return opts, secure(opts, cfg, routes)
}

// listenAddr splits a host:port listen address; port 0 becomes nats-server's "pick a free port"
// (-1), since 0 would mean "the default port" or "no listener" to it.
func listenAddr(hostport string) (string, int, error) {
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", 0, fmt.Errorf("%q is not host:port: %w", hostport, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < -1 || port > 65535 {
		return "", 0, fmt.Errorf("%q: bad port %q", hostport, p)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// ClientURL is the URL clients of other processes connect to: nats://, or tls:// when the
// server has TLS.
func (s *Server) ClientURL() string { return s.clientURL }

// InProcess is the nats.go option that connects to the server inside this process, with no
// network (and so no TLS) between them. Connect with an empty URL, or a nats:// one: a tls://
// URL asks for TLS, which a connection in the process does not get.
func (s *Server) InProcess() nats.Option { return nats.InProcessServer(s.ns) }

// ClusterURL is the route URL other servers list in their Routes ("" when alone). A cluster
// address on every interface (0.0.0.0, ::, or no host) is named by 127.0.0.1 here; across
// machines, list routes by the addresses the other machines reach.
func (s *Server) ClusterURL() string { return s.clusterURL }

// Shutdown stops the server and waits for it to end. Calling it again does nothing.
func (s *Server) Shutdown() {
	s.once.Do(func() { stop(s.ns) })
}

// stop shuts ns down and waits for it.
func stop(ns *server.Server) {
	ns.Shutdown()
	ns.WaitForShutdown()
}

// WaitJetStream blocks until JetStream on this server can serve API requests (the cluster has a
// meta leader), or ctx is done; then it returns ctx's error wrapping the last failure seen.
func WaitJetStream(ctx context.Context, nc *nats.Conn) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("natsd: jetstream: %w", err)
	}
	const poll = 50 * time.Millisecond
	t := time.NewTimer(0)
	defer t.Stop()
	var last error
	for {
		select {
		case <-ctx.Done():
			if last == nil {
				return fmt.Errorf("natsd: waiting for jetstream: %w", ctx.Err())
			}
			return fmt.Errorf("natsd: waiting for jetstream: %w (last: %w)", ctx.Err(), last)
		case <-t.C:
		}
		actx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := js.AccountInfo(actx)
		cancel()
		if err == nil {
			return nil
		}
		last = err
		t.Reset(poll)
	}
}

// ParseRoutes splits a comma-separated --nats-routes value into route URLs, adding nats-route://
// where missing and refusing (with a clear error) anything that is not host:port. Empty items
// (",,", a trailing comma, blanks) are skipped; "" gives no routes and no error.
func ParseRoutes(s string) ([]string, error) {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		u, err := parseRoute(item)
		if err != nil {
			return nil, fmt.Errorf("natsd: %w", err)
		}
		out = append(out, u.String())
	}
	return out, nil
}

// parseRoute reads one route, "host:port" or "nats-route://host:port".
func parseRoute(r string) (*url.URL, error) {
	r = strings.TrimSpace(r)
	hostport := r
	if scheme, rest, ok := strings.Cut(r, "://"); ok {
		if scheme != routeScheme {
			return nil, fmt.Errorf("route %q: scheme must be %s:// (or none)", r, routeScheme)
		}
		hostport = rest
	}
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, fmt.Errorf("route %q is not host:port: %w", r, err)
	}
	if host == "" || strings.ContainsAny(host, " \t/?#@%[]") {
		return nil, fmt.Errorf("route %q: bad host %q", r, host)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 1 || port > 65535 {
		return nil, fmt.Errorf("route %q: bad port %q", r, p)
	}
	return &url.URL{Scheme: routeScheme, Host: net.JoinHostPort(host, p)}, nil
}

// logger hands nats-server's notices, warnings and errors to a Logf, and keeps the last fatal
// message so Start can say why the server gave up.
type logger struct {
	logf  func(format string, args ...any)
	mu    sync.Mutex
	fatal string
}

func (l *logger) out(prefix, format string, v []any) {
	if l.logf != nil {
		l.logf(prefix+format, v...)
	}
}

func (l *logger) Noticef(format string, v ...any) { l.out("nats: ", format, v) }
func (l *logger) Warnf(format string, v ...any)   { l.out("nats warning: ", format, v) }
func (l *logger) Errorf(format string, v ...any)  { l.out("nats error: ", format, v) }
func (l *logger) Debugf(string, ...any)           {}
func (l *logger) Tracef(string, ...any)           {}

// Fatalf records and logs; unlike nats-server's own loggers it does not exit the process.
func (l *logger) Fatalf(format string, v ...any) {
	l.mu.Lock()
	l.fatal = fmt.Sprintf(format, v...)
	l.mu.Unlock()
	l.out("nats fatal: ", format, v)
}

func (l *logger) lastFatal() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fatal
}
