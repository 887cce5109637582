//go:build linux

package main

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerUID returns the user ID of the process at the other end of a unix socket connection, from
// the kernel (SO_PEERCRED): the admin socket answers its own user and root only.
func peerUID(conn net.Conn) (uid int, known bool, err error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return 0, false, fmt.Errorf("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if cerr != nil {
		return 0, false, os.NewSyscallError("getsockopt SO_PEERCRED", cerr)
	}
	return int(cred.Uid), true, nil
}
