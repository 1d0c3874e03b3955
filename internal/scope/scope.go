// Package scope decides which URLs belong to a crawl: those whose
// normalized form begins with one of the crawl's prefixes, both as written
// and as a server may resolve its path.
//
// A prefix is an absolute URL with a path: "http://cs50tse.cs.dartmouth.edu/tse/".
// Matching is byte for byte, as in the CS50 reference crawler, except that a
// host label "*" stands for any run of one or more host labels, so that
// "http://*.inf.ed.ac.uk/" takes in http://ir.inf.ed.ac.uk/x and
// http://www.inf.ed.ac.uk/, but not http://inf.ed.ac.uk/ itself (list it
// too if it belongs) nor http://evil-inf.ed.ac.uk/.
package scope

import (
	"fmt"
	"strings"

	"tse-crawler/internal/refurl"
)

// CS50Prefix is the CS50 playground server, the reference crawler's one
// definition of "internal", and the default scope.
const CS50Prefix = "http://cs50tse.cs.dartmouth.edu/tse/"

// A Scope is a set of URL prefixes. The zero value contains nothing.
type Scope struct {
	prefixes []prefix
}

type prefix struct {
	raw    string   // as given, lower-cased where the normalizer lower-cases
	scheme string   // "http://"
	labels []string // the host's labels, "*" for a wildcard; nil for a plain prefix
	port   string   // ":8080", or ""
	path   string   // "/tse/"
}

// Default is the CS50 playground, the reference crawler's only scope.
func Default() *Scope {
	s, _ := Parse([]string{CS50Prefix})
	return s
}

// Parse returns the scope of the given prefixes. Each must be an http or
// https URL with a host and a path ("http://example.edu/" rather than
// "http://example.edu"), so that a prefix can never match a longer host
// by accident; "*" may stand for whole host labels only.
func Parse(prefixes []string) (*Scope, error) {
	s := new(Scope)
	for _, raw := range prefixes {
		p, err := parsePrefix(raw)
		if err != nil {
			return nil, err
		}
		s.prefixes = append(s.prefixes, p)
	}
	return s, nil
}

func parsePrefix(raw string) (prefix, error) {
	bad := func(why string) (prefix, error) {
		return prefix{}, fmt.Errorf("scope %q %s: give a URL prefix such as http://example.edu/ or http://*.example.edu/docs/", raw, why)
	}
	lower := strings.ToLower(raw)
	var p prefix
	switch {
	case strings.HasPrefix(lower, "http://"):
		p.scheme = "http://"
	case strings.HasPrefix(lower, "https://"):
		p.scheme = "https://"
	default:
		return bad("is not an http or https URL")
	}
	rest := raw[len(p.scheme):]
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return bad("has no path after the host")
	}
	hostport := strings.ToLower(rest[:slash])
	p.path = rest[slash:]
	if strings.ContainsAny(hostport, "@?#") || strings.ContainsAny(p.path, "?#*") {
		return bad("may hold no user-info, query, fragment, or '*' outside the host")
	}
	host := hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		host, p.port = hostport[:i], hostport[i:]
		if len(p.port) == 1 || strings.Trim(p.port[1:], "0123456789") != "" {
			return bad("has a bad port")
		}
	}
	if host == "" {
		return bad("has no host")
	}
	p.labels = strings.Split(host, ".")
	wild := false
	for _, l := range p.labels {
		switch {
		case l == "":
			return bad("has an empty host label")
		case l == "*":
			wild = true
		case strings.Contains(l, "*"):
			return bad("uses '*' inside a host label")
		}
	}
	if !wild {
		p.labels = nil
	}
	p.raw = p.scheme + hostport + p.path
	return p, nil
}

// Contains reports whether the normalized URL u is in the scope: u must
// begin with one of the prefixes, and so must u with its path as any
// server may resolve it ([refurl.ServerPaths]). The second test is what
// keeps "/tse/%2e%2e/secret.html" out of a scope of /tse/: the normalizer
// leaves escapes alone, as the reference does, but nginx serves that URL
// from /secret.html. It costs a scan of the path and no allocation unless
// the path has something for a server to resolve.
func (s *Scope) Contains(u string) bool {
	if !s.match(u) {
		return false
	}
	// A matching u starts "scheme://host", so its path starts at the first
	// '/' after the "//" and ends at the query or fragment.
	start := strings.Index(u, "://") + 3
	start += strings.IndexByte(u[start:], '/')
	end := len(u)
	if i := strings.IndexByte(u[start:], '?'); i >= 0 {
		end = start + i
	}
	if i := strings.IndexByte(u[start:end], '#'); i >= 0 {
		end = start + i
	}
	for _, served := range refurl.ServerPaths(u[start:end]) {
		// The page may fall under another prefix than u's: it is still
		// one of the crawl's.
		if !s.match(u[:start] + served + u[end:]) {
			return false
		}
	}
	return true
}

// match reports whether u begins with one of the prefixes.
func (s *Scope) match(u string) bool {
	for _, p := range s.prefixes {
		if p.contains(u) {
			return true
		}
	}
	return false
}

func (p prefix) contains(u string) bool {
	if p.labels == nil {
		return strings.HasPrefix(u, p.raw)
	}
	rest, ok := strings.CutPrefix(u, p.scheme)
	if !ok {
		return false
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return false
	}
	hostport, path := rest[:slash], rest[slash:]
	if strings.Contains(hostport, "@") || !strings.HasPrefix(path, p.path) {
		return false // user-info never matches, as in a plain prefix
	}
	host := hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		host = hostport[:i]
		if hostport[i:] != p.port {
			return false
		}
	} else if p.port != "" {
		return false
	}
	return matchLabels(p.labels, strings.Split(host, "."))
}

// matchLabels matches host labels against a pattern in which "*" stands
// for one or more labels.
func matchLabels(pattern, labels []string) bool {
	if len(pattern) == 0 {
		return len(labels) == 0
	}
	if pattern[0] != "*" {
		return len(labels) > 0 && labels[0] == pattern[0] && matchLabels(pattern[1:], labels[1:])
	}
	for n := 1; n <= len(labels); n++ {
		if matchLabels(pattern[1:], labels[n:]) {
			return true
		}
	}
	return false
}

// String lists the prefixes, as they are matched.
func (s *Scope) String() string {
	raws := make([]string, len(s.prefixes))
	for i, p := range s.prefixes {
		raws[i] = p.raw
	}
	return strings.Join(raws, " ")
}
