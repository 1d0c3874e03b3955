package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"tse-crawler/internal/playground"
)

// TestEscapedDots crawls a site whose links and redirect use escaped dots
// and slashes to leave /tse/ or to reach a directory robots.txt forbids.
// The playground, like nginx, decodes the path before it resolves dot
// segments, so it would serve each of those pages: the crawler must log
// them IgnExtrn or IgnRobots and never ask for them.
func TestEscapedDots(t *testing.T) {
	site := fstest.MapFS{
		"robots.txt": {Data: []byte("User-agent: *\nDisallow: /tse/no/\n")},
		"tse/index.html": {Data: []byte(`<a href="%2e%2e/secret.html">1</a>
<a href="..%2Fsecret.html">2</a>
<a href=".%2E/secret.html">3</a>
<a href="moved.html">4</a>
<a href="x/%2e%2e/ok.html">5</a>
<a href="x/%2e%2e/no/p.html">6</a>
`)},
		"tse/ok.html":   {Data: []byte("<p>ok</p>\n")},
		"tse/no/p.html": {Data: []byte("<p>private</p>\n")},
		"secret.html":   {Data: []byte("<p>secret</p>\n")},
	}
	h := playground.Handler(site)
	var mu sync.Mutex
	var served []string // each request's path, as the playground resolves it
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served = append(served, path.Clean(r.URL.Path))
		mu.Unlock()
		if r.URL.Path == "/tse/moved.html" {
			w.Header().Set("Location", "/tse/%2e%2e/secret.html")
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	getenv := proxyEnv(srv.URL)

	const tse = "http://cs50tse.cs.dartmouth.edu/tse/"
	dir := t.TempDir()
	code, stdout, stderr := crawl(t.Context(), getenv, "-delay", "0", tse+"index.html", dir, "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	var log []string // "depth kind url", from the progress lines
	for line := range strings.Lines(stdout) {
		if f := strings.Fields(line); len(f) == 3 {
			log = append(log, fmt.Sprintf("%s %s %s", f[0], strings.TrimSuffix(f[1], ":"), f[2]))
		}
	}
	for _, want := range []string{
		"0 IgnExtrn " + tse + "%2e%2e/secret.html",
		"0 IgnExtrn " + tse + "..%2Fsecret.html",
		"0 IgnExtrn " + tse + ".%2E/secret.html",
		"1 Redirect " + tse + "moved.html",
		"1 IgnExtrn " + tse + "%2e%2e/secret.html", // the redirect's target
		"1 Fetched " + tse + "x/%2e%2e/ok.html",    // an escape that stays inside
		"1 IgnRobots " + tse + "x/%2e%2e/no/p.html",
	} {
		if !slices.Contains(log, want) {
			t.Errorf("no progress line %q in:\n%s", want, stdout)
		}
	}

	var got []string
	for _, p := range readPages(t, dir) {
		got = append(got, fmt.Sprintf("%d %d %s", p.id, p.depth, p.url))
	}
	if want := []string{"1 0 " + tse + "index.html", "2 1 " + tse + "x/%2e%2e/ok.html"}; !slices.Equal(got, want) {
		t.Errorf("pages saved:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, never := range []string{"/secret.html", "/tse/no/p.html"} {
		if slices.Contains(served, never) {
			t.Errorf("%s was requested: %q", never, served)
		}
	}
}
