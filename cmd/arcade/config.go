package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/arcade/arcade/cluster/natsd"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
	"github.com/arcade/arcade/web"
)

// config is everything the server takes from flags and the environment.
type config struct {
	addr        string
	data        string
	maxSessions int
	maxRooms    int
	// Shares (rooms.Shares and sshd.Config's per-key and per-address caps).
	sessionsPerKey  int // --max-sessions-per-key
	sessionsPerAddr int // --max-sessions-per-addr
	waitingPerKey   int // --max-waiting-rooms
	waitingPerAddr  int // --max-waiting-rooms-per-addr
	unfinished      int // --max-unfinished
	spectators      int // --max-spectators
	idleTimeout     time.Duration
	handshake       time.Duration // --handshake-timeout (sshd.Config.HandshakeTimeout)
	startups        int           // --max-startups (sshd.Config.MaxStartups)
	startupsPer     int           // --max-startups-per-addr (sshd.Config.MaxStartupsPerAddr)
	publicAddr      string        // --public-addr (sshd.Config.PublicAddr)
	quickWait       time.Duration // --quick-wait (sshd.Config.QuickWait)
	stall           time.Duration
	connRate        float64
	connBurst       int
	seatGrace       time.Duration
	moveLimit       time.Duration
	botDelay        time.Duration
	logLevel        string
	metrics         string // address of the Prometheus endpoint; "" for none
	metricsPub      bool   // --metrics-public: the endpoint may listen off loopback
	loadSeeds       bool   // matches' seeds follow from their room codes (load testing only)
	// The web companion (package web): off when http is "".
	http           string  // --http: its address
	publicURL      string  // --public-url: where players reach it, for the links the SSH side prints
	httpMaxStreams int     // --http-max-streams
	httpStreamsPer int     // --http-max-streams-per-addr
	httpRate       float64 // --http-rate: requests a second per address

	gcPercent   gcPercent   // --gc-percent; unset: GOGC, else defaultGCPercent
	memoryLimit memoryLimit // --memory-limit; unset: GOMEMLIMIT, else defaultMemoryShare of memoryAvailable

	keystrokeObfuscation bool // advertise ping@openssh.com (sshd.Config.KeystrokeObfuscation)

	// --rated-min-moves, --rated-pair-per-day, --rated-newcomer-moves (storage.Options.RatingRules)
	ratingRules storage.RatingRules

	// Several nodes (package cluster): all empty or false for the single process.
	nats         string // --nats: NATS URLs, comma separated
	natsEmbed    bool   // --nats-embed: run a NATS server with JetStream in the process
	natsListen   string // --nats-listen: the embedded server's client address
	natsCluster  string // --nats-cluster: the embedded server's route address
	natsRoutes   string // --nats-routes: the other embedded servers' route addresses
	natsReplicas int    // --nats-replicas: 0 for min(3, servers)
	natsCreds    string // --nats-creds: the cluster's secret file; "" for DATA/cluster-secret
	natsTLS      natsd.TLSFiles
	node         string // --node: the node's name
}

// clustered reports whether the server runs as a node of a cluster.
func (c config) clustered() bool { return c.nats != "" || c.natsEmbed }

