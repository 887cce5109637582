package sshd

import (
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Bounds on the environment a client may set for a session (OpenSSH's SendEnv, ssh -o SetEnv).
// charm.land/ssh keeps every variable it is sent until the session starts, and nothing else
// bounds them: a client could send variables for as long as it likes and the server would keep
// them all. The arcade reads three (TERM, NO_COLOR, ARCADE_ASCII); an ordinary client sends a few
// (LANG, LC_*). Past either bound a variable is refused, as OpenSSH's AcceptEnv refuses one.
const (
	maxEnvVars  = 64
	maxEnvBytes = 8 << 10 // names and values together
)

// sessionChannel is the handler of "session" channels: charm.land/ssh's, with the channel's
// requests passed through limitEnv first.
func sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	ssh.DefaultSessionHandler(srv, conn, envLimited{nc}, ctx)
}

// envLimited is a new session channel whose requests, once accepted, come through limitEnv.
type envLimited struct{ gossh.NewChannel }

func (nc envLimited) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, in, err := nc.NewChannel.Accept()
	if err != nil {
		return ch, in, err
	}
	out := make(chan *gossh.Request)
	go limitEnv(in, out)
	return ch, out, nil
}

// limitEnv passes every request from in to out, in order, but refuses "env" requests past
// maxEnvVars or maxEnvBytes; it closes out when in closes.
func limitEnv(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	vars, size := 0, 0
	for req := range in {
		if req.Type == "env" {
			var kv struct{ Key, Value string }
			if gossh.Unmarshal(req.Payload, &kv) != nil || vars >= maxEnvVars || size+len(kv.Key)+len(kv.Value) > maxEnvBytes {
				_ = req.Reply(false, nil)
				continue
			}
			vars, size = vars+1, size+len(kv.Key)+len(kv.Value)
		}
		out <- req
	}
}
