package pagefetch_test

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/pagefetch"
)

// A lineServer is a raw TCP server on 127.0.0.1 that records the request
// line of every request, exactly as it came, and answers each with a small
// HTML page. Acting as a proxy is no different for it: it records the
// absolute-form request line it is sent.
type lineServer struct {
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	lines []string
}

func newLineServer(t *testing.T) *lineServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &lineServer{ln: ln}
	s.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return // closed
			}
			s.wg.Go(func() { s.serve(conn) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		s.wg.Wait()
	})
	return s
}

func (s *lineServer) serve(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil {
		return
	}
	s.mu.Lock()
	s.lines = append(s.lines, strings.TrimRight(line, "\r\n"))
	s.mu.Unlock()
	for { // the header, up to the empty line; a GET has no body
		if l, err := r.ReadString('\n'); err != nil || l == "\r\n" {
			break
		}
	}
	const body = "<p>hello</p>"
	conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\nConnection: close\r\n\r\n" + body))
}

func (s *lineServer) requestLines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// TestRequestTarget checks the request line on the wire: in html mode
// (WHATWG) it carries the URL's path and query byte for byte, directly and
// through a proxy; in the reference mode it is net/url's, as it always
// was.
func TestRequestTarget(t *testing.T) {
	const host = "cs50tse.cs.dartmouth.edu" // reached only through the proxy: never looked up
	tests := []struct {
		name   string
		whatwg bool
		proxy  bool
		path   string // after the scheme and host
		want   string // the request line, with HOST for the server's host:port
	}{
		{"plain", true, false, "/tse/a.html?q=1", "GET /tse/a.html?q=1 HTTP/1.1"},
		{"pipe and caret", true, false, "/a|b^c.html?q=a|b^`{}", "GET /a|b^c.html?q=a|b^`{} HTTP/1.1"},
		{"brackets and quote", true, false, "/[x]'y.html", "GET /[x]'y.html HTTP/1.1"},
		{"percent without hex", true, false, "/%zz/x.html", "GET /%zz/x.html HTTP/1.1"},
		{"escapes kept in their case", true, false, "/caf%c3%a9.html", "GET /caf%c3%a9.html HTTP/1.1"},
		{"escaped slash", true, false, "/a%2Fb.html", "GET /a%2Fb.html HTTP/1.1"},
		{"empty query", true, false, "/a|b.html?", "GET /a|b.html? HTTP/1.1"},
		{"path starting with two slashes", true, false, "//x|y.html", "GET http://HOST//x|y.html HTTP/1.1"},
		{"proxied plain", true, true, "/tse/a.html", "GET http://" + host + "/tse/a.html HTTP/1.1"},
		{"proxied pipe", true, true, "/a|b.html?q=^", "GET http://" + host + "/a|b.html?q=^ HTTP/1.1"},
		{"proxied percent without hex", true, true, "/%zz.html", "GET http://" + host + "/%zz.html HTTP/1.1"},
		{"reference mode re-escapes", false, false, "/a|b^c.html", "GET /a%7Cb%5Ec.html HTTP/1.1"},
		{"reference mode proxied", false, true, "/a|b.html", "GET http://" + host + "/a%7Cb.html HTTP/1.1"},
		// The reference mode keeps a link's raw bytes in its key; the
		// request line never carries them.
		{"reference mode raw bytes", false, false, "/\xff\xfe a.html", "GET /%FF%FE%20a.html HTTP/1.1"},
		{"reference mode raw query", false, false, "/q.html?x y\xff", "GET /q.html?x%20y%FF HTTP/1.1"},
		{"reference mode raw query proxied", false, true, "/q.html?x y\xe9", "GET http://" + host + "/q.html?x%20y%E9 HTTP/1.1"},
		// In a query, a browser also escapes '"', '<', '>' and "'" (the
		// special-query set), and nothing else that is printable ASCII.
		{"reference mode query as a browser sends it", false, false, "/q.html?<lt>'sq'\"dq\"", "GET /q.html?%3Clt%3E%27sq%27%22dq%22 HTTP/1.1"},
		{"reference mode query as a browser sends it proxied", false, true, "/q.html?<'\">", "GET http://" + host + "/q.html?%3C%27%22%3E HTTP/1.1"},
		{"reference mode query, every printable byte", false, false, "/q.html?!\"$&'()*+,-./:;<=>?@[\\]^_`{|}~",
			"GET /q.html?!%22$&%27()*+,-./:;%3C=%3E?@[\\]^_`{|}~ HTTP/1.1"},
		// In a path, net/url keeps "'", as a browser does.
		{"reference mode quote in the path", false, false, "/it's.html?it's", "GET /it's.html?it%27s HTTP/1.1"},
		// The browser's serialization has the query escaped already.
		{"html mode query", true, false, "/q.html?%3Clt%3E%27sq%27", "GET /q.html?%3Clt%3E%27sq%27 HTTP/1.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newLineServer(t)
			opts := pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second}
			pageURL := "http://" + srv.ln.Addr().String() + tt.path
			if tt.proxy {
				opts.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: srv.ln.Addr().String()})
				pageURL = "http://" + host + tt.path
			}
			c := pagefetch.NewClient(opts)
			t.Cleanup(c.CloseIdleConnections)
			f := newFetcher(c)
			f.WHATWG = tt.whatwg
			body, err := f.Fetch(t.Context(), pageURL)
			if err != nil || string(body) != "<p>hello</p>" {
				t.Fatalf("Fetch(%q) = %q, %v", pageURL, body, err)
			}
			want := strings.ReplaceAll(tt.want, "HOST", srv.ln.Addr().String())
			if lines := srv.requestLines(); len(lines) != 1 || lines[0] != want {
				t.Errorf("Fetch(%q) sent %q, want %q", pageURL, lines, want)
			}
		})
	}
}

