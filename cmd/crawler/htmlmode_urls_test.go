package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"tse-crawler/internal/playground"
)

// A targetProxy serves a site with a handler, such as the playground's,
// and records the request target of every request it is sent, as it came
// on the wire.
type targetProxy struct {
	*httptest.Server
	mu      sync.Mutex
	targets []string
}

func newTargetProxy(t *testing.T, h http.Handler) *targetProxy {
	p := new(targetProxy)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.targets = append(p.targets, r.RequestURI)
		p.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// TestHTMLModeURLs crawls browserSite in html mode: every page is fetched
// and saved once, under the WHATWG serialization of its URL, which is what
// goes on the wire.
func TestHTMLModeURLs(t *testing.T) {
	p := newTargetProxy(t, playground.Handler(browserSite))
	dir := t.TempDir()
	const site = "http://www.example.edu"
	code, stdout, stderr := crawl(t.Context(), proxyEnv(p.URL),
		"-delay", "0", "-robots=false", "-links", "html", "-order", "bfs", "-scope", "HTTP://WWW.Example.EDU:80",
		site, dir, "2")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	want := []string{
		"1 0 " + site + "/",
		"2 1 " + site + "/a%20b.html",
		"3 1 " + site + "/caf%C3%A9.html",
		"4 1 " + site + "/dir/index.html",
		"5 1 " + site + "/y.html",
		"6 1 " + site + "/search.html?q=a%20b",
		"7 1 " + site + "/x.html",
		"8 1 " + site + "/x|y.html",
		"9 2 " + site + "/index.html",
		"10 2 " + site + "/other/x.html",
	}
	var got []string
	for _, pg := range readPages(t, dir) {
		got = append(got, fmt.Sprintf("%d %d %s", pg.id, pg.depth, pg.url))
		name := strings.TrimPrefix(pg.url, site+"/")
		name, _, _ = strings.Cut(name, "?")
		name = strings.NewReplacer("%20", " ", "%C3%A9", "é").Replace(name)
		if name == "" {
			name = "index.html"
		}
		if string(pg.html) != string(browserSite[name].Data) {
			t.Errorf("page %d (%s) is not %s", pg.id, pg.url, name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What the server was asked for, in absolute form through the proxy:
	// each page once, its path and query exactly as serialized.
	var wantTargets []string
	for _, w := range want {
		wantTargets = append(wantTargets, w[strings.LastIndexByte(w, ' ')+1:])
	}
	p.mu.Lock()
	targets := slices.Clone(p.targets)
	p.mu.Unlock()
	if !slices.Equal(targets, wantTargets) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(targets, "\n"), strings.Join(wantTargets, "\n"))
	}
	for _, line := range []string{
		" 0     Found: " + site + "/\n 0   IgnDupl: " + site + "/\n",
		" 0     Found: " + site + "/x.html\n 0   IgnDupl: " + site + "/x.html\n",
		" 0     Found: " + site + "/x.pdf\n 0  IgnExtrn: " + site + "/x.pdf\n",
		" 0     Found: http://f:b/c\n 0  IgnExtrn: http://f:b/c\n",
		" 1      Found: " + site + "/a%20b.html\n 1    IgnDupl: " + site + "/a%20b.html\n",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("the log lacks\n%s", line)
		}
	}
}
