package web_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arcade/arcade/rules"
)

// screenshotsDir is where the browser tests leave their screenshots: $ARCADE_SCREENSHOTS, or
// artifacts/screenshots at the repository's root (ignored by git; CI keeps it as the run's
// artefacts). docs/web.md links the copies in docs/screenshots, made with
// ARCADE_SCREENSHOTS=$PWD/docs/screenshots go test ./web -run TestBrowser.
func screenshotsDir(t *testing.T) string {
	dir := os.Getenv("ARCADE_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chromium finds Debian's chromium, or skips the test saying why; under CI (which installs it,
// .ci/run) a missing browser fails.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: .ci/run installs Debian's chromium for the browser tests")
	}
	t.Skip("no chromium on PATH: the browser tests need it (apt-get install -y chromium); .ci/run installs it")
	return ""
}

// browser starts a headless chromium as the closed network here wants it and returns its
// context.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.UserDataDir(t.TempDir()),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("chromium did not start: %v", err)
	}
	return ctx
}

// screenSizes are the screenshots' sizes: a laptop's and a phone's.
var screenSizes = []struct {
	name  string
	w, h  int64
	phone bool
}{{"1280x800", 1280, 800, false}, {"390x844", 390, 844, true}}

// shoot takes a screenshot of the page at url at every size into dir, as NAME-SIZE.png.
func shoot(t *testing.T, ctx context.Context, dir, name, url string, ready string) {
	t.Helper()
	for _, sz := range screenSizes {
		viewport := chromedp.EmulateViewport(sz.w, sz.h)
		if sz.phone {
			viewport = chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(2), chromedp.EmulateMobile)
		}
		if err := chromedp.Do(ctx, viewport, chromedp.Navigate(url), chromedp.WaitVisible(ready),
			chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatalf("%s at %s: %v", name, sz.name, err)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("%s at %s: %v", name, sz.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%s.png", name, sz.name)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowser drives the pages in a real browser: the front page, a room two bots play followed
// from it (a move appears without a reload), a finished match stepped and its cast played; and a
// screenshot of every page at 1280x800 and 390x844.
func TestBrowser(t *testing.T) {
	// Bots slow enough that the match is still being played when the browser follows it (the
	// front page lists rooms playing and waiting), even on a loaded machine.
	a := startWith(t, nil, 300*time.Millisecond)
	ctx := browser(t) // after: the browser goes first, with its streams
	began := time.Now()
	id := a.recordMatch("ROOMA", a.players())
	room, _ := a.botRoom("stonetowers", rules.Options{"size": "12", "turns": "60"}, 2, "cat")
	a.hub.Stats() // the room is open

	// The front page; follow the room's link; moves come without a reload.
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(a.http.URL+"/"),
		chromedp.WaitVisible(`a[href="/r/`+room.Code()+`"]`),
		chromedp.Click(`a[href="/r/`+room.Code()+`"]`),
		chromedp.WaitVisible(`#live svg.board`),
	)
	if err != nil {
		t.Fatalf("following the room from the front page: %v", err)
	}
	countMoves := chromedp.Evaluate[int](`window.notReloaded = window.notReloaded || "yes"; document.querySelectorAll("#live .moves li").length`)
	movesBefore, err := chromedp.Run(ctx, countMoves)
	if err != nil {
		t.Fatal(err)
	}
	movesAfter := movesBefore
	for until := time.Now().Add(60 * time.Second); movesAfter <= movesBefore && time.Now().Before(until); {
		time.Sleep(200 * time.Millisecond)
		if movesAfter, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#live .moves li").length`)); err != nil {
			t.Fatal(err)
		}
	}
	marker, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.notReloaded || "reloaded"`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v: a move appeared", time.Since(began))
	if movesAfter <= movesBefore || marker != "yes" {
		t.Errorf("the room's page showed %d moves, then %d (%s): no move appeared without a reload", movesBefore, movesAfter, marker)
	}

	// A finished match, stepped from its start with the page's own links, and its cast played.
	err = chromedp.Do(ctx,
		chromedp.Navigate(a.http.URL+"/m/"+id+"?at=0"),
		chromedp.WaitVisible(`#next`),
		chromedp.Click(`#next`),
		chromedp.WaitVisible(`#prev`),
	)
	if err != nil {
		t.Fatalf("stepping the match: %v", err)
	}
	at, err1 := chromedp.Run(ctx, chromedp.Text(`#at`))
	told, err2 := chromedp.Run(ctx, chromedp.Text(`#told`))
	err = chromedp.Do(ctx, chromedp.WaitVisible(`.ap-player`), chromedp.Click(`.ap-player`), chromedp.Sleep(1500*time.Millisecond))
	term, err3 := chromedp.Run(ctx, chromedp.Text(`.ap-term`))
	if err := errors.Join(err1, err2, err, err3); err != nil {
		t.Fatalf("stepping the match and playing its cast: %v", err)
	}
	if !strings.HasPrefix(at, "Move 1 of") || !strings.HasPrefix(told, "Move 1:") {
		t.Errorf("after one step the page says %q, %q", at, told)
	}
	if !strings.Contains(term, "Stone Towers") || !strings.Contains(term, "replay of match") {
		t.Errorf("the player's terminal shows %q", term)
	}

	t.Logf("%v: the match stepped and its cast played", time.Since(began))
	dir := screenshotsDir(t)
	shoot(t, ctx, dir, "home", a.http.URL+"/", "h1")
	shoot(t, ctx, dir, "room", a.http.URL+"/r/"+room.Code(), "#live svg.board")
	shoot(t, ctx, dir, "match", a.http.URL+"/m/"+id+"?at=12", "svg.board")
	shoot(t, ctx, dir, "leaderboard", a.http.URL+"/leaderboard/stonetowers", "table")
	shoot(t, ctx, dir, "profile", a.http.URL+"/@ann", "svg.chart")
	t.Logf("screenshots in %s", dir)
}
