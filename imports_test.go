// Package arcade_test checks the shape of the whole module.
package arcade_test

import (
	"encoding/json"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// layers maps each package (prefix) of the module to the project packages it may import. The
// direction is rules <- rooms <- session <- sshd <- cmd; sanitize (which holds the name rule) and
// rating are leaves; record (the shared vocabulary of the past) sits on rules; storage sits on
// record and is for cmd only, as is hostkeys. session/draw is what a board view needs of session (the Board interface, the
// styles); games, the catalogue, sits beside sshd: it names each game's engine (rules/<game>)
// and board view (games/<game>view), and only cmd imports it.
var layers = map[string][]string{
	"rules":          {"rules"},
	"rules/":         {"rules"},
	"sanitize":       {},
	"hostkeys":       {},
	"rating":         {},
	"record":         {"rules", "rating", "sanitize"},
	"storage":        {"rules", "rating", "record", "sanitize"},
	"rooms":          {"rules", "sanitize"},
	"session/draw":   {"rooms", "rules"},
	"session":        {"session/draw", "rooms", "rules", "record", "rating", "sanitize"},
	"games":          {"games", "session/draw", "web/webdraw", "rooms", "rules"},
	"games/":         {"session/draw", "web/webdraw", "rooms", "rules"},
	"games/gametest": {"rooms", "rules"},
	"sshd":           {"session", "rooms", "rules", "record", "sanitize", "teaframe"},
	"cluster":        {"cluster/remote", "cluster/wire", "session", "rooms", "rules", "record", "rating", "sanitize", "storage"},
	"matchlog":       {"rooms", "rules", "record", "rating", "storage"},
	"web/webdraw":    {"rooms", "rules"},
	"web":            {"web/webdraw", "session", "rooms", "rules", "record", "rating", "sanitize", "teaframe"},
	"cmd/arcade":     {"matchlog", "cluster", "cluster/natsd", "games", "web", "sshd", "session", "rooms", "rules", "record", "sanitize", "hostkeys", "storage", "metrics", "teaframe"},
	// Leaves used by the upper layers: a Bubble Tea renderer, and Prometheus metrics.
	"teaframe":            {},
	"metrics":             {},
	"cluster/natsd":       {},
	"cluster/clustertest": {},
	// Cluster mode: wire encodes snapshots and rooms' errors between nodes; remote serves a room
	// to other nodes over NATS and gives their sessions a session.Room that reaches it.
	"cluster/wire":   {"rooms", "rules"},
	"cluster/remote": {"cluster/wire", "session", "rooms", "rules"},
}

const module = "github.com/arcade/arcade"

// TestImportDirection fails when a package imports against the layering of
// docs/architecture.md, or when rules or rooms imports a package from outside the standard library
// and the project.
func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if rel == "" {
			continue
		}
		allowed, ok := allowedFor(rel)
		if !ok {
			t.Errorf("package %s has no place in the layering; add it to layers", rel)
			continue
		}
		for _, imp := range p.Imports {
			if pure(rel) && !strings.HasPrefix(imp, module+"/") && strings.Contains(imp, ".") {
				t.Errorf("%s imports %s: rules and rooms import the standard library and the project only (no UI, storage, SSH or NATS)", rel, imp)
			}
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if !permitted(rel, dep, allowed) {
				t.Errorf("%s imports %s, against the direction rules <- rooms <- session <- sshd <- cmd", rel, dep)
			}
		}
	}
}

// pure reports whether rel is one of the packages that import nothing from outside the standard
// library and the project: the engines and the room actor.
func pure(rel string) bool {
	return rel == "rules" || strings.HasPrefix(rel, "rules/") || rel == "rooms"
}

func allowedFor(rel string) ([]string, bool) {
	if a, ok := layers[rel]; ok {
		return a, true
	}
	for prefix, a := range layers {
		if strings.HasSuffix(prefix, "/") && strings.HasPrefix(rel, prefix) {
			return a, true
		}
	}
	return nil, false
}

// permitted reports whether rel may import dep: dep is one of allowed, or a package under one of
// them (rules/stonetowers under rules), except that a game may not import another game: not
// another engine (rules/<game> imports rules and its own packages only, such as
// rules/lhexicon/dict), not another board view.
func permitted(rel, dep string, allowed []string) bool {
	if strings.HasPrefix(rel, "rules/") {
		return dep == "rules" || strings.HasPrefix(dep, rel+"/")
	}
	if strings.HasPrefix(rel, "games/") && strings.HasPrefix(dep, "rules/") && strings.TrimSuffix(path.Base(rel), "view") != path.Base(dep) {
		return false
	}
	for _, a := range allowed {
		if dep == a || strings.HasPrefix(dep, a+"/") {
			return true
		}
	}
	return false
}
