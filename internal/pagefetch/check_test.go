package pagefetch_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/pace/pacetest"
	"tse-crawler/internal/pagefetch"
)

// checkFetcher returns a fetcher for link checks that obeys robots.txt and
// retries once, on a fake clock, so that no backoff is slept.
func checkFetcher(client *http.Client) *pagefetch.Fetcher {
	f := &pagefetch.Fetcher{Client: client, Scheduler: pagefetch.NewScheduler(0, pacetest.New(), 1), UserAgent: userAgent}
	f.Robots, f.Retries = true, 1
	return f
}

// An askedLog is the requests a server got, as "METHOD target" words.
type askedLog struct {
	mu    sync.Mutex
	asked []string
}

func (l *askedLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, r.Method+" "+r.RequestURI)
}

// since returns the requests from the nth on.
func (l *askedLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.asked[n:]...)
}

func (l *askedLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.asked)
}

// checkServer serves TestCheck's links, each a way a server answers a
// HEAD, and logs every request on log.
func checkServer(t *testing.T, log *askedLog) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		if r.URL.Path != "/robots.txt" && r.Header.Get("Accept") != "*/*" {
			t.Errorf("%s %s: Accept %q, want */*", r.Method, r.RequestURI, r.Header.Get("Accept"))
		}
		head := r.Method == http.MethodHead
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /no/\n")
		case "/ok":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<p>ok")
		case "/no-head":
			if head {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			fmt.Fprint(w, "<p>got")
		case "/no-head-501":
			if head {
				w.WriteHeader(http.StatusNotImplemented)
				return
			}
			fmt.Fprint(w, "<p>got")
		case "/head-404":
			if head {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			fmt.Fprint(w, "<p>got")
		case "/broken-head":
			if head {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				fmt.Fprint(conn, "not HTTP at all\r\n\r\n")
				conn.Close()
				return
			}
			fmt.Fprint(w, "<p>got")
		case "/gone":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, strings.Repeat("not here\n", 1000))
		case "/old/page":
			w.Header().Set("Location", `..\new\page`)
			w.WriteHeader(http.StatusMovedPermanently)
		case "/site.css":
			w.Header().Set("Content-Type", "text/css; charset=iso-8859-1")
			fmt.Fprint(w, "#top { color: red }")
		default:
			http.NotFound(w, r)
		}
	})
}

// TestCheck: a check sends a HEAD, and a GET after a HEAD that failed with
// a status from 400 up or a broken answer, whose body it drops; with the
// body asked for, a GET alone, whose body it returns whatever the status.
// A redirect is returned, resolved as a browser resolves it, and not
// followed, and robots.txt is obeyed before any request.
func TestCheck(t *testing.T) {
	var log askedLog
	srv := httptest.NewServer(checkServer(t, &log))
	defer srv.Close()
	f := checkFetcher(loopbackClient(t))

	tests := []struct {
		name     string
		path     string
		body     bool
		code     int
		ctype    string
		location string // a path on srv, or ""
		content  string
		asked    string // the requests for path, in order
		err      error
	}{
		{name: "HEAD answered", path: "/ok", code: 200, ctype: "text/html; charset=utf-8", asked: "HEAD /ok"},
		{name: "HEAD refused", path: "/no-head", code: 200, asked: "HEAD /no-head, GET /no-head"},
		{name: "HEAD not implemented, not retried", path: "/no-head-501", code: 200, asked: "HEAD /no-head-501, GET /no-head-501"},
		{name: "HEAD mishandled", path: "/head-404", code: 200, asked: "HEAD /head-404, GET /head-404"},
		{name: "HEAD broken", path: "/broken-head", code: 200, asked: "HEAD /broken-head, HEAD /broken-head, GET /broken-head"},
		{name: "missing", path: "/gone", code: 404, ctype: "text/plain", asked: "HEAD /gone, GET /gone"},
		{name: "redirect", path: "/old/page", code: 301, location: "/new/page", asked: "HEAD /old/page"},
		{name: "body", path: "/site.css", body: true, code: 200, ctype: "text/css; charset=iso-8859-1", content: "#top { color: red }", asked: "GET /site.css"},
		{name: "body of a 404", path: "/gone", body: true, code: 404, content: strings.Repeat("not here\n", 1000), asked: "GET /gone"},
		{name: "disallowed", path: "/no/x", err: pagefetch.ErrDisallowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, sent := log.len(), f.Scheduler.Requests()
			c, err := f.Check(t.Context(), srv.URL+tt.path, tt.body)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Check(%s, %v): error %v, want %v", tt.path, tt.body, err, tt.err)
			}
			if c == nil {
				c = new(pagefetch.Page) // no answer
			}
			want := ""
			if tt.location != "" {
				want = srv.URL + tt.location
			}
			if c.Code != tt.code || c.Target != want || string(c.Body) != tt.content {
				t.Errorf("Check(%s, %v) = %d %q, body of %d bytes; want %d %q, body of %d bytes",
					tt.path, tt.body, c.Code, c.Target, len(c.Body), tt.code, want, len(tt.content))
			}
			if tt.ctype != "" && c.ContentType() != tt.ctype {
				t.Errorf("Check(%s, %v): Content-Type %q, want %q", tt.path, tt.body, c.ContentType(), tt.ctype)
			}
			if !tt.body && c.Body != nil {
				t.Errorf("Check(%s, false): a body of %d bytes", tt.path, len(c.Body))
			}
			asked := log.since(before)
			var own []string
			for _, a := range asked {
				if a != "GET /robots.txt" {
					own = append(own, a)
				}
			}
			if got := strings.Join(own, ", "); got != tt.asked {
				t.Errorf("Check(%s, %v) asked %q, want %q", tt.path, tt.body, got, tt.asked)
			}
			if n := f.Scheduler.Requests() - sent; n != int64(len(asked)) {
				t.Errorf("Check(%s, %v): Requests counted %d, the server got %d", tt.path, tt.body, n, len(asked))
			}
		})
	}
}

