package refurl

import "strings"

// Resolve resolves the URI reference ref against the absolute URL base, as
// RFC 3986 §5.2 says, and returns the result without its fragment. Unlike
// net/url it works on the bytes as they are: nothing is escaped, unescaped
// or rejected, so a link a browser would follow is never lost to a parse
// error. If base has no scheme and ref is relative, the result is relative
// too.
func Resolve(base, ref string) string {
	r := split(ref)
	var t parts
	switch {
	case r.hasScheme:
		t = r
		t.path = RemoveDotSegments(r.path)
	default:
		b := split(base)
		t.scheme, t.hasScheme = b.scheme, b.hasScheme
		switch {
		case r.hasAuthority:
			t.authority, t.hasAuthority = r.authority, true
			t.path = RemoveDotSegments(r.path)
			t.query, t.hasQuery = r.query, r.hasQuery
		case r.path == "":
			t.authority, t.hasAuthority = b.authority, b.hasAuthority
			t.path = b.path
			t.query, t.hasQuery = b.query, b.hasQuery
			if r.hasQuery {
				t.query, t.hasQuery = r.query, true
			}
		default:
			t.authority, t.hasAuthority = b.authority, b.hasAuthority
			if r.path[0] == '/' {
				t.path = RemoveDotSegments(r.path)
			} else {
				t.path = RemoveDotSegments(merge(b, r.path))
			}
			t.query, t.hasQuery = r.query, r.hasQuery
		}
	}

	var s strings.Builder
	s.Grow(len(base) + len(ref))
	if t.hasScheme {
		s.WriteString(t.scheme)
		s.WriteByte(':')
	}
	if t.hasAuthority {
		s.WriteString("//")
		s.WriteString(t.authority)
	}
	s.WriteString(t.path)
	if t.hasQuery {
		s.WriteByte('?')
		s.WriteString(t.query)
	}
	return s.String()
}

// parts are the components of a URI reference (RFC 3986 Appendix B).
type parts struct {
	scheme, authority, path, query    string
	hasScheme, hasAuthority, hasQuery bool
}

// split breaks a reference into its components without validating them,
// except that a scheme must look like one; "1x:y" is a relative path.
func split(s string) parts {
	var p parts
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' && isScheme(s[:i]) {
		p.scheme, p.hasScheme, s = s[:i], true, s[i+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		end := strings.IndexAny(s, "/?")
		if end < 0 {
			end = len(s)
		}
		p.authority, p.hasAuthority, s = s[:end], true, s[end:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.query, p.hasQuery, s = s[i+1:], true, s[:i]
	}
	p.path = s
	return p
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// merge is RFC 3986 §5.2.3.
func merge(base parts, ref string) string {
	if base.hasAuthority && base.path == "" {
		return "/" + ref
	}
	i := strings.LastIndexByte(base.path, '/')
	return base.path[:i+1] + ref
}

// CS50Bases returns what the reference crawler puts before a relative link
// on pageURL to resolve it, which is not RFC 3986:
//   - root goes before a link starting with '/': the page's scheme,
//     user-info and host;
//   - dir goes before any other link: the page URL up to the last '/' of
//     its path, except that a '/' at the very start of the path is dropped
//     and then put back, so that both "/x.html" and "" give a bare "/".
//
// The page's query never matters, and dot segments are left for the
// normalizer to remove. Bases rather than a resolved link, so that a
// scanner computes them once per page, not once per link.
func CS50Bases(pageURL string) (root, dir string) {
	// The origin is the scheme, "//", user-info and host, lower-cased except
	// for the user-info, as the reference copies them.
	schemeEnd := strings.IndexByte(pageURL, ':') + 1
	if strings.HasPrefix(pageURL[schemeEnd:], "//") {
		schemeEnd += 2
	}
	hostEnd := strings.IndexAny(pageURL[schemeEnd:], "/?#")
	if hostEnd < 0 {
		hostEnd = len(pageURL)
	} else {
		hostEnd += schemeEnd
	}
	hostStart := schemeEnd
	if at := strings.IndexByte(pageURL[schemeEnd:hostEnd], '@'); at >= 0 {
		hostStart = schemeEnd + at + 1
	}
	var b strings.Builder
	writeLower(&b, pageURL[:schemeEnd])
	b.WriteString(pageURL[schemeEnd:hostStart])
	writeLower(&b, pageURL[hostStart:hostEnd])
	root = b.String()

	path := pageURL[hostEnd:]
	if q := strings.IndexAny(path, "?#"); q >= 0 {
		path = path[:q]
	}
	if slash := strings.LastIndexByte(path, '/'); slash > 0 {
		return root, root + path[:slash] + "/"
	}
	return root, root + "/"
}
