package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// framesSite is a page whose iframe, on another host, holds an iframe on
// a third host, which holds a frameset page on a fourth, each with an
// image, and an SVG with a <use> of a sprite whose own image is in it.
var framesSite = map[string]string{
	"www.frames.test/index.html": `<iframe src="http://b.frames.test/1.html"></iframe><img src=logo.svg>`,
	"www.frames.test/logo.svg":   `<svg xmlns="http://www.w3.org/2000/svg"><use href="sprite.svg#i"/><use href="#local"/></svg>`,
	"www.frames.test/sprite.svg": `<svg xmlns="http://www.w3.org/2000/svg"><symbol id=i><image href="dot.png"/></symbol></svg>`,
	"www.frames.test/dot.png":    "png",
	"b.frames.test/1.html":       `<img src=b.png><iframe src="http://c.frames.test/2.html"></iframe>`,
	"b.frames.test/b.png":        "png",
	"c.frames.test/2.html":       `<iframe src="http://d.frames.test/3.html"></iframe>`,
	"d.frames.test/3.html":       `<frameset><frame src=4.html></frameset>`,
	"d.frames.test/4.html":       `<img src=d.png>`,
	"d.frames.test/d.png":        "png",
}

// TestFramesArchived crawls the seed alone (maxDepth 0) with -warc: the
// documents its frames show, three deep and on three more hosts, are
// archived with their own requisites, as are an SVG image's and the sprite
// it uses; the page directory holds the seed alone.
func TestFramesArchived(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := framesSite[r.URL.Host+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch filepath.Ext(r.URL.Path) {
		case ".html":
			w.Header().Set("Content-Type", "text/html")
		case ".svg":
			w.Header().Set("Content-Type", "image/svg+xml")
		case ".png":
			w.Header().Set("Content-Type", "image/png")
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "frames.warc")
	code, _, stderr := crawl(t.Context(), proxyEnv(srv.URL), "-q", "-delay", "0", "-scope", "http://www.frames.test/", "-warc", out,
		"http://www.frames.test/index.html", dir, "0")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := make(map[string]int)
	for _, c := range checkWARC(t, out) {
		if !strings.HasSuffix(c.uri, "/robots.txt") {
			got[c.uri]++
		}
	}
	for u := range framesSite {
		if got["http://"+u] != 1 {
			t.Errorf("http://%s has %d responses in the WARC file, want 1", u, got["http://"+u])
		}
	}
	if len(got) != len(framesSite) {
		t.Errorf("the WARC file has responses for %d URLs, want %d: %v", len(got), len(framesSite), got)
	}
}
