package job

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestHTTPSProxyWarning: a crawl whose scope holds https, with a proxy for
// http alone, is warned that https goes straight to the network; any
// other is not.
func TestHTTPSProxyWarning(t *testing.T) {
	const proxy = "http://127.0.0.1:9"
	tests := []struct {
		name   string
		getenv func(string) string
		args   []string // before seedURL pageDirectory maxDepth
		seed   string
		want   string // the variable the warning names, or "" for none
	}{
		{"HTTP_PROXY, https scope", envOf("HTTP_PROXY", proxy), []string{"-scope", "https://site.test/"}, "https://site.test/index.html", "HTTP_PROXY"},
		{"http_proxy, https scope", envOf("http_proxy", proxy), []string{"-scope", "https://site.test/"}, "https://site.test/index.html", "http_proxy"},
		{"HTTP_PROXY, an https scope among others", envOf("HTTP_PROXY", proxy),
			[]string{"-scope", "http://site.test/", "-scope", "HTTPS://*.site.test/"}, "http://site.test/index.html", "HTTP_PROXY"},
		{"HTTP_PROXY, https scope, reference mode", envOf("HTTP_PROXY", proxy), []string{"-links", "reference", "-scope", "https://site.test/"}, "https://site.test/index.html", "HTTP_PROXY"},
		{"both proxies", envOf("HTTP_PROXY", proxy, "HTTPS_PROXY", proxy), []string{"-scope", "https://site.test/"}, "https://site.test/index.html", ""},
		{"both proxies, lower case", envOf("HTTP_PROXY", proxy, "https_proxy", proxy), []string{"-scope", "https://site.test/"}, "https://site.test/index.html", ""},
		{"HTTPS_PROXY alone", envOf("HTTPS_PROXY", proxy), []string{"-scope", "https://site.test/"}, "https://site.test/index.html", ""},
		{"no proxy", envOf(), []string{"-scope", "https://site.test/"}, "https://site.test/index.html", ""},
		{"HTTP_PROXY, http scope", envOf("HTTP_PROXY", proxy), []string{"-scope", "http://site.test/"}, "http://site.test/index.html", ""},
		{"HTTP_PROXY, the CS50 site", envOf("HTTP_PROXY", proxy), nil, zooSeed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := checked(t, tt.seed, func(cfg *Settings) {
				for i := 0; i < len(tt.args); i += 2 {
					switch tt.args[i] {
					case "-scope":
						cfg.Scopes = append(cfg.Scopes, tt.args[i+1])
					case "-links":
						cfg.Links = tt.args[i+1]
					}
				}
			})
			got := httpsProxyWarning(cfg, tt.getenv)
			if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want+" is set, but HTTPS_PROXY is not") {
				t.Errorf("warning %q, want one naming %q", got, tt.want)
			}
		})
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

// TestPauselessProxy: a crawl with less than a second between requests is
// warned, once, as a request first goes through a proxy that is not
// refused at the dial, naming the variable that names the proxy; any
// other is not.
func TestPauselessProxy(t *testing.T) {
	tests := []struct {
		name   string
		delay  time.Duration
		getenv func(string) string
		urls   []string // the requests, in order
		want   string   // the variable the warning names, or "" for none
	}{
		{"no pause, HTTP_PROXY on loopback", 0, envOf("HTTP_PROXY", "http://127.0.0.1:9"), []string{"http://site.test/", "http://site.test/a"}, "HTTP_PROXY"},
		{"500ms, http_proxy", 500 * time.Millisecond, envOf("http_proxy", "http://127.0.0.1:9"), []string{"http://site.test/"}, "http_proxy"},
		{"a proxy on IPv6 loopback", 0, envOf("HTTP_PROXY", "http://[::1]:9"), []string{"http://site.test/"}, "HTTP_PROXY"},
		{"a proxy named, which the dial resolves", 0, envOf("HTTP_PROXY", "http://localhost:9"), []string{"http://site.test/"}, "HTTP_PROXY"},
		{"https, through HTTPS_PROXY", 0, envOf("HTTP_PROXY", "http://127.0.0.1:9", "HTTPS_PROXY", "http://127.0.0.1:10"), []string{"https://site.test/"}, "HTTPS_PROXY"},
		{"the first through a proxy names it", 0, envOf("HTTPS_PROXY", "http://127.0.0.1:9"), []string{"http://site.test/", "https://site.test/"}, "HTTPS_PROXY"},
		{"a second's pause", time.Second, envOf("HTTP_PROXY", "http://127.0.0.1:9"), []string{"http://site.test/"}, ""},
		{"no proxy", 0, envOf(), []string{"http://site.test/"}, ""},
		{"a loopback site, never through a proxy", 0, envOf("HTTP_PROXY", "http://127.0.0.1:9"), []string{"http://127.0.0.1:8080/"}, ""},
		{"NO_PROXY", 0, envOf("HTTP_PROXY", "http://127.0.0.1:9", "NO_PROXY", "site.test"), []string{"http://site.test/"}, ""},
		// The dial refuses it, with the error that says why.
		{"a proxy that is not loopback", 0, envOf("HTTP_PROXY", "http://192.0.2.1:9"), []string{"http://site.test/"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proxy, err := proxyFunc(tt.getenv, false)
			if err != nil {
				t.Fatal(err)
			}
			var warned []string
			proxy = pauselessProxy(proxy, tt.delay, tt.getenv, func(msg string) { warned = append(warned, msg) })
			for _, u := range tt.urls {
				r := &http.Request{URL: must(url.Parse(u))}
				if _, err := proxy(r); err != nil {
					t.Fatal(err)
				}
			}
			want := "-delay " + tt.delay.String() + " through the proxy that " + tt.want + " names: the crawler cannot see whether it forwards to a real server"
			switch {
			case tt.want == "" && len(warned) != 0:
				t.Errorf("warned %q, want no warning", warned)
			case tt.want != "" && (len(warned) != 1 || !strings.HasPrefix(warned[0], want)):
				t.Errorf("warned %q, want once: %s…", warned, want)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
