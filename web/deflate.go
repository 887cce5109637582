package web

import (
	"bytes"
	"compress/flate"
	"net/http"
	"strings"
	"sync"
)

// An event stream is the same bytes for every browser of a room, and a move's event is most of
// a page (the board's SVG): sent as it is, a room watched by a thousand browsers would send them
// some 30 MB a move. So each event is compressed once, on its own (a deflate writer of its own,
// with no history, ended by a sync flush), and every stream that takes gzip sends the same
// compressed bytes: a deflate stream may be cut into such segments, each decoded after the one
// before it since none refers back past its start. A stream then is a gzip header and the
// segments of its events; it has no trailer, as it never ends but by its connection closing,
// after which the browser has had every event.

// deflaters are the writers deflated compresses with: a writer's tables take a few hundred KB,
// so they are kept, and Reset (which forgets the history) between events.
var deflaters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.DefaultCompression)
	return zw
}}

// deflated returns data compressed as one segment of a deflate stream: once per event, for
// every stream.
func deflated(data []byte) []byte {
	var b bytes.Buffer
	zw := deflaters.Get().(*flate.Writer)
	zw.Reset(&b)
	_, _ = zw.Write(data)
	_ = zw.Flush() // the sync flush: byte-aligned, and no final block
	deflaters.Put(zw)
	return b.Bytes()
}

// stored returns data as a segment of stored (uncompressed) deflate blocks: what a stream writes
// of its own (its first line, its clock's "now" events), a few bytes each, for which a
// compressor of its own would cost the stream its tables.
func stored(data []byte) []byte {
	out := make([]byte, 0, len(data)+5*(len(data)/0xffff+1))
	for {
		n := min(len(data), 0xffff)
		out = append(out, 0, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8)) // BFINAL 0, BTYPE 00: stored
		out = append(out, data[:n]...)
		if data = data[n:]; len(data) == 0 {
			return out
		}
	}
}

// gzipHeader starts a gzip stream of deflate, no name, no time, of an unknown system.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// takesGzip reports whether the request accepts a gzip answer.
func takesGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
