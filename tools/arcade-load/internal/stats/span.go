package stats

import "time"

// Span is a stretch of time, From to To.
type Span struct{ From, To time.Time }

// Overlaps reports whether s and t share some time.
func (s Span) Overlaps(t Span) bool { return s.From.Before(t.To) && t.From.Before(s.To) }

// OverlapsAny reports whether s shares some time with one of spans.
func (s Span) OverlapsAny(spans []Span) bool {
	for _, t := range spans {
		if s.Overlaps(t) {
			return true
		}
	}
	return false
}
