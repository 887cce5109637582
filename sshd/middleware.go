package sshd

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/teaframe"
)

// logging records each session's start and end. Everything a client chose (user name, command,
// TERM) is sanitised first: a log line must not carry escape sequences to an operator's terminal.
// The command is logged as the client sent it, cut short before anything reads it: it may be of any
// length (commandLength refuses a long one later). The size is logged as reported, unclamped.
func (s *Server) logging(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		opened(sess)
		start := time.Now()
		pty, hasPty := s.ptyOf(sess)
		s.log.Info("connect",
			"user", sanitize.Line(sess.User(), 32),
			"addr", sess.RemoteAddr().String(),
			"key", sess.PublicKey() != nil,
			"cmd", sanitize.Line(redactCommand(prefix(sess.RawCommand(), 4*80)), 80),
			"pty", hasPty,
			"term", sanitize.Line(pty.Term, 32),
			"size", fmt.Sprintf("%dx%d", pty.Window.Width, pty.Window.Height))
		next(sess)
		s.log.Info("disconnect", "addr", sess.RemoteAddr().String(),
			"after", time.Since(start).Round(time.Millisecond))
	}
}

// prefix returns the first n bytes of s at most.
func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// commandLength refuses a raw command line longer than maxCommand bytes with one line and exit
// status 2, before anything splits it into words.
func commandLength(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if len(sess.RawCommand()) > maxCommand {
			refuse(sess, 2, fmt.Sprintf("arcade: the command is too long (at most %d bytes); try: help", maxCommand))
			return
		}
		next(sess)
	}
}

// capacity refuses a session beyond MaxSessions, beyond MaxSessionsPerKey of its key or
// MaxSessionsPerAddr of its address, or while the server shuts down, with one line that names
// the limit and exit status 1. Only the session ends: other sessions on its connection (OpenSSH's
// ControlMaster) go on.
func (s *Server) capacity(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		key := ""
		if k := sess.PublicKey(); k != nil {
			key = gossh.FingerprintSHA256(k)
		}
		src := sourceOf(sess.RemoteAddr())
		if why := s.takeSession(key, src); why != "" {
			refuse(sess, 1, why) // the session ends; a client whose only session it was closes its connection
			return
		}
		defer s.releaseSession(key, src)
		next(sess)
	}
}

// takeSession counts a session of key ("" for a guest) from src, or returns the line that
// refuses it.
func (s *Server) takeSession(key string, src netip.Prefix) (refusal string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return "arcade: the server is shutting down; try again in a minute."
	case s.active >= s.cfg.MaxSessions:
		s.cfg.Refused("sessions")
		return fmt.Sprintf("arcade: all %d places are taken; please try again in a few minutes.", s.cfg.MaxSessions)
	case key != "" && s.byKey[key] >= s.cfg.MaxSessionsPerKey:
		s.cfg.Refused("sessions_per_key")
		return fmt.Sprintf("arcade: this key already has %d sessions open (limit --max-sessions-per-key); close one first.", s.byKey[key])
	case s.byAddr[src] >= s.cfg.MaxSessionsPerAddr:
		s.cfg.Refused("sessions_per_addr")
		return fmt.Sprintf("arcade: your address already has %d sessions open (limit --max-sessions-per-addr); close one first.", s.byAddr[src])
	}
	s.active++
	if key != "" {
		s.byKey[key]++
	}
	s.byAddr[src]++
	return ""
}

// releaseSession counts a session of key from src fewer.
func (s *Server) releaseSession(key string, src netip.Prefix) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
	if key != "" {
		if s.byKey[key]--; s.byKey[key] <= 0 {
			delete(s.byKey, key)
		}
	}
	if s.byAddr[src]--; s.byAddr[src] <= 0 {
		delete(s.byAddr, src)
	}
}

// refuse ends a session with one line and exit status code. With a PTY the line goes to the
// terminal itself, where a person sees it; without one, to stderr.
func refuse(sess ssh.Session, code int, msg string) {
	if _, _, ok := sess.Pty(); ok {
		fmt.Fprint(sess, msg+"\r\n")
	} else {
		fmt.Fprintln(sess.Stderr(), msg)
	}
	_ = sess.Exit(code)
}

// last ends the middleware chain with h: the handlers after it (wish's empty one) never run.
func last(h ssh.Handler) wish.Middleware {
	return func(ssh.Handler) ssh.Handler { return h }
}

