package main

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/playground"
)

// charsetSeed starts the crawl of testdata/playground/tse/charset: pages
// in windows-1252, UTF-8 with a byte order mark, UTF-16 and Shift_JIS,
// each linking to a page whose path and query are not ASCII.
const charsetSeed = "http://cs50tse.cs.dartmouth.edu/tse/charset/index.html"

// charsetTypes are the Content-Types that withCharsets gives pages of
// testdata/playground/tse/charset, which the playground serves as
// text/html: the charset of each is the only one the page has, or one its
// <meta> or byte order mark contradicts.
var charsetTypes = map[string]string{
	"/tse/charset/header-1252.html": "text/html; charset=windows-1252",
	"/tse/charset/bom.html":         "text/html; charset=windows-1252",
	"/tse/charset/header-sjis.html": `text/html; charset="Shift_JIS"`,
}

// charsetFiles are the files withCharsets serves for the pages of
// testdata/playground/tse/charset whose names are not ASCII, which the
// repository keeps out of its file names.
var charsetFiles = map[string]string{
	"/tse/charset/caf\u00e9.html": "/tse/charset/cafe.html",
	"/tse/charset/\u8868.html":    "/tse/charset/hyo.html",
}

// withCharsets serves what h serves, but gives the pages of charsetTypes
// their Content-Type, and serves the files of charsetFiles.
func withCharsets(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if file, ok := charsetFiles[r.URL.Path]; ok {
			r = r.Clone(r.Context())
			r.URL.Path, r.URL.RawPath = file, ""
		}
		if ctype, ok := charsetTypes[r.URL.Path]; ok {
			w = &typeWriter{ResponseWriter: w, ctype: ctype}
		}
		h.ServeHTTP(w, r)
	})
}

// A typeWriter sends its Content-Type, whatever the handler set.
type typeWriter struct {
	http.ResponseWriter
	ctype string
	sent  bool
}

func (w *typeWriter) WriteHeader(code int) {
	if !w.sent {
		w.sent = true
		w.Header().Set("Content-Type", w.ctype)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *typeWriter) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// TestHTMLModeCharsets crawls pages in legacy encodings in html mode: each
// is decoded as a browser decodes it, by its byte order mark, its
// Content-Type or its <meta>, and each link is requested as a browser
// requests it, its path in UTF-8 and its query in the page's encoding,
// with a character the encoding lacks as "&#N;", percent-encoded. The
// saved pages are the bytes served.
func TestHTMLModeCharsets(t *testing.T) {
	p := newTargetProxy(t, withCharsets(playground.Handler(testdataSite(t))))
	dir := t.TempDir()
	code, stdout, stderr := crawl(t.Context(), proxyEnv(p.URL),
		"-delay", "0", "-robots=false", "-links", "html", "-order", "bfs", charsetSeed, dir, "2")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	const site = "http://cs50tse.cs.dartmouth.edu/tse/charset/"
	want := []string{
		"index.html",
		"meta-1252.html", "header-1252.html", "bom.html", "utf16.html", "meta-sjis.html", "header-sjis.html",
		"caf%C3%A9.html?x=%E9&euro=%80&hyo=%26%2334920%3B", // windows-1252 by its <meta>
		"caf%C3%A9.html?x=%E9&from=header",                 // windows-1252 by its Content-Type
		"caf%C3%A9.html?x=%C3%A9&from=bom",                 // UTF-8 by its byte order mark
		"caf%C3%A9.html?x=%C3%A9&from=utf16",               // UTF-16 writes queries in UTF-8
		`%E8%A1%A8.html?k=%95\&e=%26%23233%3B`,             // Shift_JIS by its <meta>
		`%E8%A1%A8.html?k=%83\&from=header`,                // Shift_JIS by its Content-Type
	}
	p.mu.Lock()
	targets := slices.Clone(p.targets)
	p.mu.Unlock()
	var wantTargets []string
	for _, w := range want {
		wantTargets = append(wantTargets, site+w)
	}
	if !slices.Equal(targets, wantTargets) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(targets, "\n"), strings.Join(wantTargets, "\n"))
	}
	pages := readPages(t, dir)
	if len(pages) != len(want) {
		t.Fatalf("%d pages saved, want %d:\n%s", len(pages), len(want), stdout)
	}
	for i, pg := range pages {
		if pg.url != site+want[i] {
			t.Errorf("page %d is %s, want %s", pg.id, pg.url, site+want[i])
		}
		path := strings.TrimPrefix(pg.url, "http://cs50tse.cs.dartmouth.edu")
		path, _, _ = strings.Cut(path, "?")
		path = strings.NewReplacer("%C3%A9", "\u00e9", "%E8%A1%A8", "\u8868").Replace(path)
		if file, ok := charsetFiles[path]; ok {
			path = file
		}
		served, err := os.ReadFile(filepath.Join("..", "..", "testdata", "playground", path))
		if err != nil || string(pg.html) != string(served) {
			t.Errorf("page %d is not the bytes of %s as served (%v)", pg.id, path, err)
		}
	}
	if line := " 1      Found: " + site + want[11] + "\n 1      Added: " + site + want[11] + "\n"; !strings.Contains(stdout, line) {
		t.Errorf("the log lacks\n%s", line)
	}
}
