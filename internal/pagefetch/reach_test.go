package pagefetch_test

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
)

// closedAddr returns a loopback address on which nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestUnreachable checks which failures are no answer at all, and so no
// verdict on the page: those where no connection could be made. A server
// that is reached and then misbehaves has given its answer.
func TestUnreachable(t *testing.T) {
	dead := closedAddr(t)
	rude := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // connected, then nothing: an answer, of a sort
		}
	}))
	defer rude.Close()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no route to host", http.StatusBadGateway)
	}))
	defer proxy.Close()
	dnsFails := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}

	// A connection that never completes, as to an address that drops
	// every packet: the dialer's own timeout ends it, or the request's.
	dialTimesOut := func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: os.ErrDeadlineExceeded}
	}
	blackhole := func(ctx context.Context, network, addr string) (net.Conn, error) {
		<-ctx.Done()
		return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
	}

	tests := []struct {
		name     string
		url      string
		proxy    string // HTTP proxy, if any
		dial     func(context.Context, string, string) (net.Conn, error)
		robots   bool
		want     bool   // an UnreachableError
		wantAddr string // where the connection was tried
		dns      bool
		timeout  time.Duration // 5s if zero
	}{
		{name: "connection refused", url: "http://" + dead + "/p.html", want: true, wantAddr: dead},
		{name: "robots.txt: connection refused", url: "http://" + dead + "/p.html", robots: true, want: true, wantAddr: dead},
		{name: "name not found", url: "http://nowhere.test/p.html", dial: dnsFails, want: true, dns: true},
		{name: "connection times out", url: "http://192.0.2.1/p.html", dial: dialTimesOut, want: true},
		{name: "connection waited for a second", url: "http://192.0.2.1/p.html", dial: blackhole, timeout: time.Second, want: true},
		// Too short a timeout to judge the network by: TCP has not yet
		// sent its SYN again.
		{name: "timeout too short to connect", url: "http://192.0.2.1/p.html", dial: blackhole, timeout: 50 * time.Millisecond},
		{name: "timeout of 1ns", url: "http://" + dead + "/p.html", timeout: time.Nanosecond},
		{name: "proxy refuses", url: "http://cs50tse.cs.dartmouth.edu/tse/p.html", proxy: "http://" + dead, want: true, wantAddr: dead},
		{name: "proxy answers 502", url: "http://cs50tse.cs.dartmouth.edu/tse/p.html", proxy: proxy.URL},
		{name: "server hangs up", url: rude.URL + "/p.html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &http.Transport{DialContext: tt.dial}
			if tt.proxy != "" {
				u, _ := url.Parse(tt.proxy)
				tr.Proxy = http.ProxyURL(u)
			}
			f := &pagefetch.Fetcher{
				Client: &http.Client{Transport: tr, Timeout: cmp.Or(tt.timeout, 5*time.Second),
					CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
				Scheduler: pagefetch.NewScheduler(0, nil, 1),
				UserAgent: "tse-crawler/9.9",
				Robots:    tt.robots,
			}
			_, err := f.Fetch(t.Context(), tt.url)
			var ue *pagefetch.UnreachableError
			if got := errors.As(err, &ue); got != tt.want {
				t.Fatalf("Fetch error %v: unreachable %v, want %v", err, got, tt.want)
			}
			if !tt.want {
				if err == nil {
					t.Error("Fetch succeeded")
				}
				return
			}
			u, _ := url.Parse(tt.url)
			if ue.Host != u.Host || ue.Addr != tt.wantAddr && tt.wantAddr != "" || ue.DNS() != tt.dns {
				t.Errorf("UnreachableError %+v (DNS %v), want host %s, address %s, DNS %v", ue, ue.DNS(), u.Host, tt.wantAddr, tt.dns)
			}
			if pagefetch.Reason(err) != "host unreachable" {
				t.Errorf("Reason = %q", pagefetch.Reason(err))
			}
			if errors.Is(err, pagefetch.ErrRobotsUnavailable) {
				t.Errorf("%v is taken for the host's robots.txt verdict", err)
			}
			if strings.Contains(err.Error(), tt.url) {
				t.Errorf("%q names the page: the crawler does", err)
			}
		})
	}
}

