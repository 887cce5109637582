// Package lhexiconview is Lhex-i'-con as the arcade shows it: its board view (board.go,
// compose.go, draw.go), which draws the hexagon, the rack and a live preview of the word being
// composed and turns keys into moves. The engine is rules/lhexicon; package games lists both in
// the catalogue. The load tool (tools/arcade-load) follows matches by texts the side panel draws.
package lhexiconview
