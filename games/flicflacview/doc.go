// Package flicflacview is Flic Flac as the arcade shows it: its board view (board.go, layout.go,
// draw.go, status.go), which draws the hexagon, the homes and every piece's state in the room
// screen and turns keys and clicks into moves. The engine is rules/flicflac; package games lists
// both in the catalogue. The load tool (tools/arcade-load) follows matches by the side panel's
// first two lines (status.go), which it draws the same way.
//
// The board is drawn pointy-topped, a line a row, each hex three columns wide: a free hex shows
// its colour's letter in lower case ('·' for black); a piece shows its body colour's letter in
// upper case upright, lower case flipped, between round brackets for a cylinder or square ones
// for a block, the closing one '*' when it is empowered and '!' when it is due to be captured.
// The homes are drawn in the corners beside the edges their pieces enter on.
package flicflacview
