package pagefetch_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/earlier"
	"tse-crawler/internal/warc"
)

// TestSince fetches pages that an earlier archive holds: each request
// carries the earlier answer's validators, and a 304 gives the earlier
// body, decoded, with the earlier Content-Type and the 304's other
// fields, as the server's answer; a changed page is the server's. A
// capture whose body cannot be read is asked for again without
// validators, and the page is the server's answer to that.
func TestSince(t *testing.T) {
	const lastModified = "Sat, 01 Mar 2025 12:00:00 GMT"
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("<p>zipped</p>"))
	zw.Close()
	earlierAnswers := map[string]string{
		"/same.html":    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nETag: \"v1\"\r\nLast-Modified: " + lastModified + "\r\nCache-Control: no-cache\r\nContent-Length: 14\r\n\r\n<p>earlier</p>",
		"/changed.html": "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: \"v1\"\r\nContent-Length: 14\r\n\r\n<p>earlier</p>",
		"/zipped.html":  fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nLast-Modified: %s\r\nContent-Length: %d\r\n\r\n%s", lastModified, zipped.Len(), zipped.String()),
		"/brotli.html":  "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\nETag: \"v1\"\r\nContent-Length: 4\r\n\r\n\x0b\x02\x80x",
		"/none.html":    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 14\r\n\r\n<p>earlier</p>",
	}
	var (
		mu   sync.Mutex
		seen = make(map[string][]string) // the validators of each request, by path
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path] = append(seen[r.URL.Path], r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
		mu.Unlock()
		conditional := r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != ""
		switch {
		case r.URL.Path == "/changed.html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>now</p>"))
		case conditional:
			w.Header().Set("Cache-Control", "max-age=60")
			w.Header().Set("Content-Type", "text/plain") // as a careless server may
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>whole</p>"))
		}
	}))
	t.Cleanup(srv.Close)

	path := writeEarlier(t, "earlier.warc.gz", srv.URL, earlierAnswers)
	// A record another writer wrote, dated with an offset rather than Z,
	// which a revisit record could not name.
	odd := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: \"v1\"\r\nContent-Length: 14\r\n\r\n<p>earlier</p>"
	oddPath := filepath.Join(t.TempDir(), "other.warc")
	oddRecord := fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0b0e5a1c-9c2e-4c5f-8d3a-2f1e4b6a7c80>\r\nWARC-Date: 2025-03-01T12:00:00+00:00\r\n"+
		"WARC-Target-URI: %s/odd-date.html\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", srv.URL, len(odd), odd)
	if err := os.WriteFile(oddPath, []byte(oddRecord), 0o644); err != nil {
		t.Fatal(err)
	}
	a := openEarlier(t, path, oddPath)

	f := newFetcher(loopbackClient(t))
	f.Since = a
	var warnings []string
	f.Warn = func(msg string) { warnings = append(warnings, msg) }
	tests := []struct {
		path       string
		body       string
		validators []string // of each request
		header     map[string]string
	}{
		{"/same.html", "<p>earlier</p>", []string{`"v1"|` + lastModified},
			map[string]string{"Content-Type": "text/html; charset=utf-8", "Cache-Control": "max-age=60", "Content-Length": "14", "Etag": `"v1"`}},
		{"/changed.html", "<p>now</p>", []string{`"v1"|`}, map[string]string{"Content-Type": "text/html"}},
		{"/zipped.html", "<p>zipped</p>", []string{"|" + lastModified}, map[string]string{"Content-Encoding": "", "Content-Length": "13"}},
		{"/brotli.html", "<p>whole</p>", []string{`"v1"|`, "|"}, nil},
		{"/none.html", "<p>whole</p>", []string{"|"}, nil}, // no validator to send
		{"/new.html", "<p>whole</p>", []string{"|"}, nil},
		{"/odd-date.html", "<p>whole</p>", []string{"|"}, nil}, // asked whole, so that a 304 need not be recorded
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := f.FetchPage(t.Context(), srv.URL+tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if string(p.Body) != tt.body || p.Code != http.StatusOK || p.Status != "200 OK" {
				t.Errorf("got %s %q, want 200 OK %q", p.Status, p.Body, tt.body)
			}
			for name, want := range tt.header {
				if got := p.Header.Get(name); got != want {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
			mu.Lock()
			got := seen[tt.path]
			mu.Unlock()
			if fmt.Sprint(got) != fmt.Sprint(tt.validators) {
				t.Errorf("validators sent: %q, want %q", got, tt.validators)
			}
		})
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "brotli.html is fetched again whole") ||
		!strings.Contains(warnings[1], "odd-date.html is fetched whole, since its earlier capture cannot be named in a revisit record") {
		t.Errorf("warnings: %q, want brotli.html's and odd-date.html's", warnings)
	}
}