// TestUnreachableRobotsAskedAgain: a robots.txt that could not be reached
// is not remembered as the host's verdict, so that a crawl that asks again
// once the network is back gets the rules.
func TestUnreachableRobotsAskedAgain(t *testing.T) {
	var up bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /no/\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>hello"))
	}))
	defer srv.Close()
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if !up {
			return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("network is unreachable")}
		}
		return new(net.Dialer).DialContext(ctx, network, addr)
	}
	f := &pagefetch.Fetcher{
		Client:    &http.Client{Transport: &http.Transport{DialContext: dial}, Timeout: 5 * time.Second},
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		UserAgent: "tse-crawler/9.9",
		Robots:    true,
	}
	var ue *pagefetch.UnreachableError
	if _, err := f.Fetch(t.Context(), srv.URL+"/p.html"); !errors.As(err, &ue) {
		t.Fatalf("Fetch while down: %v, want an UnreachableError", err)
	}
	up = true
	if _, err := f.Fetch(t.Context(), srv.URL+"/p.html"); err != nil {
		t.Errorf("Fetch once up: %v", err)
	}
	if _, err := f.Fetch(t.Context(), srv.URL+"/no/p.html"); !errors.Is(err, pagefetch.ErrDisallowed) {
		t.Errorf("Fetch of a disallowed page once up: %v, want ErrDisallowed", err)
	}
}

// TestReach: any HTTP answer, whatever its status, means the site answers.
func TestReach(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead || r.URL.Path != "/robots.txt" {
			t.Errorf("Reach sent %s %s, want HEAD /robots.txt", r.Method, r.URL.Path)
		}
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	f := &pagefetch.Fetcher{Client: srv.Client(), Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: "tse-crawler/9.9"}
	if _, err := f.Reach(t.Context(), srv.URL); err != nil {
		t.Errorf("Reach(%s) = %v, want nil", srv.URL, err)
	}
	var ue *pagefetch.UnreachableError
	if _, err := f.Reach(t.Context(), "http://"+closedAddr(t)); !errors.As(err, &ue) {
		t.Errorf("Reach of a closed port = %v, want an UnreachableError", err)
	}
	if f.Scheduler.Requests() != 2 {
		t.Errorf("%d requests counted, want 2", f.Scheduler.Requests())
	}
}

// A dyingServer answers on 127.0.0.1 until it dies as a killed process
// does: it stops listening, and every connection it holds is reset.
type dyingServer struct {
	ln       net.Listener
	accepted chan int // for each connection accepted (up to 100), how many GETs had come before
	mu       sync.Mutex
	conns    []net.Conn
	gets     int // GETs received
	heads    int // HEADs received
}

// newDyingServer serves each GET with answer, which may kill the server;
// a HEAD gets an empty 404.
func newDyingServer(t *testing.T, answer func(s *dyingServer, c net.Conn, n int)) *dyingServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &dyingServer{ln: ln, accepted: make(chan int, 100)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			before := s.gets
			s.mu.Unlock()
			select {
			case s.accepted <- before:
			default:
			}
			go func() {
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					s.mu.Lock()
					n := s.gets
					if req.Method == http.MethodHead {
						s.heads++
					} else {
						s.gets++
					}
					s.mu.Unlock()
					if req.Method == http.MethodHead {
						io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
						continue
					}
					answer(s, c, n)
				}
			}()
		}
	}()
	t.Cleanup(s.die)
	return s
}

func (s *dyingServer) die() {
	s.ln.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		c.Close()
	}
}

func (s *dyingServer) counts() (gets, heads int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gets, s.heads
}

const okPage = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>ok</p>"

