package job

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"tse-crawler/internal/pagefetch"
)

// TestOutageHint checks that a crawl cut off from a host says what most
// likely happened and what to do, without looking up any real name: the
// errors are made up as the fetcher would report them.
func TestOutageHint(t *testing.T) {
	dnsErr := &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	noProxy := func(*http.Request) (*url.URL, error) { return nil, nil }
	proxy := func(*http.Request) (*url.URL, error) { return url.Parse("http://127.0.0.1:9") }
	tests := []struct {
		name  string
		ue    *pagefetch.UnreachableError
		page  string
		proxy func(*http.Request) (*url.URL, error)
		want  []string
	}{
		{"CS50 host offline",
			&pagefetch.UnreachableError{Host: "cs50tse.cs.dartmouth.edu", Err: dnsErr},
			"http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", noProxy,
			[]string{"offline", "cs50tse.cs.dartmouth.edu", "playground", "HTTP_PROXY", "Crawling the offline playground"}},
		{"CS50 host with a port",
			&pagefetch.UnreachableError{Host: "cs50tse.cs.dartmouth.edu:80", Err: dnsErr},
			"http://cs50tse.cs.dartmouth.edu:80/tse/index.html", noProxy,
			[]string{"playground", "HTTP_PROXY"}},
		{"other name",
			&pagefetch.UnreachableError{Host: "www.exmaple.edu", Err: dnsErr},
			"http://www.exmaple.edu/index.html", noProxy,
			[]string{"offline", "misspelled", "www.exmaple.edu", "Once the network is back,"}},
		{"refused",
			&pagefetch.UnreachableError{Host: "www.example.edu", Err: refused},
			"http://www.example.edu/index.html", noProxy,
			[]string{"www.example.edu", "down", "HTTP_PROXY"}},
		{"a server on loopback, stopped",
			&pagefetch.UnreachableError{Host: "127.0.0.1:8765", Err: refused},
			"http://127.0.0.1:8765/tse/zoo/index.html", noProxy,
			[]string{"the server at 127.0.0.1:8765 running", "Nothing on this machine answers there", "Once the server answers,"}},
		{"localhost, stopped",
			&pagefetch.UnreachableError{Host: "localhost:8765", Err: refused},
			"http://localhost:8765/index.html", noProxy,
			[]string{"the server at localhost:8765 running"}},
		{"through a proxy",
			&pagefetch.UnreachableError{Host: "cs50tse.cs.dartmouth.edu", Addr: "127.0.0.1:9", Err: refused},
			"http://cs50tse.cs.dartmouth.edu/tse/index.html", proxy,
			[]string{"proxy http://127.0.0.1:9", "HTTP_PROXY", "running", "Every http request"}},
		{"https through a proxy",
			&pagefetch.UnreachableError{Host: "www.example.edu", Addr: "127.0.0.1:9", Err: refused},
			"https://www.example.edu/index.html", proxy,
			[]string{"proxy http://127.0.0.1:9", "which HTTPS_PROXY names", "running", "Every https request"}},
		{"https refused",
			&pagefetch.UnreachableError{Host: "www.example.edu", Err: refused},
			"https://www.example.edu/index.html", noProxy,
			[]string{"www.example.edu", "down", "set HTTPS_PROXY"}},
		{"a tunnel refused",
			&pagefetch.UnreachableError{Host: "www.example.edu", Addr: "127.0.0.1:9", Err: &pagefetch.ProxyRefusedError{
				Proxy: "http://127.0.0.1:9", Target: "www.example.edu:443", Code: 405, Status: "405 Method Not Allowed"}},
			"https://www.example.edu/index.html", proxy,
			[]string{"answered 405 Method Not Allowed", "the proxy's refusal, not the site's", "HTTPS_PROXY", "playground", "Once the proxy lets the crawl through,"}},
		{"a tunnel that needs credentials",
			&pagefetch.UnreachableError{Host: "www.example.edu", Addr: "127.0.0.1:9", Err: &pagefetch.ProxyRefusedError{
				Proxy: "http://127.0.0.1:9", Target: "www.example.edu:443", Code: 407, Status: "407 Proxy Authentication Required"}},
			"https://www.example.edu/index.html", proxy,
			[]string{"credentials", "407 Proxy Authentication Required", "HTTPS_PROXY", "http://user:password@host:port"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, once := outageHint(tt.ue, tt.page, tt.proxy)
			got += " Once " + once + ","
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("outageHint = %q, want it to mention %q", got, w)
				}
			}
			if !errors.Is(tt.ue, tt.ue.Err) {
				t.Fatal("UnreachableError does not unwrap")
			}
		})
	}
}
