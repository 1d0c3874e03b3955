package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The picture of the packages in DESIGN.md is rendered from the imports
// themselves, so that it cannot drift from the code.
const (
	designBegin = "<!-- imports: generated from go list by go test ./cmd/crawler -update; do not edit -->\n"
	designEnd   = "<!-- /imports -->\n"
)

// modulePrefix is the module's path, which the picture leaves out.
const modulePrefix = "tse-crawler/"

// importGraph reads the module's packages and what each imports, from the
// go command: the module's own packages, and the packages of other modules
// (the standard library left out).
func importGraph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, modulePrefix+"...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := make(map[string][]string)
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], modulePrefix)
		graph[pkg] = []string{}
		for _, imp := range fields[1:] {
			switch {
			case strings.HasPrefix(imp, modulePrefix):
				graph[pkg] = append(graph[pkg], strings.TrimPrefix(imp, modulePrefix))
			case strings.Contains(strings.SplitN(imp, "/", 2)[0], "."): // a module's, not the standard library's
				graph[pkg] = append(graph[pkg], imp)
			}
		}
	}
	return graph
}

// renderImports draws the graph in layers: each package is one line, with
// what it imports, below every package that imports it, so that
// dependencies point down the page. The crawler's packages come first,
// then the test rigs of internal/testbed.
func renderImports(graph map[string][]string) string {
	layer := make(map[string]int)
	var depth func(pkg string) int
	depth = func(pkg string) int {
		if d, ok := layer[pkg]; ok {
			return d
		}
		d := 0
		for _, imp := range graph[pkg] {
			if _, ours := graph[imp]; ours {
				d = max(d, depth(imp)+1)
			}
		}
		layer[pkg] = d
		return d
	}
	short := func(p string) string { return strings.TrimPrefix(p, "internal/") }
	rig := func(p string) bool { return strings.HasPrefix(p, "internal/testbed/") || strings.HasSuffix(p, "test") }
	var pkgs []string
	width := 0
	for pkg := range graph {
		pkgs = append(pkgs, pkg)
		width = max(width, len(short(pkg)))
	}
	slices.SortFunc(pkgs, func(a, b string) int {
		if rig(a) != rig(b) {
			if rig(a) {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(depth(b), depth(a)), cmp.Compare(a, b))
	})
	var b strings.Builder
	b.WriteString("```\n")
	last := -1
	for i, pkg := range pkgs {
		if rig(pkg) && (i == 0 || !rig(pkgs[i-1])) {
			b.WriteString("\ntest rigs, which no crawler package imports:\n")
			last = -1
		} else if !rig(pkg) && depth(pkg) != last && last != -1 {
			b.WriteString("\n")
		}
		last = depth(pkg)
		var ours, theirs []string
		for _, imp := range graph[pkg] {
			if _, ok := graph[imp]; ok {
				ours = append(ours, short(imp))
			} else {
				theirs = append(theirs, imp)
			}
		}
		line := fmt.Sprintf("%-*s", width, short(pkg))
		if len(ours)+len(theirs) > 0 {
			line += " ─► " + strings.Join(append(ours, theirs...), ", ")
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

// TestDesignImports checks the picture of the packages in DESIGN.md
// against the imports, and that no crawler package imports a test rig.
func TestDesignImports(t *testing.T) {
	graph := importGraph(t)
	for pkg, imps := range graph {
		if strings.HasPrefix(pkg, "internal/testbed/") || pkg == "cmd/playground" {
			continue
		}
		for _, imp := range imps {
			if strings.HasPrefix(imp, "internal/testbed/") {
				t.Errorf("%s imports the test rig %s", pkg, imp)
			}
		}
	}
	checkRegions(t, "../../DESIGN.md", []region{{begin: designBegin, end: designEnd, content: renderImports(graph)}})
}

// TestDesignShape holds the engine to the shape DESIGN.md gives it: the
// command stays thin, at most 1,200 lines of non-test Go; no function of
// the command or of the crawl loop is longer than 60 lines, so that each
// reads at once; and no context carries data, for a context says when to
// stop and nothing else.
func TestDesignShape(t *testing.T) {
	lines := 0
	for _, f := range goFiles(t, ".") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(data, []byte("\n"))
	}
	if lines > 1200 {
		t.Errorf("cmd/crawler has %d lines of non-test Go, more than 1,200: move what is no command line into a package", lines)
	}
	for _, dir := range []string{".", "../../internal/crawler"} {
		for _, f := range goFiles(t, dir) {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 60 {
						t.Errorf("%s: %s is %d lines long, more than 60", f, fd.Name.Name, n)
					}
				}
			}
		}
	}
	for _, f := range goFiles(t, "../../internal/...") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("context.WithValue")) {
			t.Errorf("%s puts data in a context", f)
		}
	}
}

// goFiles returns the non-test Go files of dir, or of every directory
// under it if dir ends in "/...".
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	root, all := strings.CutSuffix(dir, "/...")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (!all || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
