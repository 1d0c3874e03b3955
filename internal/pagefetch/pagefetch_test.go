package pagefetch_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pace/pacetest"
	"tse-crawler/internal/pagefetch"
)

const userAgent = "tse-crawler-test/1.0 (+https://example.org/tse)"

// newFetcher returns a Fetcher with no pause, using client.
func newFetcher(client *http.Client) *pagefetch.Fetcher {
	return &pagefetch.Fetcher{Client: client, Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: userAgent}
}

// loopbackClient returns the client the crawler uses against a local
// server.
func loopbackClient(t *testing.T) *http.Client {
	t.Helper()
	c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second})
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// A recorder is an http.Handler that serves fixed responses by path and
// records the paths requested.
type recorder struct {
	mu    sync.Mutex
	paths []string
	ua    []string
	h     http.Handler
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec.mu.Lock()
	rec.paths = append(rec.paths, r.URL.Path)
	rec.ua = append(rec.ua, r.Header.Get("User-Agent"))
	rec.mu.Unlock()
	// Pages are HTML unless a handler says otherwise.
	w.Header().Set("Content-Type", "text/html")
	rec.h.ServeHTTP(w, r)
}

func (rec *recorder) requested() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.paths...)
}

func serve(t *testing.T, h http.Handler) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{h: h}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return srv, rec
}

func TestFetchOK(t *testing.T) {
	big := bytes.Repeat([]byte("<p>0123456789</p>\n"), 200_000) // 3.6 MB
	tests := []struct {
		name    string
		body    []byte
		chunked bool // send without a Content-Length
	}{
		{"small", []byte("<html><a href=\"a.html\">a</a></html>\n"), false},
		{"one byte", []byte("x"), false},
		{"no final newline", []byte("<html>"), false},
		{"NUL and invalid UTF-8", []byte("a\x00b\xff\xfe\r\n\x00"), false},
		{"big", big, false},
		{"chunked", []byte("<html>chunked</html>"), true},
		{"big chunked", big, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.chunked {
					half := len(tt.body) / 2
					w.Write(tt.body[:half])
					w.(http.Flusher).Flush()
					w.Write(tt.body[half:])
					return
				}
				http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(tt.body))
			}))
			got, err := newFetcher(loopbackClient(t)).Fetch(t.Context(), srv.URL+"/tse/page.html")
			if err != nil {
				t.Fatalf("Fetch error: %v", err)
			}
			if !bytes.Equal(got, tt.body) {
				if len(tt.body) > 100 {
					t.Errorf("Fetch returned %d bytes, want the %d bytes served", len(got), len(tt.body))
				} else {
					t.Errorf("Fetch = %q, want %q", got, tt.body)
				}
			}
		})
	}
}

func TestFetchStatus(t *testing.T) {
	tests := []struct {
		name       string
		handler    http.HandlerFunc
		wantCode   int
		wantStatus string
	}{
		{"404", http.NotFound, 404, "404 Not Found"},
		{"500", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}, 500, "500 Internal Server Error"},
		// Redirects are reported, not followed: see TestRedirects.
		{"300", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/target.html", http.StatusMultipleChoices)
		}, 300, "300 Multiple Choices"},
		{"204", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		}, 204, "204 No Content"},
		{"203 with a body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNonAuthoritativeInfo)
			io.WriteString(w, "<html>almost</html>")
		}, 203, "203 Non-Authoritative Information"},
		{"custom reason", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(599)
		}, 599, "599 status code 599"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.Handle("/page.html", tt.handler)
			mux.HandleFunc("/target.html", func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "<html>target</html>")
			})
			srv, rec := serve(t, mux)
			got, err := newFetcher(loopbackClient(t)).Fetch(t.Context(), srv.URL+"/page.html")
			if err == nil {
				t.Fatalf("Fetch = %q, nil, want a *StatusError", got)
			}
			if got != nil {
				t.Errorf("Fetch returned %q with its error, want nil", got)
			}
			var se *pagefetch.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("Fetch error = %T %v, want a *StatusError", err, err)
			}
			if se.Code != tt.wantCode || se.Status != tt.wantStatus {
				t.Errorf("StatusError = {%d, %q}, want {%d, %q}", se.Code, se.Status, tt.wantCode, tt.wantStatus)
			}
			if want := "HTTP " + tt.wantStatus; err.Error() != want {
				t.Errorf("error message = %q, want %q", err, want)
			}
			// The client never follows a redirect.
			if paths := rec.requested(); len(paths) != 1 || paths[0] != "/page.html" {
				t.Errorf("server saw requests for %q, want only /page.html", paths)
			}
		})
	}
}

