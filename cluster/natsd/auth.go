package natsd

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// TLSFiles names the PEM files of a server's or a client's TLS: its certificate and key, and the
// CA that its peers' certificates must be signed by.
type TLSFiles struct {
	Cert, Key, CA string
}

// Missing returns the --nats-tls-* flags that are not set, "" when all are.
func (f TLSFiles) Missing() string {
	var m []string
	if f.Cert == "" {
		m = append(m, "--nats-tls-cert")
	}
	if f.Key == "" {
		m = append(m, "--nats-tls-key")
	}
	if f.CA == "" {
		m = append(m, "--nats-tls-ca")
	}
	return strings.Join(m, ", ")
}

// Any reports whether any file is named.
func (f TLSFiles) Any() bool { return f != TLSFiles{} }

// NodePermissions is what the node user may do on the embedded server: the arcade's own
// subjects, the JetStream API, the key-value buckets' and the snapshots' object store's
// (arcade_snapshots) subjects, acknowledgements and flow
// control of its consumers, and replies to its own requests. Nothing else, not the system
// account's subjects.
func NodePermissions() *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: []string{"arcade.>", "$JS.API.>", "$KV.>", "$O.arcade_snapshots.>", "$JS.ACK.>", "$JS.FC.>", "_INBOX.>"}},
		Subscribe: &server.SubjectPermission{Allow: []string{"arcade.>", "$KV.>", "$O.arcade_snapshots.>", "_INBOX.>"}},
	}
}

// IsLoopback reports whether host (an address's host part) can only be reached from this machine:
// a loopback IP or "localhost". An empty host, or an unspecified one (0.0.0.0, ::), is every
// interface, not loopback.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// serverTLS makes the TLS of the client and route ports: the server's certificate, and peers
// (clients and other servers) must show one the CA signed.
func serverTLS(f TLSFiles) (*tls.Config, error) {
	if m := f.Missing(); m != "" {
		return nil, fmt.Errorf("TLS needs a certificate, its key and a CA: missing %s", m)
	}
	tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: f.Cert, KeyFile: f.Key, CaFile: f.CA, Verify: true})
	if err != nil {
		return nil, fmt.Errorf("TLS: %w", err)
	}
	if tc.ClientCAs == nil {
		return nil, fmt.Errorf("TLS: no CA certificate in %s", f.CA)
	}
	// A route port is also a client of the others': it checks their certificates too.
	tc.RootCAs = tc.ClientCAs
	return tc, nil
}

// ClientTLS returns the nats.go options of a TLS connection: the CA that must have signed the
// server's certificate, and this node's certificate when the server asks for one (mutual TLS).
// None when f names no file.
func ClientTLS(f TLSFiles) ([]nats.Option, error) {
	var opts []nats.Option
	if f.CA != "" {
		opts = append(opts, nats.RootCAs(f.CA))
	}
	switch {
	case f.Cert != "" && f.Key != "":
		opts = append(opts, nats.ClientCert(f.Cert, f.Key))
	case f.Cert != "" || f.Key != "":
		return nil, errors.New("a client certificate needs both --nats-tls-cert and --nats-tls-key")
	}
	return opts, nil
}

// secure adds the secret's users and the TLS to opts: the node user on the client port, the
// route user on the cluster port, and a cluster or client port off loopback only with TLS.
func secure(opts *server.Options, cfg Config, routes []*url.URL) error {
	if cfg.Secret == nil {
		return errors.New("natsd: a server needs the cluster's secret (Config.Secret): it admits no one without")
	}
	pub := cfg.Secret.PublicKey()
	if pub == "" {
		return errors.New("natsd: the cluster's secret has no valid nkey seed")
	}
	opts.Nkeys = []*server.NkeyUser{{Nkey: pub, Permissions: NodePermissions()}}
	onLoopback := IsLoopback(opts.Host) && (opts.Cluster.Port == 0 || IsLoopback(opts.Cluster.Host))
	if !onLoopback || cfg.TLS.Any() {
		tc, err := serverTLS(cfg.TLS)
		if err != nil {
			if !onLoopback {
				return fmt.Errorf("natsd: a client or cluster port off loopback (%s, %s) needs TLS: %w", cfg.Listen, cfg.Cluster, err)
			}
			return fmt.Errorf("natsd: %w", err)
		}
		opts.TLSConfig, opts.TLSVerify = tc, true
		opts.TLSTimeout = 5
		if opts.Cluster.Port != 0 {
			opts.Cluster.TLSConfig = tc.Clone()
			opts.Cluster.TLSTimeout = 5
		}
	}
	if opts.Cluster.Port == 0 {
		return nil
	}
	if !cfg.Secret.HasRoutePassword() {
		return errors.New("natsd: a server in a cluster needs the route password of the cluster's secret, which this file lacks")
	}
	opts.Cluster.Username, opts.Cluster.Password = routeUser, cfg.Secret.route
	for _, u := range routes {
		u.User = url.UserPassword(routeUser, cfg.Secret.route)
	}
	return nil
}
