package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"tse-crawler/internal/playground"
	"tse-crawler/internal/testbed/linediff"
	"tse-crawler/internal/testbed/synthsite"
)

// university is a site of three hosts that link to each other, with a
// page robots.txt disallows, missing pages and redirects across hosts
// (universityRedirects), for the crawls that fetch several hosts at once.
var university = fstest.MapFS{
	"www.example.edu/robots.txt": {Data: []byte("User-agent: *\nDisallow: /private/\n")},
	"www.example.edu/index.html": {Data: []byte(`<a href=1.html>1</a> <a href=http://ir.example.edu/>ir</a>
		<a href=http://lib.example.edu/a.html>lib</a> <a href=private/x.html>x</a> <a href=moved.html>moved</a> <a href=gone.html>gone</a>`)},
	"www.example.edu/1.html":         {Data: []byte(`<a href=2.html>2</a> <a href=http://ir.example.edu/p2.html>p2</a> <a href=http://lib.example.edu/c.html>c</a>`)},
	"www.example.edu/2.html":         {Data: []byte(`<a href=index.html>home</a> <a href=http://lib.example.edu/d.html>d</a> <a href=http://ir.example.edu/p3.html>p3</a>`)},
	"www.example.edu/private/x.html": {Data: []byte(`private`)},
	"ir.example.edu/index.html":      {Data: []byte(`<a href=p1.html>p1</a> <a href=p2.html>p2</a> <a href=http://www.example.edu/2.html>w2</a>`)},
	"ir.example.edu/p1.html":         {Data: []byte(`<a href=p2.html>p2</a> <a href=http://lib.example.edu/b.html>b</a> <a href=jump.html>jump</a>`)},
	"ir.example.edu/p2.html":         {Data: []byte(`<a href=p3.html>p3</a> <a href=missing.html>missing</a>`)},
	"ir.example.edu/p3.html":         {Data: []byte(`<a href=p4.html>p4</a> <a href=http://www.example.edu/1.html>w1</a>`)},
	"ir.example.edu/p4.html":         {Data: []byte(`the end of ir`)},
	"lib.example.edu/robots.txt":     {Data: []byte("User-agent: *\nDisallow: /d\n")},
	"lib.example.edu/a.html":         {Data: []byte(`<a href=b.html>b</a> <a href=c.html>c</a> <a href=d.html>d</a>`)},
	"lib.example.edu/b.html":         {Data: []byte(`<a href=c.html>c</a> <a href=e.html>e</a> <a href=http://ir.example.edu/p4.html>p4</a>`)},
	"lib.example.edu/c.html":         {Data: []byte(`<a href=a.html>a</a> <a href=http://www.example.edu/1.html>w1</a>`)},
	"lib.example.edu/e.html":         {Data: []byte(`the end of lib`)},
}

// universityRedirects are the redirects of university, across hosts.
var universityRedirects = map[string]string{
	"www.example.edu/moved.html": "http://lib.example.edu/e.html",
	"ir.example.edu/jump.html":   "http://www.example.edu/private/x.html",
}

const universitySeed = "http://www.example.edu/index.html"

// withUniversity serves university for its hosts, and h for any other.
func withUniversity(h http.Handler) http.Handler {
	uni := playground.VirtualHosts(university)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Host
		if name, _, err := net.SplitHostPort(host); err == nil {
			host = name
		}
		if !strings.HasSuffix(host, ".example.edu") {
			h.ServeHTTP(w, r)
			return
		}
		if to, ok := universityRedirects[host+r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		uni.ServeHTTP(w, r)
	})
}

// A parallelRun is what a crawl leaves that must not depend on -parallel.
type parallelRun struct {
	dir            map[string]string
	stdout, stderr string
	stats          string // the JSON statistics, but for the times
}

// crawlAtParallel crawls through a proxy that serves h, with args (the
// directory is put before maxDepth) and -parallel n.
func crawlAtParallel(t *testing.T, h http.Handler, n int, args []string) parallelRun {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	dir := t.TempDir()
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	full := append([]string{"-delay", "0", "-stats", "-stats-json", statsFile, "-parallel", fmt.Sprint(n)}, args...)
	code, stdout, stderr := crawl(t.Context(), proxyEnv(srv.URL), withDir(full, dir)...)
	if code != exitOK {
		t.Fatalf("-parallel %d: exit %d: %s", n, code, stderr)
	}
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	for _, timing := range []string{"elapsed", "mean_pause", "shortest_pause", "ahead_peak_bytes"} {
		delete(st, timing)
	}
	for _, h := range st["hosts"].([]any) {
		delete(h.(map[string]any), "mean_pause")
	}
	again, _ := json.MarshalIndent(st, "", "  ")
	// The text statistics go to stderr: their times are left out too.
	var kept []string
	for line := range strings.Lines(stderr) {
		if before, _, ok := strings.Cut(line, ", mean pause "); ok {
			line = before + "\n" // a host's line: its requests stay
		}
		if !strings.Contains(line, "time:") && !strings.Contains(line, "ahead:") {
			kept = append(kept, line)
		}
	}
	return parallelRun{snapshot(t, dir), stdout, strings.Join(kept, ""), string(again)}
}

// TestParallelSameDirectory: the command crawls several hosts at once and
// leaves what it leaves one page at a time, for every order and scanner:
// the page directory, the log, stderr and the statistics but for times.
func TestParallelSameDirectory(t *testing.T) {
	cases := []struct {
		name string
		h    http.Handler
		args []string
	}{
		{"university", withUniversity(http.NotFoundHandler()), []string{"-scope", "http://*.example.edu/", universitySeed, "10"}},
		{"synthetic", synthsite.Site{Pages: 200, Seed: 2, Hosts: 4},
			[]string{"-scope", "http://*.synth.test/", "http://" + synthsite.Host(0) + "/tse/synth/0.html", "3"}},
	}
	for _, tc := range cases {
		for _, order := range []string{"lifo", "bfs", "priority"} {
			for _, links := range []string{"reference", "html"} {
				t.Run(fmt.Sprintf("%s %s %s", tc.name, order, links), func(t *testing.T) {
					t.Parallel()
					args := append([]string{"-order", order, "-links", links}, tc.args...)
					want := crawlAtParallel(t, tc.h, 1, args)
					for _, n := range []int{2, 4, 8} {
						got := crawlAtParallel(t, tc.h, n, args)
						if diff := sameDir(got.dir, want.dir); diff != "" {
							t.Errorf("-parallel %d: the page directory differs: %s", n, diff)
						}
						if got.stdout != want.stdout {
							t.Errorf("-parallel %d: the log differs at %s", n, linediff.First(want.stdout, got.stdout))
						}
						if got.stderr != want.stderr || got.stats != want.stats {
							t.Errorf("-parallel %d: stderr\n%s\nstatistics\n%s\nwant\n%s\n%s", n, got.stderr, got.stats, want.stderr, want.stats)
						}
					}
					if len(want.dir) < 10 || !strings.Contains(want.stderr, "hosts:") {
						t.Errorf("the crawl saved %d files, stderr:\n%s\nwant a crawl of several hosts", len(want.dir), want.stderr)
					}
				})
			}
		}
	}
}
