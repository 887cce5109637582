package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// source is the address a request counts against: the peer's address (an IPv6 /64 as one), or,
// when the peer is on loopback (a reverse proxy on the same host), the last address of
// X-Forwarded-For, the one that proxy saw.
func source(r *http.Request) netip.Prefix {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Prefix{}
	}
	ip = ip.Unmap()
	if ip.IsLoopback() {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			if fwd, err := netip.ParseAddr(strings.TrimSpace(parts[len(parts)-1])); err == nil {
				ip = fwd.Unmap()
			}
		}
	}
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, _ := ip.Prefix(bits)
	return p
}

// rateLimiter is a token bucket per source address, of the most recent addresses (an LRU, so
// that a flood of addresses costs bounded memory). Safe for concurrent use.
type rateLimiter struct {
	rate  rate.Limit
	burst int
	cache *lru.Cache[netip.Prefix, *rate.Limiter]
	mu    sync.Mutex
}

// limiterAddrs is how many addresses' buckets the limiter keeps.
const limiterAddrs = 10_000

func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	c, _ := lru.New[netip.Prefix, *rate.Limiter](limiterAddrs)
	return &rateLimiter{rate: rate.Limit(perSecond), burst: burst, cache: c}
}

// allow takes a token of src's bucket, or reports false when it is empty.
func (l *rateLimiter) allow(src netip.Prefix) bool {
	l.mu.Lock()
	lim, ok := l.cache.Get(src)
	if !ok {
		lim = rate.NewLimiter(l.rate, l.burst)
		l.cache.Add(src, lim)
	}
	l.mu.Unlock()
	return lim.Allow()
}

// streamCap counts the event streams open, in all and per source address. Safe for concurrent
// use.
type streamCap struct {
	mu       sync.Mutex
	max, per int
	open     int
	bySource map[netip.Prefix]int
}

func newStreamCap(max, per int) *streamCap {
	return &streamCap{max: max, per: per, bySource: map[netip.Prefix]int{}}
}

// take counts one more stream of src, or reports false past either cap.
func (c *streamCap) take(src netip.Prefix) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open >= c.max || c.bySource[src] >= c.per {
		return false
	}
	c.open++
	c.bySource[src]++
	return true
}

// done counts a stream of src closed.
func (c *streamCap) done(src netip.Prefix) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.open--
	if c.bySource[src]--; c.bySource[src] <= 0 {
		delete(c.bySource, src)
	}
}

// count returns the streams open.
func (c *streamCap) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open
}
