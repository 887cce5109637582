// Package lhexiconview is Lhex-i'-con as the arcade shows and load-tests it: its board view (board.go,
// compose.go, draw.go), which draws the hexagon, the rack and a live preview of the word being
// composed and turns keys into moves, and the load tool's driver (load.go), whose markers are
// texts the side panel draws. The engine is rules/lhexicon; package games lists all three in the
// catalogue.
package lhexiconview
