package pagefetch_test

import (
	"cmp"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"tse-crawler/internal/pace"
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
	// every packet.
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
		{name: "connection times out", url: "http://192.0.2.1/p.html", dial: blackhole, timeout: 50 * time.Millisecond, want: true},
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
				Pacer:     pace.New(0, nil),
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
		Pacer:     pace.New(0, nil),
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
	f := &pagefetch.Fetcher{Client: srv.Client(), Pacer: pace.New(0, nil), UserAgent: "tse-crawler/9.9"}
	if err := f.Reach(t.Context(), srv.URL); err != nil {
		t.Errorf("Reach(%s) = %v, want nil", srv.URL, err)
	}
	var ue *pagefetch.UnreachableError
	if err := f.Reach(t.Context(), "http://"+closedAddr(t)); !errors.As(err, &ue) {
		t.Errorf("Reach of a closed port = %v, want an UnreachableError", err)
	}
	if f.Requests() != 2 {
		t.Errorf("%d requests counted, want 2", f.Requests())
	}
}
