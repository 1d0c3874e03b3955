package browserurl

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
)

// ResolveEncoded is [Resolve] for a link in a document whose character
// encoding is enc, as the URL Standard parses a link with its document's
// encoding: the path, the host and the fragment are UTF-8 as always, but
// the query that the link gives an http, https, ftp or file URL is written
// in enc and then percent-encoded. So "caf\u00e9.html?x=\u00e9" in a
// windows-1252 page gives "caf%C3%A9.html?x=%E9". A code point that enc
// cannot write becomes "&#N;", N in decimal, percent-encoded in full as
// "%26%23N%3B", as browsers send it; a percent sign the link holds stays
// as it is.
//
// A nil enc means UTF-8, for which ResolveEncoded is Resolve. Callers pass
// the encoding a document's URLs are written in: UTF-8 for a document in
// UTF-16 or in the replacement encoding, whatever its own encoding.
//
// The result is a serialization that [Normalize] keeps as it is: the query
// holds only percent-encoded bytes and printable ASCII that the standard
// leaves alone.
func ResolveEncoded(base, ref string, enc encoding.Encoding) (string, bool) {
	u, ok := Resolve(base, ref)
	if !ok || enc == nil {
		return u, ok
	}
	query, ok := queryOf(ref)
	if !ok || !encodedQuery(u) {
		return u, true // no query of its own, or one that is UTF-8 whatever the page
	}
	// The serialization percent-encodes every '?' before the query.
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u, true // cannot happen: the link has a query, so has its URL
	}
	return u[:q+1] + encodeQuery(query, enc), true
}

// queryOf returns the query that ref gives the URL it resolves to, as the
// URL parser's buffer holds it: what follows the first '?', up to a '#',
// once the C0 controls and spaces around ref and every tab and newline in
// it are gone. It reports false when ref has no query: then the URL has
// none, or its base's, which is already encoded. A '?' cannot come before
// the query unescaped: the scheme ends before it, an authority or a path
// ends at it.
func queryOf(ref string) (string, bool) {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	ref = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, ref)
	before, _, _ := strings.Cut(ref, "#")
	_, query, ok := strings.Cut(before, "?")
	return query, ok
}

// encodedQuery reports whether the query of url, a serialization, is
// written in the document's encoding: whether its scheme is special, and
// not ws or wss, which the standard keeps in UTF-8.
func encodedQuery(url string) bool {
	scheme, _, _ := strings.Cut(url, ":")
	switch scheme {
	case "http", "https", "ftp", "file":
		return true
	}
	return false
}

// encodeQuery percent-encodes query in enc as the URL Standard's
// "percent-encode after encoding" does with the special-query
// percent-encode set, one code point at a time through one encoder, so
// that a stateful encoding such as ISO-2022-JP keeps its state. A byte
// that is not UTF-8 counts as U+FFFD, as in the parser.
func encodeQuery(query string, enc encoding.Encoding) string {
	e := enc.NewEncoder()
	var b strings.Builder
	var out [16]byte // the most any encoding writes for one code point, with its escapes
	for _, r := range query {
		var in [utf8.UTFMax]byte
		n, _, err := e.Transform(out[:], in[:utf8.EncodeRune(in[:], r)], false)
		if err != nil {
			// The encoder cannot write r, and wrote nothing.
			b.WriteString("%26%23")
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteString("%3B")
			continue
		}
		percentEncode(&b, out[:n])
	}
	// At the end, a stateful encoding returns to ASCII.
	if n, _, err := e.Transform(out[:], nil, true); err == nil {
		percentEncode(&b, out[:n])
	}
	return b.String()
}

// percentEncode writes raw to b, percent-encoding the bytes in the
// special-query percent-encode set: C0 controls, space, '"', '#', '<',
// '>', the apostrophe, and every byte above '~'.
func percentEncode(b *strings.Builder, raw []byte) {
	const hex = "0123456789ABCDEF"
	for _, c := range raw {
		if c <= ' ' || c > '~' || c == '"' || c == '#' || c == '\'' || c == '<' || c == '>' {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
}
