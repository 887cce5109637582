package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"charm.land/log/v2"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/web"
)

// serveWeb starts the web companion on --http, over the same hub and store as the SSH server
// (in a cluster, the node's: every node serves the same pages). An address off loopback is
// logged with what it exposes.
func serveWeb(cfg config, hub session.Hub, recs web.Records, online func() int, sshPort int, out io.Writer, logger *log.Logger) (*web.Server, error) {
	ws, err := web.New(web.Config{
		Hub:               hub,
		Records:           recs,
		Boards:            games.Boards(),
		WebBoards:         games.WebBoards(),
		SSH:               webSSH(cfg.publicAddr, cfg.publicURL, sshPort),
		Online:            online,
		Logf:              func(format string, args ...any) { logger.Warnf(format, args...) },
		MaxStreams:        cfg.httpMaxStreams,
		MaxStreamsPerAddr: cfg.httpStreamsPer,
		Rate:              cfg.httpRate,
		Burst:             int(4 * cfg.httpRate),
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.http)
	if err != nil {
		return nil, fmt.Errorf("--http: %w", err)
	}
	if !web.OnLoopback(cfg.http) {
		logger.Warn(web.Exposed(ln.Addr().String()))
	}
	go func() {
		if err := ws.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Warn("web", "err", err)
		}
	}()
	fmt.Fprintf(out, "web on http://%s/\n", ln.Addr())
	return ws, nil
}

// webSSH is what the pages tell players to type after ssh: --public-addr's host and port, or
// else --public-url's host with the SSH server's port; "" when neither says.
func webSSH(publicAddr, publicURL string, sshPort int) string {
	host, port := "", sshPort
	switch {
	case publicAddr != "":
		if h, p, err := net.SplitHostPort(publicAddr); err == nil {
			host = h
			if n, err := strconv.Atoi(p); err == nil {
				port = n
			}
		} else {
			host = publicAddr
		}
	case publicURL != "":
		if u, err := url.Parse(publicURL); err == nil {
			host = u.Hostname()
		}
	}
	if host == "" {
		return ""
	}
	if port == 22 {
		return host
	}
	return fmt.Sprintf("-p %d %s", port, host)
}
