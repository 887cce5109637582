package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/storage"
)

// Exit statuses of `arcade check`.
const (
	checkClean   = 0 // nothing is damaged
	checkDamaged = 1 // something is damaged (or set aside by an earlier start)
	checkFailed  = 2 // the file could not be checked: in use, missing, bad arguments
)

// errCheckFailed marks an error of runCheck that is not damage (exit status checkFailed).
var errCheckFailed = errors.New("the database could not be checked")

// runCheck is `arcade check [--data DIR] [FILE]`: it checks FILE, or the data folder's database,
// read-only (see check). The flags may also follow FILE. It returns the exit status, and an error
// to show for every status but checkClean.
func runCheck(args []string, getenv func(string) string, out, errOut io.Writer) (int, error) {
	fs := flag.NewFlagSet("arcade check", flag.ContinueOnError)
	fs.SetOutput(errOut)
	data := dataFlag(fs, getenv, "the server's data folder, whose database is checked (ARCADE_DATA)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: arcade check [--data DIR] [FILE]")
		fmt.Fprintln(errOut, "checks the database (or FILE, e.g. a backup) without changing it; the server must be stopped")
		fs.PrintDefaults()
	}
	files, err := parseNames(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return checkFailed, nil // the usage is shown
		}
		return checkFailed, fmt.Errorf("%w: %w", errCheckFailed, err)
	}
	if len(files) > 1 {
		fs.Usage()
		return checkFailed, fmt.Errorf("%w: check takes one file at most", errCheckFailed)
	}
	path := databaseIn(*data)
	if len(files) == 1 {
		path = files[0]
	}
	return check(path, out)
}

// check opens the database at path read-only and checks it (storage's Check: bbolt's check of
// its pages, every record's checksum, every match replayed with its game's rules), printing a
// summary to out.
func check(path string, out io.Writer) (int, error) {
	fmt.Fprintf(out, "checking %s (read-only)\n", path)
	db, err := storage.Open(path, storage.Options{LockTimeout: time.Second, ReadOnly: true})
	switch {
	case errors.Is(err, storage.ErrLocked):
		return checkFailed, fmt.Errorf("%w: a running arcade server holds %s; stop it and check again, or check a copy: arcade backup FILE, then arcade check FILE", errCheckFailed, path)
	case errors.Is(err, storage.ErrDamaged):
		fmt.Fprintf(out, "file: %v\nresult: DAMAGED\n", err)
		return checkDamaged, fmt.Errorf("%s is damaged: bbolt cannot read it, nor the server start on it; "+
			"keep it aside for inspection and put the latest backup (made with `arcade backup FILE`) in its place", path)
	case err != nil:
		return checkFailed, fmt.Errorf("%w: %w", errCheckFailed, err)
	}
	defer db.Close()
	r, err := db.Check(games.Rules())
	if err != nil {
		fmt.Fprintf(out, "file: %v\nresult: DAMAGED\n", err)
		return checkDamaged, fmt.Errorf("%s is damaged; keep it aside for inspection and put the latest backup "+
			"(made with `arcade backup FILE`) in its place", path)
	}
	if len(r.Pages) > 0 {
		fmt.Fprintf(out, "pages: damaged (bbolt's check):\n")
		for _, p := range r.Pages {
			fmt.Fprintf(out, "  %s\n", p)
		}
	} else {
		fmt.Fprintf(out, "pages: ok (bbolt's check)\n")
		fmt.Fprintf(out, "records: %d read\n", r.Records)
		fmt.Fprintf(out, "matches: %d ok, %d damaged, %d set aside earlier\n", r.Matches, countMatches(r.Damaged), len(r.Quarantined))
	}
	for _, d := range r.Damaged {
		fmt.Fprintf(out, "damaged: %s\n", describe(d))
	}
	for _, d := range r.Quarantined {
		fmt.Fprintf(out, "set aside at %s: %s\n", d.At.Format(time.RFC3339), describe(d))
	}
	if r.Clean() {
		fmt.Fprintf(out, "result: ok\n")
		return checkClean, nil
	}
	fmt.Fprintf(out, "result: DAMAGED\n")
	return checkDamaged, fmt.Errorf("%s holds damage; the server starts on it, setting damaged unfinished matches "+
		"aside; to have them back, put the latest backup (made with `arcade backup FILE`) in its place while the server is stopped", path)
}

// countMatches counts the damage that names a match.
func countMatches(ds []storage.Damage) int {
	n := 0
	for _, d := range ds {
		if d.ID != "" {
			n++
		}
	}
	return n
}

// describe says which match d is, with what is known of it, and what is wrong.
func describe(d storage.Damage) string {
	var about []string
	if d.Game != "" {
		about = append(about, "game "+d.Game)
	}
	if d.Code != "" {
		about = append(about, "room "+d.Code)
	}
	who := "a record"
	if d.ID != "" {
		who = "match " + d.ID
	}
	if len(about) > 0 {
		who += " (" + strings.Join(about, ", ") + ")"
	}
	return who + ": " + d.Reason
}

// withAdvice adds to an error that says the database at path is damaged (storage.ErrDamaged) what
// the operator can do; other errors are returned as they are.
func withAdvice(err error, path string) error {
	if !errors.Is(err, storage.ErrDamaged) {
		return err
	}
	return fmt.Errorf("%w\nThe file was left as it is. To go on: see what is damaged with `arcade check %s`; "+
		"keep the file aside for inspection, put the latest backup (made with `arcade backup FILE`) in its place, "+
		"and start the server again", err, path)
}
