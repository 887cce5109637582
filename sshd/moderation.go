package sshd

import (
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/session"
)

// Accounts are players' keys and names, what players do about each other, and the bans that keep
// them out. storage.Accounts satisfies it (over a database, or a cluster's store).
type Accounts interface {
	session.Social
	// Login binds name to the player of the key fp and returns the player (a new key is a player
	// of its own). A name another player holds is an error wrapping sanitize.ErrNameTaken; a
	// removed key's error wraps storage.ErrKeyRevoked (it plays as a guest).
	Login(fp, name string) (string, error)
	// Banned returns the ban that keeps out the key fp (empty: none) or the address addr.
	Banned(fp string, addr netip.Addr) (record.Ban, bool)
	// Keys returns the player's keys, the oldest first.
	Keys(player string) ([]record.Key, error)
	// LinkCode makes a one-time code for another key to join the player, asked by its key fp.
	LinkCode(player, fp string) (code string, expires time.Time, err error)
	// ClaimCode links the key fp, connected as name, to the code's player, calling it comment.
	ClaimCode(fp, name, code, comment string) (string, error)
	// Revoke removes the player's key that arg names (its fingerprint or the start of it).
	Revoke(player, arg string) (record.Key, error)
	// Comment calls the player's key that arg names text.
	Comment(player, arg, text string) (record.Key, error)
	// Release releases the player's name: it is free from the date returned. Keep takes it back.
	Release(player, name string) (time.Time, error)
	Keep(player, name string) error
	// ReleasedUntil returns when the released name becomes free; zero when it is not released.
	ReleasedUntil(name string) time.Time
	// Ignoring returns whom the player ignores.
	Ignoring(player string) ([]record.Ignored, error)
}

// An Order is what an action of an operator or a player asks of this server's sessions: a kick,
// a ban and a key's removal end the sessions they concern, an announcement is shown to every one.
// A cluster's every node receives it (storage.DB.Watch) and carries it out on its own sessions.
type Order struct {
	// Kind is "kick", "ban", "revoke" or "announce".
	Kind string
	// The sessions concerned: of the player Player, of the key Key, or from an address in Addr
	// (any that is set).
	Player string
	Key    string
	Addr   netip.Prefix
	// Name is the player's name, for the log.
	Name string
	// Text is the reason, or the announcement.
	Text string
	// At is when the action was taken; Until when a ban ends (zero: never).
	At, Until time.Time
}

// orderLife is how old a kick or an announcement may be and still be carried out: a node that
// applies the changes of a while ago (catching up after a restart or a partition) does not end
// sessions opened since, nor show old news. A ban or a removed key ends its sessions whenever it
// comes.
const orderLife = time.Minute

// Apply carries out the order on this server's interactive sessions. It is safe for concurrent
// use and returns at once.
func (s *Server) Apply(o Order) {
	if (o.Kind == "kick" || o.Kind == "announce") && time.Since(o.At) > orderLife {
		return
	}
	var msg tea.Msg
	switch o.Kind {
	case "kick":
		msg = session.ShutdownMsg{Notice: "An operator ended your session" + reasonText(o.Text) + "."}
	case "ban":
		msg = session.ShutdownMsg{Notice: banText(record.Ban{Reason: o.Text, Until: o.Until})}
	case "revoke":
		msg = session.ShutdownMsg{Notice: "This key was removed from its player: the session ends. " +
			"Connect with another key of yours, or link this one again (keys link, keys claim)."}
	case "announce":
		msg = session.AnnounceMsg{Text: o.Text}
	default:
		return
	}
	s.mu.Lock()
	var progs []*tea.Program
	for p, who := range s.programs {
		if o.Kind == "announce" || who.concerned(o) {
			progs = append(progs, p)
		}
	}
	s.mu.Unlock()
	if o.Kind != "announce" {
		s.log.Info("sessions ended", "by", o.Kind, "name", o.Name, "sessions", len(progs))
	}
	for _, p := range progs {
		go p.Send(msg)
	}
}

// programOf is who a program's session is: its key, its player and its address.
type programOf struct {
	key    string
	player string
	addr   netip.Addr
}

// concerned reports whether the order concerns the session.
func (w programOf) concerned(o Order) bool {
	return (o.Player != "" && w.player == o.Player) || (o.Key != "" && w.key == o.Key) ||
		(o.Addr.IsValid() && w.addr.IsValid() && o.Addr.Contains(w.addr))
}

