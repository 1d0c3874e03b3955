// Package refurl puts URLs into the canonical form that the CS50 TSE
// reference crawler uses to decide whether two links name the same page and
// whether a page is inside the crawl.
//
// The rules are the reference normalizeURL's, byte for byte, with one
// deliberate change taken from the specification: runs of '/' in the path
// collapse to one. Which normalized URLs belong to a crawl is package
// scope's business. They are not RFC 3986 normalization: percent-escapes are
// left alone, the query and fragment are kept verbatim, and a path whose
// last segment has an extension other than .htm* is rejected outright,
// because such a URL is not a web page to the crawler.
package refurl

import "strings"

// Normalize returns the canonical form of raw and true, or "" and false
// when raw cannot be normalized: it has no scheme, an empty path, a '?' or
// '#' right after the host, or a final path segment whose extension does not
// begin with "htm".
//
// Normalize is idempotent: Normalize of a result returns the result itself.
func Normalize(raw string) (string, bool) {
	// The scheme ends at the first ':', which must come before any '/', '?'
	// or '#'; otherwise the URL is relative and cannot stand alone.
	colon := indexSet(raw, &schemeEnds)
	if colon < 0 || raw[colon] != ':' {
		return "", false
	}
	schemeEnd := colon + 1
	if strings.HasPrefix(raw[schemeEnd:], "//") {
		schemeEnd += 2
	}
	rest := raw[schemeEnd:]

	// User-info is kept verbatim, but only when its '@' precedes the path.
	var userinfo string
	slash := strings.IndexByte(rest, '/')
	if at := strings.IndexByte(rest, '@'); at >= 0 && (slash < 0 || at < slash) {
		userinfo, rest = rest[:at+1], rest[at+1:]
		slash = strings.IndexByte(rest, '/')
	}
	if slash < 0 {
		return "", false // no path at all: "http://host" is not a page
	}
	host := rest[:slash]
	if indexSet(host, &pathEnds) >= 0 {
		return "", false // "http://host?q/x": the reference's behaviour is undefined
	}
	rest = rest[slash:]
	pathEnd := indexSet(rest, &pathEnds)
	if pathEnd < 0 {
		pathEnd = len(rest)
	}
	path, tail := rest[:pathEnd], rest[pathEnd:]
	if !htmlExtension(path) {
		return "", false
	}
	clean := RemoveDotSegments(collapseSlashes(path))
	if clean == "" {
		return "", false
	}
	// Most links are normal already: then the result is the input, and
	// costs no allocation.
	if clean == path && isLower(raw[:schemeEnd]) && isLower(host) {
		return raw, true
	}
	path = clean

	var b strings.Builder
	b.Grow(len(raw))
	writeLower(&b, raw[:schemeEnd])
	b.WriteString(userinfo)
	writeLower(&b, host)
	b.WriteString(path)
	b.WriteString(tail)
	return b.String(), true
}

// htmlExtension reports whether path's last segment has no extension, an
// empty one ("p."), or one that starts with "htm" in any case.
func htmlExtension(path string) bool {
	dot := strings.LastIndexByte(path, '.')
	if dot < 0 || dot < strings.LastIndexByte(path, '/') || dot == len(path)-1 {
		return true
	}
	ext := path[dot+1:]
	return len(ext) >= 3 && strings.EqualFold(ext[:3], "htm")
}

// collapseSlashes turns every run of '/' into a single '/'. The reference
// code keeps them, but the specification's own example collapses them, and
// "//x.html" and "/x.html" are the same page on any ordinary server.
func collapseSlashes(path string) string {
	if !strings.Contains(path, "//") {
		return path
	}
	b := make([]byte, 0, len(path))
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && len(b) > 0 && b[len(b)-1] == '/' {
			continue
		}
		b = append(b, path[i])
	}
	return string(b)
}

// RemoveDotSegments is RFC 3986 §5.2.4: "." segments vanish, and ".."
// removes the segment before it, never climbing above the root.
func RemoveDotSegments(path string) string {
	if !hasDotSegment(path) {
		return path // the common case: nothing to do, nothing to allocate
	}
	in := path
	out := make([]byte, 0, len(path))
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = popSegment(out)
		case in == "/..":
			in = "/"
			out = popSegment(out)
		case in == "." || in == "..":
			in = ""
		default:
			// Move the first segment, with its leading '/', to the output.
			i := 0
			if in[0] == '/' {
				i = 1
			}
			if j := strings.IndexByte(in[i:], '/'); j >= 0 {
				i += j
			} else {
				i = len(in)
			}
			out = append(out, in[:i]...)
			in = in[i:]
		}
	}
	return string(out)
}

// Byte sets, as tables: strings.IndexAny builds its set on every call,
// which costs more than the search on a URL.
var (
	schemeEnds = byteSet(":/?#")
	pathEnds   = byteSet("?#")
)

func byteSet(chars string) (set [256]bool) {
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

// indexSet returns the position of the first byte of s in set, or -1.
func indexSet(s string, set *[256]bool) int {
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return i
		}
	}
	return -1
}

// hasDotSegment reports whether path has a "." or ".." segment.
func hasDotSegment(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '.' || i > 0 && path[i-1] != '/' {
			continue
		}
		// A segment starts with '.': it is a dot segment if it is "." or "..".
		j := i + 1
		if j < len(path) && path[j] == '.' {
			j++
		}
		if j == len(path) || path[j] == '/' {
			return true
		}
	}
	return false
}

// isLower reports whether s has no ASCII upper-case letter.
func isLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return false
		}
	}
	return true
}

// popSegment removes the last segment of out and the '/' before it.
func popSegment(out []byte) []byte {
	i := len(out) - 1
	for i >= 0 && out[i] != '/' {
		i--
	}
	if i < 0 {
		return out[:0]
	}
	return out[:i]
}

// writeLower writes s in ASCII lower case. C's tolower in the "C" locale,
// which the reference uses, changes nothing else; Unicode case mapping would
// change byte lengths and so the URL.
func writeLower(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}
