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
	"strconv"
	"strings"
	"testing"
	"time"
)

// The statements of the docs that can be checked mechanically are checked here, so that they stay
// true to the code: docs/architecture.md's list of packages and order of the SSH middleware, every
// file the docs name and every Go name they write as package.Name or package.Type.Member,
// docs/operations.md's table of flags, and README.md's commands and room keys.

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
		t.Fatalf("no section %q", heading)
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

// usageFlag is a flag as `arcade -h` prints it.
type usageFlag struct {
	variable string // "ARCADE_ADDR", or "ARCADE_NATS_EMBED=1" for a switch
	def      string // the default printed, unquoted; "" when none is (the zero value)
	usage    string
}

// arcadeFlags builds cmd/arcade and returns the flags its -h prints, by name, with no ARCADE_
// variable set (so that the defaults are the code's).
func arcadeFlags(t *testing.T) map[string]usageFlag {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "arcade")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/arcade").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/arcade: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-h")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ARCADE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, _ := cmd.CombinedOutput() // -h exits with status 2
	name := regexp.MustCompile(`^  -([a-z0-9-]+)( [a-z0-9]+)?$`)
	variable := regexp.MustCompile(`\((ARCADE_[A-Z0-9_]+(=1)?)\)`)
	def := regexp.MustCompile(` \(default (.+)\)$`)
	flags := map[string]usageFlag{}
	lines := strings.Split(string(out), "\n")
	for i := 0; i+1 < len(lines); i++ {
		m := name.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		usage := strings.TrimSpace(lines[i+1])
		f := usageFlag{usage: usage}
		if v := variable.FindAllStringSubmatch(usage, -1); v != nil {
			f.variable = v[len(v)-1][1]
		}
		if d := def.FindStringSubmatch(usage); d != nil {
			f.def = d[1]
			if u, err := strconv.Unquote(f.def); err == nil {
				f.def = u
			}
		}
		flags[m[1]] = f
		i++
	}
	if len(flags) == 0 {
		t.Fatalf("arcade -h printed no flags:\n%s", out)
	}
	return flags
}

// sameDefault reports whether a default as the docs write it is the one -h prints: the same text,
// or the same duration or number written otherwise ("30m" for 30m0s). A flag whose default -h
// does not print (its zero value) is written "off", "(none)" or "0", or in words its usage
// gives ("400" for "else 400", "the host name").
func sameDefault(doc string, f usageFlag) bool {
	doc = strings.ReplaceAll(strings.TrimSpace(doc), "`", "")
	if f.def == "" {
		if doc == "off" || doc == "(none)" || doc == "0" {
			return true
		}
		return strings.Contains(f.usage, strings.Trim(doc, "()"))
	}
	if doc == f.def {
		return true
	}
	if a, err := time.ParseDuration(doc); err == nil {
		b, err := time.ParseDuration(f.def)
		return err == nil && a == b
	}
	if a, err := strconv.ParseFloat(doc, 64); err == nil {
		b, err := strconv.ParseFloat(f.def, 64)
		return err == nil && a == b
	}
	return false
}

