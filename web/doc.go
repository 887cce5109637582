// Package web is the arcade's public face on the web (--http): read-only pages and their JSON,
// served with the standard library (net/http, html/template, Server-Sent Events) from assets
// embedded in the binary.
//
//	/                   players online, rooms playing and waiting (live), the newest finished matches
//	/leaderboard/GAME   ratings (paged) and best solo scores
//	/@NAME              a player's ratings per game, rating history, recent matches
//	/r/CODE             a live room: board, seats, clocks, moves, updated by SSE (/r/CODE/events)
//	/m/ID               a finished match, stepped move by move (?at=N); /m/ID.cast its asciicast
//	/api/...            the same as JSON; /api/leaderboard is `leaderboard --json`
//
// Nothing here changes anything: there is no form and no method but GET and HEAD. What a page
// shows of a room is what a spectator's snapshot holds (the engine's view for rules.Spectator,
// the moves in their public form): racks and hands never reach a page, and neither does chat.
// Every name and text is escaped by html/template.
//
// A live room costs one subscription to the room, whatever the number of browsers watching it
// (watcher): the room's snapshots are drawn once and the same bytes fanned out to every stream,
// each with a buffer of one that the newest event replaces, so a slow browser never holds up the
// room or the others. Every listener has limits (Config): timeouts against slowloris, a header
// size, a request rate per address and caps on the streams open.
package web
