package pagefetch_test

// Fault injection: servers that fail, stall, lie, redirect and ration their
// robots. Timing is checked in fake time (testing/synctest) with an
// in-memory transport; what needs real sockets uses httptest servers with
// timeouts well under a second.

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
)

// A script answers each path with its steps in turn, repeating the last
// one, and records every request.
type script struct {
	mu    sync.Mutex
	paths map[string][]http.HandlerFunc
	hits  []hit
}

type hit struct {
	path string
	at   time.Time
}

func newScript() *script { return &script{paths: make(map[string][]http.HandlerFunc)} }

// on adds steps for a path ("/p.html", or "/robots.txt").
func (s *script) on(path string, steps ...http.HandlerFunc) *script {
	s.paths[path] = append(s.paths[path], steps...)
	return s
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	path := r.URL.Path
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	n := 0
	for _, h := range s.hits {
		if h.path == path {
			n++
		}
	}
	s.hits = append(s.hits, hit{path, time.Now()})
	steps := s.paths[path]
	s.mu.Unlock()
	if len(steps) == 0 {
		http.NotFound(w, r)
		return
	}
	steps[min(n, len(steps)-1)](w, r)
}

// times returns when each request for path arrived.
func (s *script) times(path string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ts []time.Time
	for _, h := range s.hits {
		if h.path == path {
			ts = append(ts, h.at)
		}
	}
	return ts
}

func (s *script) count(path string) int { return len(s.times(path)) }

// order returns the paths requested, in order.
func (s *script) order() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ps []string
	for _, h := range s.hits {
		ps = append(ps, h.path)
	}
	return ps
}

// Steps.

func page(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, body)
	}
}

func status(code int, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		fmt.Fprintf(w, "status %d", code)
	}
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, body)
	}
}

// memTransport serves a handler in memory: no sockets, so it works inside
// a synctest bubble, where the handler sees the fake clock.
type memTransport struct{ h http.Handler }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	m.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = r
	return res, nil
}

