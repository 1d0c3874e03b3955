package pagefetch_test

// Hostile servers: answers that no net/http server would send, and
// answers that never end. Every fetch must end by the timeout or by
// cancellation, whatever the status. A fetch that hangs fails the test
// after 10s instead of hanging it.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
)

// A rawReply is what a rawServer sends for one request.
type rawReply struct {
	head string // written at once
	// then, if set, takes over the connection after the head, and returns
	// why it stopped.
	then func(c net.Conn) error
}

// A rawServer speaks HTTP/1.1 by hand on 127.0.0.1, so that it can send
// what net/http would not. It answers each request-target with its reply,
// and any other with an empty 404.
type rawServer struct {
	addr     string
	replies  map[string]rawReply
	sent     chan string // each request-target, once the head of its reply is written
	hungUp   chan string // each request-target whose connection the client closed during then
	accepted chan int    // for each connection accepted (up to 100), how many requests had come before

	mu      sync.Mutex
	targets []string
	conns   []net.Conn
}

func newRawServer(t *testing.T, replies map[string]rawReply) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{
		addr:     ln.Addr().String(),
		replies:  replies,
		sent:     make(chan string, 100),
		hungUp:   make(chan string, 100),
		accepted: make(chan int, 100),
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			before := len(s.targets)
			s.mu.Unlock()
			select {
			case s.accepted <- before:
			default:
			}
			wg.Go(func() { s.serve(c) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		wg.Wait()
	})
	return s
}

func (s *rawServer) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		target := req.RequestURI
		s.mu.Lock()
		s.targets = append(s.targets, target)
		s.mu.Unlock()
		reply, ok := s.replies[target]
		if !ok {
			reply.head = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
		}
		if _, err := io.WriteString(c, reply.head); err != nil {
			return
		}
		s.sent <- target
		if reply.then != nil {
			if err := reply.then(c); !errors.Is(err, net.ErrClosed) {
				s.hungUp <- target // not closed by the cleanup, so by the client
			}
			return
		}
	}
}

// requested returns the request-targets received, in order.
func (s *rawServer) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.targets)
}

// hold keeps a connection open and silent until the client closes it,
// which it reports as io.EOF, or the test ends.
func hold(c net.Conn) error {
	if _, err := io.Copy(io.Discard, c); err != nil {
		return err
	}
	return io.EOF
}

// trickle sends a body of a byte at a time, more often than any timeout in
// these tests, and never ends it.
func trickle(c net.Conn) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		if _, err := io.WriteString(c, "x"); err != nil {
			return err
		}
	}
	return nil
}

const switching = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n"