// route answers plain-text commands and refuses bad command lines with one line and exit status 2.
// An interactive request without a PTY gets a hint to use ssh -t. Everything else is played: a
// Bubble Tea program for the parsed request (play).
//
// Nothing of a session is kept in sess.Context(): that context is the connection's, and one
// connection can carry several sessions (OpenSSH's ControlMaster), each with its own program.
func (s *Server) route(sess ssh.Session) {
	if why := s.bannedSession(sess); why != "" {
		refuse(sess, 1, why)
		return
	}
	games := s.hub.Games()
	req, err := parseRequest(sess.Command(), games)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, errUsage) {
			msg = strings.TrimPrefix(msg, errUsage.Error()+": ")
		}
		fmt.Fprintln(sess.Stderr(), "arcade: "+msg)
		_ = sess.Exit(2)
		return
	}
	switch req.plain {
	case "help":
		addr := sshAddress(s.cfg.PublicAddr, sess.LocalAddr())
		if addr == "" {
			addr = "-p PORT HOST"
		}
		writeHelp(sess, addr, games)
		_ = sess.Exit(0)
		return
	case "rooms":
		pty, _, isPty := sess.Pty()
		writeRooms(sess, s.hub.List(), time.Now(), session.WebLinks(s.cfg.PublicURL), takesHyperlinks(sess.Environ(), pty.Term, isPty))
		_ = sess.Exit(0)
		return
	case "whoami":
		p, notice := s.player(sess)
		fp := ""
		if k := sess.PublicKey(); k != nil {
			fp = gossh.FingerprintSHA256(k)
		}
		writeWhoami(sess, p, fp, notice)
		_ = sess.Exit(0)
		return
	case "set":
		_ = sess.Exit(s.setBell(sess, req.bell == "on"))
		return
	case "keys", "ignore", "unignore", "report":
		_ = sess.Exit(s.social(sess, req))
		return
	case "leaderboard":
		if s.cfg.Records == nil {
			fmt.Fprintln(sess.Stderr(), "arcade: this server keeps no records")
			_ = sess.Exit(1)
			return
		}
		if err := writeLeaderboard(sess, s.cfg.Records, games, req.game, req.json); err != nil {
			s.log.Error("leaderboard", "err", err)
			fmt.Fprintln(sess.Stderr(), "arcade: the leaderboard cannot be read right now")
			_ = sess.Exit(1)
			return
		}
		_ = sess.Exit(0)
		return
	}
	if _, _, ok := sess.Pty(); !ok {
		fmt.Fprintln(sess.Stderr(), "arcade: this needs a terminal: add -t to your ssh command (ssh -t ...), or try: help")
		_ = sess.Exit(2)
		return
	}
	s.play(sess, req)
}

// play runs the Bubble Tea program of an interactive session (built by program; route has made
// sure the session has a PTY) until it ends, then puts the terminal back and leaves the session's
// room: wish's bubbletea middleware, plus the end of the session's channel.
func (s *Server) play(sess ssh.Session, req request) {
	pty, windows, _ := sess.Pty() // the window program sizes the program to, and its changes
	built := clampWindow(pty.Window)
	p, fr, leave := s.program(sess, req)
	defer leave()
	// The session's window changes reach the program through forwardWindows, which never blocks
	// the connection. charm.land/ssh closes the channel of changes when the session's channel
	// closes (the client closed it, or the connection dropped): the session then leaves its room
	// at once (the seat starts its countdown), and the program quits. The session's context would
	// tell only the connection's end: one connection can carry several sessions (OpenSSH's
	// ControlMaster).
	go func() {
		forwardWindows(windows, built, func(w ssh.Window) {
			p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
		})
		leave()
		p.Quit()
	}()
	if _, err := p.Run(); err != nil {
		if clientGone(err) {
			s.log.Debug("program ended: the client is gone", "err", err)
		} else {
			s.log.Error("program", "err", err)
		}
	}
	p.Kill() // puts the terminal back if the program did not end by itself
	// teaframe's renderer draws the last frame and puts the terminal back when told (main
	// screen, cursor, mouse and keyboard modes).
	fr.Close()
}

// forwardWindows reads windows until it closes and hands each clamped change from last to send,
// in order, from a goroutine of its own that runs only while a change is due, skipping those
// superseded while send was busy (most sessions never resize: they keep no goroutine for it).
//
// Reading never waits for send. charm.land/ssh hands each window change to this channel from the
// goroutine that reads the session's requests, one buffered at most; while that goroutine waits,
// the connection's reader waits for it, and with it every session on the connection and the
// notice that the client has gone. send waits for the program, and the program for its output,
// which waits for the client: a client that stops reading would stop its own disconnection.
func forwardWindows(windows <-chan ssh.Window, last ssh.Window, send func(ssh.Window)) {
	var (
		mu      sync.Mutex
		latest  ssh.Window
		due     bool // latest has not been sent
		sending bool // the sender runs
	)
	sender := func() {
		for {
			mu.Lock()
			if !due {
				sending = false
				mu.Unlock()
				return
			}
			w := latest
			due = false
			mu.Unlock()
			send(w)
		}
	}
	for w := range windows {
		// The channel starts with the PTY request's window, usually last's; sizes beyond the
		// bounds all clamp to the same window, sent once.
		if w = clampWindow(w); w == last {
			continue
		}
		last = w
		mu.Lock()
		latest, due = w, true
		if !sending {
			sending = true
			go sender()
		}
		mu.Unlock()
	}
}

