package ssh

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"

	"github.com/anmitsu/go-shlex"
	gossh "golang.org/x/crypto/ssh"
)

// Session provides access to information about an SSH session and methods
// to read and write to the SSH channel with an embedded Channel interface from
// crypto/ssh.
//
// When Command() returns an empty slice, the user requested a shell. Otherwise
// the user is performing an exec with those command arguments.
//
// TODO: Signals.
type Session interface {
	gossh.Channel

	// User returns the username used when establishing the SSH connection.
	User() string

	// RemoteAddr returns the net.Addr of the client side of the connection.
	RemoteAddr() net.Addr

	// LocalAddr returns the net.Addr of the server side of the connection.
	LocalAddr() net.Addr

	// Environ returns a copy of strings representing the environment set by the
	// user for this session, in the form "key=value".
	Environ() []string

	// Exit sends an exit status and then closes the session.
	Exit(code int) error

	// Command returns a shell parsed slice of arguments that were provided by the
	// user. Shell parsing splits the command string according to POSIX shell rules,
	// which considers quoting not just whitespace.
	Command() []string

	// RawCommand returns the exact command that was provided by the user.
	RawCommand() string

	// Subsystem returns the subsystem requested by the user.
	Subsystem() string

	// PublicKey returns the PublicKey used to authenticate. If a public key was not
	// used it will return nil.
	PublicKey() PublicKey

	// Context returns the connection's context. The returned context is always
	// non-nil and holds the same data as the Context passed into auth
	// handlers and callbacks.
	//
	// The context is canceled when the client's connection closes or I/O
	// operation fails.
	Context() Context

	// Permissions returns a copy of the Permissions object that was available for
	// setup in the auth handlers via the Context.
	Permissions() Permissions

	// EmulatedPty returns true if the session is emulating a PTY using PtyWriter.
	EmulatedPty() bool

	// Pty returns PTY information, a channel of window size changes, and a boolean
	// of whether or not a PTY was accepted for this session.
	Pty() (Pty, <-chan Window, bool)

	// Signals registers a channel to receive signals sent from the client. The
	// channel must handle signal sends or it will block the SSH request loop.
	// Registering nil will unregister the channel from signal sends. During the
	// time no channel is registered signals are buffered up to a reasonable amount.
	// If there are buffered signals when a channel is registered, they will be
	// sent in order on the channel immediately after registering.
	Signals(c chan<- Signal)

	// Break regisers a channel to receive notifications of break requests sent
	// from the client. The channel must handle break requests, or it will block
	// the request handling loop. Registering nil will unregister the channel.
	// During the time that no channel is registered, breaks are ignored.
	Break(c chan<- bool)
}

// maxSigBufSize is how many signals will be buffered
// when there is no signal channel specified.
const maxSigBufSize = 128

// DefaultSessionHandler is the default handler for the "session" channel type.
func DefaultSessionHandler(srv *Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx Context) {
	sess, reqs, ok := acceptSession(srv, conn, newChan, ctx)
	if !ok {
		return
	}
	sess.handleRequests(reqs)
}

// acceptSession accepts a session channel. Its requests are then served by handleRequests, or one
// by one by the connection's loop (Patched for arcade, PATCH.md), and end is called once they
// have closed.
func acceptSession(srv *Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx Context) (*session, <-chan *gossh.Request, bool) {
	ch, reqs, err := newChan.Accept()
	if err != nil {
		slog.Warn("ssh: failed to accept session channel", "err", err)
		return nil, nil, false
	}
	sess := &session{
		Channel:           ch,
		conn:              conn,
		handler:           srv.Handler,
		ptyCb:             srv.PtyCallback,
		ptyHandler:        srv.PtyHandler,
		sessReqCb:         srv.SessionRequestCallback,
		subsystemHandlers: srv.SubsystemHandlers,
		ctx:               ctx,
	}
	ctx.SetValue(ContextKeySession, sess)
	return sess, reqs, true
}

