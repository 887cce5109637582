// Command arcade runs the SSH arcade server.
//
//	go run ./cmd/arcade              listen on :2222, data in ./arcade-data
//	arcade -h                        every flag, each with its ARCADE_ variable
//	arcade backup [--data DIR] FILE  a consistent copy of the database, while the server runs
//	arcade check [--data DIR] [FILE] check the database (or a backup) while no server runs
//	arcade admin [--data DIR] CMD    an operator's command to the running server: mute, ban,
//	                                 kick, announce, void, rename, list bans, reports, log
//	arcade cluster-secret [--data DIR] make the secret every node of a cluster shares
//	arcade --version                 the release, and the commit it was built from
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if isVersionRequest(os.Args[1:]) {
		printVersion(os.Stdout)
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "backup" {
		if err := runBackup(os.Args[2:], os.Getenv, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "arcade:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "admin" {
		os.Exit(runAdmin(os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "cluster-secret" {
		if err := runClusterSecret(os.Args[2:], os.Getenv, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "arcade:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "check" {
		status, err := runCheck(os.Args[2:], os.Getenv, os.Stdout, os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "arcade:", err)
		}
		os.Exit(status)
	}
	cfg, err := parseConfig(os.Args[1:], os.Getenv, os.Stderr)
	if err != nil {
		os.Exit(2) // the flag package has already said why
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "arcade:", err)
		os.Exit(1)
	}
}
