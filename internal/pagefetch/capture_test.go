package pagefetch_test

import (
	"bytes"
	"compress/gzip"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/pace/pacetest"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/warc"
)

// captureFetcher returns a fetcher whose client records, obeying robots.txt
// and retrying once.
func captureFetcher(t *testing.T, tlsConfig *tls.Config) *pagefetch.Fetcher {
	t.Helper()
	c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second, Capture: true, TLS: tlsConfig})
	t.Cleanup(c.CloseIdleConnections)
	// A fake clock, so that the retry's backoff is not slept.
	f := &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, pacetest.New(), 1), UserAgent: userAgent, Record: true}
	f.Robots, f.Retries = true, 1
	return f
}

// readAll reads a recorded response whole.
func readAll(t *testing.T, src warc.Source) []byte {
	t.Helper()
	b, err := io.ReadAll(io.NewSectionReader(src, 0, src.Size()))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// statuses sums a tape up as "path status" words.
func statuses(t *testing.T, xs []warc.Exchange) string {
	t.Helper()
	var words []string
	for _, x := range xs {
		status, _, _ := strings.Cut(string(readAll(t, x.Response)), "\r\n")
		_, code, _ := strings.Cut(status, " ")
		code, _, _ = strings.Cut(code, " ")
		target := x.TargetURI[strings.LastIndex(x.TargetURI, "/"):]
		words = append(words, target+" "+code)
		if x.IP != "127.0.0.1" {
			t.Errorf("%s: IP %q, want 127.0.0.1", x.TargetURI, x.IP)
		}
		if x.Date.IsZero() {
			t.Errorf("%s: no date", x.TargetURI)
		}
		if !strings.HasPrefix(string(x.Request), "GET "+target+" HTTP/1.1\r\n") {
			t.Errorf("%s: request %q", x.TargetURI, x.Request)
		}
		if !strings.Contains(string(x.Request), "\r\nAccept-Encoding: identity\r\n") {
			t.Errorf("%s: request %q asks for a content coding", x.TargetURI, x.Request)
		}
	}
	return strings.Join(words, ", ")
}

// TestTape: every request a recording fetch makes is recorded as sent
// and as received, its robots.txt, the robots.txt's redirect and a retry
// included, the chunked framing kept, and a body left unread too.
func TestTape(t *testing.T) {
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			failures := 0
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					http.Redirect(w, r, "/real-robots.txt", http.StatusMovedPermanently)
				case "/real-robots.txt":
					w.Header().Set("Content-Type", "text/plain")
					fmt.Fprint(w, "User-agent: *\nDisallow: /no/\n")
				case "/page.html":
					if failures == 0 {
						failures++
						http.Error(w, "try again", http.StatusServiceUnavailable)
						return
					}
					w.Write([]byte("<html>chunk one"))
					w.(http.Flusher).Flush() // chunked from here
					w.Write([]byte(" and two</html>"))
				case "/missing.html":
					w.WriteHeader(http.StatusNotFound)
					w.Write(bytes.Repeat([]byte("x"), 64<<10))
				}
			})
			var srv *httptest.Server
			var cfg *tls.Config
			if scheme == "https" {
				srv = httptest.NewTLSServer(h)
				pool := x509.NewCertPool()
				pool.AddCert(srv.Certificate())
				cfg = &tls.Config{RootCAs: pool}
			} else {
				srv = httptest.NewServer(h)
			}
			defer srv.Close()
			f := captureFetcher(t, cfg)

			body, tape, err := f.FetchRecorded(t.Context(), srv.URL+"/page.html")
			if err != nil {
				t.Fatal(err)
			}
			origin, robots := tape.RobotsOrigin, tape.Robots
			if origin != srv.URL {
				t.Errorf("robots.txt of %q, want %q", origin, srv.URL)
			}
			if got, want := statuses(t, robots), "/robots.txt 301, /real-robots.txt 200"; got != want {
				t.Fatalf("robots.txt: %s, want %s", got, want)
			}
			xs := tape.Exchanges
			if got, want := statuses(t, xs), "/page.html 503, /page.html 200"; got != want {
				t.Fatalf("tape: %s, want %s", got, want)
			}
			last := string(readAll(t, xs[len(xs)-1].Response))
			if !strings.Contains(last, "\r\nTransfer-Encoding: chunked\r\n") || !strings.HasSuffix(last, "\r\n0\r\n\r\n") {
				t.Errorf("the page's response is not recorded with its chunks: %q", last)
			}
			if string(body) != "<html>chunk one and two</html>" {
				t.Errorf("body %q", body)
			}

			_, missing, err := f.FetchRecorded(t.Context(), srv.URL+"/missing.html")
			if err == nil {
				t.Fatal("no error for a 404")
			}
			if got, want := statuses(t, missing.Exchanges), "/missing.html 404"; got != want {
				t.Fatalf("tape: %s, want %s", got, want)
			}
			// Every page of the origin carries its robots.txt, read once.
			if again := missing.Robots; len(again) != 2 || &again[0] != &robots[0] {
				t.Errorf("the second page carries robots.txt exchanges %v", again)
			}
			if n := missing.Exchanges[0].Response.Size(); n >= 64<<10 {
				t.Errorf("the 404's body, which is drained only in part, is recorded with %d bytes", n)
			}

			// A fetcher that does not record returns no recording.
			plain := captureFetcher(t, cfg)
			plain.Record = false
			_, none, err := plain.FetchRecorded(t.Context(), srv.URL+"/page.html")
			if err != nil {
				t.Fatal(err)
			}
			if len(none.Exchanges) != 0 || none.Robots != nil {
				t.Errorf("a fetcher that does not record recorded %v", none)
			}
		})
	}
}