// parseConfig reads flags; each flag's default comes from its ARCADE_ variable when set.
func parseConfig(args []string, getenv func(string) string, errOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("arcade", flag.ContinueOnError)
	fs.SetOutput(errOut)
	env := func(name, def string) string {
		if v := getenv("ARCADE_" + name); v != "" {
			return v
		}
		return def
	}
	var bad []string
	envInt := func(name string, def int) int {
		v := env(name, strconv.Itoa(def))
		n, err := strconv.Atoi(v)
		if err != nil {
			bad = append(bad, "ARCADE_"+name)
		}
		return n
	}
	envDur := func(name string, def time.Duration) time.Duration {
		d, err := time.ParseDuration(env(name, def.String()))
		if err != nil {
			bad = append(bad, "ARCADE_"+name)
		}
		return d
	}
	envFloat := func(name string, def float64) float64 {
		f, err := strconv.ParseFloat(env(name, strconv.FormatFloat(def, 'g', -1, 64)), 64)
		if err != nil {
			bad = append(bad, "ARCADE_"+name)
		}
		return f
	}
	fs.StringVar(&c.addr, "addr", env("ADDR", ":2222"), "address to listen on (ARCADE_ADDR)")
	fs.StringVar(&c.data, "data", env("DATA", "./arcade-data"), "folder for the host key and data (ARCADE_DATA)")
	fs.IntVar(&c.maxSessions, "max-sessions", envInt("MAX_SESSIONS", 4000), "concurrent SSH sessions at most (ARCADE_MAX_SESSIONS)")
	fs.IntVar(&c.maxRooms, "max-rooms", envInt("MAX_ROOMS", 2000), "open rooms at most (ARCADE_MAX_ROOMS)")
	fs.IntVar(&c.sessionsPerKey, "max-sessions-per-key", envInt("MAX_SESSIONS_PER_KEY", 8), "concurrent SSH sessions of one key at most (ARCADE_MAX_SESSIONS_PER_KEY)")
	fs.IntVar(&c.sessionsPerAddr, "max-sessions-per-addr", envInt("MAX_SESSIONS_PER_ADDR", 32), "concurrent SSH sessions from one address at most, an IPv6 /64 as one (ARCADE_MAX_SESSIONS_PER_ADDR)")
	fs.IntVar(&c.waitingPerKey, "max-waiting-rooms", envInt("MAX_WAITING_ROOMS", 3), "rooms waiting for players one key (or a guest's address) may have opened; past it its empty ones expire first (ARCADE_MAX_WAITING_ROOMS)")
	fs.IntVar(&c.waitingPerAddr, "max-waiting-rooms-per-addr", envInt("MAX_WAITING_ROOMS_PER_ADDR", 12), "rooms waiting for players opened from one address, keys and guests together (ARCADE_MAX_WAITING_ROOMS_PER_ADDR)")
	fs.IntVar(&c.unfinished, "max-unfinished", envInt("MAX_UNFINISHED", 50), "rooms with a match waiting or being played one key (or a guest's address) may have opened (ARCADE_MAX_UNFINISHED)")
	fs.IntVar(&c.spectators, "max-spectators", envInt("MAX_SPECTATORS", 200), "spectators of one room at most (ARCADE_MAX_SPECTATORS)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", envDur("IDLE_TIMEOUT", 30*time.Minute), "close connections idle this long (ARCADE_IDLE_TIMEOUT)")
	fs.DurationVar(&c.handshake, "handshake-timeout", envDur("HANDSHAKE_TIMEOUT", 30*time.Second), "close a connection that has not opened a session this long after connecting (ARCADE_HANDSHAKE_TIMEOUT)")
	fs.IntVar(&c.startups, "max-startups", envInt("MAX_STARTUPS", 200), "connections still connecting (not yet in a session) at most, the last quarter only for addresses with none connecting; one more is refused at once (ARCADE_MAX_STARTUPS)")
	fs.IntVar(&c.startupsPer, "max-startups-per-addr", envInt("MAX_STARTUPS_PER_ADDR", 10), "connections still connecting from one source address at most (ARCADE_MAX_STARTUPS_PER_ADDR)")
	fs.DurationVar(&c.stall, "stall-timeout", envDur("STALL_TIMEOUT", 30*time.Second), "end a session whose client has not taken in its output for this long (ARCADE_STALL_TIMEOUT)")
	fs.Float64Var(&c.connRate, "conn-rate", envFloat("CONN_RATE", 5), "new sessions per second per source address (ARCADE_CONN_RATE)")
	fs.IntVar(&c.connBurst, "conn-burst", envInt("CONN_BURST", 20), "burst of new sessions per source address (ARCADE_CONN_BURST)")
	fs.DurationVar(&c.seatGrace, "seat-grace", envDur("SEAT_GRACE", 2*time.Minute), "how long a dropped player's seat waits (ARCADE_SEAT_GRACE)")
	fs.DurationVar(&c.moveLimit, "move-limit", envDur("MOVE_LIMIT", rooms.DefaultMoveLimit), "the clock of a rated match whose room sets none: a limit per move; 0 leaves them untimed (ARCADE_MOVE_LIMIT)")
	fs.DurationVar(&c.quickWait, "quick-wait", envDur("QUICK_WAIT", session.DefaultQuickWait), "how long a quick match looks for an opponent before it offers a bot (ARCADE_QUICK_WAIT)")
	fs.IntVar(&c.ratingRules.MinMoves, "rated-min-moves", envInt("RATED_MIN_MOVES", storage.DefaultRatingRules.MinMoves), "moves each player makes at least in a rated match; fewer: recorded unrated (every node of a cluster the same) (ARCADE_RATED_MIN_MOVES)")
	fs.IntVar(&c.ratingRules.PairsPerDay, "rated-pair-per-day", envInt("RATED_PAIR_PER_DAY", storage.DefaultRatingRules.PairsPerDay), "rated matches of a pair of keys a UTC day at most; later ones unrated; 0: no limit (every node of a cluster the same) (ARCADE_RATED_PAIR_PER_DAY)")
	fs.IntVar(&c.ratingRules.NewcomerMoves, "rated-newcomer-moves", envInt("RATED_NEWCOMER_MOVES", storage.DefaultRatingRules.NewcomerMoves), "moves a key makes in other matches before its first rated match (every node of a cluster the same) (ARCADE_RATED_NEWCOMER_MOVES)")
	fs.DurationVar(&c.botDelay, "bot-delay", envDur("BOT_DELAY", 400*time.Millisecond), "least time a bot takes per move (ARCADE_BOT_DELAY)")
	fs.StringVar(&c.logLevel, "log-level", env("LOG_LEVEL", "info"), "debug, info, warn or error (ARCADE_LOG_LEVEL)")
	fs.StringVar(&c.publicAddr, "public-addr", env("PUBLIC_ADDR", ""), "the address players reach the server at, host or host:port, shown in the join commands rooms give; empty: the address each player connected to (ARCADE_PUBLIC_ADDR)")
	fs.StringVar(&c.http, "http", env("HTTP", ""), "serve the web companion (live rooms, replays, leaderboards, profiles; read-only) on this address, e.g. 127.0.0.1:8080; off when empty (ARCADE_HTTP)")
	fs.StringVar(&c.publicURL, "public-url", env("PUBLIC_URL", ""), "the web companion's address as players reach it, e.g. https://arcade.example.com: the end screen, rooms, replay and the lobby print links to it; empty: none (ARCADE_PUBLIC_URL)")
	fs.IntVar(&c.httpMaxStreams, "http-max-streams", envInt("HTTP_MAX_STREAMS", web.DefaultMaxStreams), "live pages (event streams) open at once at most, all addresses together (ARCADE_HTTP_MAX_STREAMS)")
	fs.IntVar(&c.httpStreamsPer, "http-max-streams-per-addr", envInt("HTTP_MAX_STREAMS_PER_ADDR", web.DefaultMaxStreamsPerAddr), "live pages (event streams) open at once from one source address at most, an IPv6 /64 as one (ARCADE_HTTP_MAX_STREAMS_PER_ADDR)")
	fs.Float64Var(&c.httpRate, "http-rate", envFloat("HTTP_RATE", web.DefaultRate), "web requests a second per source address, in bursts of four times as many (ARCADE_HTTP_RATE)")
	fs.StringVar(&c.metrics, "metrics", env("METRICS", ""), "serve Prometheus metrics (and /debug/pprof/) on this address, e.g. 127.0.0.1:9100; off when empty (ARCADE_METRICS)")
	fs.BoolVar(&c.metricsPub, "metrics-public", env("METRICS_PUBLIC", "") == "1",
		"let --metrics listen off loopback, where anyone who reaches it reads the profiles and the command line (ARCADE_METRICS_PUBLIC=1)")
	fs.BoolVar(&c.keystrokeObfuscation, "keystroke-obfuscation", env("KEYSTROKE_OBFUSCATION", "") == "1",
		"let OpenSSH 9.5+ clients hide keystroke timing with a ping every 20 ms while a player types, each answered: 0.3 to 0.5% of a core per playing session (ARCADE_KEYSTROKE_OBFUSCATION=1)")
	fs.BoolVar(&c.loadSeeds, "load-test-seeds", env("LOAD_TEST_SEEDS", "") == "1",
		"LOAD TESTING ONLY: each match's seed (its shuffles) follows from its room code, so that a load tool can play games with hidden cards; anyone who knows the code can then know the cards (ARCADE_LOAD_TEST_SEEDS=1)")
	fs.StringVar(&c.nats, "nats", env("NATS", ""), "run as a node of a cluster on these NATS servers (URLs, comma separated), which need JetStream; empty: one process with its own database (ARCADE_NATS)")
	fs.BoolVar(&c.natsEmbed, "nats-embed", env("NATS_EMBED", "") == "1", "run as a node of a cluster with a NATS server and JetStream inside this process, its files in DATA/nats (ARCADE_NATS_EMBED=1)")
	fs.StringVar(&c.natsListen, "nats-listen", env("NATS_LISTEN", "127.0.0.1:4222"), "the embedded NATS server's client address (ARCADE_NATS_LISTEN)")
	fs.StringVar(&c.natsCluster, "nats-cluster", env("NATS_CLUSTER", ""), "the embedded NATS server's address for the other servers of its cluster, e.g. :6222; needed with --nats-routes (ARCADE_NATS_CLUSTER)")
	fs.StringVar(&c.natsRoutes, "nats-routes", env("NATS_ROUTES", ""), "the other embedded servers' --nats-cluster addresses, host:port, comma separated (ARCADE_NATS_ROUTES)")
	fs.IntVar(&c.natsReplicas, "nats-replicas", envInt("NATS_REPLICAS", 0), "copies JetStream keeps of the arcade's stream and buckets; 0: one per server, at most 3 (ARCADE_NATS_REPLICAS)")
	fs.StringVar(&c.natsCreds, "nats-creds", env("NATS_CREDS", ""), "the cluster's secret: an nkey seed file (nk -gen user), with the embedded servers' route password; empty: DATA/cluster-secret, which --nats-embed makes on a first start without --nats-routes (ARCADE_NATS_CREDS)")
	fs.StringVar(&c.natsTLS.Cert, "nats-tls-cert", env("NATS_TLS_CERT", ""), "PEM certificate of this node for NATS TLS (the embedded server's ports, and the node's connection); needed with a NATS port off loopback (ARCADE_NATS_TLS_CERT)")
	fs.StringVar(&c.natsTLS.Key, "nats-tls-key", env("NATS_TLS_KEY", ""), "PEM private key of --nats-tls-cert (ARCADE_NATS_TLS_KEY)")
	fs.StringVar(&c.natsTLS.CA, "nats-tls-ca", env("NATS_TLS_CA", ""), "PEM CA that signed the NATS servers' and nodes' certificates; peers must show one it signed (ARCADE_NATS_TLS_CA)")
	fs.StringVar(&c.node, "node", env("NODE", ""), "the node's name in the cluster; empty: the host name (ARCADE_NODE)")
	gcFlag, memFlag := env("GC_PERCENT", ""), env("MEMORY_LIMIT", "")
	fs.StringVar(&gcFlag, "gc-percent", gcFlag,
		"the collector's target, as GOGC: a percentage or off; when not given, GOGC if set, else 400 (ARCADE_GC_PERCENT)")
	fs.StringVar(&memFlag, "memory-limit", memFlag,
		"the runtime's soft memory limit, as GOMEMLIMIT: a size (1536MiB, 2GiB), a percentage of the memory the process may use (the machine's or its cgroup's limit), or off; when not given, GOMEMLIMIT if set, else 50% (ARCADE_MEMORY_LIMIT)")
	if len(bad) > 0 {
		err := fmt.Errorf("bad value in %s", strings.Join(bad, ", "))
		fmt.Fprintln(errOut, "arcade:", err)
		return c, err
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected argument %q", fs.Arg(0))
		fmt.Fprintln(errOut, "arcade:", err)
		fs.Usage()
		return c, err
	}
	err := checkPublicAddr(c.publicAddr)
	if err == nil {
		err = checkLimits(c)
	}
	if err == nil {
		err = checkMetrics(c.metrics, c.metricsPub)
	}
	if err == nil {
		c.publicURL, err = checkWeb(c)
	}
	if err == nil {
		err = checkNoSecretFlags(fs)
	}
	if err == nil {
		err = checkCluster(c)
	}
	if err == nil {
		c.gcPercent, err = parseGCPercent(gcFlag)
	}
	if err == nil {
		c.memoryLimit, err = parseMemoryLimit(memFlag)
	}
	if err != nil {
		fmt.Fprintln(errOut, "arcade:", err)
		return c, err
	}
	return c, nil
}

