package job

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"

	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/scope"
)

// proxyFunc chooses a proxy from HTTP_PROXY, HTTPS_PROXY and NO_PROXY, or
// their lower-case forms, read through getenv. (http.ProxyFromEnvironment
// would read the process's environment once and for all, which a test
// cannot change.) A proxy variable that is set but is not a proxy URL is an
// error: net/http would ignore it and send every request straight to the
// web, which is not what the user asked for. A crawl that records (-warc)
// opens https tunnels itself, through an http:// proxy only.
func proxyFunc(getenv func(string) string, recording bool) (func(*http.Request) (*url.URL, error), error) {
	either := func(name string) (string, error) {
		v := getenv(name)
		if v == "" {
			name = strings.ToLower(name)
			v = getenv(name)
		}
		if v != "" && !proxyURL(v) {
			return "", fmt.Errorf("%s=%q is not a proxy URL: give one such as http://127.0.0.1:8080, or unset it", name, v)
		}
		return v, nil
	}
	var cfg httpproxy.Config
	var err error
	if cfg.HTTPProxy, err = either("HTTP_PROXY"); err != nil {
		return nil, err
	}
	if cfg.HTTPSProxy, err = either("HTTPS_PROXY"); err != nil {
		return nil, err
	}
	if v := cfg.HTTPSProxy; recording && v != "" && !strings.HasPrefix(strings.ToLower(v), "http://") && strings.Contains(v, "://") {
		return nil, fmt.Errorf("the https proxy %q cannot be used with -warc: https then goes through a tunnel the crawler opens itself, to record what passes inside TLS, and only an http:// proxy gives one: give such a proxy, or unset it", v)
	}
	cfg.NoProxy = getenv("NO_PROXY")
	if cfg.NoProxy == "" {
		cfg.NoProxy = getenv("no_proxy")
	}
	proxy := cfg.ProxyFunc()
	return func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }, nil
}

// httpsProxyWarning warns of a crawl that may fetch https while only
// HTTP_PROXY names a proxy, and returns "" for any other. HTTP_PROXY
// covers http alone, as in net/http, curl and wget, so https requests
// would go straight to the network, which a user who set a proxy most
// likely meant them not to.
func httpsProxyWarning(cfg *Settings, getenv func(string) string) string {
	set := func(name string) string {
		for _, n := range []string{name, strings.ToLower(name)} {
			if getenv(n) != "" {
				return n
			}
		}
		return ""
	}
	httpVar := set("HTTP_PROXY")
	if httpVar == "" || set("HTTPS_PROXY") != "" {
		return ""
	}
	prefixes, _ := cfg.prefixes() // Parse checked them
	for _, p := range prefixes {
		if strings.HasPrefix(strings.ToLower(p), "https:") {
			return fmt.Sprintf("%s is set, but HTTPS_PROXY is not, and the scope holds https (%s): https requests go straight to the network, not through the proxy, since HTTP_PROXY covers http alone; set HTTPS_PROXY for them", httpVar, p)
		}
	}
	return ""
}

// proxyURL reports whether v names a proxy that net/http can use, read as
// httpproxy reads it: a URL with a scheme net/http speaks and a host, or
// host:port alone, which means http.
func proxyURL(v string) bool {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" || u.Host == "" {
		u, err = url.Parse("http://" + v)
	}
	if err != nil || u.Hostname() == "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return false
		}
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
		return true
	}
	return false
}

// outageHint says what most likely cut the crawl off from a host, and what
// to do about it, and the condition under which to run the crawl again:
// "the network is back", or what stands for it. pageURL is the page it was
// fetching.
func outageHint(ue *pagefetch.UnreachableError, pageURL string, proxy func(*http.Request) (*url.URL, error)) (hint, once string) {
	// The variable that names the proxy for the page's scheme.
	envName, scheme := "HTTP_PROXY", "http"
	if strings.HasPrefix(pageURL, "https:") {
		envName, scheme = "HTTPS_PROXY", "https"
	}
	once = "the network is back"
	if pr, ok := errors.AsType[*pagefetch.ProxyRefusedError](ue); ok {
		once = "the proxy lets the crawl through"
		if pr.Code == http.StatusProxyAuthRequired {
			return fmt.Sprintf("The proxy asks for credentials (%s): give them in %s, as http://user:password@host:port.", pr.Status, envName), once
		}
		return fmt.Sprintf("The proxy answered %s: it is the proxy's refusal, not the site's. Give %s a proxy that opens tunnels to https sites, or unset it to reach them directly; the playground's proxy serves http only.", pr.Status, envName), once
	}
	if req, err := http.NewRequest(http.MethodGet, pageURL, nil); err == nil {
		if p, err := proxy(req); err == nil && p != nil {
			return fmt.Sprintf("Is the proxy %s, which %s names, running? Every %s request goes through it.", p.Redacted(), envName, scheme), once
		}
	}
	name, _, err := net.SplitHostPort(ue.Host)
	if err != nil {
		name = ue.Host
	}
	switch {
	case !ue.DNS() && (strings.EqualFold(name, "localhost") || net.ParseIP(name).IsLoopback()):
		// Loopback never goes through a proxy, nor is it the network.
		return fmt.Sprintf("Is the server at %s running? Nothing on this machine answers there.", ue.Host), "the server answers"
	case ue.DNS() && "http://"+name+"/tse/" == scope.CS50Prefix:
		return fmt.Sprintf("Is this machine offline? The name %s could not be looked up. To crawl the offline copy of the CS50 site instead, serve it with the playground and set HTTP_PROXY (README: \"Crawling the offline playground\").", name), once
	case ue.DNS():
		return fmt.Sprintf("Is this machine offline, or is the name %s misspelled? It could not be looked up.", name), once
	}
	return fmt.Sprintf("Is %s down, or this machine offline? If this machine reaches the web through a proxy, set %s.", ue.Host, envName), once
}

// pauselessProxy returns proxy, which warns through warn, once, as a
// request first goes through a proxy with less than a second between
// requests. The loopback rule lets such a crawl through a proxy on
// loopback, which is how the test rigs serve a copy of a site; but a
// forwarding proxy (a local Squid or cntlm) may pass the requests on to a
// real server, which the crawler cannot see. The warning names the
// variable, read through getenv, rather than the proxy's address, which
// a test rig chooses afresh each time.
func pauselessProxy(proxy func(*http.Request) (*url.URL, error), delay time.Duration, getenv func(string) string, warn func(string)) func(*http.Request) (*url.URL, error) {
	if proxy == nil || delay >= time.Second {
		return proxy
	}
	var once sync.Once
	return func(r *http.Request) (*url.URL, error) {
		u, err := proxy(r)
		// A proxy at an address that is not loopback is refused as the
		// crawler dials it, with its own error.
		if u != nil && loopbackOrName(u.Hostname()) {
			once.Do(func() {
				name := strings.ToUpper(r.URL.Scheme) + "_PROXY"
				if getenv(name) == "" && getenv(strings.ToLower(name)) != "" {
					name = strings.ToLower(name)
				}
				warn(fmt.Sprintf("-delay %v through the proxy that %s names: the crawler cannot see whether it forwards to a real server; if it does, give -delay 1s or more", delay, name))
			})
		}
		return u, err
	}
}

// loopbackOrName reports whether host is a name, or an IP address that is
// loopback.
func loopbackOrName(host string) bool {
	ip := net.ParseIP(host)
	return ip == nil || ip.IsLoopback()
}
