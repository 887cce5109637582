package rating

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// fields shows every field of r (%+v would use String and show only the rounded rating).
func fields(r Rating) string { return fmt.Sprintf("{R:%g RD:%g Vol:%g}", r.R, r.RD, r.Vol) }

// resultsString shows results with every field of each opponent.
func resultsString(res []Result) string {
	s := "["
	for i, r := range res {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("{%s %g}", fields(r.Opponent), r.Score)
	}
	return s + "]"
}

// TestPaperExample is the worked example of Glickman's "Example of the Glicko-2 system".
func TestPaperExample(t *testing.T) {
	player := Rating{1500, 200, 0.06}
	got := Update(player, []Result{
		{Opponent: Rating{1400, 30, 0.06}, Score: 1},
		{Opponent: Rating{1550, 100, 0.06}, Score: 0},
		{Opponent: Rating{1700, 300, 0.06}, Score: 0},
	})
	t.Logf("paper example: R=%.4f RD=%.4f Vol=%.8f", got.R, got.RD, got.Vol)
	if !near(got.R, 1464.06, 0.01) {
		t.Errorf("R = %.4f, want 1464.06", got.R)
	}
	if !near(got.RD, 151.52, 0.01) {
		t.Errorf("RD = %.4f, want 151.52", got.RD)
	}
	if !near(got.Vol, 0.05999, 0.00001) {
		t.Errorf("Vol = %.8f, want 0.05999", got.Vol)
	}
	if s := got.String(); s != "1464?" {
		t.Errorf("String = %q, want %q", s, "1464?")
	}
}

func TestNoGames(t *testing.T) {
	r := Rating{1500, 200, 0.06}
	phi := 200 / scale
	want := math.Sqrt(phi*phi+0.06*0.06) * scale // about 200.27
	for _, results := range [][]Result{nil, {}} {
		got := Update(r, results)
		if got.R != 1500 || got.Vol != 0.06 {
			t.Errorf("no games changed R or Vol: %s", fields(got))
		}
		if !near(got.RD, want, 1e-9) || got.RD <= 200 {
			t.Errorf("RD = %.6f, want %.6f (> 200)", got.RD, want)
		}
	}
	if !near(want, 200.2714, 0.001) {
		t.Errorf("sanity: expected RD %.4f", want)
	}

	// RD never grows beyond a new player's.
	if got := Update(Rating{1500, 349.9, 0.06}, nil); got.RD != 350 {
		t.Errorf("RD = %v, want clamped to 350", got.RD)
	}
	if got := Update(Default, nil); got != Default {
		t.Errorf("Update(Default, nil) = %s, want Default", fields(got))
	}
}

func TestPairwise(t *testing.T) {
	ratings := []Rating{{1500, 350, 0.06}, {1600, 200, 0.06}, {1400, 100, 0.06}, {1700, 50, 0.06}}
	ranks := []int{1, 2, 2, 4}
	got := Pairwise(ratings, ranks)
	if len(got) != 4 {
		t.Fatalf("got %d seats, want 4", len(got))
	}
	// want[i] lists seat i's scores against the other seats in seat order.
	want := [][]struct {
		opp   int
		score float64
	}{
		{{1, 1}, {2, 1}, {3, 1}},
		{{0, 0}, {2, 0.5}, {3, 1}},
		{{0, 0}, {1, 0.5}, {3, 1}},
		{{0, 0}, {1, 0}, {2, 0}},
	}
	for i, res := range got {
		if len(res) != 3 {
			t.Fatalf("seat %d has %d results, want 3", i, len(res))
		}
		var wins, draws, losses int
		for k, r := range res {
			w := want[i][k]
			if r.Opponent != ratings[w.opp] || r.Score != w.score {
				t.Errorf("seat %d result %d = %s, want opponent seat %d score %v", i, k, resultsString([]Result{r}), w.opp, w.score)
			}
			switch r.Score {
			case 1:
				wins++
			case 0.5:
				draws++
			case 0:
				losses++
			}
		}
		wantWDL := [][3]int{{3, 0, 0}, {1, 1, 1}, {1, 1, 1}, {0, 0, 3}}[i]
		if [3]int{wins, draws, losses} != wantWDL {
			t.Errorf("seat %d W/D/L = %d/%d/%d, want %v", i, wins, draws, losses, wantWDL)
		}
	}

	if got := Pairwise(nil, nil); len(got) != 0 {
		t.Errorf("Pairwise(nil, nil) = %v, want empty", got)
	}
	if got := Pairwise([]Rating{Default}, []int{1}); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("one seat: %v, want one empty result list", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Pairwise with mismatched lengths did not panic")
		}
	}()
	Pairwise([]Rating{Default, Default}, []int{1})
}

