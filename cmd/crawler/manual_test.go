package main

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/manual"
	"tse-crawler/internal/testbed/linediff"
)

// manualDate is the date of the man page, which man prints at the foot of
// each page: change it with the manual.
const manualDate = "2026-12-02"

// manPage renders the manual as the man page.
func manPage() string {
	return theManual().ManPage("cmd/crawler/manual.go and flags.go by go test ./cmd/crawler -update", manualDate, "tse-crawler "+buildinfo.Version)
}

// readmeFlags renders README's table of flags.
func readmeFlags() string {
	return theManual().FlagTable("`crawler -help-all` and the man page, `cmd/crawler/crawler.1`, explain each flag in full.")
}

// readmeExitStatus renders README's table of exit codes.
func readmeExitStatus() string {
	return theManual().ExitTable("`crawler -help-all` and the man page explain each status in full.")
}

// TestManualFlags checks that the table of flags describes each flag
// once, and that the parser takes every flag in it: all but -h, which the
// flag package answers itself.
func TestManualFlags(t *testing.T) {
	described := map[string]bool{}
	for _, f := range flags {
		if described[f.name] {
			t.Errorf("-%s is described twice", f.name)
		}
		described[f.name] = true
		if f.short == "" || f.text == "" || strings.Contains(f.short, ". ") {
			t.Errorf("-%s needs a meaning in a line, and a longer text", f.name)
		}
	}
	taken := map[string]bool{"h": true}
	new(config).flagSet().VisitAll(func(f *flag.Flag) { taken[f.Name] = true })
	if !maps.Equal(taken, described) {
		t.Errorf("the parser takes %v, the table describes %v", slices.Sorted(maps.Keys(taken)), slices.Sorted(maps.Keys(described)))
	}
}

// TestDefaults checks that every default the manual prints, in the
// -help-all text, the man page and README's table, is the value the parser gives a
// flag that is not set. Each rendering is read back as a reader sees it.
func TestDefaults(t *testing.T) {
	cfg, err := parseArgs([]string{zooSeed, "DIR", "2"})
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	h, man := theManual().Text(), manPage()
	for _, f := range flags {
		if f.entry().Default == "" {
			continue // -version, -h and -help-all are no settings
		}
		want := parsedDefault(cfg, f)
		t.Run(f.name, func(t *testing.T) {
			if got := readmeDefault(t, string(readme), f.entry().Syntax); got != want {
				t.Errorf("README.md gives the default %s, the parser %s", got, want)
			}
			// -help-all and the man page give a default only if it is a value.
			helpWant, manWant := "", ""
			if v, ok := strings.CutPrefix(want, "`"); ok {
				v = strings.TrimSuffix(v, "`")
				helpWant, manWant = "Default: "+v+".", `Default: \fB`+manual.RoffEscape(v)+`\fR.`
			}
			if got := lastDefault(helpEntry(t, h, f.entry().Syntax)); got != helpWant {
				t.Errorf("-help-all gives %q, want %q", got, helpWant)
			}
			if got := lastDefault(manEntry(t, man, f.entry().Syntax)); got != manWant {
				t.Errorf("the man page gives %q, want %q", got, manWant)
			}
		})
	}
}

// parsedDefault returns the value cfg, parsed from a command line without
// flags, has for f, as the manual would show it.
func parsedDefault(cfg *config, f flagDef) string {
	v := f.value(cfg).String()
	if f.name == "scope" {
		v = cfg.Scope().String() // with no -scope, parseArgs gives the default
	}
	switch {
	case f.arg == "" && v == "true":
		return "on"
	case f.arg == "" && v == "false":
		return "off"
	case v == "":
		return "none"
	}
	return "`" + v + "`"
}

// readmeDefault returns the default cell of the row of README's table of
// flags that begins with syntax.
func readmeDefault(t *testing.T, readme, syntax string) string {
	t.Helper()
	start := "| " + manual.MarkdownCell("`"+syntax+"`") + " | "
	for line := range strings.Lines(readme) {
		if rest, ok := strings.CutPrefix(line, start); ok {
			cell, _, _ := strings.Cut(rest, " | ")
			return cell
		}
	}
	t.Fatalf("README.md has no row for %s", syntax)
	return ""
}

// helpEntry returns the entry for syntax in the -help-all text, its lines
// joined.
func helpEntry(t *testing.T, h, syntax string) string {
	t.Helper()
	var entry []string
	for line := range strings.Lines(h) {
		switch {
		case strings.HasPrefix(line, "  "+syntax+"\n") || strings.HasPrefix(line, "  "+syntax+" "):
			entry = append(entry, line)
		case len(entry) > 0 && strings.HasPrefix(line, "    "):
			entry = append(entry, line)
		case len(entry) > 0:
			return strings.Join(strings.Fields(strings.Join(entry, " ")), " ")
		}
	}
	t.Fatalf("-help-all does not explain %s", syntax)
	return ""
}

