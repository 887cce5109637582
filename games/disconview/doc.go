// Package disconview is DISCON as the arcade shows and load-tests it: its board view (board.go), which
// draws a match for the room screen and turns keys and clicks into moves, and the load tool's
// driver (load.go), whose markers are texts the board and its side panel draw. The engine is
// rules/discon; package games lists all three in the catalogue.
package disconview
