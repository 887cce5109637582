package web

import (
	"bytes"
	"net/http"
	"sync"
	"time"
)

// lobbyFeed is the front page's live part, the rooms, for every front page open: one goroutine,
// running while a stream is open, reads the hub's list every lobbyEvery and, when the rooms
// drawn have changed, offers the new HTML to every stream, as a watcher offers a room's.
type lobbyFeed struct {
	s       *Server
	mu      sync.Mutex
	streams map[*stream]struct{}
	last    *event
	running bool
	seq     uint64
	quit    chan struct{}
	done    chan struct{} // closed by stop: every stream ends
	stopped bool
}

// lobbyEvery is how often the feed reads the rooms: the hub's list is a read of each room's
// published summary (a cluster's, of the directory it watches), which enters no room.
const lobbyEvery = 2 * time.Second

func newLobbyFeed(s *Server) *lobbyFeed {
	return &lobbyFeed{s: s, streams: map[*stream]struct{}{}, quit: make(chan struct{}), done: make(chan struct{})}
}

// add opens a stream, starting the feed when it is the first.
func (f *lobbyFeed) add() (*stream, bool) {
	st := &stream{ch: make(chan *event, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return nil, false
	}
	f.streams[st] = struct{}{}
	if !f.running {
		f.running = true
		go f.run()
	}
	return st, true
}

// remove closes a stream; the feed stops at its next read when none is left.
func (f *lobbyFeed) remove(st *stream) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.streams, st)
}

func (f *lobbyFeed) run() {
	t := time.NewTicker(lobbyEvery)
	defer t.Stop()
	for {
		var html bytes.Buffer
		if err := f.s.pages["home"].ExecuteTemplate(&html, "lobby", f.s.lobbyView()); err != nil {
			f.s.cfg.Logf("web: the front page's rooms: %v", err)
		}
		f.mu.Lock()
		if len(f.streams) == 0 {
			f.running = false
			f.last = nil
			f.mu.Unlock()
			return
		}
		if f.last == nil || !bytes.Equal(html.Bytes(), f.last.raw) {
			f.seq++
			f.last = newEvent(liveView{}, sseEvent("", f.seq, html.Bytes()), html.Bytes())
			for st := range f.streams {
				st.offer(f.last)
			}
		}
		f.mu.Unlock()
		select {
		case <-t.C:
		case <-f.quit:
			return
		}
	}
}

// stop ends the feed and its streams.
func (f *lobbyFeed) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.stopped {
		f.stopped = true
		close(f.quit)
		close(f.done)
	}
}

// homeEvents is /events: the front page's rooms as they change.
func (s *Server) homeEvents(w http.ResponseWriter, r *http.Request) {
	release, ok := s.takeStream(w, r)
	if !ok {
		return
	}
	defer release()
	st, ok := s.lobby.add()
	if !ok {
		http.Error(w, "the server is stopping", http.StatusServiceUnavailable)
		return
	}
	defer s.lobby.remove(st)
	serveStream(w, r, st.ch, s.lobby.done)
}
