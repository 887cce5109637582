package natsd

import (
	"context"
	"errors"
	"fmt"
	"github.com/arcade/arcade/cluster/clustertest"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// start starts a server for the test and shuts it down when the test ends.
func start(t *testing.T, cfg Config) *Server {
	t.Helper()
	if cfg.Secret == nil {
		cfg.Secret = suiteSecret
	}
	s, err := Start(cfg)
	if err != nil {
		t.Fatalf("start %s: %v", cfg.Name, err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// connect connects to s, closing the connection when the test ends (before the server's
// Shutdown, since cleanups run last first).
func connect(t *testing.T, s *Server) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.ClientURL(), nats.MaxReconnects(0), suiteSecret.ClientOption())
	if err != nil {
		t.Fatalf("connect %s: %v", s.ClientURL(), err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func kvOn(t *testing.T, ctx context.Context, nc *nats.Conn, bucket string) jetstream.KeyValue {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		t.Fatalf("bucket %s: %v", bucket, err)
	}
	return kv
}

func TestAloneKeepsKeysAcrossRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	cfg := Config{Name: "solo", Listen: "127.0.0.1:0", StoreDir: dir, Logf: t.Logf, Secret: suiteSecret}

	began := time.Now()
	s, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("start: %v, client %s", time.Since(began), s.ClientURL())
	if s.ClusterURL() != "" {
		t.Errorf("ClusterURL alone = %q, want \"\"", s.ClusterURL())
	}
	if !strings.HasPrefix(s.ClientURL(), "nats://127.0.0.1:") || strings.HasSuffix(s.ClientURL(), ":0") {
		t.Errorf("ClientURL = %q, want nats://127.0.0.1:<free port>", s.ClientURL())
	}
	nc, err := nats.Connect(s.ClientURL(), suiteSecret.ClientOption())
	if err != nil {
		s.Shutdown()
		t.Fatal(err)
	}
	began = time.Now()
	if err := WaitJetStream(ctx, nc); err != nil {
		t.Fatal(err)
	}
	t.Logf("jetstream ready: %v", time.Since(began))
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "seats"})
	if err != nil {
		t.Fatalf("create bucket: %v", err)
	}
	if _, err := kv.Create(ctx, "table.1", []byte("alice")); err != nil {
		t.Fatalf("first Create: %v", err)
	}
	if _, err := kv.Create(ctx, "table.1", []byte("bob")); !errors.Is(err, jetstream.ErrKeyExists) {
		t.Fatalf("second Create: %v, want ErrKeyExists", err)
	}
	nc.Close()
	began = time.Now()
	s.Shutdown()
	s.Shutdown() // a second call does nothing
	t.Logf("shutdown: %v", time.Since(began))

	s2 := start(t, cfg)
	nc2 := connect(t, s2)
	if err := WaitJetStream(ctx, nc2); err != nil {
		t.Fatal(err)
	}
	kv2 := kvOn(t, ctx, nc2, "seats")
	e, err := kv2.Get(ctx, "table.1")
	if err != nil {
		t.Fatalf("Get after restart: %v", err)
	}
	if string(e.Value()) != "alice" {
		t.Errorf("after restart table.1 = %q, want alice", e.Value())
	}
	if _, err := kv2.Create(ctx, "table.1", []byte("carol")); !errors.Is(err, jetstream.ErrKeyExists) {
		t.Errorf("Create after restart: %v, want ErrKeyExists", err)
	}
}

// liveMB is the live heap and goroutine stacks, in MiB, after a collection.
func liveMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc+m.StackInuse) / (1 << 20)
}

// noSuitablePeers is JetStream's err_code for "no suitable peers for placement".
const noSuitablePeers = 10005

