package main

import (
	"context"
	"fmt"
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
	var urls []string
	if cfg.nats != "" {
		urls = strings.Split(cfg.nats, ",")
	}
	servers := 0 // the servers of the cluster, when this process knows them
	if cfg.natsEmbed {
		routes, err := natsd.ParseRoutes(cfg.natsRoutes)
		if err != nil {
			return nil, fmt.Errorf("--nats-routes: %w", err)
		}
		c.ns, err = natsd.Start(natsd.Config{Name: name, Listen: cfg.natsListen, Cluster: cfg.natsCluster,
			Routes: routes, StoreDir: filepath.Join(cfg.data, "nats"), Logf: func(format string, args ...any) {
				logger.Debugf(format, args...)
			}})
		if err != nil {
			return nil, err
		}
		urls = append([]string{c.ns.ClientURL()}, urls...)
		servers = 1 + len(routes)
	}
	var err error
	c.nc, err = nats.Connect(strings.Join(urls, ","), nats.Name("arcade "+name), nats.MaxReconnects(-1),
		nats.ReconnectWait(500*time.Millisecond),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if !nc.IsClosed() { // not the server's own stop
				logger.Warn("lost NATS: moves are refused until it is back", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { logger.Info("NATS is back", "server", nc.ConnectedUrl()) }))
	if err != nil {
		c.close()
		return nil, fmt.Errorf("connect to NATS: %w", err)
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
	logger.Info("joined the cluster", "node", c.node.ID(), "nats", c.nc.ConnectedUrl(), "replicas", replicas)
	return c, nil
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