// program builds the Bubble Tea program of an interactive session and tracks it, so that
// Shutdown can tell it the server is going away. fr is its renderer.
// leave, safe to call more than once and from any goroutine, stops tracking the program and
// has the session leave its room (the seat starts its countdown).
func (s *Server) program(sess ssh.Session, req request) (p *tea.Program, fr *teaframe.Renderer, leave func()) {
	pty, _, _ := sess.Pty()
	win := clampWindow(pty.Window)
	player, notice := s.player(sess)
	m := session.New(session.Config{
		Hub:       s.hub,
		Boards:    s.cfg.Boards,
		Records:   s.cfg.Records,
		Notice:    notice,
		Player:    player,
		Start:     req.start,
		Width:     win.Width,
		Height:    win.Height,
		Address:   sshAddress(s.cfg.PublicAddr, sess.LocalAddr()),
		NoColor:   hasEnv(sess.Environ(), "NO_COLOR"),
		ASCII:     hasEnv(sess.Environ(), "ARCADE_ASCII"),
		Online:    s.online,
		QuickWait: s.cfg.QuickWait,
		PublicURL: s.cfg.PublicURL,
		NoBell:    !player.Guest && s.cfg.Prefs != nil && !s.cfg.Prefs.Bell(player.ID),
		Send:      func(msg tea.Msg) { p.Send(msg) }, // p is set below, before the model opens a room
		Social:    social(s.cfg.Accounts),
	})
	// wish's options, with the clamped window, and a filter that bounds every later size (a size
	// report typed into the input reaches the program too) besides doing what wish's does.
	opts := append(bubbletea.MakeOptions(sess), tea.WithoutSignalHandler(),
		tea.WithWindowSize(win.Width, win.Height), tea.WithFilter(clampSizes(resumeOnSuspend)))
	// Frames only when something changed (package teaframe), on the alternate screen. Bubble
	// Tea's own renderer ticks at its frame rate for every session, idle or not, and holds two
	// screen-sized cell buffers for good; this one draws after the messages that arrived together
	// have been handled, and keeps only the last frame's lines. It needs the emulated PTY the
	// server gives every session (pty.go; no real one is allocated).
	env := append(slices.Clone(sess.Environ()), "TERM="+pty.Term) // as bubbletea.MakeOptions
	fr = teaframe.New(sess, teaframe.Options{Width: win.Width, Height: win.Height,
		Env: env, Profile: colorprofile.Env(env)})
	p = fr.NewProgram(m, opts...)
	who := programOf{player: player.ID, addr: addrOf(sess.RemoteAddr())}
	if k := sess.PublicKey(); k != nil {
		who.key = gossh.FingerprintSHA256(k)
	}
	s.mu.Lock()
	s.programs[p] = who
	s.mu.Unlock()
	var once sync.Once
	return p, fr, func() {
		once.Do(func() {
			m.Close()
			s.mu.Lock()
			delete(s.programs, p)
			s.mu.Unlock()
		})
	}
}

// setBell turns the session's player's bell on or off, says so, and returns the exit status.
func (s *Server) setBell(sess ssh.Session, on bool) int {
	p, _ := s.player(sess)
	switch {
	case p.Guest:
		fmt.Fprintln(sess.Stderr(), "arcade: a guest has no settings; connect with an SSH key and a name (ssh NAME@host)")
		return 1
	case s.cfg.Prefs == nil:
		fmt.Fprintln(sess.Stderr(), "arcade: this server keeps no settings")
		return 1
	}
	if err := s.cfg.Prefs.SetBell(p.ID, on); err != nil {
		s.log.Error("set bell", "key", p.ID, "err", err)
		fmt.Fprintln(sess.Stderr(), "arcade: the setting cannot be saved right now")
		return 1
	}
	if on {
		fmt.Fprintln(sess, "The bell is on: it rings when it becomes your turn.")
	} else {
		fmt.Fprintln(sess, "The bell is off: it no longer rings when it becomes your turn (set bell=on to undo).")
	}
	return 0
}

// Online returns how many players are online: the interactive sessions of this server and, in
// a cluster, of the other nodes (as their last beats said). The lobby's front page and the web's
// show it.
func (s *Server) Online() int { return s.online() }

// online returns how many interactive sessions run now: the players online, for the lobby.
func (s *Server) online() int {
	s.mu.Lock()
	n := len(s.programs)
	s.mu.Unlock()
	if e, ok := s.hub.(interface{ Elsewhere() int }); ok {
		n += e.Elsewhere() // a cluster's other nodes
	}
	return n
}

// resumeOnSuspend is the filter of wish's bubbletea.MakeOptions, which a later tea.WithFilter
// replaces: a session cannot be suspended (ctrl+z), so it resumes at once.
func resumeOnSuspend(_ tea.Model, msg tea.Msg) tea.Msg {
	if _, ok := msg.(tea.SuspendMsg); ok {
		return tea.ResumeMsg{}
	}
	return msg
}

// hasEnv reports whether the client set the variable key to a non-empty value.
func hasEnv(env []string, key string) bool {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key && v != "" {
			return true
		}
	}
	return false
}

// clientGone reports whether a program's error only says that its client has gone (the program
// was ended, or its output could not be written because the connection is closed): a player who
// drops is no error of the server's.
func clientGone(err error) bool {
	return err == tea.ErrProgramKilled || errors.Is(err, tea.ErrProgramKilled) && (errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed))
}
