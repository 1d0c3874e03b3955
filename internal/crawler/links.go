package crawler

import (
	"unsafe"

	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
)

// A link is a link found on a page, or the target of a redirect, with what
// the crawl makes of it wherever it meets it: the page it names, if any,
// and whether that page belongs to the crawl. Whether it is new depends on
// when the crawl meets it, so that is decided then.
type link struct {
	found    string // as the scanner reports it, which the log shows as Found
	url      string // the crawl's key for the page, or "" if it names none
	internal bool   // url belongs to the crawl
	excluded bool   // url belongs to the crawl, but its Scope keeps it out
}

// A Scope says which pages a crawl takes in: how it keys the page a link
// names, and whether that page belongs to the crawl.
type Scope interface {
	// Key returns the crawl's key for the page that a link, as the scanner
	// reports it, or a redirect's target names, or false for a link that
	// names no page to crawl (logged IgnExtrn): refurl.Normalize in
	// reference mode, browserurl.Normalize in html mode. The key is what
	// the seen-set holds, Internal judges and the Web is asked for.
	Key(link string) (string, bool)
	// Internal reports whether a page, by its key, belongs to the crawl.
	Internal(key string) bool
	// Excluded reports whether a page that belongs to the crawl is kept
	// out all the same (logged IgnExcld): never put in the seen-set or the
	// bag, so never requested, as a link or as a redirect's target,
	// however often it is met, nor fetched ahead.
	Excluded(key string) bool
	// Requisite reports whether a requisite, by its browserurl.Key, may be
	// fetched.
	Requisite(key string) bool
}

// A reader reads links as the crawl considers them: it scans a page, and
// normalizes and judges each link it finds. The crawl's loop reads each
// page it scans, and the lanes that fetch ahead read a page before the
// crawl takes it, for the crawl to use instead, so that no page is
// scanned twice.
type reader struct {
	scanner pagescan.Scanner
	scope   Scope
}

// link makes found, a link as the scanner reports it or a redirect's
// target, into a link.
func (rd *reader) link(found string) link {
	l := link{found: found}
	if key, ok := rd.scope.Key(found); ok {
		l.url, l.internal = key, rd.scope.Internal(key)
		l.excluded = l.internal && rd.scope.Excluded(key)
	}
	return l
}

// pageLinks are the links of a page, read before the crawl takes it and
// kept for it, and the memory they take.
type pageLinks struct {
	all  []link // in document order
	size int64
}

// scan scans a page, with charset, what its scan keeps of its
// Content-Type's (see keptCharset).
func (rd *reader) scan(pageURL string, html []byte, charset string, found func(link string)) {
	if cs, ok := rd.scanner.(pagescan.CharsetScanner); ok && charset != "" {
		cs.ScanCharset(pageURL, html, charset, found)
		return
	}
	rd.scanner.Scan(pageURL, html, found)
}

// keptCharset returns what a scan with s keeps of the charset a page's
// Content-Type named: nothing, unless s is a [pagescan.CharsetScanner]
// that reads the page otherwise with it, or the crawl reads the page's
// requisites too, as a browser decodes the page: then what [pagescan.HTML]
// keeps. A saved page's journal line keeps it, so that a resumed crawl,
// which has the page but not its response, scans the page alike. It is
// safe for concurrent use.
func keptCharset(s pagescan.Scanner, p pagefetch.Page, requisites bool) string {
	if p.Charset == "" {
		return ""
	}
	if requisites {
		return new(pagescan.HTML).Charset(p.HTML, p.Charset)
	}
	if cs, ok := s.(pagescan.CharsetScanner); ok {
		return cs.Charset(p.HTML, p.Charset)
	}
	return ""
}

// keep reads the links of a page to keep them. Their size counts the
// slice and the bytes of each string, which may be shared but are counted
// as if none were.
func (rd *reader) keep(pageURL string, html []byte, charset string) *pageLinks {
	pl := new(pageLinks)
	rd.scan(pageURL, html, charset, func(found string) { pl.add(rd.link(found)) })
	pl.done()
	return pl
}

// keepRequisites is keep, reading the page with scan, which finds the
// links rd.scan does and the page's requisites in the same pass
// (OnePassReader), and calling requisite with each of these.
// It returns what scan does too.
func (rd *reader) keepRequisites(pageURL string, html []byte, charset string,
	scan func(pageURL string, page []byte, charset string, found, requisite func(url string)) int, requisite func(url string)) (*pageLinks, int) {
	pl := new(pageLinks)
	skipped := scan(pageURL, html, charset, func(found string) { pl.add(rd.link(found)) }, requisite)
	pl.done()
	return pl, skipped
}

// add keeps l.
func (pl *pageLinks) add(l link) {
	pl.all = append(pl.all, l)
	pl.size += int64(len(l.found) + len(l.url))
}

// done counts the slice, once every link is kept.
func (pl *pageLinks) done() {
	pl.size += int64(cap(pl.all)) * int64(unsafe.Sizeof(link{}))
}
