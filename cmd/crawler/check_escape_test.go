package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileFragments are fragments full of what a terminal would obey, as
// a page writes them in a link, and as the report must show them.
var hostileFragments = []struct{ raw, shown string }{
	{"\x1b]0;pwned\x07x", `\x1b]0;pwned\x07x`}, // sets the window title
	{"\x1b[2J", `\x1b[2J`},                     // clears the screen
	{"\u009b31m", `\u009b31m`},                 // an 8-bit CSI, in UTF-8
	{"\u202egnp.exe", `\u202egnp.exe`},         // reads right to left
}

// serveHostileCheck serves a site whose seed, which it returns, links to
// a page by each of hostileFragments, none of which the page has, and to
// a page whose name holds a right-to-left override, which links to a
// page whose name holds ESC, missing.
func serveHostileCheck(t *testing.T) string {
	t.Helper()
	var links []string
	for _, f := range hostileFragments {
		links = append(links, "a.html#"+f.raw)
	}
	site := servePages(t, map[string]string{
		"/index.html":   linkPage(append(links, "\u202eb.html")...),
		"/a.html":       linkPage(),
		"/\u202eb.html": linkPage("gone\x1b[2J.html"),
	})
	return site.URL + "/index.html"
}

// TestCheckReportEscaped checks a site whose links are full of terminal
// controls, with the report written to a file, as a CI job keeps it:
// nothing in it, nor on stderr with -stats, is left for a terminal to
// obey, and each fragment is shown escaped.
func TestCheckReportEscaped(t *testing.T) {
	seed := serveHostileCheck(t)
	name := filepath.Join(t.TempDir(), "report")
	out, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"crawler", "-check", "-delay", "0", "-stats", seed}, out, &stderr, noProxy)
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr.String())
	}
	report := readFile(t, name)
	checkEscapedReport(t, seed, report)
	if bad := rawControls(stderr.Bytes()); bad != nil {
		t.Errorf("stderr holds %q raw:\n%q", bad, stderr.String())
	}
	if !strings.Contains(stderr.String(), "broken: ") || !strings.Contains(stderr.String(), hostileFragments[0].shown) {
		t.Errorf("-stats does not list the broken links, escaped:\n%q", stderr.String())
	}
}

// checkEscapedReport checks the report of a check of serveHostileCheck's
// site: each fragment shown escaped, and nothing raw.
func checkEscapedReport(t *testing.T, seed, report string) {
	t.Helper()
	a := strings.TrimSuffix(seed, "index.html") + "a.html#"
	for _, f := range hostileFragments {
		if want := a + f.shown + ": missing-fragment (fragment, 1 link)\n"; !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%q", want, report)
		}
	}
	if !strings.Contains(report, "gone%1B[2J.html: 404 (page, 1 link)") {
		t.Errorf("the report lacks the missing page:\n%q", report)
	}
	if bad := rawControls([]byte(report)); bad != nil {
		t.Errorf("the report holds %q raw:\n%q", bad, report)
	}
}
