package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/storage"
)

// Operators act through the admin socket (adminSocket, which backups use too), never over SSH:
// `arcade admin COMMAND ...` sends the command's words to the running server, which checks who
// sent them (the socket is 0600 in a data folder of mode 0700, and on Linux the kernel names the
// peer's user: only the server's own user and root are answered), carries the command out through
// the store (so that a cluster's every node gets it) and logs it with who did it.

// adminRequest begins the line of an operator's command on the admin socket; its words follow, as
// the JSON of an adminLine.
const adminRequest = "admin "

// maxAdminLine bounds a request line on the admin socket.
const maxAdminLine = 16 << 10

// adminLine is an operator's command as the admin socket carries it.
type adminLine struct {
	Args []string `json:"args"`
	// Sudo is the user who ran the command through sudo, as the command's environment said
	// (SUDO_USER): the log names them beside the socket's peer.
	Sudo string `json:"sudo,omitempty"`
}

// adminUsage is the usage of `arcade admin`.
const adminUsage = `usage: arcade admin [--data DIR] COMMAND
  mute NAME [DURATION] [--reason TEXT]     NAME's chat is not shown (for good without DURATION)
  unmute NAME
  ban TARGET [DURATION] [--reason TEXT]    TARGET (a NAME, a key's SHA256:FINGERPRINT, or an
                                           ADDRESS or PREFIX/BITS) is refused at authentication
  unban TARGET
  kick NAME [--reason TEXT]                NAME's sessions end, on every node
  announce TEXT                            every session shows TEXT
  void MATCH-ID [--reason TEXT]            the match no longer counts; its game's ratings are
                                           recomputed from the matches that count
  rename OLD NEW                           the player called OLD is called NEW (OLD is held back)
  list bans                                the bans in force
  reports [N]                              the latest N reports (20), with their rooms' chat
  log [N]                                  the latest N actions of the operators (20)
DURATION: 30m, 12h, 7d, 4w.`

// runAdmin is `arcade admin`: it sends the command to the running server of the data folder and
// prints its answer; the status is 0 when the server did it, 1 when it refused (or none runs), 2
// for a command line not understood.
func runAdmin(args []string, getenv func(string) string, out, errOut io.Writer) int {
	data := getenv("ARCADE_DATA")
	if data == "" {
		data = "./arcade-data"
	}
	var words []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--data" || a == "-data":
			if i+1 == len(args) {
				fmt.Fprintln(errOut, adminUsage)
				return 2
			}
			data, i = args[i+1], i+1
		case strings.HasPrefix(a, "--data="):
			data = strings.TrimPrefix(a, "--data=")
		case a == "-h" || a == "--help" || a == "help":
			fmt.Fprintln(out, adminUsage)
			return 0
		default:
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		fmt.Fprintln(errOut, adminUsage)
		return 2
	}
	path := filepath.Join(data, adminSocket)
	conn, err := net.Dial("unix", path)
	if errors.Is(err, fs.ErrPermission) {
		fmt.Fprintf(errOut, "arcade: %s is not yours to use (%v): admin commands are for the arcade's own user and root\n", path, err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(errOut, "arcade: no arcade server answers on %s (%v): admin commands go to a running server\n", path, err)
		return 1
	}
	defer conn.Close()
	line, _ := json.Marshal(adminLine{Args: words, Sudo: getenv("SUDO_USER")})
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute)) // a void recomputes a game's ratings
	// A server that refuses the peer answers before it reads: its answer is read even when the
	// request could not be written.
	_, werr := fmt.Fprintf(conn, "%s%s\n", adminRequest, line)
	r := bufio.NewReader(conn)
	status, err := r.ReadString('\n')
	if err != nil && status == "" {
		fmt.Fprintf(errOut, "arcade: the server did not answer: %v\n", cmp.Or(werr, err))
		return 1
	}
	status = strings.TrimSpace(status)
	if msg, ok := strings.CutPrefix(status, "error: "); ok {
		fmt.Fprintln(errOut, "arcade: "+msg)
		if strings.HasPrefix(msg, "usage") {
			return 2
		}
		return 1
	}
	_, _ = io.Copy(out, r)
	return 0
}

// peerAllowed says whether the admin socket answers the process at the other end of conn: its
// user is the server's, or root (where the kernel says; elsewhere the socket's mode decided), and
// names it for the log.
func peerAllowed(conn net.Conn) (by string, ok bool) {
	uid, known, err := peerUID(conn)
	if err != nil {
		return "", false
	}
	if !known {
		return "operator", true
	}
	if uid != os.Geteuid() && uid != 0 {
		return strconv.Itoa(uid), false
	}
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username, true
	}
	return "uid " + strconv.Itoa(uid), true
}

