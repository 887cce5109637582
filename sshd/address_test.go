package sshd

import (
	"net"
	"testing"
)

func TestSSHAddress(t *testing.T) {
	local := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 2222}
	for _, c := range []struct {
		public string
		local  net.Addr
		want   string
	}{
		{"", local, "-p 2222 192.0.2.7"},
		{"", &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 22}, "192.0.2.7"},
		{"", &net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 2222}, "-p 2222 2001:db8::1"},
		{"play.example.com", local, "-p 2222 play.example.com"},
		{"play.example.com:22", local, "play.example.com"},
		{"play.example.com:2022", local, "-p 2022 play.example.com"},
		{"[2001:db8::2]:22", local, "2001:db8::2"},
		{"[2001:db8::2]", local, "-p 2222 2001:db8::2"},
		{"", &net.UnixAddr{Name: "/x"}, ""},
	} {
		if got := sshAddress(c.public, c.local); got != c.want {
			t.Errorf("sshAddress(%q, %v) = %q, want %q", c.public, c.local, got, c.want)
		}
	}
}
