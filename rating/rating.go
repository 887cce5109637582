// Package rating computes Glicko-2 player ratings, following Mark Glickman's "Example of the
// Glicko-2 system": ratings live on the Glicko scale (a new player is 1500 / 350 / 0.06), are
// converted to the Glicko-2 scale with the factor 173.7178 for the update, and the new
// volatility is found with the Illinois algorithm (system constant tau 0.5, convergence
// tolerance 0.000001).
//
// A multiplayer finish is rated by splitting it into one game per pair of seats (Pairwise) and
// updating every seat against the others' pre-match ratings as one rating period (Match).
//
// The package is a leaf: standard library only. Inputs are sanitized so that no input, however
// extreme, yields NaN or infinite output; RD always stays in (0, 350].
package rating

import (
	"math"
	"strconv"
)

// Rating is a player's Glicko-2 rating on the Glicko scale. In JSON its keys are lower-case words:
// "rating", "deviation" and "volatility".
type Rating struct {
	// R is the rating (1500 for a new player).
	R float64 `json:"rating"`
	// RD is the rating deviation: the uncertainty of R (350 for a new player, at most 350).
	RD float64 `json:"deviation"`
	// Vol is the volatility: how erratic the player's results are (0.06 for a new player).
	Vol float64 `json:"volatility"`
}

// Default is a new player's rating: 1500 / 350 / 0.06.
var Default = Rating{1500, 350, 0.06}

// Result is one game against one opponent: Score 1 win, 0.5 draw, 0 loss.
type Result struct {
	// Opponent is the opponent's rating before the rating period.
	Opponent Rating
	// Score is 1 for a win, 0.5 for a draw and 0 for a loss; other values are clamped to [0, 1].
	Score float64
}

// ProvisionalRD is the rating deviation above which a rating is provisional.
const ProvisionalRD = 110

const (
	// scale converts between the Glicko scale and the Glicko-2 scale (400 / ln 10).
	scale = 173.7178
	// tau is the system constant constraining the change in volatility over time.
	tau = 0.5
	// epsilon is the convergence tolerance of the volatility iteration.
	epsilon = 0.000001
	// maxIter bounds the volatility iteration; it normally converges in well under 20 steps.
	maxIter = 100

	// maxRD is the largest rating deviation, that of a new player.
	maxRD = 350
	// minRD keeps the deviation positive so that the Glicko-2 arithmetic stays finite. Real
	// deviations never get near it: the volatility alone keeps them far above.
	minRD = 1
	// minR and maxR bound the rating. Real ratings sit well inside; the bounds only keep
	// absurd inputs from overflowing the expected-score arithmetic.
	minR, maxR = -10000, 10000
	// minVol and maxVol bound the volatility, for the same reason.
	minVol, maxVol = 1e-6, 10
)

// Update returns r after one rating period with results (none: only RD grows, per step 6 of the
// paper).
//
// Every opponent's rating is its rating before the period. Non-finite or out-of-range fields
// (of r or of an opponent) are replaced by Default's or clamped, and a result whose Score is NaN
// is ignored, so the returned rating is always finite with RD in (0, 350].
func Update(r Rating, results []Result) Rating {
	r = clean(r)

	// Step 2: convert to the Glicko-2 scale.
	mu := (r.R - 1500) / scale
	phi := r.RD / scale
	sigma := r.Vol

	// Step 3 and 4: the estimated variance v (as its reciprocal) and the sum behind delta.
	var invV, sum float64
	for _, res := range results {
		if math.IsNaN(res.Score) {
			continue
		}
		s := math.Min(math.Max(res.Score, 0), 1)
		o := clean(res.Opponent)
		muJ := (o.R - 1500) / scale
		gJ := g(o.RD / scale)
		e := expected(mu, muJ, gJ)
		invV += gJ * gJ * e * (1 - e)
		sum += gJ * (s - e)
	}
	if !(invV > 0) || math.IsInf(invV, 0) {
		// No (usable) games: step 6 only, the deviation grows by the volatility.
		return finish(r, mu, math.Sqrt(phi*phi+sigma*sigma), sigma)
	}
	v := 1 / invV
	delta := v * sum

	// Step 5: the new volatility.
	newSigma := volatility(phi, sigma, v, delta)

	// Step 6: the pre-period value phi*.
	phiStar := math.Sqrt(phi*phi + newSigma*newSigma)

	// Step 7: the new deviation and rating.
	newPhi := 1 / math.Sqrt(1/(phiStar*phiStar)+invV)
	newMu := mu + newPhi*newPhi*sum

	// Step 8: back to the Glicko scale.
	return finish(r, newMu, newPhi, newSigma)
}

