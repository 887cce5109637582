package rules

import "testing"

func TestDerivedSeed(t *testing.T) {
	seen := map[uint64]string{}
	for _, code := range []string{"ABCDE", "ABCDF", "K7QXM", ""} {
		for match := 1; match <= 3; match++ {
			s := DerivedSeed(code, match)
			if s != DerivedSeed(code, match) {
				t.Fatalf("DerivedSeed(%q, %d) is not stable", code, match)
			}
			if prev, ok := seen[s]; ok {
				t.Errorf("DerivedSeed(%q, %d) = DerivedSeed of %s", code, match, prev)
			}
			seen[s] = code
		}
	}
}