func TestNewClientDoesNotFollowRedirects(t *testing.T) {
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "/b", http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, "b")
	}))
	resp, err := loopbackClient(t).Get(srv.URL + "/a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 301 || resp.Header.Get("Location") != "/b" {
		t.Errorf("Get(/a) = %d with Location %q, want 301 with Location /b", resp.StatusCode, resp.Header.Get("Location"))
	}
	if paths := rec.requested(); len(paths) != 1 {
		t.Errorf("server saw requests for %q, want only /a", paths)
	}
}

func TestFetchEmptyBody(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"no body", func(w http.ResponseWriter, r *http.Request) {}},
		{"Content-Length 0", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusOK)
		}},
		{"empty chunked", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, tt.handler)
			got, err := newFetcher(loopbackClient(t)).Fetch(t.Context(), srv.URL+"/empty.html")
			if err == nil {
				t.Fatalf("Fetch of an empty 200 = %q, nil, want an error", got)
			}
			var se *pagefetch.StatusError
			if errors.As(err, &se) {
				t.Errorf("Fetch of an empty 200 = %v, a *StatusError, want an empty-body error", err)
			}
			if !strings.Contains(err.Error(), "empty") {
				t.Errorf("Fetch of an empty 200 = %q, want it to say the body is empty", err)
			}
		})
	}
}

func TestFetchUserAgent(t *testing.T) {
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	f := newFetcher(loopbackClient(t))
	for range 2 {
		if _, err := f.Fetch(t.Context(), srv.URL+"/"); err != nil {
			t.Fatal(err)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i, ua := range rec.ua {
		if ua != userAgent {
			t.Errorf("request %d had User-Agent %q, want %q", i, ua, userAgent)
		}
	}
}

func TestFetchBadURL(t *testing.T) {
	called := false
	client := &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
		called = true
		return nil, errors.New("unreachable")
	})}
	for _, u := range []string{"://no-scheme", "http://h/%zz", "http://[::1"} {
		if got, err := newFetcher(client).Fetch(t.Context(), u); err == nil {
			t.Errorf("Fetch(%q) = %q, nil, want an error", u, got)
		}
	}
	if called {
		t.Error("Fetch sent a request for a URL it could not parse")
	}
}

// TestFetchWaitsForPacer uses a real server and a fake clock that does not
// move during a request, so each pause is a whole second.
func TestFetchWaitsForPacer(t *testing.T) {
	srv, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing.html" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "ok")
	}))
	// The same server under another host name is another host to the pacer.
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	clock := pacetest.New()
	f := &pagefetch.Fetcher{
		Client:    loopbackClient(t),
		Scheduler: pagefetch.NewScheduler(time.Second, clock, 1),
		UserAgent: userAgent,
	}
	steps := []struct {
		url     string
		wantErr bool
		sleeps  []time.Duration
	}{
		{srv.URL + "/a.html", false, nil},
		{srv.URL + "/b.html", false, []time.Duration{time.Second}},
		{other + "/a.html", false, nil},
		// A failed fetch still starts the host's pause.
		{srv.URL + "/missing.html", true, []time.Duration{time.Second}},
		{srv.URL + "/c.html", false, []time.Duration{time.Second}},
		{other + "/b.html", false, nil}, // 3s have passed since its last request
	}
	for i, s := range steps {
		_, err := f.Fetch(t.Context(), s.url)
		if (err != nil) != s.wantErr {
			t.Errorf("step %d: Fetch(%q) error = %v, want error %t", i, s.url, err, s.wantErr)
		}
		if got := clock.TakeSleeps(); !slices.Equal(got, s.sleeps) {
			t.Errorf("step %d: Fetch(%q) slept %v, want %v", i, s.url, got, s.sleeps)
		}
	}
}

