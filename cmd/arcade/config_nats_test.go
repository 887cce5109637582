package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcade/arcade/cluster/natsd"
)

// TestNATSClosedFlags: a NATS port of the embedded server off loopback needs TLS, a node on a
// NATS server off loopback needs credentials, and the refusal names what is missing; loopback
// needs neither.
func TestNATSClosedFlags(t *testing.T) {
	none := func(string) string { return "" }
	tls := []string{"--nats-tls-cert", "n.pem", "--nats-tls-key", "n-key.pem", "--nats-tls-ca", "ca.pem"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nats-embed", "--nats-listen", "0.0.0.0:4222"}, "--nats-listen 0.0.0.0:4222 is not on loopback: it needs TLS; missing --nats-tls-cert, --nats-tls-key, --nats-tls-ca"},
		{[]string{"--nats-embed", "--nats-listen", "10.0.0.1:4222", "--nats-tls-ca", "ca.pem"}, "missing --nats-tls-cert, --nats-tls-key"},
		{[]string{"--nats-embed", "--nats-cluster", ":6222", "--nats-routes", "a2:6222"}, "--nats-cluster :6222 is not on loopback: it needs TLS"},
		{[]string{"--nats-embed", "--nats-cluster", "a1.example:6222", "--nats-routes", "a2:6222", "--nats-tls-cert", "n.pem", "--nats-tls-key", "k.pem"}, "missing --nats-tls-ca"},
		{[]string{"--nats-embed", "--nats-tls-ca", "ca.pem"}, "missing --nats-tls-cert, --nats-tls-key"},
		{[]string{"--nats", "nats://n1.example:4222"}, "needs the cluster's credentials, --nats-creds FILE"},
		{[]string{"--nats", "nats://127.0.0.1:4222,nats://10.0.0.2:4222"}, "nats://10.0.0.2:4222 is not on loopback"},
		{[]string{"--nats", "nats://n1:4222", "--nats-tls-cert", "n.pem"}, "go together"},
		{[]string{"--nats", "nats://127.0.0.1:4222", "--nats-embed"}, "do not go together"},
		{[]string{"--nats", "nats://arcade:pw@n1.example:4222"}, "a password on the command line"},
	} {
		var out strings.Builder
		if _, err := parseConfig(tc.args, none, &out); err == nil || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%q: %v, said %q, want %q", tc.args, err, out.String(), tc.want)
		}
	}
	for _, args := range [][]string{
		{"--nats-embed"},
		{"--nats-embed", "--nats-listen", "localhost:4222", "--nats-cluster", "127.0.0.1:6222", "--nats-routes", "127.0.0.1:6223"},
		append([]string{"--nats-embed", "--nats-listen", "0.0.0.0:4222", "--nats-cluster", ":6222", "--nats-routes", "a2:6222"}, tls...),
		{"--nats", "nats://127.0.0.1:4222"},
		{"--nats", "nats://n1.example:4222", "--nats-creds", "node.nk", "--nats-tls-ca", "ca.pem"},
		{"--nats", "nats://arcade@n1.example:4222"}, // a user name alone is no secret
	} {
		if _, err := parseConfig(args, none, io.Discard); err != nil {
			t.Errorf("%q: %v", args, err)
		}
	}
	env := map[string]string{"ARCADE_NATS_EMBED": "1", "ARCADE_NATS_LISTEN": "0.0.0.0:4222", "ARCADE_NATS_TLS_CERT": "n.pem",
		"ARCADE_NATS_TLS_KEY": "k.pem", "ARCADE_NATS_TLS_CA": "ca.pem", "ARCADE_NATS_CREDS": "s"}
	c, err := parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || c.natsTLS.Cert != "n.pem" || c.natsTLS.Key != "k.pem" || c.natsTLS.CA != "ca.pem" || c.natsCreds != "s" {
		t.Errorf("from the environment: %+v, %v", c, err)
	}
}

// TestClusterSecretCommand: `arcade cluster-secret` writes DATA/cluster-secret, mode 0600, and
// never overwrites it.
func TestClusterSecretCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	env := func(k string) string { return map[string]string{"ARCADE_DATA": dir}[k] }
	var out strings.Builder
	if err := runClusterSecret(nil, env, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, natsd.SecretFile)
	if !strings.Contains(out.String(), path) || !strings.Contains(out.String(), "public nkey") {
		t.Errorf("said %q, want the file and the public key", out.String())
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", info.Mode().Perm())
	}
	if err := runClusterSecret([]string{"--data", dir}, env, io.Discard, io.Discard); err == nil {
		t.Error("a second cluster-secret succeeded")
	}
	if again, _ := os.ReadFile(path); string(again) != string(first) {
		t.Error("a second cluster-secret changed the secret")
	}
	if _, err := natsd.LoadSecret(path); err != nil {
		t.Errorf("the secret written: %v", err)
	}
}