// TestSinceNotConfirmed: a server that answers the earlier capture's
// validators with a 412, or with a 304 that names another validator than
// the capture's, has not said that the capture is current. The page is
// asked for again without validators, and the first answer is recorded
// as it came, not as a revisit of the capture. A 304 whose validator is
// the capture's, compared weakly or as a time, confirms it.
func TestSinceNotConfirmed(t *testing.T) {
	const (
		lastModified = "Sat, 01 Mar 2025 12:00:00 GMT"
		rfc850       = "Saturday, 01-Mar-25 12:00:00 GMT" // the same time
		later        = "Sun, 02 Mar 2025 12:00:00 GMT"
	)
	tests := []struct {
		path    string
		earlier string // the validators of the earlier answer, as header lines
		answer  string // the header lines of the answer to a conditional request, "412" for a 412
		body    string
		tape    string
		warning string
	}{
		{"/412.html", "ETag: \"v1\"\r\n", "412", "<p>whole</p>", "/412.html 412, /412.html 200", "it answered the validators with 412 Precondition Failed"},
		{"/other-etag.html", "ETag: \"v1\"\r\n", "ETag: \"v2\"\r\n", "<p>whole</p>", "/other-etag.html 304, /other-etag.html 200", `its 304 names the ETag "v2", not the earlier "v1"`},
		{"/other-date.html", "Last-Modified: " + lastModified + "\r\n", "Last-Modified: " + later + "\r\n", "<p>whole</p>", "/other-date.html 304, /other-date.html 200", "its 304 names the Last-Modified " + later},
		{"/weak.html", "ETag: W/\"v1\"\r\n", "ETag: \"v1\"\r\n", "<p>earlier</p>", "/weak.html 304", ""},
		{"/same-date.html", "ETag: \"v1\"\r\nLast-Modified: " + lastModified + "\r\n", "Last-Modified: " + rfc850 + "\r\n", "<p>earlier</p>", "/same-date.html 304", ""},
		{"/none.html", "ETag: \"v1\"\r\n", "", "<p>earlier</p>", "/none.html 304", ""},
		{"/unquoted.html", "ETag: \"v1\"\r\n", "ETag: v1\r\n", "<p>earlier</p>", "/unquoted.html 304", ""},
		{"/apache.html", "ETag: \"v1\"\r\n", "ETag: \"v1-gzip\"\r\n", "<p>earlier</p>", "/apache.html 304", ""},
		{"/new-etag.html", "Last-Modified: " + lastModified + "\r\n", "ETag: \"v1\"\r\nLast-Modified: " + lastModified + "\r\n", "<p>whole</p>", "/new-etag.html 304, /new-etag.html 200", `its 304 names the ETag "v1", where the earlier capture has none`},
		{"/new-date.html", "ETag: \"v1\"\r\n", "Last-Modified: " + lastModified + "\r\n", "<p>whole</p>", "/new-date.html 304, /new-date.html 200", "its 304 names the Last-Modified " + lastModified + ", where the earlier capture has none"},
		{"/apache-other.html", "ETag: \"v1\"\r\n", "ETag: \"v2-gzip\"\r\n", "<p>whole</p>", "/apache-other.html 304, /apache-other.html 200", `its 304 names the ETag "v2-gzip", not the earlier "v1"`},
	}
	answers := make(map[string]string)
	for _, tt := range tests {
		answers[tt.path] = tt.answer
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == "" && r.Header.Get("If-Modified-Since") == "" {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>whole</p>"))
			return
		}
		a := answers[r.URL.Path]
		if a == "412" {
			w.WriteHeader(http.StatusPreconditionFailed)
			return
		}
		for line := range strings.SplitSeq(strings.TrimSuffix(a, "\r\n"), "\r\n") {
			if name, value, ok := strings.Cut(line, ": "); ok {
				w.Header().Set(name, value)
			}
		}
		w.WriteHeader(http.StatusNotModified)
	}))
	t.Cleanup(srv.Close)

	captures := make(map[string]string)
	for _, tt := range tests {
		captures[tt.path] = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + tt.earlier + "Content-Length: 14\r\n\r\n<p>earlier</p>"
	}
	a := openEarlier(t, writeEarlier(t, "earlier.warc.gz", srv.URL, captures))

	f := captureFetcher(t, nil)
	f.Robots = false
	f.Since = a
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			var warnings []string
			f.Warn = func(msg string) { warnings = append(warnings, msg) }
			body, tape, err := f.FetchRecorded(t.Context(), srv.URL+tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != tt.body {
				t.Errorf("body %q, want %q", body, tt.body)
			}
			if got := statuses(t, tape.Exchanges); got != tt.tape {
				t.Errorf("tape: %s, want %s", got, tt.tape)
			}
			for i, x := range tape.Exchanges {
				// Only a 304 that confirms the capture revisits it.
				if want := tt.warning == ""; (x.Revisit != nil) != want {
					t.Errorf("exchange %d revisits %v, want a revisit: %v", i, x.Revisit, want)
				}
			}
			switch {
			case tt.warning == "" && len(warnings) != 0:
				t.Errorf("warnings %q, want none", warnings)
			case tt.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tt.path+" is fetched again whole") || !strings.Contains(warnings[0], tt.warning)):
				t.Errorf("warnings %q, want one that says %q", warnings, tt.warning)
			}
		})
	}
}

