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
