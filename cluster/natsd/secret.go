package natsd

import (
	"bytes"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// SecretFile is the name of the cluster's secret in a node's data folder.
const SecretFile = "cluster-secret"

// routeUser is the user name servers of a cluster give each other on their route ports.
const routeUser = "arcade-route"

// routePrefix starts the route password's line in a secret file.
const routePrefix = "route-password "

// Secret is what the servers and nodes of one cluster share, and nothing else knows: the node
// user's nkey seed, which a node's connection signs the server's challenge with (the seed never
// leaves the node), and the route password the servers give each other on their cluster ports.
//
// Its file is an nkey seed file as `nk -gen user` writes it (the seed on a line of its own, so
// that nats.go's NkeyOptionFromSeed and the nats CLI's --nkey read it too), with a line
// "route-password HEX" that only the embedded servers need.
type Secret struct {
	seed  []byte // an nkey user seed, "SU..."
	route string // the route password; "" in a seed file made for an external server
}

// NewSecret makes a secret: a fresh nkey user and a random route password of 256 bits.
func NewSecret() (*Secret, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, fmt.Errorf("natsd: new nkey: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return nil, fmt.Errorf("natsd: new nkey: %w", err)
	}
	pw := make([]byte, 32)
	if _, err := crand.Read(pw); err != nil {
		return nil, fmt.Errorf("natsd: route password: %w", err)
	}
	return &Secret{seed: seed, route: hex.EncodeToString(pw)}, nil
}

// CreateSecret makes a secret and writes it to path, mode 0600; it never overwrites a file
// (fs.ErrExist when path exists).
func CreateSecret(path string) (*Secret, error) {
	s, err := NewSecret()
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("natsd: create the cluster's secret: %w", err)
	}
	_, err = f.Write(s.marshal())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return nil, fmt.Errorf("natsd: write the cluster's secret: %w", err)
	}
	return s, nil
}

func (s *Secret) marshal() []byte {
	var b bytes.Buffer
	b.WriteString("# The arcade cluster's secret: the same file on every node, mode 0600, known to nothing else.\n")
	b.WriteString("# The node user's nkey seed:\n")
	b.Write(s.seed)
	b.WriteString("\n")
	if s.route != "" {
		b.WriteString("# The route password of the embedded servers' cluster ports:\n")
		b.WriteString(routePrefix + s.route + "\n")
	}
	return b.Bytes()
}

// LoadSecret reads a secret file. It refuses a file that others than its owner may read or
// write, one without an nkey user seed, and one whose route password is not 64 hex digits.
func LoadSecret(path string) (*Secret, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("natsd: the cluster's secret: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("natsd: the cluster's secret %s is mode %04o: others may read it; make it 0600 (chmod 600 %s)",
			path, info.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("natsd: the cluster's secret: %w", err)
	}
	return parseSecret(path, data)
}

func parseSecret(path string, data []byte) (*Secret, error) {
	s := &Secret{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "SU") && s.seed == nil:
			kp, err := nkeys.FromSeed([]byte(line))
			if err != nil {
				return nil, fmt.Errorf("natsd: the cluster's secret %s: bad nkey seed: %w", path, err)
			}
			kp.Wipe()
			s.seed = []byte(line)
		case strings.HasPrefix(line, routePrefix):
			pw := strings.TrimSpace(strings.TrimPrefix(line, routePrefix))
			if b, err := hex.DecodeString(pw); err != nil || len(b) != 32 {
				return nil, fmt.Errorf("natsd: the cluster's secret %s: the route password is not 64 hex digits", path)
			}
			s.route = pw
		}
	}
	if s.seed == nil {
		return nil, fmt.Errorf("natsd: the cluster's secret %s holds no nkey user seed (a line SU...)", path)
	}
	return s, nil
}

// HasRoutePassword reports whether the secret has the route password the embedded servers of a
// cluster need (a seed file made for an external server has none).
func (s *Secret) HasRoutePassword() bool { return s.route != "" }

// PublicKey is the node user's public nkey (U...), the one an external NATS server lists as a
// user.
func (s *Secret) PublicKey() string {
	kp, err := nkeys.FromSeed(s.seed)
	if err != nil { // parseSecret and NewSecret checked the seed
		return ""
	}
	defer kp.Wipe()
	pub, _ := kp.PublicKey()
	return pub
}

// ClientOption authenticates a nats.go connection as the node user: it signs the server's
// challenge with the seed.
func (s *Secret) ClientOption() nats.Option {
	return nats.Nkey(s.PublicKey(), func(nonce []byte) ([]byte, error) {
		kp, err := nkeys.FromSeed(s.seed)
		if err != nil {
			return nil, err
		}
		defer kp.Wipe()
		return kp.Sign(nonce)
	})
}

// IsMissing reports whether err says a secret file does not exist.
func IsMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
