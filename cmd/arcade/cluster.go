package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/log/v2"
	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/cluster"
	"github.com/arcade/arcade/cluster/natsd"
	"github.com/arcade/arcade/storage"
)

// replicaFile is a cluster node's database in the data folder: its replica of the cluster's
// store, kept apart from the single process's arcade.db.
const replicaFile = "replica.db"

// clusterNode is what running as a node of a cluster adds to the server: the NATS server it
// embeds (--nats-embed), its connection to NATS, and the node.
type clusterNode struct {
	ns   *natsd.Server // nil without --nats-embed
	nc   *nats.Conn
	node *cluster.Node
}

// joinCluster starts the embedded NATS server when asked, connects, and starts the node on db,
// once its replica has caught up with the cluster's history.
func joinCluster(ctx context.Context, cfg config, db *storage.DB, logger *log.Logger) (*clusterNode, error) {
	name := cfg.node
	if name == "" {
		name, _ = os.Hostname()
	}
	logf := func(format string, args ...any) { logger.Infof(format, args...) }
	warnf := func(format string, args ...any) { logger.Warnf(format, args...) }
	c := &clusterNode{}
	secret, err := clusterSecret(cfg, logger)
	if err != nil {
		return nil, err
	}
	opts := []nats.Option{nats.Name("arcade " + name), nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if !nc.IsClosed() { // not the server's own stop
				logger.Warn("lost NATS: moves are refused until it is back", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { logger.Info("NATS is back", "server", nc.ConnectedUrl()) })}
	if secret != nil {
		opts = append(opts, secret.ClientOption())
	}
	url := cfg.nats
	servers := 0 // the servers of the cluster, when this process knows them
	if cfg.natsEmbed {
		routes, err := natsd.ParseRoutes(cfg.natsRoutes)
		if err != nil {
			return nil, fmt.Errorf("--nats-routes: %w", err)
		}
		c.ns, err = natsd.Start(natsd.Config{Name: name, Listen: cfg.natsListen, Cluster: cfg.natsCluster,
			Routes: routes, StoreDir: filepath.Join(cfg.data, "nats"), Secret: secret, TLS: cfg.natsTLS,
			Logf: func(format string, args ...any) { logger.Debugf(format, args...) }})
		if err != nil {
			return nil, err
		}
		// The node reaches its own server inside the process: no network, no TLS between them
		// (and no URL: one with the tls:// scheme of a server with TLS would ask for it).
		url = ""
		opts = append(opts, c.ns.InProcess())
		servers = 1 + len(routes)
	} else {
		tlsOpts, err := natsd.ClientTLS(cfg.natsTLS)
		if err != nil {
			return nil, err
		}
		opts = append(opts, tlsOpts...)
	}
	c.nc, err = nats.Connect(url, opts...)
	if err != nil {
		c.close()
		if secret == nil && strings.Contains(strings.ToLower(err.Error()), "authorization") {
			return nil, fmt.Errorf("connect to NATS: %w: give the cluster's secret with --nats-creds FILE", err)
		}
		return nil, fmt.Errorf("connect to NATS: %w", err)
	}
	if c.ns == nil {
		if u, err := neturl.Parse(c.nc.ConnectedUrl()); err == nil && !natsd.IsLoopback(u.Hostname()) {
			if _, err := c.nc.TLSConnectionState(); err != nil {
				logger.Warn("the connection to NATS is not encrypted: anyone on the network between reads every match; give the servers TLS (--nats-tls-ca)",
					"server", c.nc.ConnectedUrl())
			}
		}
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := natsd.WaitJetStream(wctx, c.nc); err != nil {
		c.close()
		return nil, fmt.Errorf("JetStream: %w", err)
	}
	if servers == 0 {
		servers = len(c.nc.Servers())
	}
	replicas := cfg.natsReplicas
	if replicas == 0 {
		replicas = min(max(servers, 1), 3)
	}
	c.node, err = cluster.Start(wctx, cluster.Config{Conn: c.nc, Name: name, Replicas: replicas, DB: db,
		Logf: logf, Warnf: warnf})
	if err != nil {
		c.close()
		return nil, err
	}
	connected := c.nc.ConnectedUrl()
	if c.ns != nil {
		connected = c.ns.ClientURL() + " (in process)"
	}
	logger.Info("joined the cluster", "node", c.node.ID(), "nats", connected, "replicas", replicas)
	return c, nil
}

// clusterSecret returns the cluster's secret (--nats-creds, else DATA/cluster-secret), nil for a
// node on an external server that was given none. A node with an embedded server and no
// --nats-routes makes DATA/cluster-secret at its first start; one with --nats-routes must be given
// the cluster's: a secret of its own would keep it out of the cluster.
func clusterSecret(cfg config, logger *log.Logger) (*natsd.Secret, error) {
	path := cfg.natsCreds
	if path == "" {
		path = filepath.Join(cfg.data, natsd.SecretFile)
	}
	s, err := natsd.LoadSecret(path)
	switch {
	case err == nil:
		return s, nil
	case !natsd.IsMissing(err):
		return nil, err
	case cfg.natsCreds != "":
		return nil, fmt.Errorf("--nats-creds: %w", err)
	case !cfg.natsEmbed:
		return nil, nil
	case cfg.natsRoutes != "":
		return nil, fmt.Errorf("%s is missing: every node of a cluster uses the same secret; make it once on one node (arcade cluster-secret --data DIR), "+
			"copy it into every node's data folder (mode 0600), or name it with --nats-creds FILE (Several nodes in docs/operations.md)", path)
	}
	s, err = natsd.CreateSecret(path)
	if err != nil {
		return nil, err
	}
	logger.Info("made the cluster's secret: other nodes of this cluster need a copy", "file", path)
	return s, nil
}

// runClusterSecret is `arcade cluster-secret [--data DIR]`: it makes the cluster's secret in the
// data folder, which every node of the cluster needs a copy of, and never overwrites one.
func runClusterSecret(args []string, getenv func(string) string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("arcade cluster-secret", flag.ContinueOnError)
	fs.SetOutput(errOut)
	data := dataFlag(fs, getenv, "the node's data folder (ARCADE_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("cluster-secret takes no argument (%q)", fs.Arg(0))
	}
	if err := openDataFolder(*data); err != nil {
		return err
	}
	path := filepath.Join(*data, natsd.SecretFile)
	s, err := natsd.CreateSecret(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %s (mode 0600): copy it into the data folder of every node of the cluster\n", path)
	fmt.Fprintf(out, "the node user's public nkey, for an external NATS server's configuration: %s\n", s.PublicKey())
	return nil
}

// close closes the connection and stops the embedded server; the node itself is closed before,
// by the server's shutdown.
func (c *clusterNode) close() {
	if c.nc != nil {
		c.nc.Close()
	}
	if c.ns != nil {
		c.ns.Shutdown()
	}
}