var (
	switchProtocols = rawReply{head: switching, then: hold}
	// Headers that are begun and never ended.
	stalledHeaders = rawReply{head: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n", then: hold}
	// A body that never ends, though it never stops coming either.
	slowloris = rawReply{
		head: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n<html>",
		then: trickle,
	}
	htmlPage = rawReply{head: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>ok</p>"}
)

// awaitConns waits for n connections, each accepted after the first
// after requests, to a server that reports on accepted, for each
// connection, how many requests it had received before. It fails the
// test if they have not come within 10s, far longer than they take.
func awaitConns(t *testing.T, accepted <-chan int, n, after int) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for n > 0 {
		select {
		case before := <-accepted:
			if before >= after {
				n--
			}
		case <-timeout:
			t.Fatalf("%d connections short after the first %d requests within 10s: the host was not asked whether it can still be connected to", n, after)
		}
	}
}

// fetchWithin runs f.Fetch and fails the test if it has not returned
// within 10s, far longer than any of these fetches may take.
func fetchWithin(t *testing.T, ctx context.Context, f *pagefetch.Fetcher, rawURL string) (time.Duration, error) {
	t.Helper()
	type result struct {
		took time.Duration
		err  error
	}
	done := make(chan result, 1)
	go func() {
		start := time.Now()
		_, err := f.Fetch(ctx, rawURL)
		done <- result{time.Since(start), err}
	}()
	select {
	case r := <-done:
		return r.took, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Fetch(%q) had not returned after 10s", rawURL)
		return 0, nil
	}
}

// TestSwitchingProtocols: a 101 is never a page, and its connection, which
// net/http hands over raw, is closed unread at once, even with a long
// timeout. The fetch of a page fails with the status, unretried; the fetch
// of a robots.txt forbids the host, as a 5xx does.
func TestSwitchingProtocols(t *testing.T) {
	const proxied = "http://cs50tse.cs.dartmouth.edu"
	tests := []struct {
		name      string
		robots    bool
		proxy     bool     // the raw server is a proxy, and the site is proxied
		switch101 string   // the request-target answered with a 101
		want      []string // the request-targets the server must see
	}{
		{"page", false, false, "/p.html", []string{"/p.html"}},
		{"robots.txt", true, false, "/robots.txt", []string{"/robots.txt"}},
		{"page through a proxy", false, true, proxied + "/p.html", []string{proxied + "/p.html"}},
		{"robots.txt through a proxy", true, true, proxied + "/robots.txt", []string{proxied + "/robots.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replies := map[string]rawReply{"/p.html": htmlPage, proxied + "/p.html": htmlPage}
			replies[tt.switch101] = switchProtocols
			srv := newRawServer(t, replies)
			opt := pagefetch.ClientOptions{LoopbackOnly: true, Timeout: time.Minute}
			site := "http://" + srv.addr
			if tt.proxy {
				opt.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: srv.addr})
				site = proxied
			}
			c := pagefetch.NewClient(opt)
			t.Cleanup(c.CloseIdleConnections)
			f := &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: userAgent, Robots: tt.robots, Retries: 2}

			_, err := fetchWithin(t, t.Context(), f, site+"/p.html")
			if tt.robots {
				if !errors.Is(err, pagefetch.ErrRobotsUnavailable) {
					t.Errorf("Fetch error = %v, want ErrRobotsUnavailable", err)
				}
				// What was learned holds for the host's next page.
				if _, err := fetchWithin(t, t.Context(), f, site+"/q.html"); !errors.Is(err, pagefetch.ErrRobotsUnavailable) {
					t.Errorf("second page: Fetch error = %v, want ErrRobotsUnavailable", err)
				}
			} else {
				var se *pagefetch.StatusError
				if !errors.As(err, &se) || se.Code != 101 || err.Error() != "HTTP 101 Switching Protocols" {
					t.Errorf("Fetch error = %v, want HTTP 101 Switching Protocols", err)
				}
				if got := pagefetch.Reason(err); got != "HTTP 101" {
					t.Errorf("Reason(%v) = %q, want %q", err, got, "HTTP 101")
				}
			}
			if got := srv.requested(); !slices.Equal(got, tt.want) {
				t.Errorf("server saw %q, want %q: a 101 is not retried, and a host whose robots.txt switched protocols is not crawled", got, tt.want)
			}
			select {
			case got := <-srv.hungUp:
				if got != tt.switch101 {
					t.Errorf("client closed the connection of %s, want that of %s", got, tt.switch101)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("the connection that switched protocols was still open 10s after the fetch")
			}
		})
	}
}

// TestNeverEnding: headers that never end and a body that never ends
// end the fetch at the timeout (retried, as a timeout is) or at once when
// the crawl is interrupted (not retried, and failing with the cause).
func TestNeverEnding(t *testing.T) {
	errStop := errors.New("interrupt signal received")
	const timeout = 200 * time.Millisecond
	replies := []struct {
		name  string
		reply rawReply
	}{
		{"headers", stalledHeaders},
		{"body a byte at a time", slowloris},
	}
	for _, r := range replies {
		for _, interrupt := range []bool{false, true} {
			name := fmt.Sprintf("%s, timeout", r.name)
			if interrupt {
				name = fmt.Sprintf("%s, interrupted", r.name)
			}
			t.Run(name, func(t *testing.T) {
				srv := newRawServer(t, map[string]rawReply{"/p.html": r.reply})
				opt := pagefetch.ClientOptions{LoopbackOnly: true, Timeout: timeout}
				if interrupt {
					opt.Timeout = time.Minute
				}
				c := pagefetch.NewClient(opt)
				t.Cleanup(c.CloseIdleConnections)
				f := &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: userAgent, Retries: 1}
				ctx, cancel := context.WithCancelCause(t.Context())
				defer cancel(nil)
				if interrupt {
					go func() {
						select {
						case <-srv.sent:
							cancel(errStop)
						case <-ctx.Done():
						}
					}()
				}
				took, err := fetchWithin(t, ctx, f, "http://"+srv.addr+"/p.html")
				requests := len(slices.DeleteFunc(srv.requested(), func(target string) bool { return target == "/robots.txt" }))
				if interrupt {
					if !errors.Is(err, errStop) {
						t.Errorf("Fetch error = %v, want the cause %v", err, errStop)
					}
					if requests != 1 {
						t.Errorf("%d requests, want 1: an interrupted fetch is not retried", requests)
					}
				} else {
					if !isTimeout(err) || pagefetch.Reason(err) != "timeout" {
						t.Errorf("Fetch error = %v (reason %q), want a timeout", err, pagefetch.Reason(err))
					}
					if requests != 2 {
						t.Errorf("%d requests, want 2: a timeout is retried", requests)
					}
					// Then the fetcher makes sure that the host can
					// still be connected to, as a network that went
					// silent would make every page time out: a third
					// connection, after one for each attempt, tells,
					// and nothing is sent on it.
					awaitConns(t, srv.accepted, 3, 0)
					if got := srv.requested(); len(got) != 2 {
						t.Errorf("requests %q, want the page's two attempts alone", got)
					}
					if took < 2*timeout {
						t.Errorf("Fetch gave up after %v, before two attempts of %v", took, timeout)
					}
				}
			})
		}
	}
}

