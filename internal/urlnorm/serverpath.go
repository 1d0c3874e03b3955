package urlnorm

import "strings"

// ServerPath returns the URL path path as a server that decodes the path
// before it resolves it serves it, so that a crawler can judge a URL by the
// page it will get. nginx, Apache and the project's playground all decode
// "%2e%2e" into "..", and nginx decodes "%2F" into a '/', so
// "/tse/%2e%2e/x.html" and "/tse/..%2Fx.html" name /x.html, outside /tse/,
// although they begin with "/tse/". [Normalize] must not look through the
// escapes, as the reference crawler does not, so this is a separate step.
//
// ServerPath decodes the escapes %2E ('.'), %2F ('/') and %5C ('\'), each in
// either case, once, and reads every '\' as '/', as IIS and nginx on Windows
// do; drops the parameters of a "." or ".." segment (Tomcat reads "..;x" as
// ".."); collapses runs of '/', as nginx does; and removes dot segments as
// [RemoveDotSegments] does. Every other escape is kept, and a double escape
// such as "%252e" is not decoded: a server decodes once, so it is a segment
// named "%2e" there.
//
// Where servers disagree, ServerPath takes the reading that climbs highest,
// so a path it leaves inside a directory is inside it on every server it
// models; one that only some servers lead out of is treated as out.
//
// ServerPath is idempotent, and it returns path itself, without allocating,
// when none of this applies, which is the case for almost every URL.
func ServerPath(path string) string {
	if resolved(path) {
		return path
	}
	b := make([]byte, 0, len(path))
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c == '%' && i+2 < len(path) {
			if d := decodeSpecial(path[i+1], path[i+2]); d != 0 {
				c = d
				i += 2
			}
		}
		if c == '\\' {
			c = '/'
		}
		if c == '/' && len(b) > 0 && b[len(b)-1] == '/' {
			continue
		}
		b = append(b, c)
	}
	return RemoveDotSegments(dropDotParams(string(b)))
}

// resolved reports whether ServerPath has nothing to do on path: no escape
// it decodes, no '\', no "//", and no dot segment, with or without
// parameters. It looks for each with strings.IndexByte, whose vector
// search, over a path that has none or one of each, beats a loop that
// tests every byte.
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

// decodeSpecial returns the byte ServerPath puts for the escape "%" hi lo:
// '.' for 2E, '/' for 2F and for 5C; 0 for any other escape, which it keeps.
func decodeSpecial(hi, lo byte) byte {
	lo |= 0x20 // ASCII lower case; digits are not letters, so nothing else matches
	switch {
	case hi == '2' && lo == 'e':
		return '.'
	case hi == '2' && lo == 'f', hi == '5' && lo == 'c':
		return '/'
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