// TestCheckTimeout: a HEAD that gets no answer within the client's
// Timeout, its retries spent, is asked once more with a GET, which some
// servers answer where they never answer a HEAD; the GET is not retried,
// so a server that answers neither costs one request more than the
// retries, not twice as many.
func TestCheckTimeout(t *testing.T) {
	tests := []struct {
		name      string
		getHangs  bool
		wantCode  int
		wantErr   string // the failure's Reason, or ""
		wantAsked string
	}{
		{name: "GET answered", wantCode: 200, wantAsked: "HEAD /slow, HEAD /slow, GET /slow"},
		{name: "GET unanswered too", getHangs: true, wantErr: "timeout", wantAsked: "HEAD /slow, HEAD /slow, GET /slow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log askedLog
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				log.add(r)
				if r.Method == http.MethodHead || tt.getHangs {
					select { // until the check gives up, or the test ends
					case <-r.Context().Done():
					case <-release:
					}
					return
				}
				fmt.Fprint(w, "<p>here")
			}))
			defer srv.Close()
			defer close(release)
			// Long enough for a GET that is answered at once to be
			// answered on a busy machine.
			c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 500 * time.Millisecond})
			t.Cleanup(c.CloseIdleConnections)
			f := checkFetcher(c) // one retry
			f.Robots = false

			got, err := f.Check(t.Context(), srv.URL+"/slow", false)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Check: %v, want %d", err, tt.wantCode)
			case tt.wantErr != "" && (err == nil || pagefetch.Reason(err) != tt.wantErr):
				t.Fatalf("Check: error %v, want a %s", err, tt.wantErr)
			case err == nil && got.Code != tt.wantCode:
				t.Errorf("Check: %d, want %d by the GET", got.Code, tt.wantCode)
			}
			if asked := strings.Join(log.since(0), ", "); asked != tt.wantAsked {
				t.Errorf("the server was asked %q, want %q", asked, tt.wantAsked)
			}
		})
	}
}

// TestCheckRecorded: a check on a fetcher that records reads robots.txt
// for the pages of its origin, which then hold its record, as if a page
// had read it.
func TestCheckRecorded(t *testing.T) {
	var log askedLog
	srv := httptest.NewServer(checkServer(t, &log))
	defer srv.Close()
	f := captureFetcher(t, nil)

	if c, err := f.Check(t.Context(), srv.URL+"/no-head", false); err != nil || c.Code != 200 {
		t.Fatalf("Check: %d, %v; want 200", c.Code, err)
	}
	r, err := f.FetchRequisite(t.Context(), srv.URL+"/site.css")
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(t, r.Recording.Robots); r.Recording.RobotsOrigin != srv.URL || got != "/robots.txt 200" {
		t.Errorf("the requisite obeyed %q, read as %q; want %s, read as %q", r.Recording.RobotsOrigin, got, srv.URL, "/robots.txt 200")
	}
	if got := strings.Join(log.since(0), ", "); got != "GET /robots.txt, HEAD /no-head, GET /no-head, GET /site.css" {
		t.Errorf("the server got %q", got)
	}
}