// stuckBody returns a transport whose bodies no deadline or cancellation
// reaches, like the raw connection net/http hands back after a 101: only
// Close ends a Read of them. It works in a synctest bubble.
func stuckBody(code int) roundTripFunc {
	return func(r *http.Request) (*http.Response, error) {
		res := okResponse(r, "")
		res.StatusCode, res.Status = code, fmt.Sprintf("%d %s", code, http.StatusText(code))
		res.Body, _ = io.Pipe() // nothing is ever written
		res.ContentLength = -1
		return res, nil
	}
}

// TestBodyTheTransportDoesNotEnd checks in fake time that the Fetcher
// itself ends every read of a body, of a page or a robots.txt, a 200 or
// another status, exactly at the timeout or at the interruption.
func TestBodyTheTransportDoesNotEnd(t *testing.T) {
	errStop := errors.New("interrupt signal received")
	const timeout = 200 * time.Millisecond
	tests := []struct {
		name    string
		code    int
		robots  bool
		retries int
		// With the timeout: the error, and how long the fetch took.
		check func(error) bool
		took  time.Duration
	}{
		{"page", 200, false, 0, isTimeout, timeout},
		// Two attempts, the first retry after minBackoff.
		{"page, retried", 200, false, 1, isTimeout, timeout + 100*time.Millisecond + timeout},
		// The body of a 503 is only drained; the status is the answer.
		{"503", 503, false, 0, func(err error) bool {
			var se *pagefetch.StatusError
			return errors.As(err, &se) && se.Code == 503
		}, timeout},
		{"robots.txt", 200, true, 0, func(err error) bool {
			return errors.Is(err, pagefetch.ErrRobotsUnavailable) && isTimeout(err)
		}, timeout},
	}
	for _, tt := range tests {
		t.Run(tt.name+", timeout", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &pagefetch.Fetcher{
					Client:    &http.Client{Transport: stuckBody(tt.code), Timeout: timeout},
					Scheduler: pagefetch.NewScheduler(0, nil, 1),
					UserAgent: userAgent,
					Robots:    tt.robots,
					Retries:   tt.retries,
				}
				start := time.Now()
				_, err := f.Fetch(t.Context(), "http://h/p.html")
				if !tt.check(err) {
					t.Errorf("Fetch error = %v, want another", err)
				}
				if took := time.Since(start); took != tt.took {
					t.Errorf("Fetch took %v, want %v", took, tt.took)
				}
			})
		})
		t.Run(tt.name+", interrupted", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				requests := 0
				body := stuckBody(tt.code)
				f := &pagefetch.Fetcher{
					Client: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
						requests++
						return body(r)
					})}, // no timeout at all: only the interruption ends the read
					Scheduler: pagefetch.NewScheduler(0, nil, 1),
					UserAgent: userAgent,
					Robots:    tt.robots,
					Retries:   tt.retries,
				}
				ctx, cancel := context.WithCancelCause(t.Context())
				defer cancel(nil)
				time.AfterFunc(300*time.Millisecond, func() { cancel(errStop) })
				start := time.Now()
				_, err := f.Fetch(ctx, "http://h/p.html")
				if !errors.Is(err, errStop) {
					t.Errorf("Fetch error = %v, want the cause %v", err, errStop)
				}
				if took := time.Since(start); took != 300*time.Millisecond {
					t.Errorf("Fetch took %v, want 300ms, when it was interrupted", took)
				}
				if requests != 1 {
					t.Errorf("%d requests, want 1", requests)
				}
			})
		})
	}
}
