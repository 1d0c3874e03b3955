package browserurl

import "strings"

// The parser costs about 4.5µs and 75 allocations per URL, and html mode
// used to parse three times per link: the page's URL, the link against it,
// and the result again to key it. Most links need none of that: a page's
// URL is a key already, and a link such as "Hash_table.html" or
// "catalogue/page-2.html?sort=asc" only replaces the page's last path
// segment. The functions here recognize those plain cases, in which the
// parser would change nothing, and leave every other URL to it. Whatever
// they accept they must give exactly as the parser does: FuzzPlain checks
// them against it.

// plainKey reports whether s is certainly its own serialization, without
// a fragment: "http://" or "https://", a host of lower-case letters,
// digits and hyphens in dot-separated labels (none a punycode "xn--"
// label, the last beginning with a letter, so that it is no IPv4 address),
// an optional port that is not the default, then a path and an optional
// query of printable ASCII that the standard leaves as it is, with no dot
// segment. A false answer says nothing: the URL may still be a key.
func plainKey(s string) bool {
	rest, ok := strings.CutPrefix(s, "http://")
	defaultPort := "80"
	if !ok {
		if rest, ok = strings.CutPrefix(s, "https://"); !ok {
			return false
		}
		defaultPort = "443"
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 || !plainHost(rest[:slash], defaultPort) {
		return false
	}
	path, query, _ := strings.Cut(rest[slash:], "?")
	return plainPath(path) && plainQuery(query)
}

// plainHost reports whether host[:port] is one that the host parser and
// the port state leave as they are.
func plainHost(hostport, defaultPort string) bool {
	host := hostport
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		host = hostport[:i]
		port := hostport[i+1:]
		if port == "" || len(port) > 5 || port[0] == '0' || port == defaultPort || strings.Trim(port, "0123456789") != "" {
			return false
		}
		if len(port) == 5 && port > "65535" {
			return false
		}
	}
	for host != "" {
		label, rest, more := strings.Cut(host, ".")
		if label == "" || strings.HasPrefix(label, "xn--") {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
		if !more {
			return 'a' <= label[0] && label[0] <= 'z'
		}
		if rest == "" {
			return false // a trailing dot: left to the parser
		}
		host = rest
	}
	return false
}

// Printable ASCII that the standard percent-encodes or reads as a
// delimiter, in a path and in the query of an http or https URL ('\' is a
// path separator there, and '\” is encoded in their queries).
var (
	pathUnsafe  = byteSet("\"#<>?`{}\\")
	queryUnsafe = byteSet("\"#<>'")
)

func byteSet(chars string) (set [256]bool) {
	for c := range 256 {
		set[c] = c <= ' ' || c >= 0x7f
	}
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

// plainPath reports whether the path state leaves path as it is: it
// starts with '/', has no byte the standard encodes or reads as a
// separator, and no dot segment.
func plainPath(path string) bool {
	if path == "" || path[0] != '/' {
		return false
	}
	return plainSegments(path[1:])
}

// plainSegments reports whether the '/'-separated segments of a relative
// path are all plain.
func plainSegments(path string) bool {
	for i := 0; i < len(path); i++ {
		if pathUnsafe[path[i]] {
			return false
		}
	}
	for {
		seg, rest, more := strings.Cut(path, "/")
		if dotSegment(seg) {
			return false
		}
		if !more {
			return true
		}
		path = rest
	}
}

// dotSegment reports whether the standard reads seg as "." or "..",
// which it does for %2e in either case as well.
func dotSegment(seg string) bool {
	if len(seg) > 6 || !strings.HasPrefix(seg, ".") && !strings.HasPrefix(seg, "%") {
		return false
	}
	seg = strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".")
	return seg == "." || seg == ".."
}

// plainQuery reports whether the query state leaves a query as it is.
func plainQuery(query string) bool {
	for i := 0; i < len(query); i++ {
		if queryUnsafe[query[i]] {
			return false
		}
	}
	return true
}

// resolvePlain resolves ref against base without the parser, when base is
// a plain key and ref, without its fragment, is empty (the result is
// base), a plain key (the result is ref), or a plain relative path with or
// without a query (the result is base up to the last '/' of its path, then
// ref). It reports false for anything else.
func resolvePlain(base, ref string) (string, bool) {
	if !plainKey(base) {
		return "", false
	}
	ref, _, _ = strings.Cut(ref, "#")
	switch {
	case ref == "":
		return base, true
	case plainKey(ref):
		return ref, true
	case strings.IndexByte("/\\?", ref[0]) >= 0:
		return "", false
	}
	path, query, hasQuery := strings.Cut(ref, "?")
	// A ':' before any '/' may end a scheme ("mailto:x", or "File:x.png",
	// which a browser reads as a file: URL), so it is for the parser.
	slash := strings.IndexByte(path, '/')
	if slash < 0 {
		slash = len(path)
	}
	if colon := strings.IndexByte(path, ':'); colon >= 0 && colon < slash {
		return "", false
	}
	if !plainSegments(path) || !plainQuery(query) {
		return "", false
	}
	pathEnd := len(base)
	if q := strings.IndexByte(base, '?'); q >= 0 {
		pathEnd = q
	}
	dir := base[:strings.LastIndexByte(base[:pathEnd], '/')+1]
	var b strings.Builder
	b.Grow(len(dir) + len(ref))
	b.WriteString(dir)
	b.WriteString(path)
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(query)
	}
	return b.String(), true
}
