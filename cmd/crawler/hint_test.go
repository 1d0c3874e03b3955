package main

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
			[]string{"offline", "misspelled", "www.exmaple.edu"}},
		{"refused",
			&pagefetch.UnreachableError{Host: "www.example.edu", Err: refused},
			"http://www.example.edu/index.html", noProxy,
			[]string{"www.example.edu", "down", "HTTP_PROXY"}},
		{"through a proxy",
			&pagefetch.UnreachableError{Host: "cs50tse.cs.dartmouth.edu", Addr: "127.0.0.1:9", Err: refused},
			"http://cs50tse.cs.dartmouth.edu/tse/index.html", proxy,
			[]string{"proxy http://127.0.0.1:9", "HTTP_PROXY", "running"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outageHint(tt.ue, tt.page, tt.proxy)
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
