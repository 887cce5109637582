// Package colorettaview is Coloretta as the arcade shows it: its board view (board.go), which
// draws a match for the room screen and turns keys and clicks into moves. The engine is
// rules/coloretta; package games lists both in the catalogue. The load tool
// (tools/arcade-load) follows matches by texts the board and its side panel draw.
package colorettaview