// noRedirects returns a client that leaves redirects to the fetcher, as
// pagefetch.NewClient's do.
func noRedirects(rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: rt,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// memFetcher returns a fetcher that obeys robots.txt, with the given pause
// and retries, over an in-memory site.
func memFetcher(h http.Handler, delay time.Duration, retries int) *pagefetch.Fetcher {
	return &pagefetch.Fetcher{
		Client:    noRedirects(memTransport{h}),
		Scheduler: pagefetch.NewScheduler(delay, nil, 1),
		UserAgent: "tse-crawler/9.9",
		Robots:    true,
		Retries:   retries,
		MaxSize:   10 << 20,
	}
}

const base = "http://site.test"

// gaps returns the time between successive times.
func gaps(ts []time.Time) []time.Duration {
	var ds []time.Duration
	for i := 1; i < len(ts); i++ {
		ds = append(ds, ts[i].Sub(ts[i-1]))
	}
	return ds
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name    string
		steps   []http.HandlerFunc
		retries int
		delay   time.Duration
		ok      bool
		code    int             // the StatusError's code when !ok
		gaps    []time.Duration // between the attempts, in fake time
	}{
		{
			name:    "503 twice then 200",
			steps:   []http.HandlerFunc{status(503), status(503), page("<p>ok</p>")},
			retries: 2, delay: time.Second, ok: true,
			gaps: []time.Duration{time.Second, 2 * time.Second}, // backoff from the pause, doubling
		},
		{
			name:    "503 until the retries run out",
			steps:   []http.HandlerFunc{status(503)},
			retries: 2, delay: time.Second, code: 503,
			gaps: []time.Duration{time.Second, 2 * time.Second},
		},
		{
			name:    "no retries",
			steps:   []http.HandlerFunc{status(500), page("<p>ok</p>")},
			retries: 0, delay: time.Second, code: 500,
		},
		{
			name:    "429 with Retry-After in seconds",
			steps:   []http.HandlerFunc{status(429, "Retry-After", "7"), page("<p>ok</p>")},
			retries: 2, delay: time.Second, ok: true,
			gaps: []time.Duration{7 * time.Second},
		},
		{
			name: "503 with Retry-After as an HTTP date",
			steps: []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
				// synctest's clock starts on a whole second, so the date is exact.
				w.Header().Set("Retry-After", time.Now().Add(5*time.Second).UTC().Format(http.TimeFormat))
				w.WriteHeader(503)
			}, page("<p>ok</p>")},
			retries: 2, delay: time.Second, ok: true,
			gaps: []time.Duration{5 * time.Second},
		},
		{
			name:    "Retry-After is capped at a minute",
			steps:   []http.HandlerFunc{status(503, "Retry-After", "86400"), page("<p>ok</p>")},
			retries: 2, delay: time.Second, ok: true,
			gaps: []time.Duration{time.Minute},
		},
		{
			name:    "Retry-After shorter than the backoff",
			steps:   []http.HandlerFunc{status(503), status(503, "Retry-After", "1"), page("<p>ok</p>")},
			retries: 2, delay: 3 * time.Second, ok: true,
			gaps: []time.Duration{3 * time.Second, 6 * time.Second},
		},
		{
			name:    "nonsense Retry-After is ignored",
			steps:   []http.HandlerFunc{status(503, "Retry-After", "soon"), page("<p>ok</p>")},
			retries: 2, delay: time.Second, ok: true,
			gaps: []time.Duration{time.Second},
		},
		{
			name:    "408 is retried",
			steps:   []http.HandlerFunc{status(408), page("<p>ok</p>")},
			retries: 1, delay: time.Second, ok: true,
			gaps: []time.Duration{time.Second},
		},
		{
			name:    "backoff is capped at a minute",
			steps:   []http.HandlerFunc{status(502), status(502), status(502), page("<p>ok</p>")},
			retries: 3, delay: 40 * time.Second, ok: true,
			gaps: []time.Duration{40 * time.Second, time.Minute, time.Minute},
		},
		{
			name:    "at no pause, the backoff starts at its floor",
			steps:   []http.HandlerFunc{status(503)},
			retries: 2, delay: 0, code: 503,
			gaps: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
		{
			name:    "at no pause, Retry-After still wins",
			steps:   []http.HandlerFunc{status(429, "Retry-After", "1"), status(429), page("<p>ok</p>")},
			retries: 2, delay: 0, ok: true,
			gaps: []time.Duration{time.Second, 200 * time.Millisecond},
		},
		{
			name:    "a pause above the floor is where the backoff starts",
			steps:   []http.HandlerFunc{status(503)},
			retries: 2, delay: 150 * time.Millisecond, code: 503,
			gaps: []time.Duration{150 * time.Millisecond, 300 * time.Millisecond},
		},
		{
			name:    "retries are capped",
			steps:   []http.HandlerFunc{status(503)},
			retries: 1000, delay: 0, code: 503,
			gaps: func() []time.Duration {
				var ds []time.Duration
				for i := range pagefetch.MaxRetries {
					ds = append(ds, 100*time.Millisecond<<i) // the last, 51.2s, is under the one-minute cap
				}
				return ds
			}(),
		},
		{name: "404 is not retried", steps: []http.HandlerFunc{status(404), page("x")}, retries: 2, delay: time.Second, code: 404},
		{name: "400 is not retried", steps: []http.HandlerFunc{status(400), page("x")}, retries: 2, delay: time.Second, code: 400},
		{name: "403 is not retried", steps: []http.HandlerFunc{status(403), page("x")}, retries: 2, delay: time.Second, code: 403},
		{name: "410 is not retried", steps: []http.HandlerFunc{status(410), page("x")}, retries: 2, delay: time.Second, code: 410},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript().on("/p.html", tt.steps...)
				f := memFetcher(s, tt.delay, tt.retries)
				body, err := f.Fetch(t.Context(), base+"/p.html")
				if tt.ok {
					if err != nil || string(body) != "<p>ok</p>" {
						t.Fatalf("Fetch = %q, %v; want the page", body, err)
					}
				} else {
					var se *pagefetch.StatusError
					if !errors.As(err, &se) || se.Code != tt.code {
						t.Fatalf("Fetch error = %v, want HTTP %d", err, tt.code)
					}
				}
				if got := gaps(s.times("/p.html")); !slices.Equal(got, tt.gaps) {
					t.Errorf("attempts %v apart, want %v", got, tt.gaps)
				}
				// robots.txt came first, and the pause separated it from the page.
				if order := s.order(); order[0] != "/robots.txt" {
					t.Errorf("requests %v, want robots.txt first", order)
				}
				if ts := append(s.times("/robots.txt"), s.times("/p.html")[0]); ts[1].Sub(ts[0]) != tt.delay {
					t.Errorf("first page request %v after robots.txt, want the pause %v", ts[1].Sub(ts[0]), tt.delay)
				}
			})
		})
	}
}