// answerAdmin carries out the operator's command of line (after adminRequest), by the socket's
// peer by, and writes the answer: "ok" and the command's output, or "error: " and why.
func answerAdmin(conn net.Conn, acc *storage.Accounts, line, by string, logf func(string, ...any)) {
	var req adminLine
	if err := json.Unmarshal([]byte(line), &req); err != nil || len(req.Args) == 0 {
		fmt.Fprintln(conn, "error: usage: the request is not understood")
		return
	}
	if s := sanitize.Line(req.Sudo, 32); s != "" && s != by {
		by = fmt.Sprintf("%s (sudo %s)", by, s)
	}
	var out strings.Builder
	err := adminCommand(acc, by, req.Args, &out)
	shown := sanitize.Line(strings.Join(req.Args, " "), 200)
	if err != nil {
		logf("admin command refused: %q by %s: %v", shown, by, err)
		fmt.Fprintln(conn, "error: "+strings.ReplaceAll(err.Error(), "\n", " "))
		return
	}
	if !readOnlyAdmin[strings.ToLower(req.Args[0])] {
		logf("admin: %q by %s", shown, by)
	}
	fmt.Fprintln(conn, "ok")
	_, _ = io.WriteString(conn, out.String())
}

// readOnlyAdmin are the commands that change nothing, and are not logged.
var readOnlyAdmin = map[string]bool{"list": true, "bans": true, "reports": true, "log": true}

// errAdminUsage marks a command line not understood; the server answers "error: usage: ...".
var errAdminUsage = errors.New("usage")

// usageError is an error of a command line not understood, with what to type.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s (arcade admin help)", errAdminUsage, fmt.Sprintf(format, args...))
}

// adminCommand carries out the operator's command args, by by, writing what it says to out.
func adminCommand(acc *storage.Accounts, by string, args []string, out io.Writer) error {
	cmd := strings.ToLower(args[0])
	words, reason, err := cutReason(args[1:])
	if err != nil {
		return err
	}
	if reason != "" && !map[string]bool{"mute": true, "ban": true, "kick": true, "void": true}[cmd] {
		return usageError("%s takes no --reason", cmd)
	}
	switch cmd {
	case "mute", "ban":
		if len(words) < 1 || len(words) > 2 {
			return usageError("%s takes a target and, at most, a duration", cmd)
		}
		var until time.Time
		if len(words) == 2 {
			d, err := parseDuration(words[1])
			if err != nil {
				return err
			}
			until = time.Now().UTC().Add(d)
		}
		if cmd == "mute" {
			if err := acc.Mute(words[0], until, reason, by); err != nil {
				return err
			}
			fmt.Fprintf(out, "%s is muted %s.\n", words[0], untilText(until))
			return nil
		}
		b, err := acc.Ban(words[0], until, reason, by)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "banned %s %s %s; its sessions end, and it is refused at authentication.\n", b.Kind, banTarget(b), untilText(until))
		return nil
	case "unmute", "unban", "kick":
		if len(words) != 1 {
			return usageError("%s takes one target", cmd)
		}
		switch cmd {
		case "unmute":
			err = acc.Unmute(words[0], by)
		case "unban":
			err = acc.Unban(words[0], by)
		default:
			err = acc.Kick(words[0], reason, by)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %s done.\n", words[0], cmd)
		return nil
	case "announce":
		text := strings.Join(words, " ")
		if text == "" {
			return usageError("announce takes a text")
		}
		if err := acc.Announce(text, by); err != nil {
			return err
		}
		fmt.Fprintln(out, "announced.")
		return nil
	case "void":
		if len(words) != 1 {
			return usageError("void takes a match ID")
		}
		if err := acc.Void(words[0], reason, by); err != nil {
			return err
		}
		fmt.Fprintf(out, "match %s is void; its game's ratings are recomputed without it.\n", strings.ToLower(words[0]))
		return nil
	case "rename":
		if len(words) != 2 {
			return usageError("rename takes the old name and the new one")
		}
		if err := acc.Rename(words[0], words[1], by); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s is called %s now; %s is held back.\n", words[0], words[1], words[0])
		return nil
	case "list", "bans":
		if cmd == "list" && (len(words) != 1 || words[0] != "bans") {
			return usageError("list takes bans")
		}
		bans, err := acc.Bans()
		if err != nil {
			return err
		}
		writeBans(out, bans)
		return nil
	case "reports", "log":
		n := 20
		if len(words) > 1 {
			return usageError("%s takes a number at most", cmd)
		}
		if len(words) == 1 {
			if n, err = strconv.Atoi(words[0]); err != nil || n < 1 {
				return usageError("%s takes a number of at least 1", cmd)
			}
		}
		if cmd == "log" {
			acts, err := acc.Actions(n)
			if err != nil {
				return err
			}
			writeActions(out, acts)
			return nil
		}
		reps, err := acc.Reports(n)
		if err != nil {
			return err
		}
		writeReports(out, reps)
		return nil
	}
	return usageError("no command %q", sanitize.Line(cmd, 20))
}

