// This file is arcade's, not upstream's: it tests ServerConfig.OmitPingExtension (see the arcade's third_party/crypto.md).

package ssh

import (
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"maps"
	"net"
	"testing"
)

// extensionsSeen is a client AuthMethod that keeps the extensions of the server's
// SSH_MSG_EXT_INFO, as the client parsed them, and then gives up.
type extensionsSeen struct{ got map[string][]byte }

func (e *extensionsSeen) method() string { return "publickey" }

func (e *extensionsSeen) auth(_ []byte, _ string, _ packetConn, _ io.Reader, ext map[string][]byte) (authResult, []string, error) {
	e.got = maps.Clone(ext)
	return authFailure, nil, nil
}

// serverExtensions runs one handshake against a server built from config and returns the
// extensions its client was told of.
func serverExtensions(t *testing.T, config *ServerConfig) map[string][]byte {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	config.AddHostKey(signer)
	config.NoClientAuth = false
	config.PublicKeyCallback = func(ConnMetadata, PublicKey) (*Permissions, error) { return nil, io.EOF }

	// Over TCP, not net.Pipe: both sides write their version line before reading.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	c1, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	go func() {
		NewServerConn(c1, config) // fails once the client gives up
		c1.Close()
	}()
	seen := &extensionsSeen{}
	_, _, _, err = NewClientConn(c2, "", &ClientConfig{
		User:            "u",
		Auth:            []AuthMethod{seen},
		HostKeyCallback: InsecureIgnoreHostKey(),
	})
	if err == nil {
		t.Fatal("the client authenticated; want it to give up after reading the extensions")
	}
	if seen.got == nil {
		t.Fatalf("the client never reached authentication: %v", err)
	}
	return seen.got
}

func TestPingExtensionAdvertised(t *testing.T) {
	got := serverExtensions(t, &ServerConfig{})
	if v, ok := got["ping@openssh.com"]; !ok || string(v) != "0" {
		t.Errorf("ping@openssh.com = %q, %v; want \"0\", advertised as upstream does", v, ok)
	}
	if _, ok := got["server-sig-algs"]; !ok {
		t.Errorf("server-sig-algs missing: %v", got)
	}
}

func TestOmitPingExtension(t *testing.T) {
	got := serverExtensions(t, &ServerConfig{OmitPingExtension: true})
	if _, ok := got["ping@openssh.com"]; ok {
		t.Errorf("ping@openssh.com advertised with OmitPingExtension set: %v", got)
	}
	if _, ok := got["server-sig-algs"]; !ok || len(got) != 1 {
		t.Errorf("extensions = %v; want server-sig-algs alone", got)
	}
}
