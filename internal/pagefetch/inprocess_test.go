package pagefetch_test

import (
	"cmp"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/sitefolder"
)

// answerAll is a transport that answers every request itself, with a
// page, and records what was asked: no network.
type answerAll struct {
	mu   sync.Mutex
	asks []string
}

func (a *answerAll) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	a.asks = append(a.asks, r.URL.Host+r.URL.Path)
	a.mu.Unlock()
	h := make(http.Header)
	h.Set("Content-Type", "text/html")
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: h, Body: io.NopCloser(strings.NewReader("<p>x</p>")), Request: r}, nil
}

// inDocs is a folder published at http://example.org/docs/. A path in
// Opaque may be in absolute form, "//example.org/docs/a.html".
func inDocs(u *url.URL) bool {
	p := cmp.Or(u.Opaque, u.EscapedPath())
	if rest, ok := strings.CutPrefix(p, "//"+u.Host); ok {
		p = rest
	}
	return u.Host == "example.org" && strings.HasPrefix(p, "/docs/")
}

// TestInProcessReadsNoRobots: a URL answered in-process (a folder's) has
// no robots.txt to read, and another URL, on the folder's host or
// another, still has its host's.
func TestInProcessReadsNoRobots(t *testing.T) {
	tests := []struct {
		url  string
		want []string
	}{
		{"http://example.org/docs/a.html", []string{"example.org/docs/a.html"}},
		{"http://example.org/a.html", []string{"example.org/robots.txt", "example.org/a.html"}},
		{"http://example.net/docs/a.html", []string{"example.net/robots.txt", "example.net/docs/a.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			tr := new(answerAll)
			f := newFetcher(&http.Client{Transport: tr})
			f.Robots, f.InProcess = true, inDocs
			if p := f.Refused(tt.url); p != nil {
				t.Fatalf("Refused(%s) = %+v", tt.url, p)
			}
			if _, err := f.FetchPage(t.Context(), tt.url); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tr.asks, tt.want) {
				t.Errorf("asked %q, want %q", tr.asks, tt.want)
			}
		})
	}
}

// TestInProcessUnpaced: a URL answered in-process is asked without a
// pause, whatever the Scheduler's, and starts none; the other URLs of its
// host keep the pause.
func TestInProcessUnpaced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &pagefetch.Fetcher{Client: &http.Client{Transport: new(answerAll)}, Scheduler: pagefetch.NewScheduler(time.Second, nil, 1),
			UserAgent: userAgent, InProcess: inDocs}
		tests := []struct {
			url  string
			want time.Duration
		}{
			{"http://example.org/docs/a.html", 0},
			{"http://example.org/docs/b.html", 0},
			{"http://example.org/a.html", 0},
			{"http://example.org/docs/c.html", 0},
			{"http://example.org/b.html", time.Second},
		}
		for _, tt := range tests {
			got := elapsed(func() {
				if _, err := f.FetchPage(t.Context(), tt.url); err != nil {
					t.Fatal(err)
				}
			})
			if got != tt.want {
				t.Errorf("%s waited %v, want %v", tt.url, got, tt.want)
			}
		}
	})
}

// TestInProcessNeverDown: a host answered in-process is never given up,
// whatever a request on its name sent to the network found.
func TestInProcessNeverDown(t *testing.T) {
	p := pagefetch.NewScheduler(0, nil, 1)
	p.InProcess("folder.invalid")
	for _, host := range []string{"folder.invalid", "example.org"} {
		p.MarkDown(host, errors.New("connection refused"))
	}
	if err := p.Down("folder.invalid"); err != nil {
		t.Errorf("the in-process host is down: %v", err)
	}
	if p.Down("example.org") == nil {
		t.Error("example.org is not down")
	}
}

// TestInProcessPathOfTwoSlashes: a path that begins with "//", which a
// request sends in absolute form, is the folder's by the whole path, not
// by what follows a first segment read as a host: "//x/docs/a.html" is
// not under the folder's /docs/, so it goes to the network, and its
// host's robots.txt is read first.
func TestInProcessPathOfTwoSlashes(t *testing.T) {
	folder, err := sitefolder.Open(t.TempDir(), "http://example.org/docs/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { folder.Close() })
	tests := []struct {
		url        string
		readRobots bool
	}{
		{"http://example.org//x/docs/a.html", true},
		{"http://example.org/docs//a.html", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			tr := new(answerAll)
			f := newFetcher(&http.Client{Transport: tr})
			f.Robots, f.InProcess = true, folder.Serves
			if p := f.Refused(tt.url); p != nil {
				t.Fatalf("Refused(%s) = %+v", tt.url, p)
			}
			if _, err := f.FetchPage(t.Context(), tt.url); err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(tr.asks, "example.org/robots.txt"); got != tt.readRobots {
				t.Errorf("asked %q: robots.txt read %v, want %v", tr.asks, got, tt.readRobots)
			}
		})
	}
}