// TestRetryConnectionErrors uses a real server that drops the first
// connection of each request without answering.
func TestRetryConnectionErrors(t *testing.T) {
	var mu sync.Mutex
	served := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served++
		n := served
		mu.Unlock()
		if n == 1 {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		page("<p>ok</p>")(w, r)
	}))
	defer srv.Close()
	f := &pagefetch.Fetcher{
		Client:    pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 5 * time.Second}),
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		UserAgent: "tse-crawler/9.9",
		Retries:   1,
	}
	body, err := f.Fetch(t.Context(), srv.URL+"/p.html")
	if err != nil || string(body) != "<p>ok</p>" {
		t.Fatalf("Fetch = %q, %v; want the page after one retry", body, err)
	}
	// A new client, with no connection to reuse: net/http itself retries a
	// request that fails on a reused connection.
	f.Client = pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 5 * time.Second})
	f.Retries = 0
	mu.Lock()
	served = 0
	mu.Unlock()
	if _, err := f.Fetch(t.Context(), srv.URL+"/p.html"); err == nil {
		t.Errorf("Fetch with no retries succeeded over a dropped connection")
	}
}

// TestTimeoutRetried: a body that comes slower than the timeout fails the fetch,
// every attempt of it, and the crawl is never hung.
func TestTimeoutRetried(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, "<html>the start, and then nothing")
		http.NewResponseController(w).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release) // before the server is closed, which waits for its handlers
	f := &pagefetch.Fetcher{
		Client:    pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 150 * time.Millisecond}),
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		UserAgent: "tse-crawler/9.9",
		Retries:   1,
	}
	start := time.Now()
	_, err := f.Fetch(t.Context(), srv.URL+"/slow.html")
	if err == nil {
		t.Fatal("Fetch of a stalled body succeeded")
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("Fetch error = %v, want a timeout", err)
	}
	if requests != 2 {
		t.Errorf("%d requests, want 2 (a timeout is retried once)", requests)
	}
	// Expected to take two attempts of 150ms; the bound, a hundred times
	// that, leaves room for a busy machine, and the stalled body would
	// last until the test ended without the timeout.
	took := time.Since(start)
	t.Logf("Fetch took %v; expected about 300ms, two attempts of 150ms", took)
	if took > 30*time.Second {
		t.Errorf("Fetch took %v with a 150ms timeout", took)
	}
}