// TestConnectionLost: a request whose connection breaks after it was made
// is no verdict on the page when the host can no longer be connected to at
// all, whatever the retries: the way to it has gone, as when a proxy dies
// with a request in flight. When the host still answers, the page failed.
func TestConnectionLost(t *testing.T) {
	tests := []struct {
		name   string
		answer func(s *dyingServer, c net.Conn, n int)
		robots bool
		want   bool // an UnreachableError for the second fetch
	}{{
		// The transport sends the request again on a new connection when
		// a kept-alive one dies before any answer; it is that one's
		// failure to connect that counts.
		name: "kept-alive connection dies unanswered, a new one refused",
		answer: func(s *dyingServer, c net.Conn, n int) {
			if n == 0 {
				io.WriteString(c, okPage)
				return
			}
			s.die()
		},
		want: true,
	}, {
		name: "cut in the middle of the body, then refused",
		answer: func(s *dyingServer, c net.Conn, n int) {
			if n == 0 {
				io.WriteString(c, okPage)
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n<p>the start")
			s.die()
		},
		want: true,
	}, {
		name: "robots.txt cut in the middle, then refused",
		answer: func(s *dyingServer, c net.Conn, n int) {
			if n < 2 {
				io.WriteString(c, okPage) // robots.txt, which is HTML, and the first page
				return
			}
			s.die()
		},
		robots: true,
		want:   true,
	}, {
		name: "cut in the middle of the body, the host still up",
		answer: func(s *dyingServer, c net.Conn, n int) {
			if n == 0 {
				io.WriteString(c, okPage)
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n<p>the start")
			c.Close()
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newDyingServer(t, tt.answer)
			c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 5 * time.Second})
			t.Cleanup(c.CloseIdleConnections)
			f := &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: "tse-crawler/9.9", Robots: tt.robots}
			base := "http://" + s.ln.Addr().String()
			if tt.robots {
				// A host whose robots.txt is read again for each page:
				// another origin of the same server.
				base = "http://localhost:" + strings.Split(s.ln.Addr().String(), ":")[1]
			}
			if _, err := f.Fetch(t.Context(), "http://"+s.ln.Addr().String()+"/first.html"); err != nil {
				t.Fatalf("first Fetch: %v", err)
			}
			_, err := f.Fetch(t.Context(), base+"/second.html")
			ue, got := errors.AsType[*pagefetch.UnreachableError](err)
			if got != tt.want {
				t.Fatalf("second Fetch error %v: unreachable %v, want %v", err, got, tt.want)
			}
			if got && errors.Is(err, pagefetch.ErrRobotsUnavailable) {
				t.Errorf("%v is taken for the host's robots.txt verdict", err)
			}
			if got && ue.Addr == "" {
				t.Errorf("UnreachableError %+v names no address", ue)
			}
			if !tt.want {
				// The host was asked whether it can still be connected
				// to, and a connection answered: nothing was sent on it.
				awaitConns(t, s.accepted, 1, 2)
			}
			if _, heads := s.counts(); heads != 0 {
				t.Errorf("%d HEAD requests, want none", heads)
			}
		})
	}
}

// TestBadPort: a port no connection can be made to fails the page as a
// bad URL, before any request, and is never taken for a host that cannot
// be reached.
func TestBadPort(t *testing.T) {
	f := &pagefetch.Fetcher{Client: pagefetch.NewClient(pagefetch.ClientOptions{}), Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: "tse-crawler/9.9", Robots: true}
	for _, u := range []string{"http://127.0.0.1:99999/p.html", "http://127.0.0.1:0/p.html", "http://example.test:65536/"} {
		_, err := f.Fetch(t.Context(), u)
		if !errors.Is(err, pagefetch.ErrBadPort) || pagefetch.Reason(err) != "bad URL" {
			t.Errorf("Fetch(%s) = %v (reason %q), want ErrBadPort, a bad URL", u, err, pagefetch.Reason(err))
		}
		if _, ok := errors.AsType[*pagefetch.UnreachableError](err); ok {
			t.Errorf("Fetch(%s) = %v: a host that cannot be reached", u, err)
		}
	}
	if n := f.Scheduler.Requests(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A pipeHost plays, in memory, a host that takes every connection and
// never answers a GET, for a transport inside a synctest bubble: its
// connections are net.Pipes, which block durably, as sockets do not. It
// may answer a HEAD, as a proxy answers for a host, and it may refuse the
// connections after the first few, as a host that went away does.
type pipeHost struct {
	answerHead  bool
	refuseAfter int // connections taken before every later one is refused; 0 for no limit

	mu       sync.Mutex
	dials    int
	requests []string // "METHOD target", in order
}

func (h *pipeHost) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	h.mu.Lock()
	h.dials++
	n := h.dials
	h.mu.Unlock()
	if h.refuseAfter > 0 && n > h.refuseAfter {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused")}
	}
	client, server := net.Pipe()
	go h.serve(server)
	return client, nil
}

func (h *pipeHost) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br) // a silent GET waits here for the client to hang up
		if err != nil {
			return
		}
		h.mu.Lock()
		h.requests = append(h.requests, req.Method+" "+req.RequestURI)
		h.mu.Unlock()
		if req.Method == http.MethodHead && h.answerHead {
			io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		}
	}
}

