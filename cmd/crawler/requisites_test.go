package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"tse-crawler/internal/playground"
	"tse-crawler/internal/testbed/linediff"
)

// The museum is testdata/requisites-crawl: three pages on www.example.net
// that need every kind of requisite, on their host and on cdn.example.net.
const museumSeed = "http://www.example.net/index.html"

// withMuseum serves the museum for its hosts, and h for any other.
func withMuseum(h http.Handler) http.Handler {
	museum := playground.VirtualHosts(os.DirFS(filepath.Join("..", "..", "testdata", "requisites-crawl")))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Host
		if name, _, err := net.SplitHostPort(host); err == nil {
			host = name
		}
		if strings.HasSuffix(host, ".example.net") {
			museum.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// museumRequisites are the museum's requisites, each with the status of
// its answer: every kind a page needs, a font both preloaded and in a
// stylesheet, stylesheets that import others on both hosts, one missing
// (404) and one that redirects (301, to a directory's index).
var museumRequisites = map[string]int{
	"http://www.example.net/css/site.css": 200, "http://www.example.net/favicon.ico": 200,
	"http://www.example.net/img/touch.png": 200, "http://www.example.net/site.webmanifest": 200,
	"http://www.example.net/fonts/serif.woff2": 200, "http://www.example.net/js/app.js": 200,
	"http://www.example.net/css/print.css": 200, "http://www.example.net/img/header.png": 200,
	"http://www.example.net/img/border.png": 200, "http://www.example.net/img/logo.png": 200,
	"http://www.example.net/img/logo-2x.png": 200, "http://www.example.net/img/logo-3x.png": 200,
	"http://www.example.net/img/hero.webp": 200, "http://www.example.net/img/hero.png": 200,
	"http://www.example.net/media/tour.webm": 200, "http://www.example.net/img/poster.png": 200,
	"http://www.example.net/media/tour.vtt": 200, "http://www.example.net/media/guide.ogg": 200,
	"http://www.example.net/img/missing.png": 404,
	"http://www.example.net/img/go.png":      200, "http://www.example.net/media/map.svg": 200,
	"http://www.example.net/media/plan.svg": 200, "http://www.example.net/img/stamp.png": 200,
	"http://www.example.net/exhibit": 301, "http://www.example.net/exhibit/": 200,
	"http://www.example.net/css/base.css": 200, "http://www.example.net/img/paper.png": 200,
	"http://www.example.net/img/rule.png": 200, "http://www.example.net/img/print.png": 200,
	"http://cdn.example.net/lib/theme.css": 200, "http://cdn.example.net/lib/more.css": 200,
	"http://cdn.example.net/img/button.png": 200, "http://cdn.example.net/img/dot.png": 200,
	"http://cdn.example.net/img/shared.png": 200,
}

// museumDisallowed are the requisites robots.txt disallows, never asked for.
var museumDisallowed = []string{"http://www.example.net/private/keeper.png", "http://cdn.example.net/blocked/hidden.png"}

// checkRequisitesArchived checks that each of want has exactly one
// response in caps, with its status, and that no disallowed URL has any.
func checkRequisitesArchived(t *testing.T, caps []warcCapture, want map[string]int) {
	t.Helper()
	got := make(map[string][]int)
	for _, c := range caps {
		got[c.uri] = append(got[c.uri], c.status)
	}
	for uri, status := range want {
		if !slices.Equal(got[uri], []int{status}) {
			t.Errorf("%s has responses %v in the WARC file, want one %d", uri, got[uri], status)
		}
	}
	for _, uri := range museumDisallowed {
		if len(got[uri]) > 0 {
			t.Errorf("%s, which robots.txt disallows, has responses %v", uri, got[uri])
		}
	}
}

// TestRequisitesArchive crawls the museum with -warc, one page at a time
// and four hosts at once, into a plain and a gzipped file: every page and
// every requisite has its one response, and the page directory and the
// log are byte for byte those of the crawl without -warc. With -requisites
// scope, only those in the scope are fetched; with none, only the pages.
func TestRequisitesArchive(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	base := []string{"-delay", "0", "-scope", "http://www.example.net/", museumSeed, "2"}
	plain := t.TempDir()
	code, wantLog, stderr := crawl(t.Context(), p.getenv, withDir(base, plain)...)
	if code != exitOK {
		t.Fatalf("without -warc: exit %d: %s", code, stderr)
	}
	wantDir := snapshot(t, plain)
	if len(wantDir) != 4 {
		t.Fatalf("the crawl saved %d files, want the 3 pages and .crawler", len(wantDir))
	}
	for _, tc := range []struct {
		file, parallel, requisites string
		want                       map[string]int
	}{
		{"crawl.warc", "1", "all", museumRequisites},
		{"crawl.warc.gz", "4", "all", museumRequisites},
		{"crawl.warc", "4", "scope", inScope(museumRequisites, "http://www.example.net/")},
		{"crawl.warc.gz", "1", "none", nil},
	} {
		t.Run(fmt.Sprintf("%s parallel %s requisites %s", tc.file, tc.parallel, tc.requisites), func(t *testing.T) {
			dir, out, statsFile := t.TempDir(), filepath.Join(t.TempDir(), tc.file), filepath.Join(t.TempDir(), "stats.json")
			args := append([]string{"-parallel", tc.parallel, "-requisites", tc.requisites, "-warc", out, "-stats-json", statsFile}, base...)
			code, log, stderr := crawl(t.Context(), p.getenv, withDir(args, dir)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if log != wantLog {
				t.Errorf("the log is not that of the crawl without -warc:\n%s", linediff.First(wantLog, log))
			}
			if d := sameDir(snapshot(t, dir), wantDir); d != "" {
				t.Errorf("the page directory is not that of the crawl without -warc: %s", d)
			}
			caps := checkWARC(t, out)
			sum := checkPagesArchived(t, dir, caps)
			checkRequisitesArchived(t, caps, tc.want)
			if n := strings.Count(sum, "\n"); n != 3+len(tc.want)+robotsFiles(tc.want) {
				t.Errorf("%d responses, want the 3 pages', the %d requisites' and robots.txt's:\n%s", n, len(tc.want), sum)
			}
			checkRequisiteFigures(t, statsFile, tc.want)
		})
	}
}

// inScope returns the requisites of want whose URL begins with prefix.
func inScope(want map[string]int, prefix string) map[string]int {
	in := make(map[string]int)
	for u, status := range want {
		if strings.HasPrefix(u, prefix) {
			in[u] = status
		}
	}
	return in
}

// robotsFiles returns how many robots.txt a crawl of the museum whose
// requisites are want reads: www.example.net's, and cdn.example.net's if
// any is there.
func robotsFiles(want map[string]int) int {
	for u := range want {
		if strings.HasPrefix(u, "http://cdn.") {
			return 2
		}
	}
	return 1
}

// checkRequisiteFigures checks the requisites' figures of -stats-json:
// one for each of want, none without requisites.
func checkRequisiteFigures(t *testing.T, statsFile string, want map[string]int) {
	t.Helper()
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Requisites *struct {
			Fetched, Failed, Redirects, Disallowed, Hosts int
			Bytes                                         int64
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	q := r.Requisites
	if want == nil {
		if q != nil {
			t.Errorf("-requisites none counts requisites: %s", data)
		}
		return
	}
	hosts := robotsFiles(want)
	if q == nil || q.Fetched != len(want)-2 || q.Failed != 1 || q.Redirects != 1 || q.Disallowed != hosts || q.Hosts != hosts || q.Bytes == 0 {
		t.Errorf("the requisites' figures: %s\nwant %d fetched, 1 failed, 1 redirected, %d disallowed, from %d hosts", data, len(want)-2, hosts, hosts)
	}
}

// TestRequisitesResume interrupts a crawl of the museum at every request,
// pages' and requisites' alike, and resumes it: the page directory is the
// uninterrupted crawl's, and the WARC file holds every page and every
// requisite once.
func TestRequisitesResume(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, parallel := range []string{"1", "4"} {
		args := []string{"-q", "-delay", "0", "-parallel", parallel, "-scope", "http://www.example.net/", museumSeed, "2"}
		want, steps := uninterrupted(t, p, append([]string{"-warc", filepath.Join(t.TempDir(), "whole.warc")}, args...))
		for step := int64(1); step <= steps; step++ {
			t.Run(fmt.Sprintf("parallel %s request %d", parallel, step), func(t *testing.T) {
				dir, out := t.TempDir(), filepath.Join(t.TempDir(), "crawl.warc")
				args := append([]string{"-warc", out}, args...)
				interruptAt(t, p, withDir(args, dir), step, true)
				resumeMatches(t, p, args, dir, want)
				caps := checkWARC(t, out)
				checkPagesArchived(t, dir, caps)
				checkRequisitesArchived(t, caps, museumRequisites)
			})
		}
	}
}

// TestRequisiteNeedsLoopback: with -delay under a second, a requisite on
// an address that is not loopback stops the crawl, as a page does, before
// any request to it, and the message says how to keep to the scope;
// -requisites scope then crawls.
func TestRequisiteNeedsLoopback(t *testing.T) {
	var requests atomic.Int64
	ip, srv := nonLoopbackServer(t, func(w http.ResponseWriter, r *http.Request) { requests.Add(1) })
	site := fstest.MapFS{"tse/cdn/index.html": {Data: []byte(`<link rel="stylesheet" href="` + srv.URL + `/site.css"><p>hello`)}}
	p := newProxy(t, site)
	getenv := func(name string) string {
		if name == "NO_PROXY" {
			return ip // the requisite's host is asked directly
		}
		return proxyEnv(p.URL)(name)
	}
	seed := "http://cs50tse.cs.dartmouth.edu/tse/cdn/index.html"
	code, _, stderr := crawl(t.Context(), getenv, "-delay", "0", "-warc", filepath.Join(t.TempDir(), "crawl.warc"), seed, t.TempDir(), "1")
	if code != exitFailure || !strings.Contains(stderr, "loopback") || !strings.Contains(stderr, ip) || !strings.Contains(stderr, "-requisites scope") {
		t.Errorf("exit %d, stderr %q; want %d and a message naming the rule, %s and -requisites scope", code, stderr, exitFailure, ip)
	}
	code, _, stderr = crawl(t.Context(), getenv, "-delay", "0", "-requisites", "scope", "-warc", filepath.Join(t.TempDir(), "crawl.warc"), seed, t.TempDir(), "1")
	if code != exitOK {
		t.Errorf("-requisites scope: exit %d: %s", code, stderr)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the server got %d requests, want none", n)
	}
}