// TestRequestTargetHTTP2 checks the :path of an https request in html mode,
// over HTTP/2, for a path net/url would re-escape and one that starts with
// "//", which goes out in absolute form on HTTP/1.1.
func TestRequestTargetHTTP2(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Proto+" "+r.RequestURI)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>hello</p>"))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	c := pagefetch.NewClient(pagefetch.ClientOptions{
		LoopbackOnly: true, Timeout: 10 * time.Second, TLS: &tls.Config{RootCAs: roots},
	})
	t.Cleanup(c.CloseIdleConnections)
	f := newFetcher(c)
	f.WHATWG = true
	for _, path := range []string{"/a|b^c.html?q=|", "//x|y.html"} {
		if _, err := f.Fetch(t.Context(), srv.URL+path); err != nil {
			t.Fatalf("Fetch(%q): %v", srv.URL+path, err)
		}
	}
	want := []string{"HTTP/2.0 /a|b^c.html?q=|", "HTTP/2.0 //x|y.html"}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server saw %q, want %q", got, want)
	}
}

// TestWHATWGRedirect checks that html mode resolves a redirect's Location
// as a browser does, and hands on one a browser cannot resolve as it came.
func TestWHATWGRedirect(t *testing.T) {
	tests := []struct {
		location string
		whatwg   bool
		want     string // with SITE for the server
	}{
		{`\other\x.html`, true, "SITE/other/x.html"},
		{"a b.html", true, "SITE/dir/a%20b.html"},
		{"http://h:80/x.html", true, "http://h/x.html"},
		{"http://h:99999/", true, "http://h:99999/"}, // net/url takes any port; a browser does not
		{`\other\x.html`, false, `SITE/dir/\other\x.html`},
	}
	for _, tt := range tests {
		srv, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", tt.location)
			w.WriteHeader(http.StatusMovedPermanently)
		}))
		f := newFetcher(loopbackClient(t))
		f.WHATWG = tt.whatwg
		_, err := f.Fetch(t.Context(), srv.URL+"/dir/p.html")
		want := strings.ReplaceAll(tt.want, "SITE", srv.URL)
		re, ok := err.(*pagefetch.RedirectError)
		if !ok || re.Location != want {
			t.Errorf("WHATWG %v, Location %q: Fetch error %v, want a redirect to %q", tt.whatwg, tt.location, err, want)
		}
	}
}

// TestRequestTargetRobots checks that html mode reads robots.txt and then
// requests a page that net/url cannot parse whole.
func TestRequestTargetRobots(t *testing.T) {
	srv := newLineServer(t)
	c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second})
	t.Cleanup(c.CloseIdleConnections)
	f := newFetcher(c)
	f.WHATWG, f.Robots = true, true
	pageURL := "http://" + srv.ln.Addr().String() + "/%zz|.html"
	if _, err := f.Fetch(t.Context(), pageURL); err != nil {
		t.Fatalf("Fetch(%q): %v", pageURL, err)
	}
	want := []string{"GET /robots.txt HTTP/1.1", "GET /%zz|.html HTTP/1.1"}
	if got := srv.requestLines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Fetch(%q) sent %q, want %q", pageURL, got, want)
	}
}