// TestDocsFlags: the flag table of docs/operations.md lists exactly the flags `arcade -h` prints,
// each with the ARCADE_ variable and the default -h gives it; every flag has a variable; and a
// default written beside a flag in the running text of docs/operations.md or README.md is the
// one -h gives.
func TestDocsFlags(t *testing.T) {
	const opsDoc = "docs/operations.md"
	flags := arcadeFlags(t)
	sec := section(t, readDoc(t, opsDoc), "## Flags")
	// The table is the first run of lines that start with "|": a blank line would end it, and
	// the rows after it would show as text.
	start := strings.Index(sec, "\n|")
	if start < 0 {
		t.Fatalf("the Flags section of %s has no table", opsDoc)
	}
	table, after, _ := strings.Cut(sec[start+1:], "\n\n")
	if strings.Contains(after, "\n| `--") || strings.HasPrefix(after, "| `--") {
		t.Errorf("a blank line splits the flag table of %s", opsDoc)
	}
	row := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)` \\| `([^`]*)` \\| ([^|]*) \\|")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		name, variable, def := m[1], m[2], m[3]
		if listed[name] {
			t.Errorf("%s lists --%s twice", opsDoc, name)
		}
		listed[name] = true
		f, ok := flags[name]
		if !ok {
			t.Errorf("%s lists --%s, which arcade -h does not print", opsDoc, name)
			continue
		}
		if variable != f.variable {
			t.Errorf("%s gives --%s the variable %s; arcade -h says %s", opsDoc, name, variable, f.variable)
		}
		if !sameDefault(def, f) {
			t.Errorf("%s gives --%s the default %q; arcade -h says %q (%s)", opsDoc, name, strings.TrimSpace(def), f.def, f.usage)
		}
	}
	// Defaults written in running text: "`--max-rooms` (2000)", "`--addr` (`:2222`)",
	// "`--idle-timeout` 30m".
	inText := regexp.MustCompile("`--([a-z0-9-]+)` \\(?`?([0-9:.][^\\s`,)]*)`?[,)]")
	for _, name := range []string{opsDoc, "README.md"} {
		for _, m := range inText.FindAllStringSubmatch(readDoc(t, name), -1) {
			if f, ok := flags[m[1]]; !ok {
				t.Errorf("%s names --%s, which arcade -h does not print", name, m[1])
			} else if !sameDefault(m[2], f) {
				t.Errorf("%s gives --%s the default %s; arcade -h says %q", name, m[1], m[2], f.def)
			}
		}
	}
	for name, f := range flags {
		if !listed[name] {
			t.Errorf("arcade -h prints --%s, which the flag table of %s does not list", name, opsDoc)
		}
		if f.variable == "" {
			t.Errorf("arcade -h gives --%s no ARCADE_ variable", name)
		}
	}
}

// TestDocsCommands: README.md's list of commands (the code block of "## Play") names every command
// that sshd's help names, and no other, each with `-t` where the help gives it one.
func TestDocsCommands(t *testing.T) {
	src := readDoc(t, "sshd/commands.go")
	i := strings.Index(src, "func writeHelp(")
	if i < 0 {
		t.Fatal("sshd/commands.go has no writeHelp")
	}
	help := map[string]bool{} // command -> given with -t
	for _, m := range regexp.MustCompile(`(?m)^  ssh %\[1\]s (-t )?([a-z]+)`).FindAllStringSubmatch(src[i:], -1) {
		help[m[2]] = m[1] != ""
	}
	if len(help) == 0 {
		t.Fatal("no commands found in writeHelp")
	}
	readme := map[string]bool{}
	sec := section(t, readDoc(t, "README.md"), "## Play")
	for _, m := range regexp.MustCompile(`(?m)^ssh -p 2222 (-t )?localhost ([a-z]+)`).FindAllStringSubmatch(sec, -1) {
		readme[m[2]] = m[1] != ""
	}
	for cmd, tty := range help {
		switch r, ok := readme[cmd]; {
		case !ok:
			t.Errorf("README.md's Play does not list %s, which sshd's help names", cmd)
		case r != tty:
			t.Errorf("README.md's Play gives %s -t %v; sshd's help %v", cmd, r, tty)
		}
	}
	for cmd := range readme {
		if _, ok := help[cmd]; !ok {
			t.Errorf("README.md's Play lists %s, which sshd's help does not name", cmd)
		}
	}
}

// TestDocsRoomKeys: README.md's Play section tells every key of the key grammar every room and
// board shares (session/draw/keys.go, NewKeys): a one-character key in backquotes (`R`), a named
// one (esc) as a word. Only the first key of each binding is looked for.
func TestDocsRoomKeys(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "session/draw/keys.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "NewKeys" {
			continue
		}
		ast.Inspect(fn, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "WithKeys" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok {
				if k, err := strconv.Unquote(lit.Value); err == nil {
					keys = append(keys, k)
				}
			}
			return false
		})
	}
	if len(keys) == 0 {
		t.Fatal("no keys found in session/draw/keys.go's NewKeys")
	}
	sec := section(t, readDoc(t, "README.md"), "## Play")
	for _, k := range keys {
		want := "`" + k + "`"
		if len(k) > 1 {
			want = k
		}
		if !strings.Contains(sec, want) {
			t.Errorf("README.md's Play does not tell the room's key %s", want)
		}
	}
}
