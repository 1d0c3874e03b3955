package main

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

// browserSite is a site whose links name pages in ways a browser reads as
// one URL, and a server too: a space raw or escaped, a letter raw or in
// UTF-8 escapes, backslashes, a scheme with no slashes, the default port,
// no path at all. Its names are the decoded paths the server opens.
var browserSite = fstest.MapFS{
	"index.html": {Data: []byte(`<a href="a b.html">1</a> <a href="a%20b.html">2</a>
<a href="café.html">3</a> <a href="caf%C3%A9.html">4</a>
<a href="dir/index.html">5</a> <a href="http:y.html">6</a>
<a href="http://www.example.edu">7</a> <a href="search.html?q=a b">8</a>
<a href="http://www.example.edu:80/x.html">9</a> <a href="http://WWW.Example.EDU/x.html#top">10</a>
<a href="x|y.html">11</a> <a href="x.pdf">12</a> <a href="http://f:b/c">13</a>`)},
	"a b.html":       {Data: []byte(`<a href="index.html">home</a>`)},
	"café.html":      {Data: []byte(`café`)},
	"dir/index.html": {Data: []byte(`<a href="\other\x.html">x</a> <a href="..\a b.html">a b</a>`)},
	"other/x.html":   {Data: []byte(`other x`)},
	"y.html":         {Data: []byte(`y`)},
	"search.html":    {Data: []byte(`search`)},
	"x.html":         {Data: []byte(`x`)},
	"x|y.html":       {Data: []byte(`x|y`)},
	"x.pdf":          {Data: []byte(`%PDF`)},
}

// TestHTMLModeArgs checks that html mode reads the seed and the -scope
// prefixes as a browser does, and that the reference mode does not.
func TestHTMLModeArgs(t *testing.T) {
	tests := []struct {
		name  string
		args  []string // before the seed
		seed  string
		want  string // the seed as the crawl keys it
		scope string // the scope as it is matched
		code  int    // the exit status for a bad command line, or 0
		msg   string
	}{
		{"seed without a path", []string{"-links", "html", "-scope", "http://www.example.edu/"}, "http://www.example.edu", "http://www.example.edu/", "http://www.example.edu/", 0, ""},
		{"seed with the default port", []string{"-links", "html"}, "http://CS50TSE.cs.dartmouth.edu:80/tse/a b.html", "http://cs50tse.cs.dartmouth.edu/tse/a%20b.html", "http://cs50tse.cs.dartmouth.edu/tse/", 0, ""},
		{"seed with dot segments", []string{"-links", "html"}, `http://cs50tse.cs.dartmouth.edu/tse/x/%2e%2e\letters\`, "http://cs50tse.cs.dartmouth.edu/tse/letters/", "http://cs50tse.cs.dartmouth.edu/tse/", 0, ""},
		{"scope as a browser reads it", []string{"-links", "html", "-scope", "HTTP://*.Example.EDU:80"}, "http://www.example.edu/", "http://www.example.edu/", "http://*.example.edu/", 0, ""},
		{"IDNA scope and seed", []string{"-links", "html", "-scope", "http://Bücher.example/"}, "http://bücher.example/x.html", "http://xn--bcher-kva.example/x.html", "http://xn--bcher-kva.example/", 0, ""},
		{"reference scope keeps its rules", []string{"-links", "reference", "-scope", "http://www.example.edu"}, "http://www.example.edu/", "", "", exitUsage, "no path"},
		{"reference seed without a path", []string{"-links", "reference", "-scope", "http://www.example.edu/"}, "http://www.example.edu", "", "", exitSeedURL, "cannot be normalized"},
		{"seed a browser rejects", []string{"-links", "html"}, "http://f:b/", "", "", exitSeedURL, "cannot be normalized"},
		{"pdf seed", []string{"-links", "html"}, "http://cs50tse.cs.dartmouth.edu/tse/x.pdf", "", "", exitSeedURL, "cannot be normalized"},
		{"seed escaping the scope", []string{"-links", "html"}, "http://cs50tse.cs.dartmouth.edu/tse/..%2Fsecret.html", "", "", exitSeedURL, "once a server decodes"},
		{"scope a browser rejects", []string{"-links", "html", "-scope", "http://exa mple.edu/"}, "http://www.example.edu/", "", "", exitUsage, "not a URL a browser can parse"},
		{"scope with a query", []string{"-links", "html", "-scope", "http://example.edu/?q"}, "http://example.edu/", "", "", exitUsage, "query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseArgs(append(slices.Clone(tt.args), tt.seed, "dir", "1"))
			if tt.code != 0 {
				ue, ok := err.(*usageError)
				if !ok || ue.code != tt.code || !strings.Contains(ue.msg, tt.msg) {
					t.Errorf("parseArgs error %v, want exit %d saying %q", err, tt.code, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseArgs: %v", err)
			}
			if cfg.Seed != tt.want || cfg.Scope().String() != tt.scope {
				t.Errorf("seed %q, scope %q, want %q, %q", cfg.Seed, cfg.Scope(), tt.want, tt.scope)
			}
		})
	}
}

// TestHTMLModeResume interrupts an html-mode crawl whose seed has no path
// and resumes it: the journal holds the seed as the crawl keys it, and the
// same command line resumes the crawl, which ends as an uninterrupted one.
func TestHTMLModeResume(t *testing.T) {
	p := newStepProxy(t, browserSite)
	args := []string{"-q", "-delay", "0", "-links", "html", "-scope", "http://www.example.edu/", "http://www.example.edu", "2"}
	want, steps := uninterrupted(t, p, args)
	if steps < 5 {
		t.Fatalf("the crawl made only %d requests", steps)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	p.setHook(func(n int64, answered bool) {
		if n == 4 && answered {
			cancel(stopSignal{syscall.SIGINT})
		}
	})
	code, _, stderr := crawl(ctx, p.getenv, withDir(args, dir)...)
	p.setHook(nil)
	if code != 130 {
		t.Fatalf("interrupted crawl: exit %d, want 130: %s", code, stderr)
	}
	resumeMatches(t, p, args, dir, want)
}
