package robots

import "strings"

// A pattern is an Allow or Disallow path, normalized and ready to match.
//
// The pattern is kept as its literal pieces between wildcards: "/a*b*.gif$"
// is segs ["/a", "b", ".gif"] with anchored set. With the pieces apart, a
// match is a prefix test, a left-to-right search for each middle piece, and
// a final test, which is linear in the path (see match) where the textbook
// backtracking matcher is exponential in the number of '*'.
type pattern struct {
	// segs holds at least one piece. The first is a prefix of every path the
	// pattern matches; with no '*' it is the whole pattern. Runs of '*' are
	// collapsed, so only the first and last pieces can be empty.
	segs []string
	// anchored reports whether the pattern ended in '$': the last piece must
	// then end the path.
	anchored bool
	// min is the total length of the pieces; no shorter path can match.
	min int
	// size is the pattern's length once normalized, '*' and a final '$'
	// included: the octets RFC 9309 §2.2.2 compares rules by.
	size int
}

// compile turns a pattern as written in a robots.txt (already stripped of
// comments and surrounding whitespace) into a pattern.
func compile(raw string) pattern {
	var p pattern
	if strings.HasSuffix(raw, "$") {
		p.anchored = true
		p.size = 1
		raw = raw[:len(raw)-1]
	}
	if !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "*") {
		raw = "/" + raw // "Disallow: x" is read as "/x"
	}
	// Cut at each '*' by hand rather than with strings.Split: a line of a
	// hundred thousand stars should not make a hundred thousand pieces.
	// The pieces are normalized in turn, because the first '?' of the
	// pattern, in whichever piece, starts its query for the pieces after it.
	inQuery := false
	add := func(piece string) {
		var s string
		s, inQuery = canon(piece, inQuery)
		p.segs = append(p.segs, s)
		p.min += len(s)
		p.size += len(s)
	}
	for first := true; ; first = false {
		i := strings.IndexByte(raw, '*')
		if i < 0 {
			add(raw)
			break
		}
		p.size++ // each '*' counts, as written
		if i > 0 || first {
			add(raw[:i])
		}
		raw = raw[i+1:]
	}
	return p
}

// match reports whether p matches path, which must already be normalized
// by escape.
//
// Placing each middle piece at its leftmost occurrence is enough: any match
// that places a piece further right can be moved left without losing the
// pieces after it, because '*' matches anything in between. So one pass with
// strings.Index decides, in time linear in len(path) plus the pattern.
func (p *pattern) match(path string) bool {
	if len(path) < p.min {
		return false
	}
	first := p.segs[0]
	if !strings.HasPrefix(path, first) {
		return false
	}
	if len(p.segs) == 1 {
		return !p.anchored || len(path) == len(first)
	}
	pos := len(first)
	last := len(p.segs) - 1
	for _, s := range p.segs[1:last] {
		i := strings.Index(path[pos:], s)
		if i < 0 {
			return false
		}
		pos += i + len(s)
	}
	end := p.segs[last]
	if p.anchored {
		// The last piece must end the path without overlapping the pieces
		// already placed.
		return len(path)-pos >= len(end) && strings.HasSuffix(path, end)
	}
	return strings.Contains(path[pos:], end)
}

// upperHex gives the digits of a percent-escape, upper-cased as RFC 3986
// §2.1 recommends.
const upperHex = "0123456789ABCDEF"

// escape normalizes a path and query as [canon] does, starting in the
// path.
func escape(s string) string {
	s, _ = canon(s, false)
	return s
}

// canon normalizes a path and query, or one literal piece of a pattern, so
// that the two can be compared octet by octet. inQuery tells whether s
// starts in the query, as a piece of a pattern after a '?' does; the
// result tells whether s ends there.
//
// Everywhere, canon percent-encodes the octets in [alwaysEncoded], decodes
// the escapes of unreserved characters and upper-cases the hex digits of
// the others. In the query, after the first '?', it also encodes ':', '/',
// '?', '@' and "'". See the package comment for why.
//
// canon is idempotent, and it returns s itself, without allocating, when s
// needs no change, which is the common case.
func canon(s string, inQuery bool) (string, bool) {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == '?' && !inQuery {
			inQuery = true
			continue
		}
		if needsWork(c, inQuery) {
			break
		}
	}
	if i == len(s) {
		return s, inQuery
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			if isUnreserved(v) {
				b.WriteByte(v)
				continue
			}
			// Any other escape stays one: it may stand for a delimiter
			// ("/a%2Fb" is not "/a/b"), or for an octet that is always
			// written escaped.
			c = v
		case c == '?' && !inQuery:
			inQuery = true
			b.WriteByte(c)
			continue
		case !needsWork(c, inQuery):
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&0xF])
	}
	return b.String(), inQuery
}

// alwaysEncoded marks the octets that canon writes as %xx wherever they
// are, and whose escapes it never decodes:
//   - controls, space, DEL and every octet >= 0x80, which RFC 9309 §2.2.2
//     asks to encode, and the printable characters that RFC 3986 never
//     allows unescaped in a path or query (" < > [ \ ] ^ ` { | }): a
//     server can only read them as data, so they mean what their escapes
//     mean;
//   - '%' itself, which reaches this table only when it starts no escape;
//   - '#', which cannot be in a path, so a pattern can name it only by
//     its escape;
//   - '*' and '$', which a pattern can name literally only by their
//     escapes (RFC 9309 §2.2.3), so a path writes them escaped too.
var alwaysEncoded = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c <= ' ' || c >= 0x7F
	}
	for _, c := range []byte("\"<>[\\]^`{|}%#*$") {
		t[c] = true
	}
	return t
}()

// needsWork reports whether canon has anything to do with the octet c:
// encode it, or, for '%', look at the escape it may start.
func needsWork(c byte, inQuery bool) bool {
	return alwaysEncoded[c] || inQuery && isQueryData(c)
}

// isQueryData reports whether c is one of the reserved characters that
// mean what their escapes mean in a query, so that RFC 9309 §2.2.2's
// encoding of reserved characters can apply to them there (Figure 4:
// "/foo/bar?baz=https://foo.bar" is compared as
// "/foo/bar?baz=https%3A%2F%2Ffoo.bar"). They are the general delimiters
// that RFC 3986 lets a query hold unescaped and that delimit nothing in it
// (§3.4), and "'", which browsers always send as %27 in the query of an
// http or https URL (the WHATWG URL Standard's special-query set), so that
// a server cannot tell the two apart. The other sub-delimiters ("&", "=",
// ";" ...) are left as they are: they may separate the query's parameters,
// so "a=1&b=2" is not "a=1%26b=2".
func isQueryData(c byte) bool {
	return c == ':' || c == '/' || c == '?' || c == '@' || c == '\''
}

// isUnreserved reports whether c is an unreserved character of RFC 3986
// §2.3, whose escape means the same as the character itself.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
