package web

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
)

// The pages' templates and the static files (the style sheet, the scripts, asciinema-player and
// its licence, fetched by update-player.sh), in the binary.
//
//go:embed templates static
var assets embed.FS

// pageNames are the pages, each templates/NAME.html over base.html and parts.html.
var pageNames = []string{"home", "leaderboards", "leaderboard", "profile", "room", "match", "error"}

// parsePages parses every page's templates.
func parsePages() (map[string]*template.Template, error) {
	base, err := template.New("").ParseFS(assets, "templates/base.html", "templates/parts.html", "templates/live.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	pages := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.Must(base.Clone()).ParseFS(assets, "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// staticFiles serves the files under static/, cached for a day (their names do not change with
// their contents, so not for longer).
func staticFiles() http.Handler {
	sub, _ := fs.Sub(assets, "static")
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no listings
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
}
