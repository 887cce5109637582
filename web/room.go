package web

import (
	"errors"
	"net/http"
	"strconv"
	"time"
)

// Event streams: a ping keeps a proxy from closing a quiet stream, and a stream ends after
// streamLife (the browser opens a new one by itself), so that no connection is held for ever.
const (
	pingEvery  = 25 * time.Second
	streamLife = 30 * time.Minute
	firstWait  = 5 * time.Second
)

// roomPage is /r/CODE: the live room as a spectator sees it, as of now.
type roomPage struct {
	page
	Live liveView
	Now  int64 // the server's time, Unix milliseconds: the page's clocks tick from it
}

func (s *Server) roomPage(w http.ResponseWriter, r *http.Request) {
	wt, err := s.watch(r.PathValue("code"))
	if err != nil {
		s.roomMissing(w, err)
		return
	}
	ev := wt.current(firstWait)
	if ev == nil {
		s.fail(w, http.StatusNotFound, "The room has closed", "Its match may be in the newest finished matches on the front page.")
		return
	}
	s.render(w, "room", http.StatusOK, roomPage{page: s.page(), Live: ev.view, Now: time.Now().UnixMilli()})
}

// roomMissing answers a request for a room that is not open.
func (s *Server) roomMissing(w http.ResponseWriter, err error) {
	if errors.Is(err, errNoLiveRoom) {
		s.fail(w, http.StatusNotFound, "No such room", "No open room has that code. A room closes when its players have gone; its match stays in the replays.")
		return
	}
	s.fail(w, http.StatusServiceUnavailable, "The room cannot be watched now", "Try again in a moment.")
}

// takeStream counts one more event stream of the request's address, or answers 503 past the
// streams' caps (and reports false); release counts it closed.
func (s *Server) takeStream(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	src := source(r)
	if !s.streams.take(src) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "too many live pages are open; try again later", http.StatusServiceUnavailable)
		return nil, false
	}
	return func() { s.streams.done(src) }, true
}

// roomEvents is /r/CODE/events: the room's events, each the live part of its page, as moves
// happen.
func (s *Server) roomEvents(w http.ResponseWriter, r *http.Request) {
	release, ok := s.takeStream(w, r)
	if !ok {
		return
	}
	defer release()
	wt, err := s.watch(r.PathValue("code"))
	if err != nil {
		http.Error(w, "no open room has that code", http.StatusNotFound)
		return
	}
	st, ok := wt.add()
	if !ok {
		http.Error(w, "the room has closed", http.StatusNotFound)
		return
	}
	defer wt.remove(st)
	serveStream(w, r, st.ch, wt.done)
}

// serveStream writes the events of ch to the client until it goes, done is closed (then an "end"
// event says so), or streamLife has passed. Each write has writeTimeout to complete: a client
// that does not read is dropped.
func serveStream(w http.ResponseWriter, r *http.Request, ch <-chan *event, done <-chan struct{}) {
	rc := http.NewResponseController(w)
	// The request has been read: its read deadline (readTimeout) does not bound the stream,
	// whose writes each have theirs.
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events on as they come
	h.Add("Vary", "Accept-Encoding")
	gz := takesGzip(r)
	if gz {
		h.Set("Content-Encoding", "gzip")
	}
	w.WriteHeader(http.StatusOK)
	put := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// write sends bytes of the stream's own (as stored blocks when the stream is compressed),
	// send an event's (compressed once for every stream).
	write := func(b []byte) bool {
		if gz {
			b = stored(b)
		}
		return put(b)
	}
	send := func(ev *event) bool {
		if gz {
			return put(ev.gz)
		}
		return put(ev.sse)
	}
	if gz {
		if _, err := w.Write(gzipHeader); err != nil {
			return
		}
	}
	if !write([]byte("retry: 3000\n\n" + nowEvent())) {
		return
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	life := time.NewTimer(streamLife)
	defer life.Stop()
	for {
		select {
		case ev := <-ch:
			if !send(ev) {
				return
			}
		case <-ping.C:
			if !write([]byte(nowEvent())) {
				return
			}
		case <-done:
			select { // the last state first
			case ev := <-ch:
				send(ev)
			default:
			}
			write([]byte("event: end\ndata: the room has closed\n\n"))
			return
		case <-life.C:
			return
		case <-r.Context().Done():
			return
		}
	}
}

// nowEvent is an event "now" with the server's time in Unix milliseconds: the page's clocks
// count from it, whatever the browser's own clock says.
func nowEvent() string {
	return "event: now\ndata: " + strconv.FormatInt(time.Now().UnixMilli(), 10) + "\n\n"
}