// runBackup is `arcade backup [--data DIR] [--force] FILE`; the flags may also follow FILE.
func runBackup(args []string, getenv func(string) string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("arcade backup", flag.ContinueOnError)
	fs.SetOutput(errOut)
	data := dataFlag(fs, getenv, "the server's data folder (ARCADE_DATA)")
	force := fs.Bool("force", false, "replace FILE when it exists (never a database a running arcade holds)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: arcade backup [--data DIR] [--force] FILE")
		fs.PrintDefaults()
	}
	files, err := parseNames(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		fs.Usage()
		return fmt.Errorf("backup needs one file name")
	}
	return backup(*data, files[0], *force, out)
}

// checkPublicAddr refuses a --public-addr that is not a host name or an IP address, with an
// optional port: players are shown it to type.
func checkPublicAddr(addr string) error {
	if addr == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]"), ""
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("--public-addr %q: the port must be a number from 1 to 65535", addr)
		}
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") ||
			strings.ContainsFunc(l, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
			}) {
			return fmt.Errorf("--public-addr %q: not a host name or an IP address, with an optional :port", addr)
		}
	}
	return nil
}

// checkLimits refuses a share that is not a positive number: 0 would mean no limit to the
// packages, which is not what anyone who typed it meant.
func checkLimits(c config) error {
	for _, l := range []struct {
		flag string
		n    int
	}{
		{"--max-sessions-per-key", c.sessionsPerKey}, {"--max-sessions-per-addr", c.sessionsPerAddr},
		{"--max-waiting-rooms", c.waitingPerKey}, {"--max-waiting-rooms-per-addr", c.waitingPerAddr},
		{"--max-unfinished", c.unfinished}, {"--max-spectators", c.spectators},
	} {
		if l.n < 1 {
			return fmt.Errorf("%s %d: the limit must be at least 1", l.flag, l.n)
		}
	}
	return nil
}