func TestMatchTwoEqual(t *testing.T) {
	in := []Rating{Default, Default}
	got := Match(in, []int{2, 1}) // seat 1 wins
	if in[0] != Default || in[1] != Default {
		t.Fatalf("Match modified its input: %s %s", fields(in[0]), fields(in[1]))
	}
	winner, loser := got[1], got[0]
	t.Logf("winner %s, loser %s", fields(winner), fields(loser))
	up, down := winner.R-1500, 1500-loser.R
	if up <= 0 || down <= 0 {
		t.Fatalf("winner %v should go up and loser %v down", winner.R, loser.R)
	}
	if !near(up, down, 1e-9) {
		t.Errorf("winner gained %v, loser lost %v: want equal", up, down)
	}
	if winner.RD >= 350 || loser.RD >= 350 || !near(winner.RD, loser.RD, 1e-9) {
		t.Errorf("RDs %v and %v: want both equal and below 350", winner.RD, loser.RD)
	}

	// A draw between equals changes no rating but still shrinks RD.
	d := Match([]Rating{Default, Default}, []int{1, 1})
	for i, r := range d {
		if !near(r.R, 1500, 1e-9) || r.RD >= 350 {
			t.Errorf("draw seat %d = %s, want R 1500 and RD below 350", i, fields(r))
		}
	}
}

func TestMatchThreePlayers(t *testing.T) {
	in := []Rating{{1500, 200, 0.06}, {1600, 150, 0.06}, {1400, 300, 0.06}}
	ranks := []int{2, 3, 1} // seat 2 wins, seat 0 second, seat 1 last
	got := Match(in, ranks)
	if len(got) != 3 {
		t.Fatalf("got %d ratings, want 3", len(got))
	}
	results := Pairwise(in, ranks)
	for i := range in {
		// Match is exactly Update against the pre-match ratings of the others.
		if want := Update(in[i], results[i]); got[i] != want {
			t.Errorf("seat %d = %s, want %s", i, fields(got[i]), fields(want))
		}
		if got[i].RD >= in[i].RD {
			t.Errorf("seat %d RD %v did not shrink from %v", i, got[i].RD, in[i].RD)
		}
	}
	if got[2].R <= in[2].R {
		t.Errorf("winner %v did not gain from %v", got[2].R, in[2].R)
	}
	if got[1].R >= in[1].R {
		t.Errorf("last place %v did not lose from %v", got[1].R, in[1].R)
	}
	// The lowest-rated, most uncertain player won: the biggest gain.
	if g2, g0 := got[2].R-in[2].R, got[0].R-in[0].R; g2 <= g0 {
		t.Errorf("winner gained %v, second place %v: want the winner's gain larger", g2, g0)
	}
	// Seat 0 beat a 1600 and lost to a 1400 with a high RD: it should barely move down or up,
	// certainly much less than the other two.
	if d := math.Abs(got[0].R - in[0].R); d >= math.Abs(got[2].R-in[2].R) || d >= math.Abs(got[1].R-in[1].R) {
		t.Errorf("second place moved %v, more than winner or loser", d)
	}
}

func TestProvisional(t *testing.T) {
	if !Default.Provisional() {
		t.Error("Default is not provisional")
	}
	if (Rating{1500, ProvisionalRD, 0.06}).Provisional() {
		t.Error("RD exactly ProvisionalRD is provisional")
	}
	if !(Rating{1500, ProvisionalRD + 0.001, 0.06}).Provisional() {
		t.Error("RD just above ProvisionalRD is not provisional")
	}

	// A new player playing established opponents, one game per period, alternating wins and
	// losses, stops being provisional after several games.
	p := Default
	opp := Rating{1500, 60, 0.06}
	games := 0
	for p.Provisional() {
		if games == 50 {
			t.Fatalf("still provisional after %d games: %s", games, fields(p))
		}
		p = Update(p, []Result{{Opponent: opp, Score: float64(games % 2)}})
		games++
	}
	t.Logf("provisional for %d games, then %s (%v)", games, fields(p), p)
	if games < 3 {
		t.Errorf("stopped being provisional after only %d games", games)
	}
	if s := p.String(); s[len(s)-1] == '?' {
		t.Errorf("String = %q, want no '?' once established", s)
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		r    Rating
		want string
	}{
		{Default, "1500?"},
		{Rating{1464.06, 151.52, 0.06}, "1464?"},
		{Rating{1464.5, 50, 0.06}, "1465"},
		{Rating{1463.49, 110, 0.06}, "1463"},
		{Rating{-0.3, 50, 0.06}, "0"},
		{Rating{2012.7, 30, 0.06}, "2013"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%s.String() = %q, want %q", fields(tc.r), got, tc.want)
		}
	}
}

