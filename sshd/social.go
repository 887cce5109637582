package sshd

import (
	"fmt"
	"io"
	"strings"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/session/draw"
)

// social returns a's session.Social, nil when a is nil (no typed nil in the interface).
func social(a Accounts) session.Social {
	if a == nil {
		return nil
	}
	return a
}

// social answers the plain commands of keys, ignores and reports, and returns the exit status:
// 0 done, 1 refused (one line on stderr saying why; nothing changed).
func (s *Server) social(sess ssh.Session, req request) int {
	out, errOut := sess, sess.Stderr()
	fail := func(format string, args ...any) int {
		fmt.Fprintf(errOut, "arcade: "+format+"\n", args...)
		return 1
	}
	if s.cfg.Accounts == nil {
		return fail("this server keeps no players")
	}
	a := s.cfg.Accounts
	key := sess.PublicKey()
	if req.plain == "keys" && req.sub == "claim" {
		return s.claimKey(sess, req)
	}
	p, notice := s.player(sess)
	if p.Guest {
		if notice == "" {
			notice = "No key was used: connect with an SSH key and a name (ssh NAME@host)."
		}
		return fail("a guest has no keys, ignores or reports.\n%s", strings.Join(draw.Wrap(notice, plainWidth), "\n"))
	}
	fp := gossh.FingerprintSHA256(key)
	switch req.plain {
	case "ignore":
		if req.sub == "" {
			return s.writeIgnoring(out, p)
		}
		ig, err := a.Ignore(p.ID, req.sub)
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(out, "You no longer see the chat of %s. They are not told. (unignore %s to undo)\n", ig.Name, ig.Name)
		return 0
	case "unignore":
		ig, err := a.Unignore(p.ID, req.sub)
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(out, "You see the chat of %s again.\n", ig.Name)
		return 0
	case "report":
		text := strings.Join(req.args, " ")
		if err := a.Report(req.sub, reportBy(p, text)); err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(out, "Thank you: your report of %s is with the operators.\n", sanitize.Line(req.sub, sanitize.MaxName))
		return 0
	}
	switch req.sub {
	case "":
		return s.writeKeys(out, p, fp)
	case "link":
		code, expires, err := a.LinkCode(p.ID, fp)
		if err != nil {
			return fail("%v", err)
		}
		s.log.Info("link code made", "name", p.Name, "player", p.ID, "code", codeHint(code))
		addr := userAddress(sshAddress(s.cfg.PublicAddr, sess.LocalAddr()), p.Name)
		fmt.Fprintf(out, "Your code: %s\nIt works once, until %s (10 minutes). From the new key, run:\n\n  ssh %s keys claim %s\n\n"+
			"and that key is %s's too. Tell it to nobody else.\n", code, orderTime(expires), addr, code, p.Name)
		return 0
	case "revoke":
		k, err := a.Revoke(p.ID, req.args[0])
		if err != nil {
			return fail("%v", err)
		}
		s.log.Info("key removed", "name", p.Name, "player", p.ID, "key", k.Fingerprint)
		fmt.Fprintf(out, "Removed %s from %s: it plays as a guest from now on, and its sessions end.\n", keyShown(k.Fingerprint, k.Comment), p.Name)
		return 0
	case "comment":
		text := strings.Join(req.args[1:], " ")
		k, err := a.Comment(p.ID, req.args[0], text)
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(out, "%s is called %q now.\n", k.Fingerprint, text)
		return 0
	case "release":
		free, err := a.Release(p.ID, p.Name)
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(out, "%s is released: it stays yours until %s, then anyone may take it. keys keep takes this back.\n", p.Name, plainDate(free))
		return 0
	case "keep":
		if err := a.Keep(p.ID, p.Name); err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(out, "%s is yours again: the release is taken back.\n", p.Name)
		return 0
	}
	return fail("keys %s: not understood", sanitize.Line(req.sub, 20))
}

