package hostile_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"html"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"tse-crawler/internal/testbed/hostile"
)

// client fetches through s as a proxy, and follows no redirect.
func client(s *hostile.Server) *http.Client {
	proxy, _ := url.Parse(s.URL)
	return &http.Client{
		Transport:     &http.Transport{Proxy: http.ProxyURL(proxy), DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       10 * time.Second,
	}
}

// keepAlive is client with connections kept alive.
func keepAlive(s *hostile.Server) *http.Client {
	c := client(s)
	c.Transport.(*http.Transport).DisableKeepAlives = false
	return c
}

func TestCases(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{DeadOrigin: "http://127.0.0.1:9"})
	c := client(s)
	tests := []struct {
		url      string
		code     int
		location string // for a redirect
		body     string // a part of the body
	}{
		{"http://cs50tse.cs.dartmouth.edu/robots.txt", 200, "", "Disallow: /tse/no/"},
		{hostile.PlainSeed, 200, "", `href="a.html"`},
		{"http://cs50tse.cs.dartmouth.edu/tse/plain/old.html", 301, "/tse/plain/d.html", ""},
		{"http://cs50tse.cs.dartmouth.edu/tse/plain/missing.html", 404, "", "404 Not Found"},
		{hostile.UpgradeSeed, 200, "", `href="hang.html"`},
		{hostile.UpgradeRobotsSeed, 200, "", `href="http://upgrade-robots.test/a.html"`},
		{"http://upgrade-robots.test/a.html", 200, "", "robots.txt"},
		{hostile.RedirectSeed, 200, "", `href="r/0.html"`},
		{hostile.RedirectChain + "0.html", 302, "/tse/r/1.html", ""},
		{hostile.RedirectChain + "999.html", 302, "/tse/r/1000.html", ""},
		{hostile.RedirectChain + "1000.html", 404, "", ""},
		{hostile.DotsSeed, 200, "", `href="..%2fsecret.html"`},
		{hostile.DotsRedirect, 302, hostile.DotsRedirectTarget, ""},
		{"http://cs50tse.cs.dartmouth.edu/tse/%2e%2e/secret.html", 200, "", "secret"},
		{"http://cs50tse.cs.dartmouth.edu/tse/..%2fsecret.html", 200, "", "secret"},
		{"http://cs50tse.cs.dartmouth.edu/tse/x/%2e%2e/no/p.html", 200, "", "disallows"},
		{"http://cs50tse.cs.dartmouth.edu/tse/%2e%2e/%2e%2e/x.html", 400, "", ""},
		{hostile.ControlSeed, 200, "", "href=\"a\x1b]0;pwned\x07.html\""},
		{hostile.BusySeed, 200, "", `href="down.html"`},
		{hostile.BusyPage, 503, "", ""},
		{hostile.DeadSeed, 200, "", `href="http://127.0.0.1:9/a.html"`},
		{"http://127.0.0.1:9/tse/dead/alive.html", 200, "", "alive"}, // served as the CS50 host
		{"http://dead.test/a.html", 502, "", ""},
		{hostile.InterimSeed, 200, "", `href="hints.html"`},
		{hostile.TrailingSeed, 200, "", `href="chunked.html"`},
		{hostile.RawSeed, 200, "", "href=\"caf\xc3\xa9.html\""},
		{hostile.RawRedirect, 302, hostile.RawRedirectTarget, ""},
		// As net/http sends them: the path escaped, the query as it is.
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/\xff\xfe.html", 200, "", "raw name"},
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/a b.html", 200, "", "raw name"},
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/caf\xc3\xa9.html", 200, "", "raw name"},
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/q.html?x y\xff", 200, "", "raw name"},
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/\xe9t\xe9.html", 200, "", "raw name"},
		{hostile.HostsSeed, 200, "", `href="http://a.hostile.test/index.html"`},
		{"http://a.hostile.test/robots.txt", 200, "", "Disallow: /tse/no/"},
		{"http://c.hostile.test/robots.txt", 200, "", "Disallow: /tse/no/"},
		{"http://c.hostile.test/3/3.html", 200, "", `href="../index.html"`},
		{"http://c.hostile.test/4.html", 404, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.url, "http://127.0.0.1:9/") {
				// Straight to the server, as a crawler with no proxy asks.
				req.URL.Host = strings.TrimPrefix(s.URL, "http://")
			}
			res, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tt.code || res.Header.Get("Location") != tt.location {
				t.Errorf("GET %s = %d Location %q, want %d %q", tt.url, res.StatusCode, res.Header.Get("Location"), tt.code, tt.location)
			}
			if !strings.Contains(string(body), tt.body) {
				t.Errorf("GET %s: body %q lacks %q", tt.url, body, tt.body)
			}
		})
	}
}

