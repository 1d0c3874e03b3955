package refurl

import (
	"slices"
	"strings"
)

// ServerPaths returns the paths, other than path itself, that a server
// which decodes a URL path before it resolves it may serve for path, so
// that a crawler can judge a URL by the pages it may get. nginx, Apache
// and the project's playground decode "%2e%2e" into "..", and nginx
// decodes "%2F" into a '/', so "/tse/%2e%2e/x.html" and "/tse/..%2Fx.html"
// name /x.html, outside /tse/, although they begin with "/tse/".
// [Normalize] must not look through the escapes, as the reference crawler
// does not, so this is a separate step.
//
// Every reading decodes %2E into '.', in either case, once: a double
// escape such as "%252e" is a segment named "%2e" to a server. Every
// reading drops the parameters of a "." or ".." segment (Tomcat reads
// "..;x" as ".."), collapses runs of '/' (nginx does), and removes dot
// segments as [RemoveDotSegments] does. Each of these can only make a ".."
// climb higher than on a server that does less, so one reading covers all
// of them.
//
// Servers differ on the separators, and there no reading covers the
// others: taking %2F for '/' turns "..%2F" into a climb, but splits
// "x%2Fy" into two segments, so that a later ".." climbs less than where
// "x%2Fy" is one name. So ServerPaths reads %2F as '/' (nginx) and as part
// of a name (Apache with AllowEncodedSlashes NoDecode), and '\' and %5C as
// '/' (IIS, nginx on Windows) and as part of a name (nginx elsewhere), in
// all four combinations, and returns each distinct result once. A URL is
// only as safe as the least safe of them. Every other escape is kept.
//
// ServerPaths returns nil, without allocating, when every reading gives
// path itself, which is the case for almost every URL.
func ServerPaths(path string) []string {
	if resolved(path) {
		return nil
	}
	var paths []string
	for _, r := range readings {
		if p := serverPath(path, r); p != path && !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths
}

// A reading is one way of resolving a path: whether an escaped '/', and a
// '\' raw or escaped, separate segments.
type reading struct{ slash, backslash bool }

var readings = [...]reading{{true, true}, {true, false}, {false, true}, {false, false}}

// serverPath returns path as a server that reads it as r says resolves it.
// It is idempotent.
func serverPath(path string, r reading) string {
	b := make([]byte, 0, len(path))
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c == '%' && i+2 < len(path) {
			switch d := decodeSpecial(path[i+1], path[i+2]); {
			case d == '.', d == '/' && r.slash, d == '\\' && r.backslash:
				c = d
				i += 2
			}
		}
		if c == '\\' && r.backslash {
			c = '/'
		}
		if c == '/' && len(b) > 0 && b[len(b)-1] == '/' {
			continue
		}
		b = append(b, c)
	}
	return RemoveDotSegments(dropDotParams(string(b)))
}

// resolved reports whether every reading gives path itself: it has no
// escape of '.', '/' or '\', no '\', no "//", and no dot segment, with or
// without parameters. It looks for each with strings.IndexByte, whose
// vector search, over a path that has none or one of each, is twice as
// fast as a loop that tests every byte.
func resolved(path string) bool {
	if strings.IndexByte(path, '\\') >= 0 || strings.Contains(path, "//") {
		return false
	}
	for i := strings.IndexByte(path, '%'); i >= 0; i = next(path, i, '%') {
		if i+2 < len(path) && decodeSpecial(path[i+1], path[i+2]) != 0 {
			return false
		}
	}
	for i := strings.IndexByte(path, '.'); i >= 0; i = next(path, i, '.') {
		if i == 0 || path[i-1] == '/' {
			if _, ok := dotSegment(path[i:]); ok {
				return false
			}
		}
	}
	return true
}

// next returns the position of the first c in s after position i, or -1.
func next(s string, i int, c byte) int {
	j := strings.IndexByte(s[i+1:], c)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// decodeSpecial returns the byte that the escape "%" hi lo stands for if
// it is '.', '/' or '\', and 0 for any other escape.
func decodeSpecial(hi, lo byte) byte {
	lo |= 0x20 // ASCII lower case; digits are not letters, so nothing else matches
	switch {
	case hi == '2' && lo == 'e':
		return '.'
	case hi == '2' && lo == 'f':
		return '/'
	case hi == '5' && lo == 'c':
		return '\\'
	}
	return 0
}

// dotSegment reports whether the segment at the start of s (which runs to
// the next '/') is "." or "..", possibly followed by ";parameters", and
// returns the length of the dot part.
func dotSegment(s string) (n int, ok bool) {
	for n < len(s) && n < 2 && s[n] == '.' {
		n++
	}
	if n == 0 {
		return 0, false
	}
	return n, n == len(s) || s[n] == '/' || s[n] == ';'
}

// dropDotParams removes the parameters from every "." or ".." segment of
// p: "/a/..;x=1/b" becomes "/a/../b".
func dropDotParams(p string) string {
	if !strings.Contains(p, ";") {
		return p
	}
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); {
		if p[i] == '.' && (i == 0 || p[i-1] == '/') {
			if n, ok := dotSegment(p[i:]); ok {
				b.WriteString(p[i : i+n])
				i += n
				for i < len(p) && p[i] != '/' {
					i++
				}
				continue
			}
		}
		b.WriteByte(p[i])
		i++
	}
	return b.String()
}
