package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// readmeDependencies returns the section of README.md that lists the
// modules the crawler depends on, and the module each of its bullets
// names first, in backquotes: "- `golang.org/x/net`: why".
func readmeDependencies(t *testing.T) (section string, listed []string) {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const heading = "\n## Dependencies\n"
	_, section, ok := strings.Cut(string(data), heading)
	if !ok {
		t.Fatalf("README.md has no %q section", strings.TrimSpace(heading))
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for line := range strings.Lines(section) {
		rest, ok := strings.CutPrefix(line, "- `")
		if !ok {
			continue
		}
		path, _, ok := strings.Cut(rest, "`")
		if !ok {
			t.Fatalf("README.md's dependency %q does not close its backquote", strings.TrimSpace(line))
		}
		listed = append(listed, path)
	}
	return section, listed
}

// TestReadmeDependencies checks README's list of dependencies against
// go.mod: each module go.mod requires directly has a bullet of its own,
// each bullet names one, and each module required indirectly is named in
// the section, as brought by the module that needs it.
func TestReadmeDependencies(t *testing.T) {
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Require []struct {
			Path     string
			Indirect bool
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	section, listed := readmeDependencies(t)
	direct := make(map[string]bool)
	for _, r := range mod.Require {
		switch {
		case !r.Indirect:
			direct[r.Path] = true
			if !slices.Contains(listed, r.Path) {
				t.Errorf("go.mod requires %s, which README.md's Dependencies do not list: add a line \"- `%s`: why\"", r.Path, r.Path)
			}
		case !strings.Contains(section, "`"+r.Path+"`"):
			t.Errorf("go.mod requires %s indirectly, which README.md's Dependencies do not name: name it beside the module that brings it", r.Path)
		}
	}
	for _, path := range listed {
		if !direct[path] {
			t.Errorf("README.md's Dependencies list %s, which go.mod does not require directly", path)
		}
	}
}
