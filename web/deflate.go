package web

import (
	"bytes"
	"compress/flate"
	"net/http"
	"strings"
)

// An event stream is the same bytes for every browser of a room, and a move's event is most of
// a page (the board's SVG): sent as it is, a room watched by a thousand browsers would send them
// some 30 MB a move. So each event is compressed once, on its own (a deflate writer of its own,
// with no history, ended by a sync flush), and every stream that takes gzip sends the same
// compressed bytes: a deflate stream may be cut into such segments, each decoded after the one
// before it since none refers back past its start. A stream then is a gzip header and the
// segments of its events; it has no trailer, as it never ends but by its connection closing,
// after which the browser has had every event.

// deflated returns data compressed as one segment of a deflate stream.
func deflated(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := flate.NewWriter(&b, flate.DefaultCompression)
	_, _ = zw.Write(data)
	_ = zw.Flush() // the sync flush: byte-aligned, and no final block
	return b.Bytes()
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