// roundTripFunc is an in-memory http.RoundTripper, for tests in a synctest
// bubble, which must not use the network.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func okResponse(r *http.Request, body string) *http.Response {
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    200,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"text/html"}},
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       r,
	}
}

// TestFetchPacingSynctest checks, with the real pacer in a synctest bubble,
// that the pause runs from the end of one request to the start of the next.
func TestFetchPacingSynctest(t *testing.T) {
	const reqTime = 200 * time.Millisecond
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var starts []time.Duration
		client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			starts = append(starts, time.Since(start))
			time.Sleep(reqTime)
			if r.URL.Path == "/fail" {
				return nil, errors.New("connection reset")
			}
			return okResponse(r, "page "+r.URL.Path), nil
		})}
		f := &pagefetch.Fetcher{Client: client, Scheduler: pagefetch.NewScheduler(time.Second, nil, 1), UserAgent: userAgent}
		for _, fetch := range []struct {
			url, want string // want is "" for an error
		}{
			{"http://cs50tse.cs.dartmouth.edu/tse/a.html", "page /tse/a.html"},
			{"http://cs50tse.cs.dartmouth.edu/fail", ""},
			{"http://cs50tse.cs.dartmouth.edu/tse/b.html", "page /tse/b.html"},
			{"http://other.example/x.html", "page /x.html"},
		} {
			body, err := f.Fetch(t.Context(), fetch.url)
			switch {
			case fetch.want == "" && err == nil:
				t.Errorf("Fetch(%q) = %q, nil, want an error", fetch.url, body)
			case fetch.want != "" && (err != nil || string(body) != fetch.want):
				t.Errorf("Fetch(%q) = %q, %v, want %q, nil", fetch.url, body, err, fetch.want)
			}
		}
		want := []time.Duration{
			0,
			1200 * time.Millisecond, // 1s after the first ended
			2400 * time.Millisecond, // 1s after the failed one ended
			2600 * time.Millisecond, // another host: no pause
		}
		if !slices.Equal(starts, want) {
			t.Errorf("requests started at %v, want %v", starts, want)
		}
	})
}

func TestFetchCancelledDuringPause(t *testing.T) {
	errStop := errors.New("interrupt signal received")
	synctest.Test(t, func(t *testing.T) {
		requests := 0
		client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			requests++
			return okResponse(r, "ok"), nil
		})}
		f := &pagefetch.Fetcher{Client: client, Scheduler: pagefetch.NewScheduler(time.Second, nil, 1), UserAgent: userAgent}
		if _, err := f.Fetch(t.Context(), "http://h/tse/a.html"); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(300*time.Millisecond, func() { cancel(errStop) })
		start := time.Now()
		body, err := f.Fetch(ctx, "http://h/tse/b.html")
		if !errors.Is(err, errStop) {
			t.Errorf("Fetch cancelled during the pause = %q, %v, want %v", body, err, errStop)
		}
		if d := time.Since(start); d != 300*time.Millisecond {
			t.Errorf("Fetch cancelled after 300ms returned after %v", d)
		}
		if requests != 1 {
			t.Errorf("%d requests sent, want 1: the cancelled Fetch must not send one", requests)
		}
	})
}

func TestFetchCancelledDuringRequest(t *testing.T) {
	errStop := errors.New("interrupt signal received")
	release := make(chan struct{})
	arrived := make(chan struct{})
	srv, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived) // only one request is made
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	f := newFetcher(loopbackClient(t))
	done := make(chan error, 1)
	go func() {
		_, err := f.Fetch(ctx, srv.URL+"/slow.html")
		done <- err
	}()
	select {
	case <-arrived:
	case err := <-done:
		t.Fatalf("Fetch returned %v before the server had the request", err)
	}
	cancel(errStop)
	select {
	case err := <-done:
		if !errors.Is(err, errStop) {
			t.Errorf("Fetch cancelled during the request = %v, want an error wrapping %v", err, errStop)
		}
	case <-time.After(time.Minute): // expected at once; a minute leaves room for a busy machine
		t.Fatal("Fetch did not return within a minute of its context being cancelled")
	}
}

// nonLoopbackIP returns an IPv4 address of this machine that is not a
// loopback address, or skips the test.
func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skipf("cannot list interface addresses: %v", err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no non-loopback IPv4 address to serve on")
	return ""
}

