package job

import (
	"strings"
	"testing"
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