// claimKey links the session's key to the player of the code given, the name connected with
// being theirs. Wrong codes are counted per key and per address (claimLimiter); the code is never
// logged whole.
func (s *Server) claimKey(sess ssh.Session, req request) int {
	errOut := sess.Stderr()
	key := sess.PublicKey()
	if key == nil {
		fmt.Fprintln(errOut, "arcade: a key claims a code: connect with the SSH key to link (ssh -i KEY NAME@host keys claim CODE)")
		return 1
	}
	name, err := sanitize.ParseName(sess.User())
	if err != nil {
		fmt.Fprintln(errOut, "arcade: connect with the name the code is for: ssh NAME@host keys claim CODE")
		return 1
	}
	fp := gossh.FingerprintSHA256(key)
	src := sourceOf(sess.RemoteAddr()).String()
	if s.claims.blocked(fp, src) {
		fmt.Fprintln(errOut, "arcade: too many wrong codes from this key or address: wait a few minutes, then try again")
		return 1
	}
	code, comment := req.args[0], strings.Join(req.args[1:], " ")
	id, err := s.cfg.Accounts.ClaimCode(fp, name, code, comment)
	if err != nil {
		s.claims.wrong(fp, src)
		s.log.Info("link code refused", "name", name, "key", fp, "code", redactCommand("keys claim " + code)[len("keys claim "):], "err", err)
		fmt.Fprintf(errOut, "arcade: %v\n", err)
		return 1
	}
	s.log.Info("key linked", "name", name, "player", id, "key", fp)
	fmt.Fprintf(sess, "This key is %s's now: it plays as %s, with %s's ratings and matches. keys lists %s's keys.\n", name, name, name, name)
	return 0
}

// reportBy is the report of p, from the plain command: no room, no chat.
func reportBy(p rooms.Player, text string) record.Report {
	return record.Report{By: p.ID, ByName: p.Name, Text: text}
}

// writeKeys lists the player's keys, the one in use marked.
func (s *Server) writeKeys(w io.Writer, p rooms.Player, fp string) int {
	keys, err := s.cfg.Accounts.Keys(p.ID)
	if err != nil {
		s.log.Error("keys", "player", p.ID, "err", err)
		fmt.Fprintln(w, "arcade: the keys cannot be read right now")
		return 1
	}
	fmt.Fprintf(w, "The keys of %s:\n\n", p.Name)
	for _, k := range keys {
		mark := " "
		if k.Fingerprint == fp {
			mark = "*"
		}
		used := "never"
		if !k.Used.IsZero() {
			used = plainDate(k.Used)
		}
		// Two lines a key, within 80 columns whatever its comment (at most 40 characters).
		fmt.Fprintf(w, "%s %s\n    ", mark, k.Fingerprint)
		if k.Comment != "" {
			fmt.Fprintf(w, "%s · ", k.Comment)
		}
		fmt.Fprintf(w, "added %s, used %s\n", plainDate(k.Added), used)
	}
	fmt.Fprintf(w, "\n* is the key you use now. keys link makes a code for another key;\n"+
		"keys revoke FINGERPRINT removes one (never the last); keys comment FINGERPRINT\n"+
		"TEXT names one. FINGERPRINT may be its first 6 characters after SHA256:.\n")
	if free := s.cfg.Accounts.ReleasedUntil(p.Name); !free.IsZero() {
		fmt.Fprintf(w, "You released %s: anyone may take it from %s (keys keep takes this back).\n", p.Name, plainDate(free))
	}
	return 0
}

// writeIgnoring lists whom the player ignores.
func (s *Server) writeIgnoring(w io.Writer, p rooms.Player) int {
	list, err := s.cfg.Accounts.Ignoring(p.ID)
	if err != nil {
		fmt.Fprintln(w, "arcade: the list cannot be read right now")
		return 1
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "You ignore nobody. ignore NAME: you no longer see NAME's chat.")
		return 0
	}
	names := make([]string, len(list))
	for i, ig := range list {
		names[i] = ig.Name
	}
	fmt.Fprintf(w, "You ignore: %s. (unignore NAME to see one again)\n", strings.Join(names, ", "))
	return 0
}

// keyShown is a key as a message names it: its fingerprint, and its comment.
func keyShown(fp, comment string) string {
	if comment == "" {
		return fp
	}
	return fmt.Sprintf("%s (%s)", fp, comment)
}

// userAddress is addr (sshAddress: "-p 2222 host" or "host") with name@ before the host.
func userAddress(addr, name string) string {
	if addr == "" {
		return name + "@HOST"
	}
	if i := strings.LastIndexByte(addr, ' '); i >= 0 {
		return addr[:i+1] + name + "@" + addr[i+1:]
	}
	return name + "@" + addr
}
