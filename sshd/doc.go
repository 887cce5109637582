// Package sshd is the arcade's SSH front door: a wish server whose middleware turns each SSH
// session into an identity, a command and maybe a PTY, then hands it either to a Bubble Tea
// program (package session) or to a plain-text command (help, rooms) that prints and exits.
//
// Nothing here knows the games' rules or draws a screen; it only speaks SSH.
package sshd