// TestSinceNoValidators: a URL whose earlier capture has neither ETag nor
// Last-Modified is asked for without validators, as any other; a 200
// with the capture's payload still revisits it, and a 304, which such a
// request does not call for, is the server's answer, not the capture,
// and revisits nothing.
func TestSinceNoValidators(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
			t.Errorf("%s asked with validators", r.URL.Path)
		}
		switch r.URL.Path {
		case "/same.html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>earlier</p>"))
		case "/changed.html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>now</p>"))
		default:
			w.WriteHeader(http.StatusNotModified)
		}
	}))
	t.Cleanup(srv.Close)
	answers := make(map[string]string)
	for _, p := range []string{"/same.html", "/changed.html", "/304.html"} {
		answers[p] = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 14\r\n\r\n<p>earlier</p>"
	}
	a := openEarlier(t, writeEarlier(t, "earlier.warc", srv.URL, answers))
	f := captureFetcher(t, nil)
	f.Robots, f.Retries = false, 0
	f.Since = a

	out := filepath.Join(t.TempDir(), "new.warc")
	nw, err := warc.Create(out, warc.Info{Software: "test/1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, body, record string // record is the WARC-Type of the answer's record
	}{
		{"/same.html", "<p>earlier</p>", "revisit"},
		{"/changed.html", "<p>now</p>", "response"},
		{"/304.html", "", "response"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			body, tape, err := f.FetchRecorded(t.Context(), srv.URL+tt.path)
			if tt.body == "" && err == nil || tt.body != "" && (err != nil || string(body) != tt.body) {
				t.Errorf("got %q, %v; want %q", body, err, tt.body)
			}
			if len(tape.Exchanges) != 1 {
				t.Fatalf("%d exchanges, want 1", len(tape.Exchanges))
			}
			if err := nw.WriteExchange(tape.Exchanges[0]); err != nil {
				t.Fatal(err)
			}
		})
	}
	if err := nw.Close(); err != nil {
		t.Fatal(err)
	}
	var types []string
	err = warc.Read(out, func(rec warc.Record, _ io.Reader) error {
		if typ := rec.Get("WARC-Type"); typ != "warcinfo" && typ != "request" {
			types = append(types, typ)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tt := range tests {
		want = append(want, tt.record)
	}
	if fmt.Sprint(types) != fmt.Sprint(want) {
		t.Errorf("records %v, want %v", types, want)
	}
}

// writeEarlier writes an earlier crawl's archive, named name in a new
// folder: for each path of site, a GET and the answer given, the whole
// HTTP response, all of one date. It returns the file's path.
func writeEarlier(t *testing.T, name, site string, answers map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := warc.Create(path, warc.Info{Software: "test/1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Sorted(maps.Keys(answers)) {
		err := w.WriteExchange(warc.Exchange{
			TargetURI: site + p,
			Date:      time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
			Request:   []byte("GET " + p + " HTTP/1.1\r\nHost: x\r\n\r\n"),
			Response:  strings.NewReader(answers[p]),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// openEarlier opens the archives at paths for -since, closed when the
// test ends.
func openEarlier(t *testing.T, paths ...string) *earlier.Archive {
	t.Helper()
	a, err := earlier.Open(t.Context(), paths...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