// serveOn starts a server listening on ip.
func serveOn(t *testing.T, ip string, h http.Handler) (*httptest.Server, *recorder) {
	t.Helper()
	ln, err := net.Listen("tcp4", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	rec := &recorder{h: h}
	srv := httptest.NewUnstartedServer(rec)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, rec
}

var okHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "<html>ok</html>")
})

func TestLoopbackOnlyAllowsLoopback(t *testing.T) {
	srv, _ := serve(t, okHandler)
	urls := []string{
		srv.URL + "/",
		strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/",
	}
	if ln, err := net.Listen("tcp6", "[::1]:0"); err == nil {
		srv6 := httptest.NewUnstartedServer(okHandler)
		srv6.Listener.Close()
		srv6.Listener = ln
		srv6.Start()
		t.Cleanup(srv6.Close)
		urls = append(urls, srv6.URL+"/")
	}
	f := newFetcher(loopbackClient(t))
	for _, u := range urls {
		if body, err := f.Fetch(t.Context(), u); err != nil || string(body) != "<html>ok</html>" {
			t.Errorf("Fetch(%q) with LoopbackOnly = %q, %v, want the page", u, body, err)
		}
	}
}

func TestLoopbackOnlyRefusesOthers(t *testing.T) {
	ip := nonLoopbackIP(t)
	srv, rec := serveOn(t, ip, okHandler)
	u := srv.URL + "/tse/x.html"

	// Without the restriction the server is reachable, so a failure below
	// is the restriction at work.
	open := pagefetch.NewClient(pagefetch.ClientOptions{Timeout: 10 * time.Second})
	t.Cleanup(open.CloseIdleConnections)
	if _, err := newFetcher(open).Fetch(t.Context(), u); err != nil {
		t.Fatalf("Fetch(%q) without LoopbackOnly error: %v", u, err)
	}

	body, err := newFetcher(loopbackClient(t)).Fetch(t.Context(), u)
	if !errors.Is(err, pagefetch.ErrNotLoopback) {
		t.Fatalf("Fetch(%q) with LoopbackOnly = %q, %v, want an error wrapping ErrNotLoopback", u, body, err)
	}
	if !strings.Contains(err.Error(), ip) {
		t.Errorf("error %q does not name the address %s", err, ip)
	}
	if n := len(rec.requested()); n != 1 {
		t.Errorf("server saw %d requests, want 1 (only the unrestricted one)", n)
	}
}

func TestLoopbackOnlyRefusesRedirectElsewhere(t *testing.T) {
	// NewClient does not follow redirects, but the dial check holds for a
	// caller that follows one itself with the same client.
	ip := nonLoopbackIP(t)
	far, farRec := serveOn(t, ip, okHandler)
	c := loopbackClient(t)
	c.CheckRedirect = nil // follow
	near, _ := serve(t, http.RedirectHandler(far.URL+"/x.html", http.StatusFound))
	resp, err := c.Get(near.URL + "/")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("Get followed a redirect to %s with LoopbackOnly: %s", far.URL, resp.Status)
	}
	if !errors.Is(err, pagefetch.ErrNotLoopback) {
		t.Errorf("Get = %v, want an error wrapping ErrNotLoopback", err)
	}
	if n := len(farRec.requested()); n != 0 {
		t.Errorf("non-loopback server saw %d requests, want 0", n)
	}
}

// proxyHandler acts as an HTTP proxy: it accepts only absolute-form
// requests and answers with the URL it was asked for.
func proxyHandler(t *testing.T) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.IsAbs() || !strings.HasPrefix(r.RequestURI, "http://") {
			t.Errorf("proxy got request-target %q, want an absolute URL", r.RequestURI)
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		io.WriteString(w, "proxied "+r.RequestURI+" for "+r.Host)
	})
}

