// Package clustertest helps tests set up a cluster of arcade nodes on one machine: ports for
// their NATS servers, and a proxy that cuts a node off NATS as a network partition would.
package clustertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

// FreePorts returns n distinct TCP ports that were free on 127.0.0.1 a moment ago (each listened
// on, all at once, then closed): for servers whose routes name each other's ports before any of
// them starts.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	ports := make([]int, 0, n)
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// Proxy forwards TCP connections of NATS clients to a NATS server; Cut closes them all and
// refuses new ones until Heal: a node behind it is cut off NATS, as by a network partition. It
// also hides the other servers of the NATS cluster from the client: it drops
// connect_urls from the server's INFO, or a client cut from its server would reconnect to one of
// the others at once, which a node cut off from the network could not.
type Proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cutOf bool
	conns map[net.Conn]bool
	keep  func(subject string, payload []byte) bool // nil: every message reaches the client (Deafen)
	send  func(subject string) bool                 // nil: every publish reaches the server (Mute)
}

// NewProxy starts a proxy to the NATS server at target (host:port), closed when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); p.Cut() })
	go p.accept()
	return p
}

// Addr is the proxy's address, for the client's NATS URL.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

func (p *Proxy) accept() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refused := p.cutOf
		p.mu.Unlock()
		if refused {
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		if p.cutOf {
			p.mu.Unlock()
			in.Close()
			out.Close()
			continue
		}
		p.conns[in], p.conns[out] = true, true
		p.mu.Unlock()
		go func() {
			_ = p.copyFromClient(out, in)
			out.Close()
			in.Close()
		}()
		go func() {
			_ = p.copyFromServer(in, out)
			in.Close()
			out.Close()
		}()
	}
}

// copyFromClient copies what a client sends its NATS server, src, to dst; the publishes (PUB and
// HPUB) whose subject Mute's send refuses are dropped whole.
func (p *Proxy) copyFromClient(dst io.Writer, src io.Reader) error {
	r := bufio.NewReader(src)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return err
		}
		op, args, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(" "))
		switch string(bytes.ToUpper(op)) {
		case "PUB", "HPUB":
			subject, body, err := readPayload(r, args)
			if err != nil {
				return err
			}
			p.mu.Lock()
			send := p.send
			p.mu.Unlock()
			if send != nil && !send(subject) {
				continue
			}
			line = append(line, body...)
		}
		if _, err := dst.Write(line); err != nil {
			return err
		}
	}
}

// copyFromServer copies what a NATS server sends its client, src, to dst, with the
// connect_urls and ws_connect_urls of every INFO left out. The payloads of MSG and HMSG are
// copied as they are, or dropped whole while Deafen's keep refuses their subject.
func (p *Proxy) copyFromServer(dst io.Writer, src io.Reader) error {
	r := bufio.NewReader(src)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return err
		}
		op, args, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(" "))
		switch string(bytes.ToUpper(op)) {
		case "INFO":
			var info map[string]json.RawMessage
			if err := json.Unmarshal(args, &info); err != nil {
				return err
			}
			delete(info, "connect_urls")
			delete(info, "ws_connect_urls")
			b, err := json.Marshal(info)
			if err != nil {
				return err
			}
			line = append(append([]byte("INFO "), b...), "\r\n"...)
		case "MSG", "HMSG":
			subject, body, err := readPayload(r, args)
			if err != nil {
				return err
			}
			p.mu.Lock()
			keep := p.keep
			p.mu.Unlock()
			if keep != nil && !keep(subject, body[:len(body)-2]) {
				continue
			}
			line = append(line, body...)
		}
		if _, err := dst.Write(line); err != nil {
			return err
		}
	}
}

// readPayload reads from r the payload of a message whose operation's arguments are args (PUB,
// HPUB, MSG, HMSG: the subject first, the payload's size last), with the \r\n that ends it, and
// returns the subject and those bytes.
func readPayload(r *bufio.Reader, args []byte) (subject string, body []byte, err error) {
	fields := bytes.Fields(args)
	if len(fields) == 0 {
		return "", nil, io.ErrUnexpectedEOF
	}
	size, err := strconv.Atoi(string(fields[len(fields)-1]))
	if err != nil {
		return "", nil, err
	}
	body = make([]byte, size+2)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", nil, err
	}
	return string(fields[0]), body, nil
}

// Cut closes every connection and refuses new ones until Heal.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutOf = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Deafen drops every message the server sends the client that keep refuses (by its subject and
// its payload: for a header message, headers and data), from now until Deafen(nil), and lets the
// rest through; what the client sends, and the connection's pings, pass. A node deafened to
// everything but its rooms' requests stays connected and answers them, but hears no reply of
// JetStream: it is cut off the cluster without knowing what happened there meanwhile, as a node
// frozen for a while and resumed is. One deafened to the acknowledgements of a stream has its
// writes stored without knowing it.
func (p *Proxy) Deafen(keep func(subject string, payload []byte) bool) {
	p.mu.Lock()
	p.keep = keep
	p.mu.Unlock()
}

// Mute drops every publish of the client whose subject send refuses, from now until Mute(nil),
// and lets the rest through (subscriptions, pings). A node muted but for its replies (_INBOX.)
// and deafened but for its rooms' requests answers those requests and writes nothing else: its
// beats stop, as a frozen node's do, while it still answers as a host.
func (p *Proxy) Mute(send func(subject string) bool) {
	p.mu.Lock()
	p.send = send
	p.mu.Unlock()
}

// Heal lets connections through again.
func (p *Proxy) Heal() {
	p.mu.Lock()
	p.cutOf = false
	p.mu.Unlock()
}
