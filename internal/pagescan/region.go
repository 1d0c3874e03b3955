package pagescan

import "bytes"

// Region restricts a scanner to one part of each page: from just after the
// first From marker to the first Until marker after it. A page without the
// region yields no links. An empty From means the region starts at the
// top of the page; an empty Until, that it runs to the end.
//
// The html scanner still reads the whole page, and keeps only the links
// whose tags begin inside the region: what comes before the region counts,
// such as a <base href> in the head, a <template> or an <svg> the region
// is in, a script or a comment that hides its first tags, or a refresh
// that makes those in the region do nothing. The region's bounds are found
// in the page's text as the html scanner decodes it, even inside a comment
// or CDATA. The reference scanner reads the region alone, in the page's
// bytes, as if it were the document: its colon test stops at the region's
// end.
type Region struct {
	From, Until []byte
	Scanner     Scanner
}

// A rangeScanner can scan part of a document while reading all of it,
// and find the requisites of the whole document as it does.
type rangeScanner interface {
	scanRange(pageURL string, d document, start, end int, found, requisite func(url string)) (skipped int)
}

// Scan calls found with each link in the page's region.
func (r *Region) Scan(pageURL string, page []byte, found func(link string)) {
	r.ScanCharset(pageURL, page, "", found)
}

// ScanCharset is Scan for a page whose Content-Type names charset, which
// only a [CharsetScanner] heeds.
func (r *Region) ScanCharset(pageURL string, page []byte, charset string, found func(link string)) {
	if rs, ok := r.Scanner.(rangeScanner); ok {
		d := decode(page, charset)
		if start, end, ok := r.Bounds(d.text); ok {
			rs.scanRange(pageURL, d, start, end, found, nil)
		}
		return
	}
	start, end, ok := r.Bounds(page)
	if !ok {
		return
	}
	if cs, ok := r.Scanner.(CharsetScanner); ok {
		cs.ScanCharset(pageURL, page[start:end], charset, found)
		return
	}
	r.Scanner.Scan(pageURL, page[start:end], found)
}

// Charset is the scanner's Charset, if it is a [CharsetScanner], and
// otherwise "".
func (r *Region) Charset(page []byte, charset string) string {
	if cs, ok := r.Scanner.(CharsetScanner); ok {
		return cs.Charset(page, charset)
	}
	return ""
}

// Bounds returns where the region of page starts and ends, and whether the
// page has one.
func (r *Region) Bounds(page []byte) (start, end int, ok bool) {
	if len(r.From) > 0 {
		i := bytes.Index(page, r.From)
		if i < 0 {
			return 0, 0, false
		}
		start = i + len(r.From)
	}
	end = len(page)
	if len(r.Until) > 0 {
		j := bytes.Index(page[start:], r.Until)
		if j < 0 {
			return 0, 0, false
		}
		end = start + j
	}
	return start, end, true
}
