// Command floor is the bare wish v2 + Bubble Tea v2 server that arcade-load measures the arcade
// against: every session gets a Bubble Tea program with a one-line view and Bubble Tea's default
// options, nothing else. What the floor costs per session (CPU, memory) is the least any arcade on
// the same libraries could cost with Bubble Tea's defaults.
//
//	floor --addr 127.0.0.1:0
//
// It prints "floor listening on ADDR" once it accepts connections, and exits on SIGINT or SIGTERM.
// A key press bumps the counter in the view, so a client can time a keystroke's redraw.
package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"
)

// model is the floor's whole UI: one line that counts key presses.
type model struct{ keys int }

func (m model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		m.keys++
	}
	return m, nil
}

func (m model) View() tea.View { return tea.NewView(fmt.Sprintf("floor: %d keys", m.keys)) }

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		fail(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		fail(err)
	}
	srv, err := wish.NewServer(
		func(s *ssh.Server) error { s.AddHostKey(signer); return nil },
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }),
		wish.WithMiddleware(bubbletea.Middleware(func(ssh.Session) (tea.Model, []tea.ProgramOption) {
			return model{}, nil
		})),
	)
	if err != nil {
		fail(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fail(err)
	}
	fmt.Printf("floor listening on %s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(1)
}
