package natsd

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/cluster/clustertest"
)

// suiteSecret is the secret of the servers of the tests that are not about it.
var suiteSecret = func() *Secret {
	s, err := NewSecret()
	if err != nil {
		panic(err)
	}
	return s
}()

// testSecret writes a fresh secret into a temporary folder and returns it.
func testSecret(t *testing.T) *Secret {
	t.Helper()
	s, err := CreateSecret(filepath.Join(t.TempDir(), SecretFile))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// logLines collects a server's log, for a test to wait for a line.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

// await waits until a line contains want.
func (l *logLines) await(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		l.mu.Lock()
		for _, s := range l.lines {
			if strings.Contains(s, want) {
				l.mu.Unlock()
				return
			}
		}
		n := len(l.lines)
		l.mu.Unlock()
		if time.Now().After(deadline) {
			l.mu.Lock()
			t.Logf("log:\n%s", strings.Join(l.lines, "\n"))
			l.mu.Unlock()
			t.Fatalf("no log line says %q; %d lines", want, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSecretFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), SecretFile)
	s, err := CreateSecret(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v, mode %v, want 0600", err, info.Mode().Perm())
	}
	if _, err := CreateSecret(path); err == nil {
		t.Fatal("CreateSecret overwrote an existing secret")
	}
	again, err := LoadSecret(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.PublicKey() != s.PublicKey() || again.route != s.route || !again.HasRoutePassword() {
		t.Errorf("loaded secret differs from the one written")
	}
	if !strings.HasPrefix(s.PublicKey(), "U") {
		t.Errorf("public key %q is not a user nkey", s.PublicKey())
	}
	// nats.go reads the same file as an nkey seed file.
	if _, err := nats.NkeyOptionFromSeed(path); err != nil {
		t.Errorf("nats.NkeyOptionFromSeed: %v", err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSecret(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a secret others may read: %v, want a refusal saying chmod 600", err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("route-password 00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSecret(bad); err == nil {
		t.Error("a secret without a seed was loaded")
	}
}

// TestClientPortRefusesStrangers: a client without the node user's key is refused; the node
// user may use the arcade's subjects and JetStream, and nothing else.
func TestClientPortRefusesStrangers(t *testing.T) {
	t.Parallel()
	sec := testSecret(t)
	s := start(t, Config{Name: "solo", Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Secret: sec})

	if nc, err := nats.Connect(s.ClientURL(), nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("a client without credentials connected")
	} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Errorf("a client without credentials: %v, want an authorization error", err)
	}
	other := testSecret(t)
	if nc, err := nats.Connect(s.ClientURL(), nats.MaxReconnects(0), other.ClientOption()); err == nil {
		nc.Close()
		t.Fatal("a client with another cluster's key connected")
	}

	denied := make(chan error, 4)
	nc, err := nats.Connect(s.ClientURL(), nats.MaxReconnects(0), sec.ClientOption(),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { denied <- err }))
	if err != nil {
		t.Fatalf("the node user: %v", err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := WaitJetStream(ctx, nc); err != nil {
		t.Fatalf("the node user's JetStream: %v", err)
	}
	sub, err := nc.SubscribeSync("arcade.test")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish("arcade.test", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.NextMsg(10 * time.Second); err != nil {
		t.Fatalf("arcade.test: %v", err)
	}
	if err := nc.Publish("$SYS.REQ.SERVER.PING", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-denied:
		if !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			t.Errorf("publish outside the arcade's subjects: %v, want a permissions violation", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("publishing to $SYS.REQ.SERVER.PING was not refused")
	}
}

// TestClusterPortRefusesStrangers: a server without the route password cannot join the
// cluster; the same server with it can (so the refusal is the password's doing).
func TestClusterPortRefusesStrangers(t *testing.T) {
	t.Parallel()
	sec := testSecret(t)
	ports := clustertest.FreePorts(t, 2)
	var lines logLines
	s := start(t, Config{Name: "n1", Listen: "127.0.0.1:0", Cluster: fmt.Sprintf("127.0.0.1:%d", ports[0]),
		Routes: []string{fmt.Sprintf("127.0.0.1:%d", ports[1])}, StoreDir: t.TempDir(), Secret: sec, Logf: lines.logf})

	rogue := func(user *url.Userinfo) *server.Server {
		t.Helper()
		u, err := parseRoute(strings.TrimPrefix(s.ClusterURL(), routeScheme+"://"))
		if err != nil {
			t.Fatal(err)
		}
		u.User = user
		opts := &server.Options{ServerName: "rogue", Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true,
			Routes: []*url.URL{u}}
		opts.Cluster.Name, opts.Cluster.Host, opts.Cluster.Port = DefaultClusterName, "127.0.0.1", -1
		ns, err := server.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		ns.Start()
		t.Cleanup(func() { stop(ns) })
		return ns
	}
	r := rogue(nil)
	lines.await(t, "Router connection closed: Authentication Failure")
	if n := s.ns.NumRoutes(); n != 0 {
		t.Fatalf("after refusing the rogue, n1 has %d routes", n)
	}
	stop(r)
	if n := s.ns.NumRoutes(); n != 0 {
		t.Fatalf("n1 has %d routes, want 0", n)
	}
	friend := rogue(url.UserPassword(routeUser, sec.route))
	deadline := time.Now().Add(20 * time.Second)
	for friend.NumRoutes() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("a server with the route password did not join")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPortsOffLoopbackNeedTLS: a client or cluster port on every interface is refused without
// TLS, with a message naming what is missing.
func TestPortsOffLoopbackNeedTLS(t *testing.T) {
	t.Parallel()
	sec := testSecret(t)
	for _, cfg := range []Config{
		{Name: "a", Listen: "0.0.0.0:0", StoreDir: t.TempDir(), Secret: sec},
		{Name: "a", Listen: "127.0.0.1:0", Cluster: ":0", Routes: []string{"127.0.0.1:1"}, StoreDir: t.TempDir(), Secret: sec},
		{Name: "a", Listen: "127.0.0.1:0", Cluster: "0.0.0.0:0", Routes: []string{"127.0.0.1:1"}, StoreDir: t.TempDir(), Secret: sec,
			TLS: TLSFiles{Cert: "c.pem"}},
	} {
		s, err := Start(cfg)
		if err == nil {
			s.Shutdown()
			t.Fatalf("%s / %q started without TLS", cfg.Listen, cfg.Cluster)
		}
		if !strings.Contains(err.Error(), "needs TLS") || !strings.Contains(err.Error(), "--nats-tls-ca") {
			t.Errorf("%s / %q: %v, want it to say TLS is needed and --nats-tls-ca missing", cfg.Listen, cfg.Cluster, err)
		}
	}
	if s, err := Start(Config{Listen: "127.0.0.1:0", StoreDir: t.TempDir()}); err == nil {
		s.Shutdown()
		t.Fatal("a server without a secret started")
	}
}

// TestTLS: two servers with TLS on both ports form a cluster; a client needs the CA to trust the
// server, a certificate the CA signed, and the node user's key.
func TestTLS(t *testing.T) {
	t.Parallel()
	sec := testSecret(t)
	files := testCerts(t)
	ports := clustertest.FreePorts(t, 2)
	routes := []string{fmt.Sprintf("127.0.0.1:%d", ports[0]), fmt.Sprintf("127.0.0.1:%d", ports[1])}
	servers := make([]*Server, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			servers[i], errs[i] = Start(Config{Name: fmt.Sprintf("n%d", i+1), Listen: "127.0.0.1:0", Cluster: routes[i],
				Routes: []string{routes[1-i]}, StoreDir: t.TempDir(), Secret: sec, TLS: files})
		})
	}
	wg.Wait()
	for i, s := range servers {
		if errs[i] != nil {
			t.Fatalf("start n%d: %v", i+1, errs[i])
		}
		t.Cleanup(s.Shutdown)
	}
	deadline := time.Now().Add(20 * time.Second)
	for servers[0].ns.NumRoutes() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the servers did not form a cluster over TLS")
		}
		time.Sleep(20 * time.Millisecond)
	}
	url := servers[0].ClientURL()
	if nc, err := nats.Connect(url, nats.MaxReconnects(0), sec.ClientOption()); err == nil {
		nc.Close()
		t.Fatal("a client without TLS connected")
	}
	noCert, err := ClientTLS(TLSFiles{CA: files.CA})
	if err != nil {
		t.Fatal(err)
	}
	if nc, err := nats.Connect(url, append(noCert, nats.MaxReconnects(0), sec.ClientOption())...); err == nil {
		nc.Close()
		t.Fatal("a client without a certificate connected")
	}
	full, err := ClientTLS(files)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, append(full, nats.MaxReconnects(0), sec.ClientOption())...)
	if err != nil {
		t.Fatalf("a client with TLS and the key: %v", err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := WaitJetStream(ctx, nc); err != nil {
		t.Fatal(err)
	}
	// In the process, no TLS is needed.
	in, err := nats.Connect("", servers[1].InProcess(), sec.ClientOption())
	if err != nil {
		t.Fatalf("in process: %v", err)
	}
	in.Close()
}

// testCerts writes a throwaway CA and a certificate for 127.0.0.1 and localhost, signed by it.
func testCerts(t *testing.T) TLSFiles {
	t.Helper()
	f := clustertest.TLS(t)
	return TLSFiles{Cert: f.Cert, Key: f.Key, CA: f.CA}
}
