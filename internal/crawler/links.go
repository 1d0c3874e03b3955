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

// A reader reads pages as the crawl does: once each, for its links and
// whatever else the crawl's outputs want of it (what), and judges each
// link. The crawl's goroutine reads each page it saves, when it takes it
// or while it waits for another, ahead of its turn: the scanner is not
// safe for concurrent use.
type reader struct {
	scanner pagescan.Scanner
	scope   Scope
	what    pagescan.What
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

// read reads p, a page saved, once, and keeps what it found in p.Read,
// unless it was read already, with what its scan keeps of its
// Content-Type's charset, p.Charset: its links, if links, and what else
// the crawl wants of every page. It returns the memory the reading takes.
func (rd *reader) read(p *pagefetch.Page, links bool) int64 {
	if p.Read != nil {
		return 0
	}
	what := rd.what
	what.Links = links
	p.Read = pagescan.Read(rd.scanner, p.URL, p.Body, p.Charset, what)
	return readingSize(p.Read)
}

// readingSize returns the memory a reading takes: its slices and the
// bytes of each string, which may be shared but are counted as if none
// were.
func readingSize(rd *pagescan.Reading) int64 {
	n := int64(unsafe.Sizeof(*rd))
	for _, s := range rd.Links {
		n += int64(len(s)) + int64(unsafe.Sizeof(s))
	}
	for _, s := range rd.Requisites {
		n += int64(len(s)) + int64(unsafe.Sizeof(s)) + 1
	}
	for _, r := range rd.Refs {
		n += int64(len(r.URL)+len(r.Fragment)) + int64(unsafe.Sizeof(r))
	}
	for _, s := range rd.IDs {
		n += int64(len(s)) + int64(unsafe.Sizeof(s))
	}
	return n
}

// keptCharset returns what a reading with s keeps of the charset cs a
// page's Content-Type named: nothing, unless s is a
// [pagescan.CharsetScanner] that reads the page otherwise with it, or the
// crawl reads the page's requisites or refs too, as a browser decodes the
// page: then what [pagescan.HTML] keeps. A saved page's journal line keeps
// it, so that a resumed crawl, which has the page but not its response,
// reads the page alike. It is safe for concurrent use.
func keptCharset(s pagescan.Scanner, what pagescan.What, page []byte, cs string) string {
	if cs == "" {
		return ""
	}
	if what.Requisites || what.Refs {
		return new(pagescan.HTML).Charset(page, cs)
	}
	if c, ok := s.(pagescan.CharsetScanner); ok {
		return c.Charset(page, cs)
	}
	return ""
}