func TestLoopbackOnlyThroughProxy(t *testing.T) {
	const page = "http://cs50tse.cs.dartmouth.edu/tse/x.html"
	proxy, rec := serve(t, proxyHandler(t))
	pu, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := pagefetch.NewClient(pagefetch.ClientOptions{
		LoopbackOnly: true,
		Proxy:        http.ProxyURL(pu),
		Timeout:      10 * time.Second,
	})
	t.Cleanup(c.CloseIdleConnections)
	body, err := newFetcher(c).Fetch(t.Context(), page)
	if err != nil {
		t.Fatalf("Fetch(%q) through a loopback proxy error: %v", page, err)
	}
	if want := "proxied " + page + " for cs50tse.cs.dartmouth.edu"; string(body) != want {
		t.Errorf("Fetch(%q) through a proxy = %q, want %q", page, body, want)
	}
	if paths := rec.requested(); len(paths) != 1 || paths[0] != "/tse/x.html" {
		t.Errorf("proxy saw %q, want one request for /tse/x.html", paths)
	}
}

func TestLoopbackOnlyRefusesNonLoopbackProxy(t *testing.T) {
	ip := nonLoopbackIP(t)
	proxy, rec := serveOn(t, ip, proxyHandler(t))
	pu, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := serve(t, okHandler) // loopback, but reached through the proxy
	for _, page := range []string{
		"http://cs50tse.cs.dartmouth.edu/tse/x.html",
		target.URL + "/x.html",
	} {
		c := pagefetch.NewClient(pagefetch.ClientOptions{
			LoopbackOnly: true,
			Proxy:        http.ProxyURL(pu),
			Timeout:      10 * time.Second,
		})
		body, err := newFetcher(c).Fetch(t.Context(), page)
		if !errors.Is(err, pagefetch.ErrNotLoopback) {
			t.Errorf("Fetch(%q) through proxy %s = %q, %v, want an error wrapping ErrNotLoopback", page, pu.Host, body, err)
		}
		c.CloseIdleConnections()
	}
	if n := len(rec.requested()); n != 0 {
		t.Errorf("non-loopback proxy saw %d requests, want 0", n)
	}
}

// isTimeout reports whether err is a timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestTimeout(t *testing.T) {
	// Long enough for the headers of a stalled body to arrive first even
	// on a busy machine, so that the timeout hits the body.
	const timeout = time.Second
	tests := []struct {
		name     string
		handler  func(w http.ResponseWriter, r *http.Request, stall func())
		wantBody bool // whether the error must come from reading the body
	}{
		{"no headers", func(w http.ResponseWriter, r *http.Request, stall func()) {
			stall()
		}, false},
		{"stalled body", func(w http.ResponseWriter, r *http.Request, stall func()) {
			w.Header().Set("Content-Length", "1000")
			io.WriteString(w, "<html>the start")
			w.(http.Flusher).Flush()
			stall()
		}, true},
		{"stalled chunked body", func(w http.ResponseWriter, r *http.Request, stall func()) {
			io.WriteString(w, "<html>the start")
			w.(http.Flusher).Flush()
			stall()
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			srv, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tt.handler(w, r, func() {
					select {
					case <-r.Context().Done(): // the client gave up
					case <-release:
					}
				})
			}))
			t.Cleanup(func() { close(release) }) // runs before srv.Close
			c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: timeout})
			t.Cleanup(c.CloseIdleConnections)
			f := newFetcher(c)
			type result struct {
				body []byte
				err  error
				took time.Duration
			}
			done := make(chan result, 1)
			go func() {
				start := time.Now()
				body, err := f.Fetch(t.Context(), srv.URL+"/slow.html")
				done <- result{body, err, time.Since(start)}
			}()
			var res result
			select {
			case res = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("Fetch with a %v timeout had not returned after a minute", timeout)
			}
			// Expected to end at its timeout, or after two attempts where
			// the timeout is retried; a minute leaves room for a busy
			// machine.
			t.Logf("Fetch gave up after %v; expected %v or twice that", res.took, timeout)
			if res.err == nil {
				t.Fatalf("Fetch from a stalled server = %q, nil, want a timeout", res.body)
			}
			if !isTimeout(res.err) {
				t.Errorf("Fetch from a stalled server = %v, want a timeout error", res.err)
			}
			if tt.wantBody && !strings.Contains(res.err.Error(), "reading the body") {
				t.Errorf("Fetch error = %q, want it to come from reading the body", res.err)
			}
			if res.took < timeout {
				t.Errorf("Fetch gave up after %v, before the %v timeout", res.took, timeout)
			}
		})
	}
}
