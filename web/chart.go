package web

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/web/webdraw"
)

// ratingChart draws a player's rating history of one game as a small SVG line chart, with the
// lowest and highest ratings written on its axis and each point titled with its rating and date;
// "" for fewer than one point.
func ratingChart(h []record.RatingPoint, game string) template.HTML {
	if len(h) == 0 {
		return ""
	}
	const w, ht, left, pad = 360.0, 120.0, 40.0, 10.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range h {
		lo, hi = math.Min(lo, p.Rating.R), math.Max(hi, p.Rating.R)
	}
	if hi-lo < 20 {
		lo, hi = lo-10, hi+10
	}
	x := func(i int) float64 {
		if len(h) == 1 {
			return left + (w-left-pad)/2
		}
		return left + float64(i)*(w-left-pad)/float64(len(h)-1)
	}
	y := func(r float64) float64 { return pad + (hi-r)*(ht-2*pad)/(hi-lo) }
	var b strings.Builder
	label := fmt.Sprintf("%s rating over %d rated matches: from %.0f to %.0f, now %.0f", game, len(h), lo, hi, h[len(h)-1].Rating.R)
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg"><title>%s</title>`,
		w, ht, webdraw.Esc(label), webdraw.Esc(label))
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g"/><line x1="%g" y1="%g" x2="%g" y2="%g"/>`,
		left, y(hi), w-pad, y(hi), left, y(lo), w-pad, y(lo))
	fmt.Fprintf(&b, `<text x="2" y="%g">%.0f</text><text x="2" y="%g">%.0f</text>`, y(hi)+4, hi, y(lo)+4, lo)
	b.WriteString(`<polyline points="`)
	for i, p := range h {
		fmt.Fprintf(&b, "%.1f,%.1f ", x(i), y(p.Rating.R))
	}
	b.WriteString(`"/>`)
	for i, p := range h {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5"><title>%.0f after match %s, %s</title></circle>`,
			x(i), y(p.Rating.R), p.Rating.R, webdraw.Esc(p.Match), p.At.UTC().Format("2006-01-02"))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