type session struct {
	sync.Mutex
	gossh.Channel
	conn              *gossh.ServerConn
	handler           Handler
	subsystemHandlers map[string]SubsystemHandler
	handled           bool
	exited            bool
	pty               *Pty
	winch             chan Window
	winFn             func(Window) // set by OnWindowChange; guarded by the mutex
	closeFn           func()       // set by OnClose; guarded by the mutex
	closed            bool         // the request loop has ended; guarded by the mutex
	atEnd             []func()     // run, last first, when the requests have ended (see end)
	env               []string
	ptyCb             PtyCallback
	ptyHandler        PtyHandler
	sessReqCb         SessionRequestCallback
	rawCmd            string
	subsystem         string
	ctx               Context
	sigCh             chan<- Signal
	sigBuf            []Signal
	breakCh           chan<- bool
}

func (sess *session) Stderr() io.ReadWriter {
	if sess.pty != nil && sess.EmulatedPty() {
		return NewPtyReadWriter(sess.Channel.Stderr())
	}
	return sess.Channel.Stderr()
}

func (sess *session) Write(p []byte) (int, error) {
	if sess.pty != nil && sess.EmulatedPty() {
		return NewPtyWriter(sess.Channel).Write(p)
	}
	return sess.Channel.Write(p)
}

func (sess *session) PublicKey() PublicKey {
	sessionkey := sess.ctx.Value(ContextKeyPublicKey)
	if sessionkey == nil {
		return nil
	}
	return sessionkey.(PublicKey)
}

func (sess *session) Permissions() Permissions {
	// use context permissions because its properly
	// wrapped and easier to dereference
	perms := sess.ctx.Value(ContextKeyPermissions).(*Permissions)
	return *perms
}

func (sess *session) Context() Context {
	return sess.ctx
}

func (sess *session) Exit(code int) error {
	sess.Lock()
	defer sess.Unlock()
	if sess.exited {
		return errors.New("Session.Exit called multiple times")
	}
	sess.exited = true

	status := struct{ Status uint32 }{uint32(code)}
	_, err := sess.SendRequest("exit-status", false, gossh.Marshal(&status))
	if err != nil {
		return err
	}
	return sess.Close()
}

func (sess *session) User() string {
	return sess.conn.User()
}

func (sess *session) RemoteAddr() net.Addr {
	return sess.conn.RemoteAddr()
}

func (sess *session) LocalAddr() net.Addr {
	return sess.conn.LocalAddr()
}

func (sess *session) Environ() []string {
	return append([]string(nil), sess.env...)
}

func (sess *session) RawCommand() string {
	return sess.rawCmd
}

func (sess *session) Command() []string {
	cmd, _ := shlex.Split(sess.rawCmd, true)
	return append([]string(nil), cmd...)
}

func (sess *session) Subsystem() string {
	return sess.subsystem
}

func (sess *session) EmulatedPty() bool {
	return sess.ctx.Value(contextKeyEmulatePty) == true
}

// OnWindowChange makes the session sess call f with each later change of its window, on the
// goroutine that serves the session's requests, instead of sending the change on the channel Pty
// returns: a consumer then needs no goroutine of its own waiting on the channel. f should not
// hold that goroutine long. It returns the window as it is now, and false when sess has no PTY
// or is not one of this package's sessions. Patched for arcade (PATCH.md).
func OnWindowChange(sess Session, f func(Window)) (Window, bool) {
	s, ok := sess.(*session)
	if !ok {
		return Window{}, false
	}
	s.Lock()
	defer s.Unlock()
	if s.pty == nil {
		return Window{}, false
	}
	s.winFn = f
	select { // a window the channel held is in s.pty.Window already
	case <-s.winch:
	default:
	}
	return s.pty.Window, true
}

// OnClose makes the session sess call f once its channel has closed, whoever closed it (the
// client, the connection's end, or the session's own Exit), on the goroutine that served the
// session's requests; at once, on a goroutine of its own, if it has closed already. The session's
// context cannot tell this: it is the connection's, shared by all the sessions the connection
// carries. A later call replaces f. It returns false when sess is not one of this package's
// sessions. Patched for arcade (PATCH.md).
func OnClose(sess Session, f func()) bool {
	s, ok := sess.(*session)
	if !ok {
		return false
	}
	s.Lock()
	closed := s.closed
	if !closed {
		s.closeFn = f
	}
	s.Unlock()
	if closed {
		go callClose(f)
	}
	return true
}