// TestCheckRateLimited: a check that a server answers with a Retry-After
// of more than a minute does not wait, or retry, or ask again with a GET:
// it fails at once, rate limited, with the wait asked for, and so does
// every check of the host, without a request, until that wait has
// passed. Warn is told once for the host. A Retry-After within the minute
// is waited for, as any fetch does. The clock is a fake: nothing waits.
func TestCheckRateLimited(t *testing.T) {
	var log askedLog
	var mu sync.Mutex
	retryAfter := "" // what the server answers 429 with; "" for a 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		mu.Lock()
		ra := retryAfter
		mu.Unlock()
		if ra != "" {
			w.Header().Set("Retry-After", ra)
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	clock := pacetest.New()
	var warnings []string
	f := &pagefetch.Fetcher{Client: loopbackClient(t), Scheduler: pagefetch.NewScheduler(0, clock, 1), UserAgent: userAgent, Retries: 1,
		Warn: func(msg string) { warnings = append(warnings, msg) }}
	inThreeHours := time.Now().Add(3 * time.Hour).UTC().Format(http.TimeFormat)

	steps := []struct {
		name       string
		advance    time.Duration // the clock, before the check
		retryAfter string
		path       string
		wantCode   int           // or 0 for a RateLimitedError
		wantWait   time.Duration // the error's
		asked      string
		sleeps     []time.Duration
	}{
		{name: "an hour asked for", retryAfter: "3600", path: "/a", wantWait: time.Hour, asked: "HEAD /a"},
		{name: "held off", path: "/b", wantWait: time.Hour},
		{name: "held off a second before the hour", advance: time.Hour - time.Second, path: "/c", wantWait: time.Hour},
		{name: "the hour passed", advance: time.Second, path: "/d", wantCode: 200, asked: "HEAD /d"},
		{name: "a date three hours on", retryAfter: inThreeHours, path: "/e", wantWait: 3 * time.Hour, asked: "HEAD /e"},
		{name: "the three hours passed", advance: 3 * time.Hour, retryAfter: "30", path: "/f", wantCode: 429,
			asked: "HEAD /f, HEAD /f, GET /f, GET /f", sleeps: []time.Duration{30 * time.Second, 30 * time.Second}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			clock.Advance(s.advance)
			mu.Lock()
			retryAfter = s.retryAfter
			mu.Unlock()
			before := log.len()
			c, err := f.Check(t.Context(), srv.URL+s.path, false)
			if s.wantCode != 0 {
				if err != nil || c.Code != s.wantCode {
					t.Errorf("Check: %d, %v; want %d", c.Code, err, s.wantCode)
				}
			} else {
				rl, ok := errors.AsType[*pagefetch.RateLimitedError](err)
				// A date is read on the wall clock, which moves on.
				if !ok || rl.Code != 429 || rl.Wait > s.wantWait || rl.Wait < s.wantWait-2*time.Second || pagefetch.Reason(err) != "rate limited" {
					t.Errorf("Check: %d, %v; want it rate limited for %v", c.Code, err, s.wantWait)
				}
			}
			if got := strings.Join(log.since(before), ", "); got != s.asked {
				t.Errorf("the server was asked %q, want %q", got, s.asked)
			}
			if got := clock.TakeSleeps(); !slices.Equal(got, s.sleeps) {
				t.Errorf("waited %v, want %v", got, s.sleeps)
			}
		})
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "429 Too Many Requests") || !strings.Contains(warnings[0], "1h0m0s") ||
		!strings.Contains(warnings[0], strings.TrimPrefix(srv.URL, "http://")) {
		t.Errorf("warnings %q, want one, of the host's 429 asking for 1h0m0s", warnings)
	}
}

// TestCheckThroughProxy: through a proxy that cannot reach a host, and
// says so by answering 502 or 504, or by closing the connection, a check
// finds the host unreachable, whether robots.txt is read first or not,
// over http or through a tunnel: it is not the host's robots.txt that is
// unavailable, nor the link that is broken. A 502 the proxy passes on
// for the link itself is the link's answer, as any status is.
func TestCheckThroughProxy(t *testing.T) {
	tests := []struct {
		name        string
		url         string
		robots      bool
		answer      func(w http.ResponseWriter, r *http.Request)
		unreachable bool
	}{
		{name: "502 for robots.txt", url: "http://far.test/a", robots: true, answer: status(http.StatusBadGateway), unreachable: true},
		{name: "504 for robots.txt", url: "http://far.test/a", robots: true, answer: status(http.StatusGatewayTimeout), unreachable: true},
		{name: "closes for robots.txt", url: "http://far.test/a", robots: true, answer: hangUp, unreachable: true},
		{name: "closes for the link", url: "http://far.test/a", answer: hangUp, unreachable: true},
		{name: "closes the tunnel", url: "https://far.test/a", robots: true, answer: hangUp, unreachable: true},
		{name: "502 for the link", url: "http://far.test/a", answer: status(http.StatusBadGateway)},
		{name: "503 for robots.txt", url: "http://far.test/a", robots: true, answer: status(http.StatusServiceUnavailable)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proxy := httptest.NewServer(http.HandlerFunc(tt.answer))
			t.Cleanup(proxy.Close)
			u, _ := url.Parse(proxy.URL)
			f := checkFetcher(&http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u)}, Timeout: 5 * time.Second,
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }})
			f.Robots = tt.robots
			p, err := f.Check(t.Context(), tt.url, false)
			ue, got := errors.AsType[*pagefetch.UnreachableError](err)
			if got != tt.unreachable {
				t.Fatalf("Check = %v, %v: unreachable %v, want %v", p, err, got, tt.unreachable)
			}
			if got && ue.Host != "far.test" && ue.Host != "far.test:443" {
				t.Errorf("UnreachableError %+v names another host", ue)
			}
		})
	}
}

func hangUp(w http.ResponseWriter, r *http.Request) {
	if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
		c.Close()
	}
}