// reasonText is ": reason" for a reason given, else nothing.
func reasonText(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// banText says what a ban says to whom it keeps out: why, and until when.
func banText(b record.Ban) string {
	until := "for good"
	if !b.Until.IsZero() {
		until = "until " + b.Until.UTC().Format("2006-01-02 15:04 UTC")
	}
	return "You are banned from this arcade " + until + reasonText(b.Reason) + "."
}

// addrOf returns the IP address of a connection's remote end (invalid when it has none).
func addrOf(a net.Addr) netip.Addr {
	if t, ok := a.(*net.TCPAddr); ok {
		if ip, ok := netip.AddrFromSlice(t.IP); ok {
			return ip.Unmap()
		}
	}
	return netip.Addr{}
}

// The keys of a connection's context that authentication keeps.
type (
	preAuthKey struct{} // the connection's gossh.ServerPreAuthConn, for banners
	bannedKey  struct{} // the ban that refused the connection, once one did
)

// preAuth is the ServerConfig's PreAuthConnCallback: it keeps the connection, whose banners the
// authentication sends, in the connection's context.
func preAuth(ctx ssh.Context) func(gossh.ServerPreAuthConn) {
	return func(c gossh.ServerPreAuthConn) { ctx.SetValue(preAuthKey{}, c) }
}

// refusedBy returns the ban that keeps the connection out: the one already found on it, or one
// of the key fp ("" for none) or of the connection's address. The first time, it sends the ban's
// text as a banner, which ssh shows. A connection once refused stays refused, whatever it tries
// next (another key, no key): nothing it offers gets past a ban it met.
func (s *Server) refusedBy(ctx ssh.Context, fp string) bool {
	if _, ok := ctx.Value(bannedKey{}).(record.Ban); ok {
		return true
	}
	if s.cfg.Accounts == nil {
		return false
	}
	b, ok := s.cfg.Accounts.Banned(fp, addrOf(ctx.RemoteAddr()))
	if !ok {
		return false
	}
	ctx.SetValue(bannedKey{}, b)
	s.log.Info("refused: banned", "addr", ctx.RemoteAddr().String(), "key", fp, "ban", b.Kind+" "+b.Target)
	if c, ok := ctx.Value(preAuthKey{}).(gossh.ServerPreAuthConn); ok {
		_ = c.SendAuthBanner("arcade: " + banText(b) + "\r\n")
	}
	return true
}

// allowKey is the public key authentication: any key is welcome but a banned one (or any key of
// a connection that met a ban). Which key really authenticated is read again in the session
// (identify), never kept from here: a client may offer keys it cannot sign with.
func (s *Server) allowKey(ctx ssh.Context, key ssh.PublicKey) bool {
	return !s.refusedBy(ctx, gossh.FingerprintSHA256(key))
}

// allowGuest is the keyboard-interactive authentication of guests, asked nothing: welcome unless
// their address is banned, or the connection met a ban.
func (s *Server) allowGuest(ctx ssh.Context, _ gossh.KeyboardInteractiveChallenge) bool {
	return !s.refusedBy(ctx, "")
}

// bannedSession returns the line that refuses a session whose key or address is banned now (a
// ban made since the connection authenticated), or "".
func (s *Server) bannedSession(sess ssh.Session) string {
	if s.cfg.Accounts == nil {
		return ""
	}
	fp := ""
	if k := sess.PublicKey(); k != nil {
		fp = gossh.FingerprintSHA256(k)
	}
	if b, ok := s.cfg.Accounts.Banned(fp, addrOf(sess.RemoteAddr())); ok {
		return "arcade: " + banText(b)
	}
	return ""
}

// claimLimit bounds the wrong codes a key or an address may try: claimBurst at once, then one
// every claimEvery.
const (
	claimBurst = 5
	claimEvery = 2 * time.Minute
)

// claimLimiter counts the wrong codes of `keys claim` per key and per address, on this server.
// Safe for concurrent use.
type claimLimiter struct {
	mu   sync.Mutex
	lims map[string]*rate.Limiter
}

// blocked reports whether any of ids (a key, an address) has used up its wrong codes.
func (c *claimLimiter) blocked(ids ...string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		if l, ok := c.lims[id]; ok && l.Tokens() < 1 {
			return true
		}
	}
	return false
}

// wrong counts a wrong code of each of ids.
func (c *claimLimiter) wrong(ids ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lims == nil || len(c.lims) > 4096 {
		c.lims = map[string]*rate.Limiter{} // a flood forgets the quiet ones, never the counting
	}
	for _, id := range ids {
		l, ok := c.lims[id]
		if !ok {
			l = rate.NewLimiter(rate.Every(claimEvery), claimBurst)
			c.lims[id] = l
		}
		l.Allow()
	}
}

// redactCommand returns the command line as the log may show it: a link code claimed is cut to
// its first two characters.
func redactCommand(raw string) string {
	f := strings.Fields(raw)
	if len(f) >= 3 && strings.EqualFold(f[0], "keys") && strings.EqualFold(f[1], "claim") {
		f[2] = codeHint(f[2])
		return strings.Join(f, " ")
	}
	return raw
}

// codeHint is what a log shows of a link code: its first two characters.
func codeHint(code string) string {
	if len(code) > 2 {
		return code[:2] + "…"
	}
	return code
}

// orderTime formats a time of the moderation for players: the minute, in UTC.
func orderTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// plainDate formats a day for players.
func plainDate(t time.Time) string { return t.UTC().Format("2006-01-02") }