// TestTapeBounded: a response that takes far more bytes on the wire than
// its page, here a gzip stream of a short page padded with empty blocks
// that decode to nothing, is recorded only up to the header limit and
// twice the size limit, and marked cut short; the page is still fetched.
func TestTapeBounded(t *testing.T) {
	const pad = 200_000 // empty blocks of 5 bytes each: about 1 MB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write([]byte("<html>"))
		for range pad {
			zw.Flush() // an empty block
		}
		zw.Write([]byte("</html>"))
		zw.Close()
	}))
	defer srv.Close()
	f := captureFetcher(t, nil)
	f.Robots, f.MaxSize = false, 1024
	const header = 4096
	f.Client.Transport.(*http.Transport).MaxResponseHeaderBytes = header

	body, tape, err := f.FetchRecorded(t.Context(), srv.URL+"/page.html")
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != "<html></html>" {
		t.Errorf("body %q", body)
	}
	xs := tape.Exchanges
	if len(xs) != 1 {
		t.Fatalf("%d exchanges, want 1", len(xs))
	}
	if n, most := xs[0].Response.Size(), header+2*f.MaxSize; n != most || xs[0].Truncated != "length" {
		t.Errorf("recorded %d bytes, truncated %q; want %d, \"length\"", n, xs[0].Truncated, most)
	}
}

// connectProxy is an http proxy on loopback that opens CONNECT tunnels,
// relays plain requests, and keeps the request lines and the
// Proxy-Authorization it was sent. refuse makes it answer CONNECT with a
// 403, silent with nothing at all, and endless with a head that never
// ends.
type connectProxy struct {
	*httptest.Server
	mu                      sync.Mutex
	lines, auths            []string
	refuse, silent, endless bool
}

func newConnectProxy(t *testing.T) *connectProxy {
	p := &connectProxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.lines = append(p.lines, r.Method+" "+r.RequestURI)
		p.auths = append(p.auths, r.Header.Get("Proxy-Authorization"))
		refuse, silent, endless := p.refuse, p.silent, p.endless
		p.mu.Unlock()
		if r.Method != http.MethodConnect {
			resp, err := http.DefaultTransport.RoundTrip(r)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(resp.StatusCode)
			io.Copy(w, resp.Body)
			return
		}
		if refuse {
			http.Error(w, "no tunnels here", http.StatusForbidden)
			return
		}
		client, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer client.Close()
		if silent {
			<-r.Context().Done()
			return
		}
		if endless {
			line := []byte("X-Padding: " + strings.Repeat("a", 1000) + "\r\n")
			client.Write([]byte("HTTP/1.1 200 Connection established\r\n"))
			for {
				if _, err := client.Write(line); err != nil {
					return
				}
			}
		}
		server, err := net.Dial("tcp", r.Host)
		if err != nil {
			return
		}
		defer server.Close()
		client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
		done := make(chan struct{})
		go func() { io.Copy(server, client); close(done) }()
		io.Copy(client, server)
		server.Close()
		<-done
	}))
	t.Cleanup(p.Close)
	return p
}

