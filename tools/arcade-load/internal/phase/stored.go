package phase

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/storage"
)

// storedMatches opens the database at path, once the server that wrote it has stopped, and
// returns every match in which one of the players sat (their key IDs, client.PlayerID), with its
// moves, by room code, oldest first. It reads through the storage package, as the server does.
func storedMatches(path string, players []string) (map[string][]record.Match, error) {
	db, err := storage.Open(path, storage.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("open the database: %w", err)
	}
	defer db.Close()
	ids := map[string]bool{}
	for _, p := range players {
		prof, err := db.Profile(p, 1<<30)
		if err != nil {
			return nil, fmt.Errorf("matches of %s: %w", p, err)
		}
		for _, m := range prof.Recent {
			ids[m.ID] = true
		}
	}
	out := map[string][]record.Match{}
	for id := range ids {
		m, err := db.Match(id)
		if err != nil {
			return nil, fmt.Errorf("match %s: %w", id, err)
		}
		out[m.Code] = append(out[m.Code], m)
	}
	for _, ms := range out {
		slices.SortFunc(ms, func(a, b record.Match) int { return strings.Compare(a.ID, b.ID) })
	}
	return out, nil
}
