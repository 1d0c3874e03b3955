package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPlainHTTPSeed crawls an https seed on a server that speaks plain
// HTTP: the message says so, and gives the seed as http, whether the
// failure came of robots.txt or of the page, and whether the crawl makes
// its own TLS connections (-warc) or not.
func TestPlainHTTPSeed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html><body>hello</body></html>")
	}))
	defer srv.Close()
	host := srv.Listener.Addr().String()
	seed := "https://" + host + "/index.html"
	tests := []struct {
		name  string
		flags []string
		msg   string
	}{
		{"robots.txt", nil, "crawler: " + seed + " answered in plain HTTP, not HTTPS: use http://" + host + "/index.html, and http:// in -scope\n"},
		{"page", []string{"-robots=false"}, "use http://" + host + "/index.html, and http:// in -scope\n"},
		{"own connections", []string{"-warc", "WARC"}, "answered in plain HTTP, not HTTPS: use http://" + host + "/index.html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"-delay", "0s", "-scope", "https://" + host + "/"}
			for _, f := range tt.flags {
				if f == "WARC" {
					f = t.TempDir() + "/crawl.warc"
				}
				args = append(args, f)
			}
			args = append(args, seed, t.TempDir(), "1")
			code, _, stderr := crawl(t.Context(), noProxy, args...)
			if code != exitSeedFetch || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, exitSeedFetch, tt.msg)
			}
			if strings.Contains(stderr, "robots.txt unavailable") {
				t.Errorf("stderr blames robots.txt:\n%s", stderr)
			}
		})
	}
}