// TestTapeThroughProxy: an https page fetched through an http proxy is
// recorded as plaintext, through a tunnel the client opens with CONNECT,
// credentials and all; a plain http page still goes to the proxy in
// absolute form; and a tunnel the proxy refuses, or never answers, or a
// proxy the client cannot record through, fails the fetch.
func TestTapeThroughProxy(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "14")
		w.Write([]byte("<html>s</html>"))
	}))
	defer srv.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>plain</html>"))
	}))
	defer plain.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	p := newConnectProxy(t)
	fetcher := func(proxy string, timeout time.Duration) *pagefetch.Fetcher {
		pu, err := url.Parse(proxy)
		if err != nil {
			t.Fatal(err)
		}
		c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: timeout, Capture: true,
			TLS: &tls.Config{RootCAs: pool}, Proxy: http.ProxyURL(pu)})
		t.Cleanup(c.CloseIdleConnections)
		return &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, pacetest.New(), 1), UserAgent: userAgent, Record: true}
	}
	host := strings.TrimPrefix(srv.URL, "https://")

	f := fetcher("http://crawler:s3cret@"+strings.TrimPrefix(p.URL, "http://"), 10*time.Second)
	body, tape, err := f.FetchRecorded(t.Context(), srv.URL+"/page.html")
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != "<html>s</html>" {
		t.Errorf("body %q", body)
	}
	xs := tape.Exchanges
	if len(xs) != 1 {
		t.Fatalf("%d exchanges, want 1", len(xs))
	}
	if req := string(xs[0].Request); !strings.HasPrefix(req, "GET /page.html HTTP/1.1\r\nHost: "+host+"\r\n") {
		t.Errorf("the request is not recorded as sent in the tunnel: %q", req)
	}
	if resp := string(readAll(t, xs[0].Response)); !strings.HasPrefix(resp, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(resp, "\r\n\r\n<html>s</html>") {
		t.Errorf("the response is not recorded as plaintext: %q", resp)
	}
	if _, err := f.Fetch(t.Context(), plain.URL+"/p.html"); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	lines, auths := p.lines, p.auths
	p.mu.Unlock()
	want := []string{"CONNECT " + host, "GET " + plain.URL + "/p.html"}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("the proxy was sent %q, want %q", lines, want)
	}
	if basic := "Basic Y3Jhd2xlcjpzM2NyZXQ="; len(auths) < 1 || auths[0] != basic {
		t.Errorf("CONNECT came with Proxy-Authorization %q, want %q", auths, basic)
	}

	p.mu.Lock()
	p.refuse = true
	p.mu.Unlock()
	_, err = fetcher(p.URL, 10*time.Second).Fetch(t.Context(), srv.URL+"/page.html")
	if err == nil || !strings.Contains(err.Error(), "refused to open a tunnel to "+host+" (403)") {
		t.Errorf("a refused tunnel: %v", err)
	}

	p.mu.Lock()
	p.refuse, p.silent = false, true
	p.mu.Unlock()
	start := time.Now()
	_, err = fetcher(p.URL, 300*time.Millisecond).Fetch(t.Context(), srv.URL+"/page.html")
	if err == nil {
		t.Error("a proxy that never answers CONNECT: no error")
	}
	if !isTimeout(err) {
		t.Errorf("a proxy that never answers CONNECT: %v, want a timeout", err)
	}
	// The fetch is expected to end after two attempts of 300ms each; the
	// bound, fifty times that, leaves room for a busy machine.
	d := time.Since(start)
	t.Logf("a proxy that never answers held the fetch %v; expected about 600ms, two attempts of 300ms", d)
	if d > 30*time.Second {
		t.Errorf("a proxy that never answers held the fetch %v, far past two attempts of 300ms", d)
	}

	p.mu.Lock()
	p.silent, p.endless = false, true
	p.mu.Unlock()
	start = time.Now()
	_, err = fetcher(p.URL, 30*time.Second).Fetch(t.Context(), srv.URL+"/page.html")
	if err == nil {
		t.Error("a proxy whose answer to CONNECT never ends: no error")
	}
	// Read through a limit, the head ends in an error well before the 30s
	// timeout; read without one, it would end only at the timeout. Which
	// it was is told by the error, not by the clock.
	if isTimeout(err) {
		t.Errorf("a proxy whose answer never ends held the fetch until its timeout: its head is read without a limit: %v", err)
	}
	t.Logf("a proxy whose answer never ends held the fetch %v; expected well under a second, the time to read the limit", time.Since(start))

	_, err = fetcher("socks5://"+strings.TrimPrefix(p.URL, "http://"), 10*time.Second).Fetch(t.Context(), srv.URL+"/page.html")
	if err == nil || !strings.Contains(err.Error(), "cannot be recorded") {
		t.Errorf("https through a socks5 proxy: %v, want it refused", err)
	}
}