func (sess *session) Pty() (Pty, <-chan Window, bool) {
	if sess.pty != nil && (sess.EmulatedPty() || !sess.pty.IsZero()) {
		return *sess.pty, sess.winch, true
	}
	return Pty{}, sess.winch, false
}

func (sess *session) Signals(c chan<- Signal) {
	sess.Lock()
	defer sess.Unlock()
	sess.sigCh = c
	if len(sess.sigBuf) > 0 {
		go func() {
			for _, sig := range sess.sigBuf {
				sess.sigCh <- sig
			}
		}()
	}
}

func (sess *session) Break(c chan<- bool) {
	sess.Lock()
	defer sess.Unlock()
	sess.breakCh = c
}

func (sess *session) handleRequests(reqs <-chan *gossh.Request) {
	defer sess.end()
	for req := range reqs {
		sess.handleRequest(req)
	}
}

// handleRequest serves one request of the session. Patched for arcade (PATCH.md): upstream's
// loop body, so that the connection's loop can serve a session's requests too.
func (sess *session) handleRequest(req *gossh.Request) {
	switch req.Type {
	case "shell", "exec":
		if sess.handled {
			_ = req.Reply(false, nil)
			return
		}

		payload := struct{ Value string }{}
		_ = gossh.Unmarshal(req.Payload, &payload)
		sess.rawCmd = payload.Value

		// If there's a session policy callback, we need to confirm before
		// accepting the session.
		if sess.sessReqCb != nil && !sess.sessReqCb(sess, req.Type) {
			sess.rawCmd = ""
			_ = req.Reply(false, nil)
			return
		}

		if sess.handler == nil {
			_ = req.Reply(false, nil)
			return
		}

		sess.handled = true
		_ = req.Reply(true, nil)

		go func() {
			// Closed from a defer so the pty is still released when the
			// handler panics, rather than trading a crash for a leak.
			if sess.pty != nil && !sess.pty.IsZero() {
				defer func() { _ = sess.pty.Close() }()
			}
			defer recoverAndLog("panic in session handler", nil, func() {
				_ = sess.Exit(1)
			})
			if sess.pty != nil && !sess.pty.IsZero() {
				go func() {
					defer recoverAndLog("panic copying to pty", nil, nil)
					_, _ = io.Copy(sess.pty, sess)
				}()
				go func() {
					defer recoverAndLog("panic copying from pty", nil, nil)
					_, _ = io.Copy(sess, sess.pty)
				}()
			}
			sess.handler(sess)
			_ = sess.Exit(0)
		}()
	case "subsystem":
		if sess.handled {
			_ = req.Reply(false, nil)
			return
		}

		payload := struct{ Value string }{}
		_ = gossh.Unmarshal(req.Payload, &payload)
		sess.subsystem = payload.Value

		// If there's a session policy callback, we need to confirm before
		// accepting the session.
		if sess.sessReqCb != nil && !sess.sessReqCb(sess, req.Type) {
			sess.rawCmd = ""
			_ = req.Reply(false, nil)
			return
		}

		handler := sess.subsystemHandlers[payload.Value]
		if handler == nil {
			handler = sess.subsystemHandlers["default"]
		}
		if handler == nil {
			_ = req.Reply(false, nil)
			return
		}

		sess.handled = true
		_ = req.Reply(true, nil)

		go func() {
			defer recoverAndLog("panic in subsystem handler", nil, func() {
				_ = sess.Exit(1)
			})
			handler(sess)
			_ = sess.Exit(0)
		}()
	case "env":
		if sess.handled {
			_ = req.Reply(false, nil)
			return
		}
		var kv struct{ Key, Value string }
		_ = gossh.Unmarshal(req.Payload, &kv)
		sess.env = append(sess.env, fmt.Sprintf("%s=%s", kv.Key, kv.Value))
		_ = req.Reply(true, nil)
	case "signal":
		var payload struct{ Signal string }
		_ = gossh.Unmarshal(req.Payload, &payload)
		sess.Lock()
		if sess.sigCh != nil {
			sess.sigCh <- Signal(payload.Signal)
		} else {
			if len(sess.sigBuf) < maxSigBufSize {
				sess.sigBuf = append(sess.sigBuf, Signal(payload.Signal))
			}
		}
		sess.Unlock()
	case "pty-req":
		if sess.handled || sess.pty != nil {
			_ = req.Reply(false, nil)
			return
		}
		ptyReq, ok := parsePtyRequest(req.Payload)
		if !ok {
			_ = req.Reply(false, nil)
			return
		}
		if sess.ptyCb != nil {
			ok := sess.ptyCb(sess.ctx, ptyReq)
			if !ok {
				_ = req.Reply(false, nil)
				return
			}
		}

		sess.pty = &ptyReq
		sess.winch = make(chan Window, 1)
		sess.winch <- ptyReq.Window

		if sess.ptyHandler != nil {
			closer, err := sess.ptyHandler(sess.ctx, sess, ptyReq)
			if err != nil {
				// TODO: handle error
				_ = req.Reply(false, nil)
				return
			}

			sess.atEnd = append(sess.atEnd, func() { _ = closer() }) // when the requests end

			if !sess.EmulatedPty() && !sess.pty.IsZero() {
				go func() {
					defer recoverAndLog("panic resizing pty", nil, nil)
					for win := range sess.winch {
						if err := resizePty(sess, win); err != nil {
							// TODO: handle error
							continue
						}
					}
				}()
			}
		}

		sess.atEnd = append(sess.atEnd, func() { close(sess.winch) }) // when the requests end
		_ = req.Reply(ok, nil)
	case "window-change":
		if sess.pty == nil {
			_ = req.Reply(false, nil)
			return
		}
		win, _, ok := parseWindow(req.Payload)
		if ok {
			// Patched for arcade (PATCH.md): a handler set with OnWindowChange is called
			// instead of the channel; and the channel keeps the newest window only, so that
			// this loop, its one sender, never waits on it.
			sess.Lock()
			sess.pty.Window = win
			fn := sess.winFn
			if fn == nil {
				select {
				case <-sess.winch:
				default:
				}
				sess.winch <- win
			}
			sess.Unlock()
			if fn != nil {
				fn(win)
			}
		}
		_ = req.Reply(ok, nil)
	case agentRequestType:
		// TODO: option/callback to allow agent forwarding
		SetAgentRequested(sess.ctx)
		_ = req.Reply(true, nil)
	case "break":
		ok := false
		sess.Lock()
		if sess.breakCh != nil {
			sess.breakCh <- true
			ok = true
		}
		_ = req.Reply(ok, nil)
		sess.Unlock()
	default:
		slog.Debug("ssh: unknown session request", "type", req.Type)
		_ = req.Reply(false, nil)
	}
}

// end runs once the session's requests have ended, which they do when its channel closes: it
// calls the handler set with OnClose, then what pty-req left to be done at the end (upstream
// deferred those in its request loop). Patched for arcade (PATCH.md).
func (sess *session) end() {
	sess.Lock()
	sess.closed = true
	fn := sess.closeFn
	sess.Unlock()
	if fn != nil {
		callClose(fn)
	}
	for i := len(sess.atEnd) - 1; i >= 0; i-- {
		sess.atEnd[i]()
	}
}

// callClose calls a handler set with OnClose; a panic in it is logged, and ends neither the
// connection nor the server.
func callClose(f func()) {
	defer recoverAndLog("panic in session close handler", nil, nil)
	f()
}

func (sess *session) ptyAllocate(term string, win Window, modes gossh.TerminalModes) (func() error, error) {
	p, err := newPty(sess.ctx, term, win, modes)
	if err != nil {
		return nil, err
	}

	sess.pty = &Pty{
		Term:   term,
		Window: win,
		Modes:  modes,
		impl:   p,
	}

	return p.Close, nil
}

func resizePty(sess *session, win Window) error {
	if sess.pty == nil {
		return nil
	}

	return sess.pty.Resize(win.Width, win.Height)
}
