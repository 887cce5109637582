package arcade_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The statements of docs/architecture.md that can be checked mechanically are checked here, so that
// the page stays true to the code: the list of packages, the order of the SSH middleware, every
// file it names and every Go name it writes as package.Name or package.Type.Member.

const archDoc = "docs/architecture.md"

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the text of doc from the heading that starts with heading to the next heading
// of the same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading)
	if i < 0 {
		t.Fatalf("%s has no section %q", archDoc, heading)
	}
	rest := doc[i+1:]
	level := strings.Index(heading, " ")
	end := len(rest)
	for j := strings.Index(rest, "\n#"); j >= 0; {
		k := j + 1
		hashes := len(rest[k:]) - len(strings.TrimLeft(rest[k:], "#"))
		if hashes <= level {
			end = k
			break
		}
		n := strings.Index(rest[k:], "\n#")
		if n < 0 {
			break
		}
		j = k + n
	}
	return rest[:end]
}

// modulePackages returns the module's packages, relative to its root.
func modulePackages(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/"); rel != "" {
			pkgs = append(pkgs, rel)
		}
	}
	return pkgs
}

// TestDocsPackages: the package list of docs/architecture.md (the code block of "Packages and
// their direction", one package or pattern at the start of each line) names every package of the
// module, and nothing that is not there. `<game>` stands for any game's name.
func TestDocsPackages(t *testing.T) {
	sec := section(t, readDoc(t, archDoc), "## Packages and their direction")
	start := strings.Index(sec, "```\n")
	end := strings.Index(sec[start+4:], "```")
	if start < 0 || end < 0 {
		t.Fatal("the package list is not a code block")
	}
	var listed []*regexp.Regexp
	var names []string
	sc := bufio.NewScanner(strings.NewReader(sec[start+4 : start+4+end]))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		name := strings.Fields(line)[0]
		names = append(names, name)
		re := regexp.QuoteMeta(name)
		re = strings.ReplaceAll(re, "<game>", "[a-z]+")
		listed = append(listed, regexp.MustCompile("^"+re+"(/.*)?$"))
	}
	pkgs := modulePackages(t)
	for _, p := range pkgs {
		if !slices.ContainsFunc(listed, func(re *regexp.Regexp) bool { return re.MatchString(p) }) {
			t.Errorf("package %s is not in the package list of %s", p, archDoc)
		}
	}
	for i, re := range listed {
		if slices.ContainsFunc(pkgs, re.MatchString) {
			continue
		}
		// A folder outside the module's packages (the forks, the load tool's module).
		if st, err := os.Stat(names[i]); err == nil && st.IsDir() {
			continue
		}
		t.Errorf("%s lists %s, which is neither a package nor a folder of the repository", archDoc, names[i])
	}
}

// middlewareNames maps each middleware of sshd.New, as the code writes it, to its name in the
// docs.
var middlewareNames = map[string]string{
	"recover.MiddlewareWithLogger":    "recover",
	"started":                         "started",
	"s.logging":                       "logging",
	"s.stallGuard":                    "stall",
	"ratelimiter.Middleware(limiter)": "rate",
	"commandLength":                   "length",
	"s.capacity":                      "capacity",
	"last(s.route)":                   "route",
}

// TestDocsMiddleware: the middleware of docs/architecture.md's path of a keystroke is the chain
// of sshd.New, in the order a session passes it (wish runs the listed middleware last first).
func TestDocsMiddleware(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "sshd/server.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("sshd/server.go")
	if err != nil {
		t.Fatal(err)
	}
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	var chain []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || text(call.Fun) != "wish.WithMiddleware" {
			return true
		}
		for _, arg := range call.Args {
			if rec, ok := arg.(*ast.CallExpr); ok && text(rec.Fun) == "recover.MiddlewareWithLogger" {
				chain = append(chain, "recover.MiddlewareWithLogger")
				for _, a := range rec.Args[1:] {
					chain = append(chain, text(a))
				}
			} else {
				chain = append(chain, text(arg))
			}
		}
		return false
	})
	if len(chain) == 0 {
		t.Fatal("no wish.WithMiddleware in sshd/server.go")
	}
	// A session passes recover first, then the others from the last listed to the first.
	var code []string
	for i, c := range chain {
		name, ok := middlewareNames[c]
		if !ok {
			t.Fatalf("middleware %s of sshd/server.go has no name in docs_test.go's middlewareNames", c)
		}
		if i == 0 {
			code = append(code, name)
		}
	}
	for i := len(chain) - 1; i >= 1; i-- {
		code = append(code, middlewareNames[chain[i]])
	}
	doc := section(t, readDoc(t, archDoc), "## The path of a keystroke")
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^ {3}- `([a-z]+)`").FindAllStringSubmatch(doc, -1) {
		listed = append(listed, m[1])
	}
	if !slices.Equal(listed, code) {
		t.Errorf("%s lists the middleware as %v; sshd/server.go runs %v", archDoc, listed, code)
	}
}

