package pagescan

import (
	"bytes"

	"tse-crawler/internal/refurl"
)

// Reference finds links exactly as the CS50 reference crawler does,
// including its quirks, so that a default crawl saves the same pages in the
// same order. The zero value is ready to use. A Reference reuses its buffers
// from page to page, so it is not safe for concurrent use.
type Reference struct {
	text []byte // the page with every whitespace byte removed
	link []byte // a link being put together
}

// Scan calls found with each link in page, in document order, resolved
// against pageURL by the reference's own rules (see [refurl.CS50Bases]).
// An absolute link is passed on verbatim.
func (r *Reference) Scan(pageURL string, page []byte, found func(link string)) {
	r.strip(page)
	s := r.text
	special := specialFinder{s: s}
	// Relative links are resolved against one of two prefixes, the same
	// for the whole page: each link then costs one allocation, its own.
	root, dir := refurl.CS50Bases(pageURL)

	for pos := 0; ; {
		a := indexFold(s, pos, "<a", 0)
		if a < 0 {
			return
		}
		h := indexFold(s, a, "href=", 4)
		if h < 0 {
			return
		}
		pos = a + 1 // where every skip resumes: just past this "<a"
		if gt := bytes.IndexByte(s[a:], '>'); gt >= 0 && a+gt < h {
			continue // this tag ends before the href=, which belongs to a later tag
		}
		start := h + len("href=")
		var end int
		if start < len(s) && (s[start] == '"' || s[start] == '\'') {
			start++
			end = bytes.IndexByte(s[start:], s[start-1])
		} else {
			end = bytes.IndexByte(s[start:], '>')
		}
		if end < 0 {
			continue
		}
		end += start
		if hash := bytes.IndexByte(s[start:end], '#'); hash >= 0 {
			if hash == 0 {
				continue // a link within the page itself
			}
			end = start + hash
		}
		raw := s[start:end]
		// The reference looks for the scheme's ':' from the link's start to
		// the end of the whole document, not of the link, so text after a
		// relative link can make it look absolute and get it dropped.
		var link string
		if c := special.next(start); c == ':' {
			if len(raw) < 4 || !bytes.EqualFold(raw[:4], []byte("http")) {
				continue
			}
			link = string(raw)
		} else {
			base := dir
			if len(raw) > 0 && raw[0] == '/' {
				base = root
			}
			r.link = append(append(r.link[:0], base...), raw...)
			link = string(r.link)
		}
		found(link)
		pos = end
	}
}

// strip fills r.text with page minus its whitespace.
func (r *Reference) strip(page []byte) {
	if cap(r.text) < len(page) {
		r.text = make([]byte, 0, len(page))
	}
	text := r.text[:len(page)]
	// Every byte is written, and the position moves on only past one that
	// is not whitespace: no branch to mispredict on a page that is a
	// tenth spaces and newlines.
	n := 0
	for _, c := range page {
		text[n] = c
		n += int(keep[c])
	}
	r.text = text[:n]
}

// keep is 0 for C's isspace bytes in the "C" locale, and 1 for every other.
var keep = func() (t [256]byte) {
	for i := range t {
		t[i] = 1
	}
	for _, c := range []byte(" \t\n\v\f\r") {
		t[c] = 0
	}
	return t
}()

// indexFold returns the position of sep, which is lower-case ASCII, in s
// at or after from, ignoring ASCII case, or -1. It looks for sep's byte at
// anchor, which must have no case ('<' in "<a", '=' in "href="), with the
// fast bytes.IndexByte, and checks the rest around it.
func indexFold(s []byte, from int, sep string, anchor int) int {
	for from+len(sep) <= len(s) {
		i := bytes.IndexByte(s[from+anchor:len(s)-len(sep)+anchor+1], sep[anchor])
		if i < 0 {
			return -1
		}
		at := from + i
		if equalFold(s[at:at+len(sep)], sep) {
			return at
		}
		from = at + 1
	}
	return -1
}

// equalFold reports whether s equals the lower-case ASCII t, ignoring case.
func equalFold(s []byte, t string) bool {
	for i := range len(t) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != t[i] {
			return false
		}
	}
	return true
}

// A specialFinder answers "which of ':', '/', '?', '#' comes first at or
// after position p?" for a document. Successive questions mostly move
// forward, so remembering the last answer makes a page's worth of them cost
// one pass over the text instead of one pass per link.
type specialFinder struct {
	s        []byte
	from, at int // no special byte in s[from:at]; s[at] is one, or at == len(s)
	valid    bool
}

// next returns the first special byte at or after p, or 0 if there is none.
func (f *specialFinder) next(p int) byte {
	if !f.valid || p < f.from || p > f.at {
		i := bytes.IndexAny(f.s[p:], ":/?#")
		if i < 0 {
			i = len(f.s) - p
		}
		f.from, f.at, f.valid = p, p+i, true
	}
	if f.at == len(f.s) {
		return 0
	}
	return f.s[f.at]
}