// TestExtremeInputs spot-checks the guards that FuzzUpdate explores.
func TestExtremeInputs(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		r   Rating
		res []Result
	}{
		{Rating{nan, nan, nan}, nil},
		{Rating{inf, -inf, inf}, []Result{{Rating{-inf, 0, 0}, 1}}},
		{Rating{1e308, 1e-308, 1e-308}, []Result{{Rating{-1e308, 1e308, 1e308}, 0}}},
		{Rating{1500, 0, 0}, []Result{{Rating{1500, 0, 0}, 1}, {Rating{1500, 0, 0}, 0}}},
		{Rating{1500, 350, 0.06}, []Result{{Default, nan}, {Default, inf}, {Default, -inf}}},
		{Rating{-5, -5, -5}, []Result{{Rating{5000, 1, 5}, 1}}},
		{Rating{1500, 350, 1e300}, []Result{{Default, 1}}},
	} {
		got := Update(tc.r, tc.res)
		checkRating(t, got, tc.r, tc.res)
	}
}

func checkRating(t *testing.T, got, in Rating, res []Result) {
	t.Helper()
	if !finite(got.R) || !finite(got.RD) || !finite(got.Vol) {
		t.Fatalf("Update(%s, %s) = %s: not finite", fields(in), resultsString(res), fields(got))
	}
	if !(got.RD > 0 && got.RD <= 350) {
		t.Fatalf("Update(%s, %s) = %s: RD out of (0, 350]", fields(in), resultsString(res), fields(got))
	}
	if !(got.Vol > 0) {
		t.Fatalf("Update(%s, %s) = %s: Vol not positive", fields(in), resultsString(res), fields(got))
	}
}

func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 0.06, 1.0, 1550.0, 100.0, 0.06, 0.0)
	f.Add(1500.0, 350.0, 0.06, 1500.0, 350.0, 0.06, 0.5, 1500.0, 350.0, 0.06, 0.5)
	f.Add(1e308, 1e-308, 0.0, -1e308, 1e308, 1e308, 1.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(math.NaN(), math.Inf(1), math.Inf(-1), 0.0, -1.0, -1.0, 2.0, 3000.0, 1.0, 1e-9, -1.0)
	f.Fuzz(func(t *testing.T, r, rd, vol, r1, rd1, vol1, s1, r2, rd2, vol2, s2 float64) {
		in := Rating{r, rd, vol}
		for _, res := range [][]Result{
			nil,
			{{Rating{r1, rd1, vol1}, s1}},
			{{Rating{r1, rd1, vol1}, s1}, {Rating{r2, rd2, vol2}, s2}},
		} {
			got := Update(in, res)
			checkRating(t, got, in, res)
			// Updating again from the result stays in range as well.
			checkRating(t, Update(got, res), got, res)
		}
		seats := []Rating{in, {r1, rd1, vol1}, {r2, rd2, vol2}}
		results := Pairwise(seats, []int{1, 2, 2})
		for i, got := range Match(seats, []int{1, 2, 2}) {
			checkRating(t, got, seats[i], results[i])
		}
	})
}

// TestJSONKeys: a rating is written with lower-case words for keys, and read back.
func TestJSONKeys(t *testing.T) {
	r := Rating{1612.5, 80.25, 0.059}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"rating":1612.5,"deviation":80.25,"volatility":0.059}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
	var got Rating
	if err := json.Unmarshal(data, &got); err != nil || got != r {
		t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", data, got, err, r)
	}
	if err := json.Unmarshal([]byte(`{"rating":1`), &got); err == nil {
		t.Error("a broken rating was read")
	}
}