// TestDocsNames: every file the docs name exists, and every Go name written as `pkg.Name` or
// `pkg.Type.Member` (pkg the last element of a package's path, unique in the module, commands
// aside) is declared there, in its code or its tests.
func TestDocsNames(t *testing.T) {
	docs := []string{archDoc, "docs/operations.md", "docs/performance.md", "README.md"}
	byName := map[string][]string{}
	for _, p := range modulePackages(t) {
		if strings.HasPrefix(p, "cmd/") {
			continue // commands: `arcade.db` is a file, not a name of cmd/arcade
		}
		byName[path.Base(p)] = append(byName[path.Base(p)], p)
	}
	decls := map[string]map[string]bool{} // package dir -> "Name" and "Type.Member"
	declsOf := func(dir string) map[string]bool {
		if d, ok := decls[dir]; ok {
			return d
		}
		d := map[string]bool{}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		fset := token.NewFileSet()
		for _, name := range files { // tests too: the docs name fuzz targets
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				switch decl := decl.(type) {
				case *ast.FuncDecl:
					if decl.Recv == nil {
						d[decl.Name.Name] = true
						continue
					}
					typ := decl.Recv.List[0].Type
					if star, ok := typ.(*ast.StarExpr); ok {
						typ = star.X
					}
					if idx, ok := typ.(*ast.IndexExpr); ok {
						typ = idx.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						d[id.Name+"."+decl.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, spec := range decl.Specs {
						switch spec := spec.(type) {
						case *ast.ValueSpec:
							for _, n := range spec.Names {
								d[n.Name] = true
							}
						case *ast.TypeSpec:
							d[spec.Name.Name] = true
							var fields *ast.FieldList
							switch typ := spec.Type.(type) {
							case *ast.StructType:
								fields = typ.Fields
							case *ast.InterfaceType:
								fields = typ.Methods
							}
							if fields == nil {
								continue
							}
							for _, fl := range fields.List {
								for _, n := range fl.Names {
									d[spec.Name.Name+"."+n.Name] = true
								}
								if len(fl.Names) == 0 { // embedded
									if id, ok := fl.Type.(*ast.Ident); ok {
										d[spec.Name.Name+"."+id.Name] = true
									}
								}
							}
						}
					}
				}
			}
		}
		decls[dir] = d
		return d
	}
	code := regexp.MustCompile("`([^`\n]+)`")
	file := regexp.MustCompile(`^([a-z0-9_./-]+\.(go|sh|md|patch))(:\d+)?$`)
	goName := regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Za-z_][A-Za-z0-9_]*)(\.([A-Za-z_][A-Za-z0-9_]*))?(\(\))?$`)
	for _, name := range docs {
		doc := readDoc(t, name)
		base := filepath.Dir(name)
		for _, m := range code.FindAllStringSubmatch(doc, -1) {
			s := m[1]
			if f := file.FindStringSubmatch(s); f != nil && strings.Contains(f[1], "/") {
				if _, err := os.Stat(f[1]); err != nil {
					if _, err2 := os.Stat(filepath.Join(base, f[1])); err2 != nil {
						t.Errorf("%s names %s, which does not exist", name, f[1])
					}
				}
				continue
			}
			g := goName.FindStringSubmatch(s)
			if g == nil || len(byName[g[1]]) != 1 {
				continue
			}
			want := g[2]
			if g[4] != "" {
				want += "." + g[4]
			}
			if !declsOf(byName[g[1]][0])[want] {
				t.Errorf("%s names %s, which %s does not declare", name, s, byName[g[1]][0])
			}
		}
	}
}
