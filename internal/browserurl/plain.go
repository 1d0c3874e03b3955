package browserurl

import "strings"

// The parser costs about 5µs and 75 allocations per URL, and html mode
// used to parse three times per link: the page's URL, the link against it,
// and the result again to key it. Most links need none of that: a page's
// URL is a key already, and a link such as "Hash_table.html",
// "../../java/lang/String.html#equals()" or "/search?q=1" only replaces
// part of the page's path, as a browser's own fast path for relative links
// does. The functions here recognize those plain cases, in which the
// parser would percent-encode nothing and find no host, scheme or
// backslash to rewrite, and leave every other URL to it. Whatever they
// accept they must give exactly as the parser does: FuzzResolve and
// FuzzNormalize check them against it, seeded with the WPT suite and real
// links, and TestPlainSite on links of every shape on the playground's
// site.

// plainKey reports whether s is certainly its own serialization, without
// a fragment: "http://" or "https://", a host, an optional port that is
// not the default, then a path and an optional query of printable ASCII
// that the standard leaves as it is, with no dot segment. The host is a
// domain of lower-case letters, digits and hyphens in dot-separated labels
// (none a punycode "xn--" label, the last beginning with a letter, so that
// it is no IPv4 address), or an IPv4 address in its own serialization,
// such as 127.0.0.1. A false answer says nothing: the URL may still be a
// key.
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
		if !plainPort(hostport[i+1:], defaultPort) {
			return false
		}
	}
	last := host[strings.LastIndexByte(host, '.')+1:]
	switch {
	case last == "":
		return false // no host, an empty label or a trailing dot: left to the parser
	case '0' <= last[0] && last[0] <= '9':
		return plainIPv4(host)
	}
	return 'a' <= last[0] && last[0] <= 'z' && plainDomain(host)
}

// plainPort reports whether the port state keeps port, a string of digits
// with no leading zero that is not the scheme's default, up to 65535.
func plainPort(port, defaultPort string) bool {
	if port == "" || len(port) > 5 || port[0] == '0' || port == defaultPort {
		return false
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return len(port) < 5 || port <= "65535"
}

// plainDomain reports whether host is made of labels of lower-case
// letters, digits and hyphens, none of them empty or a punycode "xn--"
// label, which the parser would decode to check.
func plainDomain(host string) bool {
	label := 0 // where the current label starts
	for i := 0; i <= len(host); i++ {
		if i == len(host) || host[i] == '.' {
			if i == label || strings.HasPrefix(host[label:i], "xn--") {
				return false
			}
			label = i + 1
			continue
		}
		if c := host[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// plainIPv4 reports whether host is four decimal numbers from 0 to 255,
// without leading zeros, separated by dots: the IPv4 parser's own
// serialization of the address. Other forms ("0x7f.1", "127.1", "010.0.0.1")
// name addresses too, but the parser rewrites them.
func plainIPv4(host string) bool {
	parts, n, digits := 0, 0, 0
	for i := 0; i <= len(host); i++ {
		if i == len(host) || host[i] == '.' {
			if digits == 0 || n > 255 {
				return false
			}
			parts, n, digits = parts+1, 0, 0
			continue
		}
		c := host[i]
		if c < '0' || c > '9' || digits == 3 || digits > 0 && n == 0 {
			return false // not a digit, too long, or a leading zero
		}
		n, digits = 10*n+int(c-'0'), digits+1
	}
	return parts == 4
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
	if path == "" || path[0] != '/' || !plainBytes(path, &pathUnsafe) {
		return false
	}
	if !strings.Contains(path, "/.") && !strings.Contains(path, "/%") {
		return true // the common case, in two quick passes
	}
	for path = path[1:]; ; {
		seg, rest, more := strings.Cut(path, "/")
		if dots(seg) > 0 {
			return false
		}
		if !more {
			return true
		}
		path = rest
	}
}

// plainBytes reports whether s has none of the bytes in unsafe.
func plainBytes(s string, unsafe *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if unsafe[s[i]] {
			return false
		}
	}
	return true
}

// dots returns 1 if the standard reads seg as ".", 2 if as "..", which it
// does for %2e in either case as well, and 0 otherwise.
func dots(seg string) int {
	if len(seg) > 6 || !strings.HasPrefix(seg, ".") && !strings.HasPrefix(seg, "%") {
		return 0
	}
	switch strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".") {
	case ".":
		return 1
	case "..":
		return 2
	}
	return 0
}

// plainQuery reports whether the query state leaves a query as it is.
func plainQuery(query string) bool {
	return plainBytes(query, &queryUnsafe)
}