func TestBodies(t *testing.T) {
	html := "<html><p>a page</p></html>"
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		io.WriteString(w, s)
		w.Close()
		return b.Bytes()
	}
	zl := func(s string) []byte {
		var b bytes.Buffer
		w := zlib.NewWriter(&b)
		io.WriteString(w, s)
		w.Close()
		return b.Bytes()
	}
	raw := func(s string) []byte {
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.DefaultCompression)
		io.WriteString(w, s)
		w.Close()
		return b.Bytes()
	}
	big := strings.Repeat("x", 1001)
	tests := []struct {
		name     string
		ctype    string // "-" for none
		encoding string
		body     []byte
		chunked  bool
		maxSize  int64
		want     string // the page, or "" for a failure
		errHas   string // part of the failure's message
	}{
		{name: "text/html", ctype: "text/html", body: []byte(html), want: html},
		{name: "with a charset", ctype: "text/html; charset=ISO-8859-1", body: []byte(html), want: html},
		{name: "upper case", ctype: "TEXT/HTML", body: []byte(html), want: html},
		{name: "xhtml", ctype: "application/xhtml+xml", body: []byte(html), want: html},
		{name: "no type, sniffs as html", ctype: "-", body: []byte(html), want: html},
		{name: "no type, sniffs as text", ctype: "-", body: []byte("just words"), errHas: "not HTML"},
		{name: "plain text", ctype: "text/plain", body: []byte(html), errHas: "not HTML"},
		{name: "an image", ctype: "image/png", body: []byte("\x89PNG\r\n"), errHas: "image/png"},
		{name: "json", ctype: "application/json", body: []byte("{}"), errHas: "not HTML"},
		{name: "empty", ctype: "text/html", body: nil, errHas: "empty"},
		{name: "chunked", ctype: "text/html", body: []byte(html), chunked: true, want: html},
		{name: "gzip", ctype: "text/html", encoding: "gzip", body: gz(html), want: html},
		{name: "x-gzip", ctype: "text/html", encoding: "x-gzip", body: gz(html), want: html},
		{name: "gzip, chunked", ctype: "text/html", encoding: "gzip", body: gz(html), chunked: true, want: html},
		{name: "deflate as zlib", ctype: "text/html", encoding: "deflate", body: zl(html), want: html},
		{name: "deflate raw", ctype: "text/html", encoding: "deflate", body: raw(html), want: html},
		{name: "identity", ctype: "text/html", encoding: "identity", body: []byte(html), want: html},
		{name: "brotli is refused", ctype: "text/html", encoding: "br", body: []byte("\x1b..."), errHas: "Content-Encoding"},
		{name: "broken gzip", ctype: "text/html", encoding: "gzip", body: []byte("not gzip"), errHas: "gzip"},
		{name: "at the limit", ctype: "text/html", body: []byte(big[:1000]), maxSize: 1000, want: big[:1000]},
		{name: "over the limit", ctype: "text/html", body: []byte(big), maxSize: 1000, errHas: "larger than the limit"},
		{name: "over the limit, chunked", ctype: "text/html", body: []byte(big), chunked: true, maxSize: 1000, errHas: "larger than the limit"},
		{name: "over the limit once unzipped", ctype: "text/html", encoding: "gzip", body: gz(big), maxSize: 1000, errHas: "larger than the limit"},
		{name: "NUL bytes kept", ctype: "text/html", body: []byte("<p>a\x00b</p>"), want: "<p>a\x00b</p>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.NotFound(w, r)
					return
				}
				if tt.ctype != "-" {
					w.Header().Set("Content-Type", tt.ctype)
				} else {
					w.Header()["Content-Type"] = nil // keep net/http from sniffing one
				}
				if tt.encoding != "" {
					w.Header().Set("Content-Encoding", tt.encoding)
				}
				if tt.chunked {
					for b := range bytes.Lines(tt.body) {
						w.Write(b)
						http.NewResponseController(w).Flush()
					}
					return
				}
				w.Header().Set("Content-Length", fmt.Sprint(len(tt.body)))
				w.Write(tt.body)
			}))
			defer srv.Close()
			f := &pagefetch.Fetcher{
				Client:    pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 5 * time.Second}),
				Scheduler: pagefetch.NewScheduler(0, nil, 1),
				UserAgent: "tse-crawler/9.9",
				Robots:    true,
				MaxSize:   tt.maxSize,
			}
			body, err := f.Fetch(t.Context(), srv.URL+"/p.html")
			if tt.want != "" {
				if err != nil || string(body) != tt.want {
					t.Errorf("Fetch = %q, %v; want %q", body, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("Fetch = %q, %v; want an error saying %q", body, err, tt.errHas)
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	tests := []struct {
		code     int
		location string
		want     string // the resolved target; "" if it is not a redirect
	}{
		{301, "http://other.test/x.html", "http://other.test/x.html"},
		{302, "/tse/b.html", base + "/tse/b.html"},
		{303, "b.html", base + "/tse/b.html"},
		{307, "../up.html", base + "/up.html"},
		{308, "https://site.test/tse/a.html", "https://site.test/tse/a.html"},
		{301, "http://site.test:8080/tse/a.html", "http://site.test:8080/tse/a.html"},
		{302, "", ""},       // no Location: a failure
		{300, "b.html", ""}, // not a redirect the fetcher reports
		{304, "b.html", ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %s", tt.code, tt.location), func(t *testing.T) {
			s := newScript().on("/tse/a.html", status(tt.code, "Location", tt.location))
			f := memFetcher(s, 0, 2)
			_, err := f.Fetch(t.Context(), base+"/tse/a.html")
			var re *pagefetch.RedirectError
			if tt.want != "" {
				if !errors.As(err, &re) || re.Location != tt.want || re.Code != tt.code {
					t.Fatalf("Fetch error = %v, want a %d redirect to %s", err, tt.code, tt.want)
				}
			} else {
				var se *pagefetch.StatusError
				if !errors.As(err, &se) || se.Code != tt.code {
					t.Fatalf("Fetch error = %v, want HTTP %d", err, tt.code)
				}
			}
			if got := s.order(); len(got) != 2 {
				t.Errorf("requests %v, want robots.txt and the page only: a redirect is never followed", got)
			}
		})
	}
}

func TestRobots(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private/\nDisallow: /*?sessionid=\nAllow: /private/open.html\n"
	tests := []struct {
		name   string
		robots []http.HandlerFunc
		url    string
		// outcome: "ok", "disallowed" or "unavailable"
		outcome string
		robotsN int // robots.txt requests
	}{
		{"allowed", []http.HandlerFunc{text(rules)}, "/p.html", "ok", 1},
		{"disallowed", []http.HandlerFunc{text(rules)}, "/private/p.html", "disallowed", 1},
		{"allow wins by length", []http.HandlerFunc{text(rules)}, "/private/open.html", "ok", 1},
		{"query rule", []http.HandlerFunc{text(rules)}, "/p.html?sessionid=42", "disallowed", 1},
		{"other query", []http.HandlerFunc{text(rules)}, "/p.html?page=2", "ok", 1},
		{"404 allows all", []http.HandlerFunc{status(404)}, "/private/p.html", "ok", 1},
		{"401 allows all", []http.HandlerFunc{status(401)}, "/private/p.html", "ok", 1},
		{"403 allows all", []http.HandlerFunc{status(403)}, "/private/p.html", "ok", 1},
		{"503 forbids all", []http.HandlerFunc{status(503)}, "/p.html", "unavailable", 3},
		{"500 forbids all", []http.HandlerFunc{status(500)}, "/p.html", "unavailable", 3},
		{"429 forbids all", []http.HandlerFunc{status(429)}, "/p.html", "unavailable", 3},
		{"503 then rules", []http.HandlerFunc{status(503), text(rules)}, "/private/p.html", "disallowed", 2},
		{"a malformed file still applies", []http.HandlerFunc{text("garbage line\n\x00\xff\nUser-agent: *\nnonsense: yes\nDisallow: /private/\n:::\n")}, "/private/p.html", "disallowed", 1},
		{"our own group", []http.HandlerFunc{text("User-agent: *\nAllow: /\n\nUser-agent: TSE-Crawler\nDisallow: /\n")}, "/p.html", "disallowed", 1},
		{"another crawler's group", []http.HandlerFunc{text("User-agent: otherbot\nDisallow: /\n")}, "/p.html", "ok", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript().on("/robots.txt", tt.robots...).on(strings.SplitN(tt.url, "?", 2)[0], page("<p>ok</p>"))
				if strings.Contains(tt.url, "?") {
					s.on(tt.url, page("<p>ok</p>"))
				}
				f := memFetcher(s, time.Second, 2)
				_, err := f.Fetch(t.Context(), base+tt.url)
				switch tt.outcome {
				case "ok":
					if err != nil {
						t.Errorf("Fetch error = %v, want the page", err)
					}
				case "disallowed":
					if !errors.Is(err, pagefetch.ErrDisallowed) {
						t.Errorf("Fetch error = %v, want ErrDisallowed", err)
					}
				case "unavailable":
					if !errors.Is(err, pagefetch.ErrRobotsUnavailable) {
						t.Errorf("Fetch error = %v, want ErrRobotsUnavailable", err)
					}
				}
				if n := s.count("/robots.txt"); n != tt.robotsN {
					t.Errorf("%d robots.txt requests, want %d", n, tt.robotsN)
				}
				pages := len(s.order()) - tt.robotsN
				if want := map[bool]int{true: 1, false: 0}[tt.outcome == "ok"]; pages != want {
					t.Errorf("%d page requests, want %d: %v", pages, want, s.order())
				}
				// A second page of the host uses what was learned: no more
				// robots.txt requests, and the same answer for a forbidden host.
				_, err2 := f.Fetch(t.Context(), base+"/another.html")
				if n := s.count("/robots.txt"); n != tt.robotsN {
					t.Errorf("robots.txt fetched again for a second page: %d requests", n)
				}
				if tt.outcome == "unavailable" && !errors.Is(err2, pagefetch.ErrRobotsUnavailable) {
					t.Errorf("second page of an unavailable host: %v, want ErrRobotsUnavailable", err2)
				}
			})
		})
	}
}

func TestRobotsOff(t *testing.T) {
	s := newScript().on("/robots.txt", text("User-agent: *\nDisallow: /\n")).on("/p.html", page("<p>ok</p>"))
	f := memFetcher(s, 0, 0)
	f.Robots = false
	if _, err := f.Fetch(t.Context(), base+"/p.html"); err != nil {
		t.Fatal(err)
	}
	if got := s.order(); len(got) != 1 || got[0] != "/p.html" {
		t.Errorf("requests %v, want only the page", got)
	}
}

func TestRobotsRedirects(t *testing.T) {
	hop := func(to string) http.HandlerFunc { return status(301, "Location", to) }
	t.Run("followed", func(t *testing.T) {
		s := newScript().
			on("/robots.txt", hop("/r1")).
			on("/r1", hop("http://cdn.test/r2")). // across hosts too
			on("/r2", text("User-agent: *\nDisallow: /\n"))
		f := memFetcher(s, 0, 0)
		if _, err := f.Fetch(t.Context(), base+"/p.html"); !errors.Is(err, pagefetch.ErrDisallowed) {
			t.Errorf("Fetch error = %v, want ErrDisallowed from the redirected robots.txt", err)
		}
	})
	t.Run("five followed, the sixth is not", func(t *testing.T) {
		for _, hops := range []int{5, 6} {
			s := newScript().on("/robots.txt", hop("/r1"))
			for i := 1; i < hops; i++ {
				s.on(fmt.Sprintf("/r%d", i), hop(fmt.Sprintf("/r%d", i+1)))
			}
			s.on(fmt.Sprintf("/r%d", hops), text("User-agent: *\nDisallow: /\n")).on("/p.html", page("<p>ok</p>"))
			f := memFetcher(s, 0, 0)
			_, err := f.Fetch(t.Context(), base+"/p.html")
			if hops == 5 && !errors.Is(err, pagefetch.ErrDisallowed) {
				t.Errorf("after 5 redirects: %v, want the rules (ErrDisallowed)", err)
			}
			if hops == 6 && err != nil {
				t.Errorf("after 6 redirects: %v, want no rules, as for a missing robots.txt", err)
			}
			if n := s.count(fmt.Sprintf("/r%d", hops)); hops == 6 && n != 0 {
				t.Errorf("the sixth redirect was followed")
			}
		}
	})
}

// TestRobotsSize: only the first 500 KiB of a robots.txt are read.
func TestRobotsSize(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early/\n")
	for b.Len() < 600<<10 {
		b.WriteString("# padding padding padding padding padding padding padding padding\n")
	}
	b.WriteString("Disallow: /late/\n")
	s := newScript().on("/robots.txt", text(b.String())).on("/early/p.html", page("x")).on("/late/p.html", page("<p>late</p>"))
	f := memFetcher(s, 0, 0)
	if _, err := f.Fetch(t.Context(), base+"/early/p.html"); !errors.Is(err, pagefetch.ErrDisallowed) {
		t.Errorf("/early/: %v, want ErrDisallowed", err)
	}
	if _, err := f.Fetch(t.Context(), base+"/late/p.html"); err != nil {
		t.Errorf("/late/, ruled after 500 KiB: %v, want it allowed", err)
	}
}

// TestCrawlDelay checks in fake time that a robots.txt's Crawl-delay and
// Request-rate lengthen the pause, never shorten it, and are capped.
func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		name   string
		robots string
		delay  time.Duration
		want   time.Duration
		warns  bool
	}{
		{"Crawl-delay 5", "User-agent: *\nCrawl-delay: 5\n", time.Second, 5 * time.Second, false},
		{"Request-rate 1/10", "User-agent: *\nRequest-rate: 1/10\n", time.Second, 10 * time.Second, false},
		{"the larger of the two", "User-agent: *\nCrawl-delay: 3\nRequest-rate: 1/4\n", time.Second, 4 * time.Second, false},
		{"shorter than -delay", "User-agent: *\nCrawl-delay: 0.5\n", 2 * time.Second, 2 * time.Second, false},
		{"capped", "User-agent: *\nCrawl-delay: 120\n", time.Second, time.Minute, true},
		{"another crawler's delay", "User-agent: slowbot\nCrawl-delay: 30\n", time.Second, time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript().on("/robots.txt", text(tt.robots))
				for i := range 3 {
					s.on(fmt.Sprintf("/%d.html", i), page("<p>ok</p>"))
				}
				f := memFetcher(s, tt.delay, 0)
				var warnings []string
				f.Warn = func(msg string) { warnings = append(warnings, msg) }
				var starts []time.Time
				for i := range 3 {
					if _, err := f.Fetch(t.Context(), fmt.Sprintf("%s/%d.html", base, i)); err != nil {
						t.Fatal(err)
					}
					starts = append(starts, s.times(fmt.Sprintf("/%d.html", i))[0])
				}
				// The delay applies from robots.txt on: to the first page too.
				if got := starts[0].Sub(s.times("/robots.txt")[0]); got != tt.want {
					t.Errorf("first page %v after robots.txt, want %v", got, tt.want)
				}
				if got := gaps(starts); !slices.Equal(got, []time.Duration{tt.want, tt.want}) {
					t.Errorf("pages %v apart, want %v", got, tt.want)
				}
				if (len(warnings) > 0) != tt.warns {
					t.Errorf("warnings %q, want some: %v", warnings, tt.warns)
				}
			})
		})
	}
}

func TestHTTPS(t *testing.T) {
	srv := httptest.NewUnstartedServer(newScript().
		on("/robots.txt", text("User-agent: *\nDisallow: /no/\n")).
		on("/p.html", page("<p>secure</p>")))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below is expected
	srv.StartTLS()
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	f := &pagefetch.Fetcher{
		Client: pagefetch.NewClient(pagefetch.ClientOptions{
			LoopbackOnly: true, Timeout: 5 * time.Second, TLS: &tls.Config{RootCAs: roots},
		}),
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		UserAgent: "tse-crawler/9.9",
		Robots:    true,
	}
	body, err := f.Fetch(t.Context(), srv.URL+"/p.html")
	if err != nil || string(body) != "<p>secure</p>" {
		t.Errorf("Fetch over https = %q, %v", body, err)
	}
	if _, err := f.Fetch(t.Context(), srv.URL+"/no/p.html"); !errors.Is(err, pagefetch.ErrDisallowed) {
		t.Errorf("robots.txt over https not obeyed: %v", err)
	}
	// A certificate nobody vouches for is an error, and not retried.
	f2 := &pagefetch.Fetcher{
		Client:    pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 5 * time.Second}),
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		UserAgent: "tse-crawler/9.9",
		Retries:   3,
	}
	if _, err := f2.Fetch(t.Context(), srv.URL+"/p.html"); err == nil {
		t.Errorf("Fetch trusted an unknown certificate")
	}
}

func TestCanceledDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript().on("/p.html", status(503, "Retry-After", "30"))
		f := memFetcher(s, time.Second, 2)
		stop := errors.New("stop")
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(10*time.Second, func() { cancel(stop) })
		start := time.Now()
		_, err := f.Fetch(ctx, base+"/p.html")
		if !errors.Is(err, stop) {
			t.Errorf("Fetch error = %v, want the cause %v", err, stop)
		}
		if took := time.Since(start); took != 10*time.Second {
			t.Errorf("Fetch returned after %v, want 10s, when it was cancelled", took)
		}
	})
}
