package pagefetch

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// The request target is what follows GET on the request line. In html
// mode a page's URL is its WHATWG serialization (package browserurl), and a
// browser sends that URL's path and query as they are. net/url does not:
// it re-escapes a path it thinks is badly escaped, so that "/a|b" goes out
// as "/a%7Cb" and "/x^y" as "/x%5Ey", and it refuses a '%' that is not
// followed by two hex digits, which the standard leaves alone. A server
// may take those for other pages, or the same page under two names. So
// with WHATWG set, the fetcher writes the target itself, through
// url.URL.Opaque, whenever net/url would change it.

// splitTarget splits an absolute URL into its site, "scheme://authority",
// and its request target, the path and query. It reports false if the
// target is not one that can go on the wire as it is: a WHATWG
// serialization of an http or https URL has a path that starts with '/',
// and no byte in it or its query is a space, a control or not ASCII.
func splitTarget(rawURL string) (site, target string, ok bool) {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok || scheme != "http" && scheme != "https" {
		return "", "", false
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 || strings.ContainsAny(rest[:slash], "?#") {
		return "", "", false
	}
	target = rest[slash:]
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c >= 0x7f || c == '#' {
			return "", "", false
		}
	}
	return rawURL[:len(scheme)+3+slash], target, true
}

// newRequest returns a request for rawURL. Unless whatwg is set (f.WHATWG,
// or a requisite's URL, which is always a WHATWG serialization), and
// whenever rawURL is not a serialization that splitTarget accepts, it is
// http.NewRequestWithContext's, with the URL as net/url reads it, so the
// reference mode's requests are what they always were.
//
// Otherwise the request target is rawURL's path and query, byte for byte:
// in origin form ("/a|b?q") on a direct connection or through a tunnel, in
// absolute form ("http://host/a|b?q") to an HTTP proxy, as net/http does for
// any URL. A path that starts with "//" goes in absolute form either way,
// since net/http reads an Opaque that starts so as an authority; servers
// must accept that form (RFC 9112, section 3.2.2), and HTTP/2 turns it back
// into the path.
//
// A HEAD's connection is closed once it is answered, never kept alive: a
// server may answer a HEAD with a body, which the transport never reads,
// and those bytes would be the answer to whatever request took the
// connection next, perhaps one to another host through the same proxy.
func (f *Fetcher) newRequest(ctx context.Context, method, rawURL string, whatwg bool) (*http.Request, error) {
	req, err := f.request(ctx, method, rawURL, whatwg)
	if err == nil && method == http.MethodHead {
		req.Close = true
	}
	return req, err
}

func (f *Fetcher) request(ctx context.Context, method, rawURL string, whatwg bool) (*http.Request, error) {
	site, target, ok := splitTarget(rawURL)
	if !whatwg || !ok {
		req, err := http.NewRequestWithContext(ctx, method, rawURL, nil)
		if err == nil {
			req.URL.RawQuery = wireEscape(req.URL.RawQuery, true)
		}
		return req, err
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, nil)
	if err == nil && req.URL.RequestURI() == target {
		return req, nil // net/url sends it as it is: the usual case
	}
	req, err = http.NewRequestWithContext(ctx, method, site, nil)
	if err != nil {
		return nil, err
	}
	req.URL.Opaque = target
	if strings.HasPrefix(target, "//") || f.viaHTTPProxy(req) {
		req.URL.Opaque = "//" + req.URL.Host + target
	}
	return req, nil
}

// viaHTTPProxy reports whether the client's transport will send req to an
// HTTP proxy rather than to its host, which calls for the absolute form.
// It asks the transport's own Proxy function, so it agrees with the
// transport: https goes through a CONNECT tunnel and SOCKS proxies relay a
// connection, and both then take the origin form.
func (f *Fetcher) viaHTTPProxy(req *http.Request) bool {
	t, ok := f.Client.Transport.(*http.Transport)
	if !ok || t.Proxy == nil || req.URL.Scheme != "http" {
		return false
	}
	p, err := t.Proxy(req)
	if err != nil || p == nil {
		return false
	}
	return p.Scheme != "socks5" && p.Scheme != "socks5h"
}

// requestPath returns the URL of rawURL's request, with the path and the
// query (with its '?') that robots.txt rules are matched against: the ones
// newRequest sends, given the same whatwg.
func (f *Fetcher) requestPath(rawURL string, whatwg bool) (u *url.URL, path, query string, err error) {
	if site, target, ok := splitTarget(rawURL); whatwg && ok {
		if u, err = url.Parse(site); err != nil {
			return nil, "", "", err
		}
		path, query, hasQuery := strings.Cut(target, "?")
		if hasQuery {
			query = "?" + query
		}
		return u, path, query, nil
	}
	if u, err = url.Parse(rawURL); err != nil {
		return nil, "", "", err
	}
	u.RawQuery = wireEscape(u.RawQuery, true)
	path, query = pathAndQuery(u)
	return u, path, query, nil
}

// wireEscape percent-encodes the bytes of s, a query if query is set and
// a path otherwise, that must not go on the wire as they are. In a query,
// those are the WHATWG URL Standard's special-query percent-encode set,
// which a browser uses for http and https: controls, space, '"', '#', '<',
// '>', "'" and every byte from 0x7F. net/url sends a query as it is, and
// the reference mode keeps a link's raw bytes: "q.html?x y" would go out
// as "GET /q.html?x y HTTP/1.1", which a server reads as a target of
// "/q.html?x" and a protocol of "y", and "q.html?<a>" as no browser sends
// it. A browser sends "%20" and "%3Ca%3E", as this does. A path comes
// escaped already, by net/url, which escapes every byte a browser does
// and more, or as a browser serializes it; in it, only the bytes that no
// request line can carry are escaped: controls, space and every byte from
// 0x7F.
func wireEscape(s string, query bool) string {
	i := 0
	for i < len(s) && !mustEscape(s[i], query) {
		i++
	}
	if i == len(s) {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := []byte(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; mustEscape(c, query) {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// mustEscape reports whether wireEscape escapes c in a path or, with
// query set, in a query.
func mustEscape(c byte, query bool) bool {
	if c <= ' ' || c >= 0x7f {
		return true
	}
	return query && (c == '"' || c == '#' || c == '<' || c == '>' || c == '\'')
}

// wireURI returns the absolute URI that req asks for as it goes on the
// wire, for the WARC-Target-URI of its record: the scheme and host, then
// the request target as the request line carries it. The crawl's own key
// for the page may hold raw bytes, as the reference mode keeps them, but
// the request line never does, and neither may a record.
func wireURI(req *http.Request) string {
	target := req.URL.RequestURI()
	if strings.HasPrefix(target, "/") {
		target = req.URL.Scheme + "://" + req.URL.Host + target
	}
	path, query, hasQuery := strings.Cut(target, "?")
	uri := wireEscape(path, false)
	if hasQuery {
		uri += "?" + wireEscape(query, true)
	}
	return uri
}