// cutReason takes --reason TEXT (or --reason=TEXT) out of words.
func cutReason(words []string) (rest []string, reason string, err error) {
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "--reason" || w == "-reason":
			if i+1 == len(words) {
				return nil, "", usageError("--reason takes a text")
			}
			reason, i = words[i+1], i+1
		case strings.HasPrefix(w, "--reason="):
			reason = strings.TrimPrefix(w, "--reason=")
		default:
			rest = append(rest, w)
		}
	}
	return rest, reason, nil
}

// maxBanFor bounds a duration: longer is for good (no duration).
const maxBanFor = 10 * 365 * 24 * time.Hour

// parseDuration reads a ban's or mute's duration: Go's (90m, 12h) with d for days and w for weeks.
func parseDuration(s string) (time.Duration, error) {
	unit := time.Duration(0)
	switch {
	case strings.HasSuffix(s, "d"):
		unit = 24 * time.Hour
	case strings.HasSuffix(s, "w"):
		unit = 7 * 24 * time.Hour
	}
	var d time.Duration
	var err error
	if unit != 0 {
		var n int
		n, err = strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(s, "d"), "w"))
		d = time.Duration(n) * unit
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 || d > maxBanFor {
		return 0, usageError("%q is not a duration: 30m, 12h, 7d, 4w (at most ten years; none: for good)", sanitize.Line(s, 20))
	}
	return d, nil
}

// untilText says until when: "until TIME" or "for good".
func untilText(until time.Time) string {
	if until.IsZero() {
		return "for good"
	}
	return "until " + until.UTC().Format("2006-01-02 15:04 UTC")
}

// banTarget is what the lists call a ban's target: the name, for a player.
func banTarget(b record.Ban) string {
	if b.Kind == record.BanPlayer && b.Name != "" {
		return b.Name
	}
	return b.Target
}

// writeBans prints the bans in force as a table.
func writeBans(w io.Writer, bans []record.Ban) {
	if len(bans) == 0 {
		fmt.Fprintln(w, "No bans.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tTARGET\tUNTIL\tBY\tSINCE\tREASON")
	for _, b := range bans {
		until := "for good"
		if !b.Until.IsZero() {
			until = b.Until.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.Kind, banTarget(b), until, b.By, b.At.UTC().Format("2006-01-02 15:04"), b.Reason)
	}
	tw.Flush()
}

// writeReports prints reports, newest first, each with its room's chat.
func writeReports(w io.Writer, reps []record.Report) {
	if len(reps) == 0 {
		fmt.Fprintln(w, "No reports.")
		return
	}
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		where := "from the lobby"
		if r.Room != "" {
			where = "in room " + r.Room
		}
		fmt.Fprintf(w, "#%d %s: %s reported %s %s\n", r.Seq, r.At.UTC().Format("2006-01-02 15:04 UTC"), r.ByName, r.Name, where)
		if r.Text != "" {
			fmt.Fprintf(w, "  %q\n", r.Text)
		}
		for _, l := range r.Chat {
			from := "·"
			if l.From != "" {
				from = l.From + ":"
			}
			fmt.Fprintf(w, "  %s %s %s\n", l.At.UTC().Format("15:04:05"), from, l.Text)
		}
	}
}

// writeActions prints the moderation log, newest first.
func writeActions(w io.Writer, acts []record.Action) {
	if len(acts) == 0 {
		fmt.Fprintln(w, "No actions yet.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tWHEN (UTC)\tBY\tACTION\tTARGET\tUNTIL\tTEXT")
	for _, a := range acts {
		until := ""
		if !a.Until.IsZero() {
			until = a.Until.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Seq, a.At.UTC().Format("2006-01-02 15:04"), a.By, a.Kind, a.Target, until, a.Text)
	}
	tw.Flush()
}
