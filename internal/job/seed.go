package job

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"tse-crawler/internal/crawler"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/scope"
)

// schemeHint explains a seed that cannot be normalized or is out of scope
// because of its scheme: https where the scope is http, a misspelt scheme
// ("htp://", "http:/"), or none ("cs50tse.cs.dartmouth.edu/tse/"). It names
// the URL the user most likely meant, if that URL is in the scope, and
// returns "" otherwise, for the general message to speak.
func (cfg *Settings) schemeHint(raw string) string {
	name, rest, problem := splitScheme(raw)
	if problem == "" && name != "https" {
		return ""
	}
	normalize := cfg.normalizer()
	meant := func(scheme string) (string, bool) {
		u, ok := normalize(scheme + "://" + rest)
		return u, ok && cfg.scope.Contains(u)
	}
	u, ok := meant("http")
	if problem == "" { // a well-formed https seed, the scope being http
		seed, _ := normalize(raw)
		if !ok {
			return ""
		}
		// The -scope that takes the seed in over https is the prefix that
		// takes it in over http, as https.
		prefix, verb := scope.CS50Prefix, "give"
		if len(cfg.Scopes) > 0 {
			prefixes, _ := cfg.prefixes() // Parse checked them
			for _, p := range prefixes {
				if sc, err := scope.Parse([]string{p}); err == nil && sc.Contains(u) {
					prefix, verb = p, "add"
					break
				}
			}
		}
		return fmt.Sprintf("seedURL %s is not internal: it is https, and the crawl's scope is http (%s): use %s, or %s -scope https://%s to crawl over https",
			seed, cfg.scope, u, verb, prefix[len("http://"):])
	}
	// A misspelt https:// most likely meant https, if that is in scope.
	if v, in := meant(name); name == "https" && in {
		u, ok = v, in
	}
	if host, _, _ := strings.Cut(rest, "/"); !ok && host != "" && !strings.HasPrefix(host, ".") {
		// Another site, named without a scheme: the URL and the scope
		// that crawl it.
		scheme := "http"
		if name == "https" {
			scheme = name
		}
		return fmt.Sprintf("seedURL %q %s: to crawl that site, give -scope %s://%s/ and the seed %s://%s", raw, problem, scheme, host, scheme, rest)
	}
	if !ok {
		return ""
	}
	return fmt.Sprintf("seedURL %q %s: use %s", raw, problem, u)
}

// scopeSchemeHint explains a -scope prefix, raw, whose scheme is missing
// ("127.0.0.1:8766", "example.edu/docs/") or misspelt ("htp://", "http:/"),
// and gives the prefix it most likely meant; it returns "" for any other.
func scopeSchemeHint(raw string) string {
	name, rest, problem := splitScheme(raw)
	if name == "" && problem == "" && raw != "" && !strings.Contains(raw, "/") &&
		(!strings.Contains(raw, ":") || isPort(raw[strings.IndexByte(raw, ':')+1:])) {
		// A host with no dot, and perhaps a port: "localhost:8080".
		rest, problem = raw, "has no scheme"
	}
	if problem == "" || rest == "" {
		return ""
	}
	if !strings.Contains(rest, "/") {
		rest += "/"
	}
	meant := "http://" + rest
	if name == "https" {
		meant = "https://" + rest
	}
	if name == "" {
		return fmt.Sprintf("-scope %s needs a scheme: give %s", raw, meant)
	}
	return fmt.Sprintf("-scope %s %s: give %s", raw, problem, meant)
}

// splitScheme reads raw as a URL whose scheme may be misspelt or missing.
// It returns the scheme as given, lower-cased ("" if there is none), what
// follows the scheme and its slashes, and what is wrong with the scheme,
// or "" if it is a well-formed scheme followed by "//".
func splitScheme(raw string) (name, rest, problem string) {
	colon := strings.IndexByte(raw, ':')
	slash := strings.IndexByte(raw, '/')
	if colon <= 0 || slash >= 0 && slash < colon || strings.Contains(raw[:colon], ".") || isPort(raw[colon+1:]) {
		// No scheme before the host: "//host/", "http//host/",
		// "host/path" or "host:port/path".
		first, _, _ := strings.Cut(raw, "/")
		lower := strings.ToLower(first)
		switch {
		case colon == 0:
			return "", strings.TrimLeft(raw[1:], "/"), "has no scheme"
		case strings.HasPrefix(raw, "//"):
			return "", raw[2:], "has no scheme"
		case (lower == "http" || lower == "https") && slash >= 0:
			return lower, strings.TrimLeft(raw[slash:], "/"), "has no colon after " + lower
		case strings.Contains(first, "."):
			return "", raw, "has no scheme"
		}
		return "", "", "" // a relative path, or not a URL at all
	}
	name = strings.ToLower(raw[:colon])
	after := raw[colon+1:]
	rest = strings.TrimLeft(after, "/")
	switch n := len(after) - len(rest); {
	case name != "http" && name != "https":
		return name, rest, fmt.Sprintf("has the scheme %s, not http", name)
	case n == 2:
		return name, rest, ""
	case n == 0:
		return name, rest, fmt.Sprintf("has no slashes after %s:, where %s:// has two", name, name)
	case n == 1:
		return name, rest, fmt.Sprintf("has one slash after %s:, where %s:// has two", name, name)
	default:
		return name, rest, fmt.Sprintf("has %d slashes after %s:, where %s:// has two", n, name, name)
	}
}

// isPort reports whether s begins with a port number: digits, then a
// slash or nothing.
func isPort(s string) bool {
	t := strings.TrimLeft(s, "0123456789")
	return len(t) < len(s) && (t == "" || t[0] == '/')
}

// seedPort returns an error if the port of seed, as given or normalized,
// is one no connection can be made to. Fetching it would fail as no other page
// does, with the seed alone to blame, so it is refused as a bad seed.
func seedPort(seed string) error {
	_, rest, _ := strings.Cut(seed, "://")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	u, err := url.Parse("http://" + rest)
	if err != nil {
		return nil // fetching it says what is wrong
	}
	return pagefetch.CheckPort(u.Port())
}

// PlainHTTPSeed says how to mend a crawl whose https seed, err says, its
// server answered in plain HTTP: with the seed as http, and -scope too if
// it is https. It returns "" for any other failure, a redirect to an https
// URL on such a server included, which the message of err names.
func (j *Job) PlainHTTPSeed(err error) string {
	rest, https := strings.CutPrefix(j.cfg.Seed, "https://")
	if _, plain := errors.AsType[*pagefetch.PlainHTTPError](err); !https || !plain {
		return ""
	}
	host, _, _ := strings.Cut(rest, "/")
	if !strings.HasPrefix(err.Error(), crawler.ErrSeedFailed.Error()+": https://"+host+"/") {
		return "" // another host's answer
	}
	msg := fmt.Sprintf("%s answered in plain HTTP, not HTTPS: use http://%s", j.cfg.Seed, rest)
	for _, p := range j.cfg.Scopes {
		if strings.HasPrefix(p, "https://") {
			msg += ", and http:// in -scope"
			break
		}
	}
	return msg
}
