package rules

// RankByScore returns ranks for scores where higher is better: 1 for the best, and tied scores share
// a rank (competition ranking: 10, 10, 7 gives 1, 1, 3).
func RankByScore(scores []int) []int {
	ranks := make([]int, len(scores))
	for i, s := range scores {
		r := 1
		for _, t := range scores {
			if t > s {
				r++
			}
		}
		ranks[i] = r
	}
	return ranks
}
