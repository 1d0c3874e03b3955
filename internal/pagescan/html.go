package pagescan

import (
	"bytes"

	"golang.org/x/net/html"

	"tse-crawler/internal/urlnorm"
)

// HTML finds links as a browser reads them, using the HTML5 tokenizer of
// golang.org/x/net/html:
//   - only the href of <a> and <area> elements counts, so nothing inside a
//     comment, a script or another raw-text element is a link;
//   - character references such as &amp; are decoded;
//   - leading and trailing spaces and control characters are trimmed, and
//     tabs and newlines inside the value are dropped, as the URL standard
//     says;
//   - every link is resolved (RFC 3986) against the first <base href> in the
//     document, itself resolved against the page's URL, or against the
//     page's URL if there is none;
//   - the fragment is dropped.
//
// The zero value is ready to use. An HTML scanner reuses memory from page
// to page, so it is not safe for concurrent use.
type HTML struct {
	hrefs []string
}

// Scan calls found with each link in page, resolved, in document order.
func (h *HTML) Scan(pageURL string, page []byte, found func(link string)) {
	h.scanRange(pageURL, page, 0, len(page), found)
}

// scanRange reads the whole page but reports only the links whose tags
// start at an offset in [start, end).
func (h *HTML) scanRange(pageURL string, page []byte, start, end int, found func(link string)) {
	z := html.NewTokenizer(bytes.NewReader(page))
	base, haveBase := pageURL, false
	hrefs := h.hrefs[:0]
	for offset := 0; ; {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // io.EOF: the tokenizer reads from memory and cannot fail otherwise
		}
		at := offset
		offset += len(z.Raw())
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if !hasAttr {
			continue
		}
		isLink := string(name) == "a" || string(name) == "area"
		isBase := string(name) == "base" && !haveBase
		if !isLink && !isBase {
			continue
		}
		for more := true; more; {
			var key, val []byte
			key, val, more = z.TagAttr()
			if string(key) != "href" {
				continue
			}
			// A browser takes the first of duplicated attributes.
			if isBase {
				base, haveBase = urlnorm.Resolve(pageURL, cleanHref(val)), true
			} else if start <= at && at < end {
				hrefs = append(hrefs, cleanHref(val))
			}
			break
		}
	}
	// A <base> applies to every link in the document, even those before it,
	// so links are resolved only once the whole page has been read.
	for _, ref := range hrefs {
		found(urlnorm.Resolve(base, ref))
	}
	clear(hrefs)
	h.hrefs = hrefs[:0]
}

// cleanHref does what the URL standard does to an href before parsing it:
// strip leading and trailing C0 controls and spaces, and remove every tab
// and newline.
func cleanHref(v []byte) string {
	v = bytes.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	if !bytes.ContainsAny(v, "\t\n\r") {
		return string(v)
	}
	// Byte by byte: bytes that are not UTF-8 must pass through unchanged,
	// as they do when there is nothing to drop (found by fuzzing).
	b := make([]byte, 0, len(v))
	for _, c := range v {
		if c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	return string(b)
}