// TestTapeTargetURI: a record's target is the URI as the request line
// carried it, with the bytes a URI cannot hold percent-encoded as they
// went on the wire, whatever raw bytes the crawl's key for the page holds.
func TestTapeTargetURI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>hello</p>")
	}))
	defer srv.Close()
	f := captureFetcher(t, nil)
	f.Robots = false
	tests := []struct{ key, want string }{
		{"/\xff\xfe.html", "/%FF%FE.html"},
		{"/a b.html", "/a%20b.html"},
		{"/caf\xc3\xa9.html", "/caf%C3%A9.html"},
		{"/q.html?x y\xff", "/q.html?x%20y%FF"},
		{"/q.html?<lt>'sq'\"dq\"", "/q.html?%3Clt%3E%27sq%27%22dq%22"},
		{"/it's.html?it's", "/it's.html?it%27s"}, // the path as the request line has it, with its quote
		{"/plain.html?a=1#top", "/plain.html?a=1"},
	}
	for _, tt := range tests {
		_, tape, err := f.FetchRecorded(t.Context(), srv.URL+tt.key)
		if err != nil {
			t.Fatalf("Fetch(%q): %v", tt.key, err)
		}
		xs := tape.Exchanges
		if len(xs) != 1 {
			t.Fatalf("Fetch(%q) recorded %d exchanges, want 1", tt.key, len(xs))
		}
		if got, want := xs[0].TargetURI, srv.URL+tt.want; got != want {
			t.Errorf("Fetch(%q) recorded target %q, want %q", tt.key, got, want)
		}
		w, err := warc.Create(filepath.Join(t.TempDir(), "x.warc"), warc.Info{Software: "test/1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteExchange(xs[0]); err != nil {
			t.Errorf("Fetch(%q): the exchange cannot be written: %v", tt.key, err)
		}
		w.Close()
	}
}

// TestTapeIPAddress: an exchange made on a connection to the server
// itself has the server's address; one made through a proxy, plain http
// sent to it or https through its tunnel, has none, as the address
// connected to was the proxy's. The client decides for each request, so
// that a host the proxy function sends direct still has its address.
func TestTapeIPAddress(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>p</html>"))
	})
	plain, direct := httptest.NewServer(page), httptest.NewServer(page)
	defer plain.Close()
	defer direct.Close()
	secure := httptest.NewTLSServer(page)
	defer secure.Close()
	pool := x509.NewCertPool()
	pool.AddCert(secure.Certificate())
	p := newConnectProxy(t)
	pu, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	fetcher := func(proxy func(*http.Request) (*url.URL, error)) *pagefetch.Fetcher {
		c := pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second, Capture: true,
			TLS: &tls.Config{RootCAs: pool}, Proxy: proxy})
		t.Cleanup(c.CloseIdleConnections)
		return &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, pacetest.New(), 1), UserAgent: userAgent, Record: true}
	}
	// Every host through the proxy but direct's.
	proxied := fetcher(func(r *http.Request) (*url.URL, error) {
		if r.URL.Host == strings.TrimPrefix(direct.URL, "http://") {
			return nil, nil
		}
		return pu, nil
	})
	tests := []struct {
		name string
		f    *pagefetch.Fetcher
		url  string
		ip   string
	}{
		{"http without a proxy", fetcher(nil), plain.URL, "127.0.0.1"},
		{"https without a proxy", fetcher(nil), secure.URL, "127.0.0.1"},
		{"http through a proxy", proxied, plain.URL, ""},
		{"https through a proxy's tunnel", proxied, secure.URL, ""},
		{"http the proxy function sends direct", proxied, direct.URL, "127.0.0.1"},
		{"http through a proxy again", proxied, plain.URL, ""},
	}
	for _, tt := range tests {
		_, tape, err := tt.f.FetchRecorded(t.Context(), tt.url+"/page.html")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(tape.Exchanges) != 1 {
			t.Fatalf("%s: %d exchanges, want 1", tt.name, len(tape.Exchanges))
		}
		if ip := tape.Exchanges[0].IP; ip != tt.ip {
			t.Errorf("%s: IP %q, want %q", tt.name, ip, tt.ip)
		}
	}
	p.mu.Lock()
	lines := p.lines
	p.mu.Unlock()
	host := strings.TrimPrefix(secure.URL, "https://")
	want := []string{"GET " + plain.URL + "/page.html", "CONNECT " + host, "GET " + plain.URL + "/page.html"}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("the proxy was sent %q, want %q", lines, want)
	}
}