// checkWeb checks the web companion's flags and returns --public-url without a trailing slash.
func checkWeb(c config) (string, error) {
	if c.http != "" {
		if _, _, err := net.SplitHostPort(c.http); err != nil {
			return "", fmt.Errorf("--http %q is not host:port", c.http)
		}
	}
	if c.httpMaxStreams < 1 || c.httpStreamsPer < 1 || c.httpRate <= 0 {
		return "", fmt.Errorf("--http-max-streams, --http-max-streams-per-addr and --http-rate must be positive")
	}
	if c.publicURL == "" {
		return "", nil
	}
	u, err := url.Parse(c.publicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--public-url %q: not an address like https://arcade.example.com (http or https, a host, an optional path)", c.publicURL)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// checkMetrics refuses a --metrics address off loopback unless --metrics-public says so: the
// endpoint serves Go's profiles, the command line among them, to anyone who reaches it.
func checkMetrics(addr string, public bool) error {
	if addr == "" || public {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--metrics %q is not host:port", addr)
	}
	if !natsd.IsLoopback(host) {
		return fmt.Errorf("--metrics %s is not on loopback: it serves Go's profiles and the command line to anyone who reaches it; "+
			"use 127.0.0.1:PORT, or add --metrics-public to serve it there anyway", addr)
	}
	return nil
}

// checkNoSecretFlags refuses a secret given on the command line, where every user of the machine
// reads it (ps, /proc) and so does the metrics endpoint's /debug/pprof/cmdline: a password in a
// --nats URL. Secrets come from files (--nats-creds) or the environment (ARCADE_NATS).
func checkNoSecretFlags(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "nats" || err != nil {
			return
		}
		for item := range strings.SplitSeq(f.Value.String(), ",") {
			if u, perr := url.Parse(strings.TrimSpace(item)); perr == nil && u.User != nil {
				if _, has := u.User.Password(); has {
					err = fmt.Errorf("--nats: a password on the command line is readable by every user of the machine; " +
						"put the URLs in ARCADE_NATS, or use --nats-creds FILE")
				}
			}
		}
	})
	return err
}

