package pagefetch_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"tse-crawler/internal/pagefetch"
)

// TestFetchRequisite: a requisite is any answer, whatever its type and
// status, read whole for its record; a redirect is returned resolved as a
// browser resolves it; a failing status is retried; robots.txt is obeyed
// before any request; a body over MaxSize fails, recorded as far as it was
// read; and the URL goes out byte for byte, as a browser sends it.
func TestFetchRequisite(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(requisiteServer(&mu, &asked))
	defer srv.Close()
	f := captureFetcher(t, nil)
	f.MaxSize = 100

	tests := []struct {
		path     string
		code     int
		ctype    string
		charset  string
		body     string
		location string
		tape     string
		err      string
	}{
		{path: "/site.css", code: 200, ctype: "text/css; charset=iso-8859-1", charset: "iso-8859-1", body: "body { background: url(bg.png) }", tape: "/site.css 200"},
		{path: "/f.woff2", code: 200, ctype: "font/woff2", body: "wOF2\x00\x01", tape: "/f.woff2 200"},
		{path: "/missing.png", code: 404, ctype: "text/html", body: strings.Repeat("x", 64<<10), tape: "/missing.png 404"},
		{path: "/moved.png", code: 302, location: srv.URL + "/img/new.png", tape: "/moved.png 302"},
		{path: "/busy.png", code: 200, body: "png", tape: "/busy.png 503, /busy.png 200"},
		{path: "/big.bin", tape: "/big.bin 200", err: "larger than the limit"},
		{path: "/no/x.png", err: "disallowed by robots.txt"},
		{path: "/a|b.js", code: 200, body: "js", tape: "/a|b.js 200"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f.MaxSize = 100
			if tt.path == "/missing.png" {
				f.MaxSize = 0 // a 404 of 64 KiB, read whole
			}
			r, err := f.FetchRequisite(t.Context(), srv.URL+tt.path)
			tape := recordingOf(r)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if r.Code != tt.code || tt.ctype != "" && (r.ContentType() != tt.ctype || r.HeaderCharset() != tt.charset) || string(r.Body) != tt.body || r.Target != tt.location {
				t.Errorf("got %d %q %q %q body of %d bytes, want %d %q %q %q body of %d bytes", r.Code, r.ContentType(), r.HeaderCharset(), r.Target, len(r.Body), tt.code, tt.ctype, tt.charset, tt.location, len(tt.body))
			}
			if got := statuses(t, tape.Exchanges); got != tt.tape {
				t.Errorf("tape: %q, want %q", got, tt.tape)
			}
			if tt.path == "/missing.png" {
				if n := tape.Exchanges[0].Response.Size(); n < 64<<10 {
					t.Errorf("the 404's record holds %d bytes: not its whole body", n)
				}
			}
			if tt.path == "/big.bin" && tape.Exchanges[0].Response.Size() >= 1<<20 {
				t.Errorf("the body over -max-size is recorded whole")
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if slices.Contains(asked, "/no/x.png") {
		t.Errorf("a requisite robots.txt disallows was requested: %v", asked)
	}
	if !slices.Contains(asked, "/a|b.js") {
		t.Errorf("the requisite's path was not sent as it is: %v", asked)
	}
	if f.WHATWG {
		t.Fatal("the test is of a fetcher in reference mode")
	}
}

// requisiteServer serves TestFetchRequisite's requisites, and appends each
// request's target to asked.
func requisiteServer(mu *sync.Mutex, asked *[]string) http.Handler {
	busy := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		*asked = append(*asked, r.RequestURI)
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /no/\n")
		case "/site.css":
			w.Header().Set("Content-Type", "text/css; charset=iso-8859-1")
			fmt.Fprint(w, "body { background: url(bg.png) }")
		case "/f.woff2":
			w.Header().Set("Content-Type", "font/woff2")
			w.Write([]byte("wOF2\x00\x01"))
		case "/missing.png":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			w.Write(bytes.Repeat([]byte("x"), 64<<10))
		case "/moved.png":
			w.Header().Set("Location", `..\img\new.png`)
			w.WriteHeader(http.StatusFound)
		case "/busy.png":
			mu.Lock()
			busy++
			again := busy == 1
			mu.Unlock()
			if again {
				http.Error(w, "later", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte("png"))
		case "/big.bin":
			w.Write(bytes.Repeat([]byte("b"), 1<<20))
		case "/a|b.js":
			w.Write([]byte("js"))
		}
	})
}

// TestFetchRequisiteUnreachable: a requisite on a host that takes no
// connection fails with an UnreachableError, as a page does.
func TestFetchRequisiteUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	f := captureFetcher(t, nil)
	f.Robots = false
	_, err := f.FetchRequisite(t.Context(), url+"/x.png")
	if _, ok := errors.AsType[*pagefetch.UnreachableError](err); !ok {
		t.Errorf("error %v, want an UnreachableError", err)
	}
}

// recordingOf returns what fetching p recorded, which is nothing for a
// nil Recording.
func recordingOf(p *pagefetch.Page) pagefetch.Recording {
	if p.Recording == nil {
		return pagefetch.Recording{}
	}
	return *p.Recording
}