// g is the Glicko-2 function g(phi) that discounts a game by the opponent's uncertainty.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is E(mu, muJ, phiJ): the expected score against an opponent with g(phiJ) = gJ.
func expected(mu, muJ, gJ float64) float64 {
	return 1 / (1 + math.Exp(-gJ*(mu-muJ)))
}

// volatility is step 5 of the paper: the new volatility sigma', found as the root of f by the
// Illinois algorithm (a regula falsi variant). If the iteration does not produce a finite
// positive value, sigma is kept.
func volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	phi2 := phi * phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta*delta-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}

	A := a
	var B float64
	if delta*delta > phi2+v {
		B = math.Log(delta*delta - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIter {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < maxIter; i++ {
		if fB == fA {
			break
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	s := math.Exp(A / 2)
	if math.IsNaN(s) || math.IsInf(s, 0) || s <= 0 {
		return sigma
	}
	return s
}

// finish converts mu, phi and sigma back to the Glicko scale, falling back to the cleaned
// input r for any value that is not finite, and clamps the result into range.
func finish(r Rating, mu, phi, sigma float64) Rating {
	out := Rating{R: mu*scale + 1500, RD: phi * scale, Vol: sigma}
	if !finite(out.R) {
		out.R = r.R
	}
	if !finite(out.RD) {
		out.RD = r.RD
	}
	if !finite(out.Vol) {
		out.Vol = r.Vol
	}
	return clamp(out)
}

// clean replaces non-finite fields of r by Default's and clamps the rest into range.
func clean(r Rating) Rating {
	if !finite(r.R) {
		r.R = Default.R
	}
	if !finite(r.RD) {
		r.RD = Default.RD
	}
	if !finite(r.Vol) {
		r.Vol = Default.Vol
	}
	return clamp(r)
}

// clamp bounds every field of a finite r.
func clamp(r Rating) Rating {
	r.R = math.Min(math.Max(r.R, minR), maxR)
	r.RD = math.Min(math.Max(r.RD, minRD), maxRD)
	r.Vol = math.Min(math.Max(r.Vol, minVol), maxVol)
	return r
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

// Pairwise turns a multiplayer finish into each seat's results: ranks[i] is seat i's rank
// (1 first, ties share); every pair of seats plays one game: the better rank wins, equal ranks
// draw. ratings[i] is seat i's rating before the match. Returns each seat's results.
//
// Seat i's results list its games against every other seat in seat order. A lower rank is
// better; ranks need not be consecutive. Pairwise panics if ratings and ranks differ in length.
func Pairwise(ratings []Rating, ranks []int) [][]Result {
	if len(ratings) != len(ranks) {
		panic("rating: Pairwise: " + strconv.Itoa(len(ratings)) + " ratings but " +
			strconv.Itoa(len(ranks)) + " ranks")
	}
	out := make([][]Result, len(ratings))
	for i := range ratings {
		res := make([]Result, 0, len(ratings)-1)
		for j := range ratings {
			if j == i {
				continue
			}
			score := 0.5
			switch {
			case ranks[i] < ranks[j]:
				score = 1
			case ranks[i] > ranks[j]:
				score = 0
			}
			res = append(res, Result{Opponent: ratings[j], Score: score})
		}
		out[i] = res
	}
	return out
}

// Match rates a whole match at once: each seat is updated against the pre-match ratings of all
// others (one rating period). Returns the new ratings.
//
// The returned slice is new, in seat order; ratings is not modified. Match panics if ratings
// and ranks differ in length.
func Match(ratings []Rating, ranks []int) []Rating {
	results := Pairwise(ratings, ranks)
	out := make([]Rating, len(ratings))
	for i, r := range ratings {
		out[i] = Update(r, results[i])
	}
	return out
}

// Provisional reports whether r is still uncertain: RD above ProvisionalRD (110).
func (r Rating) Provisional() bool {
	return r.RD > ProvisionalRD
}

// String displays the rating rounded to a whole number, e.g. "1464", or "1464?" when
// provisional.
func (r Rating) String() string {
	x := math.Round(r.R)
	if x == 0 {
		x = 0 // no "-0"
	}
	s := strconv.FormatFloat(x, 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}