// TestRecheckOneTimeout: once the last attempt at a robots.txt or a page
// has timed out on a connection the host took and never answered, the
// fetcher asks whether the host can still be connected to, and a
// connection answers that: the fetch ends at one timeout, not two, having
// sent nothing more. Through an HTTP proxy, a connection is the proxy's,
// which says nothing of the host, so the proxy's answer is waited for, a
// second at most: a proxy that never answers costs one timeout and a
// second, not two timeouts.
func TestRecheckOneTimeout(t *testing.T) {
	const timeout = 5 * time.Second
	const site = "http://site.test"
	tests := []struct {
		name        string
		robots      bool
		proxy       bool
		answerHead  bool
		refuseAfter int
		unreachable bool
		took        time.Duration
		dials       int
		requests    []string
	}{
		{name: "robots.txt", robots: true, took: timeout, dials: 2,
			requests: []string{"GET /robots.txt"}},
		{name: "page", took: timeout, dials: 2,
			requests: []string{"GET /p.html"}},
		{name: "robots.txt, then no connection", robots: true, refuseAfter: 1, unreachable: true, took: timeout, dials: 2,
			requests: []string{"GET /robots.txt"}},
		{name: "page, then no connection", refuseAfter: 1, unreachable: true, took: timeout, dials: 2,
			requests: []string{"GET /p.html"}},
		{name: "through a proxy that answers", proxy: true, answerHead: true, took: timeout, dials: 2,
			requests: []string{"GET " + site + "/p.html", "HEAD " + site + "/robots.txt"}},
		{name: "through a proxy that never answers", proxy: true, took: timeout + time.Second, dials: 2,
			requests: []string{"GET " + site + "/p.html", "HEAD " + site + "/robots.txt"}},
		{name: "robots.txt through a proxy that never answers", robots: true, proxy: true, took: timeout + time.Second, dials: 2,
			requests: []string{"GET " + site + "/robots.txt", "HEAD " + site + "/robots.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := &pipeHost{answerHead: tt.answerHead, refuseAfter: tt.refuseAfter}
				tr := &http.Transport{DialContext: h.dial}
				if tt.proxy {
					tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: "proxy.test:3128"})
				}
				defer tr.CloseIdleConnections()
				f := &pagefetch.Fetcher{
					Client:    &http.Client{Transport: tr, Timeout: timeout},
					Scheduler: pagefetch.NewScheduler(0, nil, 1),
					UserAgent: userAgent,
					Robots:    tt.robots,
				}
				start := time.Now()
				_, err := f.Fetch(t.Context(), site+"/p.html")
				if took := time.Since(start); took != tt.took {
					t.Errorf("Fetch took %v, want %v", took, tt.took)
				}
				if _, got := errors.AsType[*pagefetch.UnreachableError](err); got != tt.unreachable {
					t.Errorf("Fetch error %v: unreachable %v, want %v", err, got, tt.unreachable)
				}
				if !tt.unreachable && !isTimeout(err) {
					t.Errorf("Fetch error %v, want a timeout", err)
				}
				if tt.robots && !tt.unreachable && !errors.Is(err, pagefetch.ErrRobotsUnavailable) {
					t.Errorf("Fetch error %v, want ErrRobotsUnavailable", err)
				}
				synctest.Wait() // until the host has read all it was sent
				h.mu.Lock()
				defer h.mu.Unlock()
				if h.dials != tt.dials || !slices.Equal(h.requests, tt.requests) {
					t.Errorf("%d connections, requests %q; want %d, %q", h.dials, h.requests, tt.dials, tt.requests)
				}
			})
		})
	}
}