// checkNATSPort refuses an embedded server's port (flag, host:port) off loopback without TLS:
// the client port admits only the node user and the cluster port only servers with the route
// password, but without TLS anyone on the network between them reads every match.
func checkNATSPort(flag, addr string, tls natsd.TLSFiles) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q is not host:port", flag, addr)
	}
	if natsd.IsLoopback(host) {
		return nil
	}
	if m := tls.Missing(); m != "" {
		return fmt.Errorf("%s %s is not on loopback: it needs TLS; missing %s (Several nodes in docs/operations.md)", flag, addr, m)
	}
	return nil
}

// checkCluster refuses cluster flags that do not go together.
func checkCluster(c config) error {
	switch {
	case c.natsRoutes != "" && !c.natsEmbed:
		return fmt.Errorf("--nats-routes is for the embedded NATS server: add --nats-embed")
	case c.natsRoutes != "" && c.natsCluster == "":
		return fmt.Errorf("--nats-routes needs --nats-cluster, the address the other servers reach this one at")
	case c.natsReplicas < 0 || c.natsReplicas > 5:
		return fmt.Errorf("--nats-replicas %d: JetStream keeps 1 to 5 copies (0: one per server, at most 3)", c.natsReplicas)
	case c.nats != "" && c.natsEmbed:
		return fmt.Errorf("--nats and --nats-embed do not go together: a node with an embedded server uses it (list the other servers with --nats-routes)")
	case (c.natsTLS.Cert == "") != (c.natsTLS.Key == ""):
		return fmt.Errorf("--nats-tls-cert and --nats-tls-key go together")
	}
	if c.natsEmbed {
		if err := checkNATSPort("--nats-listen", c.natsListen, c.natsTLS); err != nil {
			return err
		}
		if c.natsCluster != "" {
			if err := checkNATSPort("--nats-cluster", c.natsCluster, c.natsTLS); err != nil {
				return err
			}
		}
		if c.natsTLS.Any() && c.natsTLS.Missing() != "" {
			return fmt.Errorf("the embedded server's TLS needs --nats-tls-cert, --nats-tls-key and --nats-tls-ca: missing %s", c.natsTLS.Missing())
		}
	}
	if c.nats != "" && c.natsCreds == "" {
		for item := range strings.SplitSeq(c.nats, ",") {
			u, err := url.Parse(strings.TrimSpace(item))
			if err != nil || u.Host == "" {
				return fmt.Errorf("--nats %q: not a URL like nats://host:4222", item)
			}
			if u.User == nil && !natsd.IsLoopback(u.Hostname()) {
				return fmt.Errorf("--nats %s is not on loopback: it needs the cluster's credentials, --nats-creds FILE (Several nodes in docs/operations.md)", item)
			}
		}
	}
	if c.natsRoutes != "" {
		if _, err := natsd.ParseRoutes(c.natsRoutes); err != nil {
			return fmt.Errorf("--nats-routes: %w", err)
		}
	}
	return nil
}
