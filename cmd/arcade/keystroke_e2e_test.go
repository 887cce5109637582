package main

import (
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// writePrivateKey writes key in OpenSSH's format to a new file in dir, for OpenSSH's -i.
func writePrivateKey(t *testing.T, dir, name string, key ssh.Signer) string {
	t.Helper()
	keysMu.Lock()
	priv := privateKeys[key]
	keysMu.Unlock()
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestKeystrokeObfuscation: OpenSSH's own client, at debug level, is told of ping@openssh.com
// (which OpenSSH 9.5 and later need to hide keystroke timing with a ping every 20 ms) only by a
// server started with --keystroke-obfuscation. Either way it is told of server-sig-algs, so the
// extensions message did arrive and was read.
func TestKeystrokeObfuscation(t *testing.T) {
	t.Parallel()
	sshPath, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("OpenSSH client not installed")
	}
	keyFile := writePrivateKey(t, t.TempDir(), "id", newKey(t))
	for _, tc := range []struct {
		flags    []string
		wantPing bool
	}{
		{nil, false},
		{[]string{"--keystroke-obfuscation"}, true},
	} {
		addr := startServerWith(t, tc.flags...).(*net.TCPAddr)
		cmd := exec.Command(sshPath, "-v", "-F", "none", "-p", strconv.Itoa(addr.Port),
			"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
			"-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-i", keyFile, "kim@127.0.0.1", "whoami")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ssh %v: %v\n%s", tc.flags, err, out)
		}
		log := string(out)
		if !strings.Contains(log, "server-sig-algs") {
			t.Fatalf("ssh %v: no extensions message in the client's log:\n%s", tc.flags, log)
		}
		if got := strings.Contains(log, "ping@openssh.com"); got != tc.wantPing {
			t.Errorf("server %v: ping@openssh.com advertised = %v; want %v", tc.flags, got, tc.wantPing)
		}
	}
}
