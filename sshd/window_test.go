package sshd

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
)

func TestClampWindow(t *testing.T) {
	for _, tc := range []struct{ w, h, wantW, wantH int }{
		{80, 24, 80, 24},
		{0, 0, 0, 0},
		{-1, -1 << 31, 0, 0},
		{1 << 31, 1 << 31, maxColumns, maxRows},
		{1<<32 - 1, 24, maxColumns, 24},
		{maxColumns, maxRows, maxColumns, maxRows},
	} {
		got := clampWindow(ssh.Window{Width: tc.w, Height: tc.h, WidthPixels: 7})
		if got.Width != tc.wantW || got.Height != tc.wantH || got.WidthPixels != 7 {
			t.Errorf("clampWindow(%d x %d) = %+v, want %d x %d", tc.w, tc.h, got, tc.wantW, tc.wantH)
		}
	}
	filter := clampSizes(resumeOnSuspend)
	if got := filter(nil, tea.WindowSizeMsg{Width: 4096, Height: 256}); got != (tea.WindowSizeMsg{Width: maxColumns, Height: maxRows}) {
		t.Errorf("filter: %+v, want the size clamped", got)
	}
	if got := filter(nil, tea.SuspendMsg{}); got != (tea.ResumeMsg{}) {
		t.Errorf("filter: %#v for a suspend, want a resume", got)
	}
}

// TestForwardWindows: every change reaches send in order, the last one always; a send that waits
// holds up neither the reading of changes nor the end of the channel, and superseded changes are
// skipped rather than queued.
func TestForwardWindows(t *testing.T) {
	windows := make(chan ssh.Window)
	release := make(chan struct{})
	got := make(chan ssh.Window, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		forwardWindows(windows, ssh.Window{Width: 80, Height: 24}, func(w ssh.Window) {
			<-release // the program is busy
			got <- w
		})
	}()
	windows <- ssh.Window{Width: 80, Height: 24} // the PTY request's window: not sent again
	for i := range 50 {
		windows <- ssh.Window{Width: 100 + i, Height: 30} // never blocks, though send does
	}
	close(windows)
	<-done // the channel's end is not held up by a send that waits
	close(release)
	var last ssh.Window
	for n := 0; last.Width != 149; n++ {
		if n > 50 {
			t.Fatalf("more sends than changes; the last was %v", last)
		}
		w := <-got
		if w.Width <= last.Width {
			t.Fatalf("window %v sent after %v", w, last)
		}
		last = w
	}
}
