package sshd

import (
	"net"
	"strconv"
	"strings"
)

// sshAddress is what a player types after ssh to reach the server, as the rooms show it: "-p
// 2222 play.example.com", or "play.example.com" on port 22. The host is public's (Config.PublicAddr,
// "host" or "host:port") when set, else the address the client connected to (local, the server's
// end of the connection); the port is public's when it has one, else local's.
func sshAddress(public string, local net.Addr) string {
	host, port := "", 0
	if ta, ok := local.(*net.TCPAddr); ok {
		host, port = ta.IP.String(), ta.Port
	}
	if public != "" {
		if h, p, err := net.SplitHostPort(public); err == nil {
			host = h
			if n, err := strconv.Atoi(p); err == nil {
				port = n
			}
		} else {
			host = strings.TrimSuffix(strings.TrimPrefix(public, "["), "]")
		}
	}
	if host == "" {
		return ""
	}
	if port == 22 || port == 0 {
		return host
	}
	return "-p " + strconv.Itoa(port) + " " + host
}
