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
}

// compile turns a pattern as written in a robots.txt (already stripped of
// comments and surrounding whitespace) into a pattern.
func compile(raw string) pattern {
	var p pattern
	if strings.HasSuffix(raw, "$") {
		p.anchored = true
		raw = raw[:len(raw)-1]
	}
	if !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "*") {
		raw = "/" + raw // Google reads "Disallow: x" as "/x"
	}
	// Cut at each '*' by hand rather than with strings.Split: a line of a
	// hundred thousand stars should not make a hundred thousand pieces.
	for first := true; ; first = false {
		i := strings.IndexByte(raw, '*')
		if i < 0 {
			p.segs = append(p.segs, escape(raw))
			break
		}
		if i > 0 || first {
			p.segs = append(p.segs, escape(raw[:i]))
		}
		raw = raw[i+1:]
	}
	for _, s := range p.segs {
		p.min += len(s)
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

// escape normalizes a path, or one literal piece of a pattern, so that the
// two can be compared octet by octet. It percent-encodes octets that are not
// printable ASCII and the characters that have a meaning in patterns ('*',
// '$', '#', and a '%' that starts no escape); it upper-cases the hex digits
// of escapes and decodes those of unreserved characters. See the package
// comment for why.
//
// escape is idempotent, and it returns s itself, without allocating, when s
// needs no change, which is the common case.
func escape(s string) string {
	i := 0
	for i < len(s) && !needsWork(s[i]) {
		i++
	}
	if i == len(s) {
		return s
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
			c = v
		case needsWork(c):
		default:
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&0xF])
	}
	return b.String()
}

// needsWork reports whether escape has anything to do with the octet c:
// encode it, or, for '%', look at the escape it may start.
func needsWork(c byte) bool {
	return c <= ' ' || c >= 0x7F || c == '%' || c == '*' || c == '$' || c == '#'
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
