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
	"tse-crawler/internal/testbed/linediff"
)

// manualDate is the date of the man page, which man prints at the foot of
// each page: change it with the manual.
const manualDate = "2026-12-02"

// roffEscape escapes text for roff: a backslash is \e, a hyphen-minus \-
// (else groff prints a hyphen, which breaks copied flags), and quotes and
// accents the forms that copy as typed.
var roffEscape = strings.NewReplacer(`\`, `\e`, "-", `\-`, "'", `\(aq`, "`", `\(ga`, "^", `\(ha`, "~", `\(ti`)

// roff renders manual text for the man page.
func roff(s string) string {
	var b strings.Builder
	for _, sp := range spans(s) {
		t := roffEscape.Replace(sp.text)
		switch sp.kind {
		case '`':
			// A literal is one word, which no line may break.
			b.WriteString(`\fB` + strings.ReplaceAll(t, " ", `\~`) + `\fR`)
		case '*':
			b.WriteString(`\fI` + t + `\fR`)
		case '[':
			b.WriteString(`\fI` + t + `\fR in README.md`)
		default:
			b.WriteString(t)
		}
	}
	return b.String()
}

// roffLines breaks rendered roff text into source lines, for a readable
// diff of crawler.1, and guards each line that would begin with a control
// character.
func roffLines(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(wrap(s, 0, 72), "\n"), "\n") {
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			line = `\&` + line
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// roffTerm renders a flag's syntax: the name and literal values in bold,
// a placeholder in italics.
func roffTerm(syntax string) string {
	name, arg, ok := strings.Cut(syntax, " ")
	out := `\fB` + roffEscape.Replace(name) + `\fR`
	if ok {
		if strings.ToUpper(arg) == arg {
			out += ` \fI` + roffEscape.Replace(arg) + `\fR`
		} else {
			out += ` \fB` + roffEscape.Replace(arg) + `\fR`
		}
	}
	return out
}

// manPage renders the manual as a man page, in man(7) macros.
func manPage() string {
	var b strings.Builder
	b.WriteString(`.\" Generated from cmd/crawler/manual.go and flags.go by go test ./cmd/crawler -update; do not edit.` + "\n")
	fmt.Fprintf(&b, ".TH CRAWLER 1 %s \"tse-crawler %s\" \"User Commands\"\n", manualDate, buildinfo.Version)
	// No hyphenation: a hyphen added in a URL or a flag would be copied.
	b.WriteString(".nh\n")
	b.WriteString(".SH NAME\n" + roffLines(`crawler \- `+roffEscape.Replace(summary)))
	b.WriteString(".SH SYNOPSIS\n.B crawler\n[\\fIflags\\fR]\n.I seedURL pageDirectory maxDepth\n.br\n" +
		".B crawler \\-check\n[\\fIflags\\fR]\n.I seedURL\n[\\fIpageDirectory maxDepth\\fR]\n.br\n" +
		".B crawler\n\\fB\\-h\\fR | \\fB\\-help\\-all\\fR | \\fB\\-version\\fR\n")
	b.WriteString(".SH DESCRIPTION\n")
	for i, p := range description {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(roffLines(roff(p)))
	}
	list := func(entries []entry, term func(string) string) {
		for _, e := range entries {
			b.WriteString(".TP\n" + term(e.term) + "\n")
			b.WriteString(roffLines(roff(capitalize(e.text))))
		}
	}
	italic := func(t string) string { return `\fI` + roffEscape.Replace(t) + `\fR` }
	bold := func(t string) string { return `\fB` + roffEscape.Replace(t) + `\fR` }
	b.WriteString(".PP\nThe arguments are:\n")
	list(arguments, italic)
	b.WriteString(".SH OPTIONS\n")
	list(flagEntries(), roffTerm)
	b.WriteString(".SH \"EXIT STATUS\"\n")
	list(exitStatus, bold)
	b.WriteString(".SH ENVIRONMENT\n")
	list(environment, func(t string) string {
		names := strings.Split(t, ", ")
		for i, n := range names {
			names[i] = bold(n)
		}
		return strings.Join(names, ", ")
	})
	b.WriteString(".SH FILES\n")
	list(files, func(t string) string {
		dir, rest, _ := strings.Cut(t, "/")
		return italic(dir) + bold("/"+rest)
	})
	b.WriteString(".SH EXAMPLES\n" + roffExamples())
	b.WriteString(".SH \"SEE ALSO\"\n" + roffLines(roff(seeAlso)))
	return b.String()
}

// roffExamples renders the examples for the man page: each sentence, then
// its command lines as they are, indented.
func roffExamples() string {
	var b strings.Builder
	for i, ex := range examples {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(roffLines(roff(ex.text)))
		b.WriteString(".PP\n.RS 4\n.nf\n")
		for _, l := range ex.lines {
			l = roffEscape.Replace(l)
			if strings.HasPrefix(l, ".") || strings.HasPrefix(l, `\(aq`) {
				l = `\&` + l
			}
			b.WriteString(l + "\n")
		}
		b.WriteString(".fi\n.RE\n")
	}
	return b.String()
}

// markdownCell renders manual text for a cell of a Markdown table, where
// '|' ends the cell even in a `literal`.
func markdownCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// readmeFlags renders README's table of flags, a line each: the longer
// texts are for -help-all and the man page.
func readmeFlags() string {
	var b strings.Builder
	b.WriteString("| flag | default | meaning |\n|---|---|---|\n")
	for _, f := range flags {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", markdownCell("`"+f.syntax()+"`"), markdownCell(f.shownDefault()), markdownCell(f.short))
	}
	b.WriteString("\n`crawler -help-all` and the man page, `cmd/crawler/crawler.1`, explain each flag in full.\n")
	return b.String()
}

// readmeExitStatus renders README's table of exit codes.
func readmeExitStatus() string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n|---|---|\n")
	for _, e := range exitStatus {
		fmt.Fprintf(&b, "| %s | %s |\n", e.term, markdownCell(e.text))
	}
	return b.String()
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
	h, man := helpAll(), manPage()
	for _, f := range flags {
		if f.shownDefault() == "" {
			continue // -version, -h and -help-all are no settings
		}
		want := parsedDefault(cfg, f)
		t.Run(f.name, func(t *testing.T) {
			if got := readmeDefault(t, string(readme), f.syntax()); got != want {
				t.Errorf("README.md gives the default %s, the parser %s", got, want)
			}
			// -help-all and the man page give a default only if it is a value.
			helpWant, manWant := "", ""
			if v, ok := strings.CutPrefix(want, "`"); ok {
				v = strings.TrimSuffix(v, "`")
				helpWant, manWant = "Default: "+v+".", `Default: \fB`+roffEscape.Replace(v)+`\fR.`
			}
			if got := lastDefault(helpEntry(t, h, f.syntax())); got != helpWant {
				t.Errorf("-help-all gives %q, want %q", got, helpWant)
			}
			if got := lastDefault(manEntry(t, man, f.syntax())); got != manWant {
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
	start := "| " + markdownCell("`"+syntax+"`") + " | "
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
	_, rest, ok := strings.Cut(man, ".TP\n"+roffTerm(syntax)+"\n")
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
		explained = append(explained, strings.Split(e.term, ", ")...)
	}
	for _, code := range []int{exitOK, exitFailure, exitUsage, exitSeedURL, exitPageDir, exitMaxDepth, exitSeedFetch, exitResume, exitOutage, 130, 143} {
		if !slices.Contains(explained, fmt.Sprint(code)) {
			t.Errorf("exit status %d is not in the manual", code)
		}
	}
}

func TestHelpWidth(t *testing.T) {
	for i, line := range strings.Split(helpAll(), "\n") {
		if len(line) > helpWidth {
			t.Errorf("-help-all line %d is %d columns wide, more than %d: %s", i+1, len(line), helpWidth, line)
		}
	}
}

func TestSpans(t *testing.T) {
	tests := []struct {
		in                  string
		plain, roff, readme string
	}{
		{"a `-q` b", "a -q b", `a \fB\-q\fR b`, "a `-q` b"},
		{"the *seedURL*", "the seedURL", `the \fIseedURL\fR`, "the *seedURL*"},
		{"see [Usage](#usage).", `see "Usage" in README.md.`, `see \fIUsage\fR in README.md.`, "see [Usage](#usage)."},
		{"`a b` and `x|y`", "a b and x|y", `\fBa\~b\fR and \fBx|y\fR`, "`a b` and `x\\|y`"},
		{"a * b, 2*3", "a * b, 2*3", "a * b, 2*3", "a * b, 2*3"},
		{"`open", "`open", `\(gaopen`, "`open"},
		{`it's \x1b ~/x ^`, `it's \x1b ~/x ^`, `it\(aqs \ex1b \(ti/x \(ha`, `it's \x1b ~/x ^`},
	}
	for _, tt := range tests {
		if got := strings.TrimSuffix(wrap(plain(tt.in), 0, 80), "\n"); got != tt.plain {
			t.Errorf("plain(%q) = %q, want %q", tt.in, got, tt.plain)
		}
		if got := roff(tt.in); got != tt.roff {
			t.Errorf("roff(%q) = %q, want %q", tt.in, got, tt.roff)
		}
		if got := markdownCell(tt.in); got != tt.readme {
			t.Errorf("markdownCell(%q) = %q, want %q", tt.in, got, tt.readme)
		}
	}
}

func TestRoffLines(t *testing.T) {
	got := roffLines(".crawler is " + strings.Repeat("x ", 40) + ".a \\(aqb")
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			t.Errorf("roff line %q would be read as a request", line)
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
