module github.com/charmbracelet/ultraviolet

go 1.25.0

require (
	github.com/charmbracelet/colorprofile v0.4.3
	github.com/charmbracelet/x/ansi v0.11.7
	github.com/charmbracelet/x/term v0.2.2
	github.com/charmbracelet/x/termios v0.1.1
	github.com/charmbracelet/x/windows v0.2.2
	github.com/clipperhouse/uax29/v2 v2.7.0
	github.com/muesli/cancelreader v0.2.2
	github.com/rivo/uniseg v0.4.7
	github.com/xo/terminfo v0.0.0-20220910002029-abceb7e1c41e
	golang.org/x/sync v0.21.0
	golang.org/x/sys v0.46.0
)

require github.com/clipperhouse/displaywidth v0.11.0 // indirect

require (
	github.com/lucasb-eyer/go-colorful v1.4.0
	github.com/mattn/go-runewidth v0.0.23 // indirect
)