func TestRequestsRecorded(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	c := client(s)
	for _, u := range []string{hostile.DotsSeed, "http://cs50tse.cs.dartmouth.edu/tse/.%2E/secret.html", "http://UPGRADE-robots.test/b.html", "http://cs50tse.cs.dartmouth.edu/tse/raw/q.html?x y\xff"} {
		res, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	got := s.Requests()
	want := []hostile.Request{
		{Method: "GET", Host: hostile.Host, Path: "/tse/dots.html", Decoded: "/tse/dots.html"},
		{Method: "GET", Host: hostile.Host, Path: "/tse/.%2E/secret.html", Decoded: "/secret.html"},
		{Method: "GET", Host: hostile.UpgradeRobotsHost, Path: "/b.html", Decoded: "/b.html"},
		{Method: "GET", Host: hostile.Host, Path: "/tse/raw/q.html", Query: "x y\xff", Decoded: "/tse/raw/q.html"},
	}
	if len(got) != len(want) {
		t.Fatalf("recorded %d requests, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Time.IsZero() || i > 0 && got[i].Time.Before(got[i-1].Time) {
			t.Errorf("request %d: time %v is not in order", i, got[i].Time)
		}
		got[i].Time = time.Time{}
		if got[i] != want[i] {
			t.Errorf("request %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Expected at once, for the request came already; a minute leaves
	// room for a busy machine.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := s.Await(ctx, func(r hostile.Request) bool { return r.Decoded == "/secret.html" }); err != nil {
		t.Errorf("Await for a request already received: %v", err)
	}
	ctx, cancel = context.WithCancel(t.Context())
	cancel()
	if err := s.Await(ctx, func(hostile.Request) bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("Await with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestSwitchingProtocols checks that both 101 cases answer 101 and then
// hold the connection, and that Close ends the connections rather than
// waiting on them.
func TestSwitchingProtocols(t *testing.T) {
	tests := []struct{ name, url, host string }{
		{"page", hostile.UpgradeHang, hostile.Host},
		{"robots.txt", "http://upgrade-robots.test/robots.txt", hostile.UpgradeRobotsHost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := hostile.Start(hostile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			conn, err := net.Dial("tcp", s.Addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// Bounds every read: a server that never closes fails the test.
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			io.WriteString(conn, "GET "+tt.url+" HTTP/1.1\r\nHost: "+tt.host+"\r\n\r\n")
			r := bufio.NewReader(conn)
			res, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusSwitchingProtocols {
				t.Fatalf("status %d, want 101", res.StatusCode)
			}
			if r.Buffered() != 0 {
				t.Errorf("%d bytes after the 101, want none", r.Buffered())
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			if err := s.AwaitHeld(ctx, 1); err != nil || s.Held() != 1 {
				t.Errorf("AwaitHeld = %v, Held = %d; want the connection held", err, s.Held())
			}
			s.Close() // must not wait for the held connection
			if n := s.Held(); n != 0 {
				t.Errorf("after Close, %d connections held, want none", n)
			}
			if n, err := r.Read(make([]byte, 1)); err != io.EOF && !errors.Is(err, syscall.ECONNRESET) {
				t.Errorf("after Close, Read = %d, %v; want EOF", n, err)
			}
		})
	}
}

// TestDownAfter checks that a server told to go down after two answers
// gives them and then refuses every connection, robots.txt aside.
func TestDownAfter(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{DownAfter: 2})
	c := client(s)
	for _, u := range []string{"http://cs50tse.cs.dartmouth.edu/robots.txt", hostile.PlainSeed, "http://cs50tse.cs.dartmouth.edu/tse/plain/a.html"} {
		res, err := c.Get(u)
		if err != nil {
			t.Fatalf("GET %s before the server goes down: %v", u, err)
		}
		res.Body.Close()
	}
	_, err := c.Get("http://cs50tse.cs.dartmouth.edu/tse/plain/b.html")
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("GET after the server went down: %v, want connection refused", err)
	}
	// The address is free again, for a server that takes over.
	s2 := hostile.ServeTest(t, hostile.Options{Addr: s.Addr})
	if s2.URL != s.URL {
		t.Errorf("the new server is at %s, want %s", s2.URL, s.URL)
	}
}

func TestFreeAddr(t *testing.T) {
	addr, err := hostile.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dialing %s: %v, want connection refused", addr, err)
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		in, want string // want "" for an error
	}{
		{"/", "/"},
		{"/tse/a.html", "/tse/a.html"},
		{"/tse/", "/tse/"},
		{"/tse//a//b.html", "/tse/a/b.html"},
		{"/tse/../secret.html", "/secret.html"},
		{"/tse/%2e%2e/secret.html", "/secret.html"},
		{"/tse/.%2E/secret.html", "/secret.html"},
		{"/tse/..%2fsecret.html", "/secret.html"},
		{"/tse/x/%2e%2e/no/p.html", "/tse/no/p.html"},
		{"/tse/x/%2e", "/tse/x/"},
		{"/tse/x/..", "/tse/"},
		{"/tse/%41.html", "/tse/A.html"},
		{"/tse/%9b.html", "/tse/\x9b.html"},
		{"/tse/%252e%252e/x.html", "/tse/%2e%2e/x.html"}, // decoded once
		{"/..", ""},
		{"/tse/%2e%2e/%2e%2e/x", ""},
		{"/tse/%zz", ""},
		{"/tse/%2", ""},
		{"tse/a.html", ""},
	}
	for _, tt := range tests {
		got, err := hostile.Resolve(tt.in)
		if (err != nil) != (tt.want == "") || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestRawSeed checks that RawSeed holds RawLinks byte for byte.
func TestRawSeed(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	res, err := client(s).Get(hostile.RawSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range append(hostile.RawLinks, "go.html") {
		if !strings.Contains(string(body), `href="`+link+`"`) && !strings.Contains(string(body), `href='`+link+`'`) {
			t.Errorf("RawSeed lacks href=%q:\n%q", link, body)
		}
	}
}

// TestRawTargets sends the raw pages' URLs in every form a client might
// give them, pipelined on one connection kept alive, and checks that each
// is a page, and that each request is recorded as it was sent.
func TestRawTargets(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	tests := []struct{ target, decoded string }{
		{"/tse/raw/index.html", "/tse/raw/index.html"},
		{"/tse/raw/%FF%FE.html", "/tse/raw/\xff\xfe.html"},
		{"/tse/raw/\xff\xfe.html", "/tse/raw/\xff\xfe.html"},
		{"/tse/raw/%EF%BF%BD%EF%BF%BD.html", "/tse/raw/\ufffd\ufffd.html"}, // a browser's reading of the bytes
		{"/tse/raw/a%20b.html", "/tse/raw/a b.html"},
		{"/tse/raw/a b.html", "/tse/raw/a b.html"},
		{"/tse/raw/a%20b.html", "/tse/raw/a b.html"}, // after a raw space, as it was sent
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/a b.html", "/tse/raw/a b.html"},
		{"/tse/raw/caf%C3%A9.html", "/tse/raw/caf\u00e9.html"},
		{"/tse/raw/caf\xc3\xa9.html", "/tse/raw/caf\u00e9.html"},
		{"/tse/raw/q.html?x y\xff", "/tse/raw/q.html"},
		{"/tse/raw/q.html?x%20y%FF", "/tse/raw/q.html"},
		{"http://cs50tse.cs.dartmouth.edu/tse/raw/q.html?x y\xff", "/tse/raw/q.html"},
		{"/tse/raw/q.html?<lt>'sq'\"dq\"", "/tse/raw/q.html"},
		{"/tse/raw/q.html?%3Clt%3E%27sq%27%22dq%22", "/tse/raw/q.html"},
		{"/tse/raw/%E9t%E9.html", "/tse/raw/\xe9t\xe9.html"},
		{"/tse/raw/\xe9t\xe9.html", "/tse/raw/\xe9t\xe9.html"},
		{"/tse/raw/%C3%A9t%C3%A9.html", "/tse/raw/\u00e9t\u00e9.html"}, // read as Latin-1
	}
	conn, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	var requests strings.Builder
	for _, tt := range tests {
		requests.WriteString("GET " + tt.target + " HTTP/1.1\r\nHost: " + hostile.Host + "\r\n\r\n")
	}
	if _, err := io.WriteString(conn, requests.String()); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	for _, tt := range tests {
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("GET %q: %v", tt.target, err)
		}
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != 200 {
			t.Errorf("GET %q = %d, %v; want 200", tt.target, res.StatusCode, err)
		}
		if tt.target != "/tse/raw/index.html" && !strings.Contains(string(body), "raw name") {
			t.Errorf("GET %q: %q is not the page of a raw name", tt.target, body)
		}
	}
	got := s.Requests()
	if len(got) != len(tests) {
		t.Fatalf("recorded %d requests, want %d: %+v", len(got), len(tests), got)
	}
	for i, tt := range tests {
		target := tt.target
		if !strings.HasPrefix(target, "/") {
			target = target[strings.Index(target, "/tse/"):]
		}
		path, query, _ := strings.Cut(target, "?")
		if r := got[i]; r.Host != hostile.Host || r.Path != path || r.Query != query || r.Decoded != tt.decoded {
			t.Errorf("GET %q recorded as %+v, want path %q, query %q, decoded %q", tt.target, r, path, query, tt.decoded)
		}
	}
}

// TestRequestLineInPieces sends a request line with a raw space in two
// pieces, the first while the request before it is being answered, and a
// request line too long to be rewritten: each must be read as one request.
func TestRequestLineInPieces(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	conn, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(conn)
	long := "/tse/" + strings.Repeat("x", 10<<10) + ".html"
	steps := []struct {
		send string
		code int // of the answer to read then; 0 for none
	}{
		{"GET /tse/plain/index.html HTTP/1.1\r\nHost: " + hostile.Host + "\r\n\r\nGET /tse/raw/a b", 200},
		{".html HTTP/1.1\r\nHost: " + hostile.Host + "\r\n\r\n", 200},
		{"GET " + long + " HTTP/1.1\r\nHost: " + hostile.Host + "\r\n\r\n", 404},
		{"GET /tse/raw/a b.html HTTP/1.1\r\nHost: " + hostile.Host + "\r\n\r\n", 200},
	}
	for _, step := range steps {
		if _, err := io.WriteString(conn, step.send); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("after %.40q: %v", step.send, err)
		}
		io.Copy(io.Discard, res.Body)
		if res.StatusCode != step.code {
			t.Errorf("after %.40q: %d, want %d", step.send, res.StatusCode, step.code)
		}
	}
	var paths []string
	for _, r := range s.Requests() {
		paths = append(paths, r.Path)
	}
	if want := []string{"/tse/plain/index.html", "/tse/raw/a b.html", long, "/tse/raw/a b.html"}; !slices.Equal(paths, want) {
		t.Errorf("recorded paths %.60q, want %.60q", paths, want)
	}
}

// exchange sends request to s on a connection of its own, and returns
// every byte s sends back until it closes the connection.
func exchange(t *testing.T, s *hostile.Server, request string) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Bounds every read: a server that never closes fails the test.
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	wire, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("reading the answer: %v, after %q", err, wire)
	}
	return wire
}

// get is a GET request for u, in the absolute form a proxy is sent.
func get(u string) string {
	host := strings.SplitN(u, "/", 4)[2]
	return "GET " + u + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n"
}

// TestInterim checks the bytes of InterimPage's answer, and that a Go
// client skips the interim responses to the page.
func TestInterim(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	wire := exchange(t, s, get(hostile.InterimPage))
	final, ok := bytes.CutPrefix(wire, []byte(hostile.InterimPrelude))
	if !ok {
		t.Fatalf("the answer %q does not begin with %q", wire, hostile.InterimPrelude)
	}
	r := bufio.NewReader(bytes.NewReader(final))
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 || !res.Close || string(body) != hostile.InterimBody {
		t.Errorf("the final answer is %d (Connection: close %v) with %q, %v; want 200, close, %q", res.StatusCode, res.Close, body, err, hostile.InterimBody)
	}
	if rest, _ := io.ReadAll(r); len(rest) > 0 {
		t.Errorf("%q after the final answer, want nothing", rest)
	}

	var codes []int
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, _ textproto.MIMEHeader) error {
		codes = append(codes, code)
		return nil
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), http.MethodGet, hostile.InterimPage, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = client(s).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err = io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 || string(body) != hostile.InterimBody {
		t.Errorf("net/http: %d with %q, %v; want 200 with InterimBody", res.StatusCode, body, err)
	}
	if !slices.Equal(codes, []int{100, 103}) {
		t.Errorf("net/http saw interim responses %v, want [100 103]", codes)
	}
}

// TestTrailing checks that each of the trailing pages is a whole message
// of TrailingBody followed by TrailingExtra and nothing else.
func TestTrailing(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	for _, u := range []string{hostile.TrailingPage, hostile.TrailingChunked} {
		wire := exchange(t, s, get(u))
		msg, ok := bytes.CutSuffix(wire, []byte(hostile.TrailingExtra))
		if !ok {
			t.Errorf("%s: the answer %q does not end with TrailingExtra", u, wire)
			continue
		}
		r := bufio.NewReader(bytes.NewReader(msg))
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != 200 || string(body) != hostile.TrailingBody {
			t.Errorf("%s: %d with %q, %v; want 200 with %q", u, res.StatusCode, body, err, hostile.TrailingBody)
		}
		if rest, _ := io.ReadAll(r); len(rest) > 0 {
			t.Errorf("%s: %q between the message and TrailingExtra, want nothing", u, rest)
		}
		chunked := slices.Equal(res.TransferEncoding, []string{"chunked"})
		if want := u == hostile.TrailingChunked; chunked != want || !chunked && res.ContentLength != int64(len(hostile.TrailingBody)) {
			t.Errorf("%s: Transfer-Encoding %q, Content-Length %d; want chunked %v", u, res.TransferEncoding, res.ContentLength, want)
		}
		if res.Close {
			t.Errorf("%s: Connection: close, want the connection to seem kept alive", u)
		}
	}
}

// TestHostsSite crawls HostsSeed's site, breadth first and last in first
// out, and checks that both crawls reach HostsPages pages on four hosts,
// the same at the same depth, every one of them within HostsScopes.
func TestHostsSite(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{})
	c := keepAlive(s)
	href := regexp.MustCompile(`href="([^"]*)"`)
	crawl := func(lifo bool) map[string]int {
		depth := map[string]int{hostile.HostsSeed: 0}
		bag := []string{hostile.HostsSeed}
		for len(bag) > 0 {
			var u string
			if lifo {
				u, bag = bag[len(bag)-1], bag[:len(bag)-1]
			} else {
				u, bag = bag[0], bag[1:]
			}
			res, err := c.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != 200 {
				t.Fatalf("GET %s = %d, %v; want 200", u, res.StatusCode, err)
			}
			if depth[u] == hostile.HostsDepth {
				continue
			}
			base, _ := url.Parse(u)
			for _, m := range href.FindAllStringSubmatch(string(body), -1) {
				ref, err := base.Parse(html.UnescapeString(m[1]))
				if err != nil {
					t.Fatal(err)
				}
				link := ref.String()
				if !slices.ContainsFunc(hostile.HostsScopes, func(p string) bool { return strings.HasPrefix(link, p) }) {
					t.Errorf("%s links to %s, outside HostsScopes", u, link)
				} else if _, seen := depth[link]; !seen {
					depth[link] = depth[u] + 1
					bag = append(bag, link)
				}
			}
		}
		return depth
	}
	bfs, lifo := crawl(false), crawl(true)
	if len(bfs) != hostile.HostsPages || !maps.Equal(bfs, lifo) {
		t.Errorf("breadth first: %d pages, last in first out: %d pages, want the same %d:\n%v\n%v", len(bfs), len(lifo), hostile.HostsPages, bfs, lifo)
	}
	hosts := make(map[string]bool)
	deepest := 0
	for u, d := range bfs {
		ref, _ := url.Parse(u)
		hosts[ref.Host] = true
		deepest = max(deepest, d)
	}
	if want := map[string]bool{hostile.Host: true, hostile.HostA: true, hostile.HostB: true, hostile.HostC: true}; !maps.Equal(hosts, want) {
		t.Errorf("the crawl reached hosts %v, want %v", slices.Sorted(maps.Keys(hosts)), slices.Sorted(maps.Keys(want)))
	}
	if deepest != hostile.HostsDepth {
		t.Errorf("the deepest page is at depth %d, want HostsDepth, %d", deepest, hostile.HostsDepth)
	}
	for _, h := range []string{hostile.Host, hostile.HostA, hostile.HostB, hostile.HostC} {
		res, err := c.Get("http://" + h + "/robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), "Disallow: "+hostile.Disallowed) {
			t.Errorf("%s's robots.txt is %q, not the CS50 host's", h, body)
		}
	}
}

// roundTrip sends a GET for u on conn, and returns the answer with its
// body read, and the error that ended the body, if any.
func roundTrip(t *testing.T, conn net.Conn, r *bufio.Reader, u string) (*http.Response, []byte, error) {
	t.Helper()
	if _, err := io.WriteString(conn, get(u)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	body, err := io.ReadAll(res.Body)
	return res, body, err
}

// awaitKilled waits, for at most ten seconds, until s is killed.
func awaitKilled(t *testing.T, s *hostile.Server) {
	t.Helper()
	select {
	case <-s.Killed():
	case <-time.After(10 * time.Second):
		t.Fatal("the server was not killed")
	}
}

// TestKillAfter kills a server in its fourth answer, with connections kept
// alive: one answer in flight, and two idle. The answer must be cut, every
// connection reset, and every new one refused, until another server takes
// the address.
func TestKillAfter(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{KillAfter: 4})
	goIdle := keepAlive(s)
	res, err := goIdle.Get(hostile.PlainSeed) // 1
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.Close {
		t.Error("an answer before the kill says Connection: close")
	}

	var conns [2]net.Conn
	var readers [2]*bufio.Reader
	for i := range conns {
		if conns[i], err = net.Dial("tcp", s.Addr); err != nil {
			t.Fatal(err)
		}
		defer conns[i].Close()
		conns[i].SetDeadline(time.Now().Add(10 * time.Second))
		readers[i] = bufio.NewReader(conns[i])
	}
	rawIdle, inFlight := 0, 1
	roundTrip(t, conns[rawIdle], readers[rawIdle], "http://cs50tse.cs.dartmouth.edu/tse/plain/a.html")   // 2
	roundTrip(t, conns[inFlight], readers[inFlight], "http://cs50tse.cs.dartmouth.edu/robots.txt")       // not counted
	roundTrip(t, conns[inFlight], readers[inFlight], "http://cs50tse.cs.dartmouth.edu/tse/plain/b.html") // 3
	res, body, err := roundTrip(t, conns[inFlight], readers[inFlight], "http://cs50tse.cs.dartmouth.edu/tse/plain/c.html")
	if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("the last answer's body ends with %v, want a reset", err)
	}
	if res.StatusCode != 200 || res.Close || len(body) == 0 || int64(len(body)) >= res.ContentLength {
		t.Errorf("the last answer is %d (Connection: close %v) with %d bytes of a %d-byte body; want 200, kept alive, and part of the body",
			res.StatusCode, res.Close, len(body), res.ContentLength)
	}
	awaitKilled(t, s)

	if n, err := readers[rawIdle].Read(make([]byte, 1)); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("the idle connection reads %d, %v; want a reset", n, err)
	}
	// net/http finds its idle connection reset, and dials anew.
	if _, err := goIdle.Get(hostile.PlainSeed); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("GET with an idle connection after the kill: %v, want connection refused", err)
	}
	if _, err := net.Dial("tcp", s.Addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dialing after the kill: %v, want connection refused", err)
	}

	s.Close() // must not fail, or hang, on a dead server
	back := hostile.ServeTest(t, hostile.Options{Addr: s.Addr})
	res, err = keepAlive(back).Get(hostile.PlainSeed)
	if err != nil {
		t.Fatalf("GET from the server that took over: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET from the server that took over = %d, want 200", res.StatusCode)
	}
}

// TestKillAt kills a server at a time, while it waits for the rest of a
// request.
func TestKillAt(t *testing.T) {
	s := hostile.ServeTest(t, hostile.Options{KillAt: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatalf("dialing just after Start: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(conn, "GET /tse/plain/index.html HTTP/1.1\r\n") // and no more
	awaitKilled(t, s)
	if n, err := conn.Read(make([]byte, 1)); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("the connection reads %d, %v; want a reset", n, err)
	}
	if _, err := net.Dial("tcp", s.Addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dialing after the kill: %v, want connection refused", err)
	}

	// A kill that races Close must not hang it, nor the kill panic.
	s2, err := hostile.Start(hostile.Options{KillAt: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	// Closed in time, a server is never killed.
	s3, err := hostile.Start(hostile.Options{KillAt: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	s3.Close()
	select {
	case <-s3.Killed():
		t.Error("a server closed before KillAt was killed")
	default:
	}
}
