package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/cluster/clustertest"
	"github.com/arcade/arcade/cluster/natsd"
)

// TestNATSClosed: a node with an embedded NATS server and no routes makes the cluster's secret at
// its first start (mode 0600), and its client port admits only the node user of that secret; a
// node that joins others (--nats-routes) without the secret, and one with a NATS port off
// loopback without TLS, refuse to start and say what is missing.
func TestNATSClosed(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := &testCluster{bin: binary(t)}
	port := clustertest.FreePorts(t, 1)[0]
	url := "nats://127.0.0.1:" + strconv.Itoa(port)
	ready := make(chan startedNode, 1)
	c.launch(t, url, ready, "--nats-embed", "--nats-listen", "127.0.0.1:"+strconv.Itoa(port))
	c.dumpLogs(t)
	c.awaitSSH(t, ready, 1)

	secret := filepath.Join(c.nodes[0].data, natsd.SecretFile)
	info, err := os.Stat(secret)
	if err != nil {
		t.Fatalf("the first start made no secret: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %04o, want 0600", secret, info.Mode().Perm())
	}
	if nc, err := nats.Connect(url, nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("a NATS client without credentials connected to the node's server")
	} else {
		t.Logf("without credentials: %v", err)
	}
	creds, err := nats.NkeyOptionFromSeed(secret)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, nats.MaxReconnects(0), creds)
	if err != nil {
		t.Fatalf("the node user: %v", err)
	}
	nc.Close()

	refused := func(want string, args ...string) {
		t.Helper()
		cmd := exec.Command(c.bin, append([]string{"--addr", "127.0.0.1:0", "--data", t.TempDir()}, args...)...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("%q: %v, want it to refuse to start; output:\n%s", args, err, out)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%q said:\n%s\nwant %q", args, out, want)
		}
	}
	routes := "127.0.0.1:" + strconv.Itoa(clustertest.FreePorts(t, 1)[0])
	refused("cluster-secret is missing", "--nats-embed", "--nats-listen", "127.0.0.1:0", "--nats-cluster", "127.0.0.1:0",
		"--nats-routes", routes)
	refused("arcade cluster-secret --data DIR", "--nats-embed", "--nats-listen", "127.0.0.1:0", "--nats-cluster", "127.0.0.1:0",
		"--nats-routes", routes)
	refused("--nats-listen 0.0.0.0:0 is not on loopback: it needs TLS", "--nats-embed", "--nats-listen", "0.0.0.0:0")
	refused("--nats nats://192.0.2.1:4222 is not on loopback: it needs the cluster's credentials", "--nats", "nats://192.0.2.1:4222")
}

// TestClusterTLS: two nodes whose embedded servers' ports both need TLS form a cluster (their
// routes verify each other's certificates), and a third node reaches the first's client port with
// --nats, the cluster's secret and a certificate; a NATS client without a certificate is refused.
func TestClusterTLS(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := &testCluster{bin: binary(t)}
	c.makeSecret(t)
	files := clustertest.TLS(t)
	tls := []string{"--nats-tls-cert", files.Cert, "--nats-tls-key", files.Key, "--nats-tls-ca", files.CA}
	ports := clustertest.FreePorts(t, 4)
	addr := func(i int) string { return "127.0.0.1:" + strconv.Itoa(ports[i]) }
	ready := make(chan startedNode, 2)
	for i := range 2 {
		c.launch(t, "nats://"+addr(i), ready, append([]string{"--nats-embed", "--nats-listen", addr(i),
			"--nats-cluster", addr(2 + i), "--nats-routes", addr(3 - i)}, tls...)...)
	}
	c.dumpLogs(t)
	c.awaitSSH(t, ready, 2)
	c.launch(t, "", ready, append([]string{"--nats", "nats://" + addr(0), "--nats-replicas", "2"}, tls...)...)
	c.awaitSSH(t, ready, 1)

	creds, err := nats.NkeyOptionFromSeed(filepath.Join(c.nodes[0].data, natsd.SecretFile))
	if err != nil {
		t.Fatal(err)
	}
	if nc, err := nats.Connect("nats://"+addr(0), nats.MaxReconnects(0), creds, nats.RootCAs(files.CA)); err == nil {
		nc.Close()
		t.Fatal("a NATS client without a certificate connected")
	}
	nc, err := nats.Connect("nats://"+addr(0), nats.MaxReconnects(0), creds, nats.RootCAs(files.CA),
		nats.ClientCert(files.Cert, files.Key))
	if err != nil {
		t.Fatalf("a NATS client with the certificate and the secret: %v", err)
	}
	nc.Close()
	key := newKey(t)
	for i := range 3 {
		out, err := plainOn(c.addr(i), "reader", key, "rooms")
		if err != nil {
			t.Fatalf("rooms on n%d: %v", i+1, err)
		}
		t.Logf("rooms on n%d: %q", i+1, out)
	}
}