func TestClusterOfThree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ports := clustertest.FreePorts(t, 3)
	routes := make([]string, 3)
	for i, p := range ports {
		routes[i] = fmt.Sprintf("127.0.0.1:%d", p)
	}
	live0, goroutines0 := liveMB(), runtime.NumGoroutine()

	began := time.Now()
	servers := make([]*Server, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			others := slices.Concat(routes[:i], routes[i+1:], []string{""}) // "" is ignored
			servers[i], errs[i] = Start(Config{
				Name:     fmt.Sprintf("n%d", i+1),
				Listen:   "127.0.0.1:0",
				Cluster:  routes[i],
				Routes:   others,
				StoreDir: t.TempDir(),
				Secret:   suiteSecret,
				Logf: func(format string, args ...any) {
					t.Logf("n%d "+format, append([]any{i + 1}, args...)...)
				},
			})
		})
	}
	wg.Wait()
	for i, s := range servers {
		if errs[i] != nil {
			t.Fatalf("start n%d: %v", i+1, errs[i])
		}
		t.Cleanup(s.Shutdown)
		if want := "nats-route://" + routes[i]; s.ClusterURL() != want {
			t.Errorf("n%d ClusterURL = %q, want %q", i+1, s.ClusterURL(), want)
		}
	}
	t.Logf("3 servers accepting clients: %v", time.Since(began))

	ncs := make([]*nats.Conn, 3)
	for i, s := range servers {
		ncs[i] = connect(t, s)
	}
	for i, nc := range ncs {
		if err := WaitJetStream(ctx, nc); err != nil {
			t.Fatalf("n%d: %v", i+1, err)
		}
	}
	t.Logf("jetstream ready on all 3 (meta leader elected): %v", time.Since(began))
	t.Logf("3 servers: live heap+stacks +%.1f MiB, goroutines +%d", liveMB()-live0, runtime.NumGoroutine()-goroutines0)

	js1, err := jetstream.New(ncs[0])
	if err != nil {
		t.Fatal(err)
	}
	// The meta leader places an R3 stream only on peers it has had stats from, which may come a
	// moment after JetStream answers: until then it refuses with "no suitable peers" (10005).
	mark := time.Now()
	for tries := 1; ; tries++ {
		_, err := js1.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "seats", Replicas: 3})
		if err == nil {
			t.Logf("R3 bucket created: %v, %d tries", time.Since(mark), tries)
			break
		}
		var apiErr *jetstream.APIError
		if !errors.As(err, &apiErr) || apiErr.ErrorCode != noSuitablePeers || ctx.Err() != nil {
			t.Fatalf("create R3 bucket (try %d): %v", tries, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}

	kvs := make([]jetstream.KeyValue, 3)
	for i, nc := range ncs {
		kvs[i] = kvOn(t, ctx, nc, "seats")
	}
	var created [3]error
	mark = time.Now()
	for _, i := range []int{1, 2} {
		wg.Go(func() {
			_, created[i] = kvs[i].Create(ctx, "table.1", fmt.Appendf(nil, "n%d", i+1))
		})
	}
	wg.Wait()
	t.Logf("with an R3 bucket: live heap+stacks +%.1f MiB, goroutines +%d", liveMB()-live0, runtime.NumGoroutine()-goroutines0)
	t.Logf("racing Creates: %v (n2: %v, n3: %v)", time.Since(mark), created[1], created[2])
	won := -1
	for _, i := range []int{1, 2} {
		switch {
		case created[i] == nil:
			if won >= 0 {
				t.Fatalf("both n%d and n%d created table.1", won+1, i+1)
			}
			won = i
		case !errors.Is(created[i], jetstream.ErrKeyExists):
			t.Fatalf("n%d Create: %v, want nil or ErrKeyExists", i+1, created[i])
		}
	}
	if won < 0 {
		t.Fatal("neither Create succeeded")
	}
	e, err := kvs[0].Get(ctx, "table.1")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("n%d", won+1); string(e.Value()) != want {
		t.Errorf("table.1 = %q, want the winner's %q", e.Value(), want)
	}

	ncs[2].Close()
	mark = time.Now()
	servers[2].Shutdown()
	t.Logf("n3 shutdown: %v", time.Since(mark))

	// With 2 of 3 up the stream keeps a quorum; if n3 led it, the others elect a new leader first.
	mark = time.Now()
	for i := range 2 {
		key := fmt.Sprintf("table.%d", i+2)
		for {
			pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := kvs[i].Put(pctx, key, []byte("after n3"))
			pcancel()
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("Put through n%d with n3 down: %v", i+1, err)
			}
			t.Logf("Put through n%d with n3 down, retrying: %v", i+1, err)
		}
	}
	t.Logf("writes through n1 and n2 with n3 down: %v", time.Since(mark))
	for i := range 2 {
		if _, err := kvs[i].Create(ctx, "table.1", []byte("late")); !errors.Is(err, jetstream.ErrKeyExists) {
			t.Errorf("Create through n%d with n3 down: %v, want ErrKeyExists", i+1, err)
		}
	}
}

func TestStartRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no store dir", Config{Listen: "127.0.0.1:0"}, "store dir"},
		{"bad listen", Config{Listen: "localhost", StoreDir: dir}, "listen address"},
		{"routes alone", Config{Listen: "127.0.0.1:0", StoreDir: dir, Routes: []string{"127.0.0.1:1"}}, "without a cluster"},
		{"cluster without routes", Config{Name: "a", Listen: "127.0.0.1:0", Cluster: "127.0.0.1:0", Routes: []string{""}, StoreDir: dir}, "at least one route"},
		{"cluster without name", Config{Listen: "127.0.0.1:0", Cluster: "127.0.0.1:0", Routes: []string{"127.0.0.1:1"}, StoreDir: dir}, "needs a name"},
		{"bad route", Config{Name: "a", Listen: "127.0.0.1:0", Cluster: "127.0.0.1:0", Routes: []string{"http://x:1"}, StoreDir: dir}, "scheme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Start(tc.cfg)
			if err == nil {
				s.Shutdown()
				t.Fatalf("Start succeeded, want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Start: %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestStartPortTaken(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	began := time.Now()
	s, err := Start(Config{Listen: l.Addr().String(), StoreDir: t.TempDir(), Secret: suiteSecret})
	if err == nil {
		s.Shutdown()
		t.Fatal("Start on a taken port succeeded")
	}
	if took := time.Since(began); took > time.Minute { // a guard against retrying without end, not a measure
		t.Errorf("Start took %v to fail on a taken port", took)
	}
	t.Logf("taken port: %v", err)
}

func TestParseRoutes(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "", want: nil},
		{in: " , ,", want: nil},
		{in: "nats-route://10.0.0.1:6222", want: []string{"nats-route://10.0.0.1:6222"}},
		{in: "a.example:6222,b.example:6222", want: []string{"nats-route://a.example:6222", "nats-route://b.example:6222"}},
		{in: " a:1 ,, nats-route://b:2 ,", want: []string{"nats-route://a:1", "nats-route://b:2"}},
		{in: "[::1]:6222", want: []string{"nats-route://[::1]:6222"}},
		{in: "a.example", wantErr: "not host:port"},
		{in: "a:1,b", wantErr: `"b" is not host:port`},
		{in: ":6222", wantErr: "bad host"},
		{in: "a:port", wantErr: "bad port"},
		{in: "a:0", wantErr: "bad port"},
		{in: "a:70000", wantErr: "bad port"},
		{in: "nats://a:1", wantErr: "scheme"},
		{in: "http://a:1", wantErr: "scheme"},
		{in: "nats-route://a:1/path", wantErr: "bad port"},
		{in: "a b:1", wantErr: "bad host"},
		{in: "user@a:1", wantErr: "bad host"},
	} {
		got, err := ParseRoutes(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseRoutes(%q) = %q, %v; want error containing %q", tc.in, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseRoutes(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