// manEntry returns the entry for syntax in the man page, its lines joined.
func manEntry(t *testing.T, man, syntax string) string {
	t.Helper()
	_, rest, ok := strings.Cut(man, ".TP\n"+manual.RoffTerm(syntax)+"\n")
	if !ok {
		t.Fatalf("the man page does not explain %s", syntax)
	}
	if i := strings.Index(rest, "\n."); i >= 0 {
		rest = rest[:i]
	}
	return strings.ReplaceAll(rest, "\n", " ")
}

// lastDefault returns the sentence "Default: ..." that ends an entry, or
// "" if there is none.
func lastDefault(entry string) string {
	i := strings.LastIndex(entry, "Default: ")
	if i < 0 {
		return ""
	}
	return entry[i:]
}

// TestManualExitStatus checks that the manual explains every exit status.
func TestManualExitStatus(t *testing.T) {
	var explained []string
	for _, e := range exitStatus {
		explained = append(explained, strings.Split(e.Term, ", ")...)
	}
	for _, code := range []int{exitOK, exitFailure, exitUsage, exitSeedURL, exitPageDir, exitMaxDepth, exitSeedFetch, exitResume, exitOutage, 130, 143} {
		if !slices.Contains(explained, fmt.Sprint(code)) {
			t.Errorf("exit status %d is not in the manual", code)
		}
	}
}

func TestHelpWidth(t *testing.T) {
	for i, line := range strings.Split(theManual().Text(), "\n") {
		if len(line) > 79 {
			t.Errorf("-help-all line %d is %d columns wide, more than 79: %s", i+1, len(line), line)
		}
	}
}

// checkGenerated compares a file that the manual is rendered into with
// the rendering, or with -update writes it.
func checkGenerated(t *testing.T, name, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v: run go test ./cmd/crawler -update", err)
	}
	if got != string(want) {
		t.Errorf("%s is not what cmd/crawler/manual.go renders: run go test ./cmd/crawler -update\n%s", name, linediff.First(string(want), got))
	}
}

func TestManPage(t *testing.T) {
	checkGenerated(t, "crawler.1", manPage())
}

// TestManPageRenders formats crawler.1 with the man page formatters that
// are installed, which must have nothing to say about it.
func TestManPageRenders(t *testing.T) {
	checkers := [][]string{
		{"groff", "-man", "-Tutf8", "-ww", "-z", "crawler.1"},
		{"mandoc", "-Tlint", "-Wwarning", "crawler.1"},
	}
	ran := 0
	for _, args := range checkers {
		if _, err := exec.LookPath(args[0]); err != nil {
			continue
		}
		ran++
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if ran == 0 {
		t.Skip("skipping: neither groff nor mandoc is installed")
	}
}

// The tables in README.md that are rendered from the manual, each between
// a line that begins with its marker and the marker's end line.
var readmeTables = []struct {
	name   string
	render func() string
}{
	{"flags", readmeFlags},
	{"exit-status", readmeExitStatus},
}

func TestReadme(t *testing.T) {
	var regions []region
	for _, table := range readmeTables {
		regions = append(regions, region{
			begin:   fmt.Sprintf("<!-- %s: generated from cmd/crawler/manual.go by go test ./cmd/crawler -update; do not edit -->\n", table.name),
			end:     fmt.Sprintf("<!-- /%s -->\n", table.name),
			content: "\n" + table.render() + "\n",
		})
	}
	checkRegions(t, "../../README.md", regions)
}

// A region is a part of a document that a test renders: what lies between
// a begin line and an end line.
type region struct {
	begin, end string
	content    string // what the region must hold
}

// checkRegions compares the regions of the file name with what they must
// hold, or with -update writes them.
func checkRegions(t *testing.T, name string, regions []region) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	got := data
	for _, r := range regions {
		i := bytes.Index(got, []byte(r.begin))
		j := bytes.Index(got, []byte(r.end))
		if i < 0 || j < i {
			t.Fatalf("%s lacks the lines %q and %q around a part the tests render", name, r.begin, r.end)
		}
		i += len(r.begin)
		got = slices.Concat(got[:i], []byte(r.content), got[j:])
	}
	if *update {
		if !bytes.Equal(got, data) {
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if !bytes.Equal(got, data) {
		t.Errorf("%s is not what the tests render: run go test ./cmd/crawler -update\n%s", name, linediff.First(string(data), string(got)))
	}
}

// TestManualInstalls checks that man finds and formats the page as an
// installed one, where man is installed.
func TestManualInstalls(t *testing.T) {
	if _, err := exec.LookPath("man"); err != nil {
		t.Skip("skipping: no man command")
	}
	dir := filepath.Join(t.TempDir(), "man1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crawler.1"), []byte(manPage()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("man", "-M", filepath.Dir(dir), "crawler")
	cmd.Env = append(os.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=80")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("skipping: man cannot format pages here: %v", err)
	}
	// man fills and justifies lines, so words are compared, not spaces.
	words := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"crawler - " + summary, "-delay D", "-robots=false", "EXIT STATUS", "HTTPS_PROXY", "<!-- CONTENT -->"} {
		if !strings.Contains(words, want) {
			t.Errorf("man crawler lacks %q:\n%s", want, out)
		}
	}
}
