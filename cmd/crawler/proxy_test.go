package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tse-crawler/internal/testbed/hostile"
)

// TestProxyRefusesTunnel crawls an https site through the playground's
// proxy, which answers CONNECT with 405, as the issue found: with and
// without -warc (net/http's tunnel, or the crawler's own), the crawl stops
// with exit 8 and says that the proxy refused the tunnel, not that the
// site's robots.txt is unavailable; no page is marked FAILED, and the
// command that resumes it is given. site.test is never looked up: every
// request goes to the proxy on loopback, as -delay 0 enforces.
func TestProxyRefusesTunnel(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	env := func(name string) string {
		if name == "HTTPS_PROXY" {
			return p.URL
		}
		return ""
	}
	for _, warc := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"-delay", "0", "-scope", "https://site.test/", "https://site.test/index.html", dir, "2"}
		if warc {
			args = append([]string{"-warc", filepath.Join(t.TempDir(), "x.warc")}, args...)
		}
		code, stdout, stderr := crawl(t.Context(), env, args...)
		want := "the proxy " + p.URL + " refused to open a tunnel to site.test:443 (405)"
		if code != exitOutage || !strings.Contains(stderr, want) {
			t.Errorf("-warc %v: exit %d, want %d and %q:\n%s", warc, code, exitOutage, want, stderr)
		}
		for _, w := range []string{"answered 405 Method Not Allowed", "Once the proxy lets the crawl through, run: HTTPS_PROXY=" + p.URL + " crawler "} {
			if !strings.Contains(stderr, w) {
				t.Errorf("-warc %v: stderr does not say %q:\n%s", warc, w, stderr)
			}
		}
		if strings.Contains(stderr, "robots.txt") || strings.Contains(stdout, "FAILED") {
			t.Errorf("-warc %v: the proxy's refusal is taken for the site's answer:\n%s%s", warc, stdout, stderr)
		}
		if names, _ := os.ReadDir(dir); len(names) != 1 {
			t.Errorf("-warc %v: the page directory holds %v, want .crawler alone", warc, names)
		}
	}
	if n := p.requests.Load(); n != 2 {
		t.Errorf("the proxy got %d requests, want one CONNECT for each crawl", n)
	}
}

// TestHTTPSProxyWarning: a crawl whose scope holds https, with a proxy for
// http alone, is warned once, before its first request, that https goes
// straight to the network. The crawl warned is of
// https://127.0.0.1:PORT, on which nothing listens, so no request leaves
// the machine: it stops with exit 8, after the warning.
func TestHTTPSProxyWarning(t *testing.T) {
	const proxy = "http://127.0.0.1:9"
	addr, err := hostile.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := crawl(t.Context(), envOf("HTTP_PROXY", proxy), "-delay", "0", "-scope", "https://"+addr+"/", "https://"+addr+"/index.html", t.TempDir(), "1")
	warning := "crawler: warning: HTTP_PROXY is set, but HTTPS_PROXY is not, and the scope holds https (https://" + addr + "/)"
	if code != exitOutage || strings.Count(stderr, "HTTPS_PROXY is not") != 1 || !strings.HasPrefix(stderr, warning) {
		t.Errorf("exit %d, want %d, with the warning once, first:\n%s", code, exitOutage, stderr)
	}
}

// envOf returns a getenv of the variables given as name, value, ….
func envOf(vars ...string) func(string) string {
	return func(name string) string {
		for i := 0; i < len(vars); i += 2 {
			if vars[i] == name {
				return vars[i+1]
			}
		}
		return ""
	}
}
