package main

import (
	"io"
	"strings"
	"testing"
)

// TestClusterFlags: the cluster's flags and their ARCADE_ variables; flags that do not go together
// are refused with a message saying what is missing, and no flag at all is the one process.
func TestClusterFlags(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig(nil, none, io.Discard)
	if err != nil || c.clustered() {
		t.Fatalf("no flags: clustered %v, %v", c.clustered(), err)
	}
	c, err = parseConfig([]string{"--nats-embed", "--nats-cluster", ":6222", "--nats-routes", "a2:6222,a3:6222",
		"--node", "a1", "--nats-replicas", "3", "--nats-tls-cert", "a1.pem", "--nats-tls-key", "a1-key.pem", "--nats-tls-ca", "ca.pem"}, none, io.Discard)
	if err != nil || !c.clustered() || c.natsRoutes != "a2:6222,a3:6222" || c.node != "a1" || c.natsReplicas != 3 {
		t.Fatalf("embedded: %+v, %v", c, err)
	}
	env := map[string]string{"ARCADE_NATS": "nats://n1:4222,nats://n2:4222", "ARCADE_NODE": "b", "ARCADE_NATS_CREDS": "node.nk"}
	c, err = parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || !c.clustered() || c.nats != "nats://n1:4222,nats://n2:4222" || c.node != "b" {
		t.Fatalf("from the environment: %+v, %v", c, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nats-routes", "a2:6222"}, "add --nats-embed"},
		{[]string{"--nats-embed", "--nats-routes", "a2:6222"}, "needs --nats-cluster"},
		{[]string{"--nats-embed", "--nats-cluster", "127.0.0.1:6222", "--nats-routes", "a2:x"}, "bad port"},
		{[]string{"--nats", "nats://n1:4222", "--nats-replicas", "7"}, "1 to 5 copies"},
	} {
		var out strings.Builder
		if _, err := parseConfig(tc.args, none, &out); err == nil || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%q: %v, said %q, want %q", tc.args, err, out.String(), tc.want)
		}
	}
}
