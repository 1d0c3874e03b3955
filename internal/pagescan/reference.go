package pagescan

import (
	"bytes"
	"strings"

	"tse-crawler/internal/urlnorm"
)

// Reference finds links exactly as the CS50 reference crawler does,
// including its quirks, so that a default crawl saves the same pages in the
// same order. The zero value is ready to use. A Reference reuses its buffers
// from page to page, so it is not safe for concurrent use.
type Reference struct {
	text  []byte // the page with every whitespace byte removed
	lower []byte // text in ASCII lower case, for case-blind searches
}

// Scan calls found with each link in page, in document order, resolved
// against pageURL by the reference's own rules (see [urlnorm.ResolveCS50]).
// An absolute link is passed on verbatim.
func (r *Reference) Scan(pageURL string, page []byte, found func(link string)) {
	r.strip(page)
	s, l := r.text, r.lower
	special := specialFinder{s: s}

	for pos := 0; ; {
		a := index(l, pos, "<a")
		if a < 0 {
			return
		}
		h := index(l, a, "href=")
		if h < 0 {
			return
		}
		pos = a + 1 // where every skip resumes: just past this "<a"
		if gt := bytes.IndexByte(l[a:], '>'); gt >= 0 && a+gt < h {
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
		link := string(s[start:end])
		// The reference looks for the scheme's ':' from the link's start to
		// the end of the whole document, not of the link, so text after a
		// relative link can make it look absolute and get it dropped.
		if c := special.next(start); c == ':' {
			if !hasPrefixFold(link, "http") {
				continue
			}
		} else {
			link = urlnorm.ResolveCS50(pageURL, link)
		}
		found(link)
		pos = end
	}
}

// strip fills r.text with page minus its whitespace, and r.lower with the
// same bytes in lower case.
func (r *Reference) strip(page []byte) {
	if cap(r.text) < len(page) {
		r.text = make([]byte, 0, len(page))
		r.lower = make([]byte, 0, len(page))
	}
	text, lower := r.text[:len(page)], r.lower[:len(page)]
	n := 0
	for _, c := range page {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r': // C's isspace in the "C" locale
			continue
		}
		text[n] = c
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[n] = c
		n++
	}
	r.text, r.lower = text[:n], lower[:n]
}

// index returns the position of sep in s at or after from, or -1.
func index(s []byte, from int, sep string) int {
	if from > len(s) {
		return -1
	}
	i := bytes.Index(s[from:], []byte(sep))
	if i < 0 {
		return -1
	}
	return from + i
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
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
