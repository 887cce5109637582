package phase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
)

// The hostile phases (rooms-one-key, sessions-one-addr, replay-viewers, leaderboard) measure what
// one hostile player can take from a server: each starts arcades of its own, on new data folders
// (some seeded through the arcade's storage package before the server starts), with the limits it
// fills, and reports figures whatever the arcade answers: a refusal by any message ends a fill, and
// the message is reported.

// Arcades starts the arcades of the hostile phases.
type Arcades interface {
	// NewData returns a new, empty data folder and the path of the database the arcade keeps in
	// it (which a phase may seed before it starts the arcade).
	NewData() (dir, db string, err error)
	// Start starts an arcade on the data folder dir with the tool's flags, then args (which win
	// over them), then the run's --server-arg flags; in its environment env (KEY=VALUE), then the
	// run's (--server-env, which wins). The caller stops it.
	Start(ctx context.Context, dir string, env []string, args ...string) (*server.Server, error)
}

// lobbyHeader is the first word of the lobby's first row.
const lobbyHeader = "ARCADE"

// refusalTimeout bounds the wait for a session's first answer: a room, the lobby or a refusal.
const refusalTimeout = 60 * time.Second

// screenText is the text of a screen's rows that are not blank as one line: a row that fills
// the screen's width (but for a trailing space) goes on into the next, as the terminal wrapped
// it; other rows are joined with " / ".
func screenText(text string) string {
	var b strings.Builder
	wrapped := false
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimRight(l, " ")
		if strings.TrimSpace(l) == "" {
			continue
		}
		switch {
		case b.Len() == 0:
			l = strings.TrimLeft(l, " ")
		case !wrapped:
			b.WriteString(" / ")
			l = strings.TrimLeft(l, " ")
		}
		b.WriteString(l)
		n := utf8.RuneCountInString(l)
		wrapped = n >= client.Cols-1
		if n == client.Cols-1 {
			b.WriteByte(' ') // the trailing space the row was trimmed of
		}
	}
	return strings.TrimSpace(b.String())
}

// lobbyStatus is the lobby's status lines, the message it shows above its help line (the last
// row): the rows from the one above the help line up to the first blank one.
func lobbyStatus(c *client.Client) string {
	var rows []string
	for y := client.Rows - 2; y > 1; y-- {
		r := strings.TrimSpace(c.Row(y))
		if r == "" {
			break
		}
		rows = append([]string{r}, rows...)
	}
	return strings.Join(rows, " ")
}

// lobbyWithMessage holds when the screen shows the lobby with a message of its own under the
// page (not the one shown while a room opens).
func lobbyWithMessage(s *screen.Screen) bool {
	return strings.HasPrefix(strings.TrimSpace(s.Row(0)), lobbyHeader) &&
		strings.TrimSpace(s.Row(client.Rows-2)) != "" && !strings.Contains(s.String(), "Opening the room")
}

// lobbyShown reports whether c's screen shows the lobby with a message (lobbyWithMessage).
func lobbyShown(c *client.Client) bool {
	return strings.HasPrefix(strings.TrimSpace(c.Row(0)), lobbyHeader) &&
		strings.TrimSpace(c.Row(client.Rows-2)) != "" && !strings.Contains(c.Text(), "Opening the room")
}

// plainCommand runs command without a PTY as client key (or a guest) and returns what it wrote
// to its stdout and stderr, and how long the answer took from the session's start.
func plainCommand(ctx context.Context, o client.DialOpts, key int, command string) (out string, took time.Duration, err error) {
	_, _, conn, err := client.Connect(ctx, o, key)
	if err != nil {
		return "", 0, err
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		return "", 0, fmt.Errorf("session: %w", err)
	}
	defer sess.Close()
	var stdout, stderr bytes.Buffer
	sess.Stdout, sess.Stderr = &stdout, &stderr
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- sess.Run(command) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		return "", 0, ctx.Err()
	}
	took = time.Since(start)
	if err != nil {
		return stdout.String(), took, fmt.Errorf("%s: %w: %s", command, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), took, nil
}

// openRooms counts the rooms the arcade lists (its rooms command): the lines of its table under
// the header.
func openRooms(ctx context.Context, o client.DialOpts) (int, error) {
	out, _, err := plainCommand(ctx, o, 0, "rooms")
	if err != nil {
		return 0, err
	}
	n := 0
	for l := range strings.SplitSeq(out, "\n") {
		if codeLine.MatchString(l) {
			n++
		}
	}
	return n, nil
}

// isClosed reports whether err is a wait's on a session that ended.
func isClosed(err error) bool { return errors.Is(err, client.ErrClosed) }
