package pagefetch_test

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
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

// TestInProcessReadsNoRobots: a host answered in-process (a folder) has
// no robots.txt to read, and another host still has its own.
func TestInProcessReadsNoRobots(t *testing.T) {
	tests := []struct {
		url  string
		want []string
	}{
		{"http://folder.invalid/a.html", []string{"folder.invalid/a.html"}},
		{"http://example.org/a.html", []string{"example.org/robots.txt", "example.org/a.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			tr := new(answerAll)
			f := newFetcher(&http.Client{Transport: tr})
			f.Robots, f.InProcess = true, "folder.invalid"
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

// TestInProcessUnpaced: a host answered in-process is asked without a pause,
// whatever the Scheduler's.
func TestInProcess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		p.InProcess("folder.invalid")
		for _, tt := range []struct {
			host string
			want time.Duration
		}{{"folder.invalid", 0}, {"example.org", time.Second}} {
			wait(t, p, tt.host)
			p.Done(tt.host)
			if got := elapsed(func() { wait(t, p, tt.host) }); got != tt.want {
				t.Errorf("%s: the second request waited %v, want %v", tt.host, got, tt.want)
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
