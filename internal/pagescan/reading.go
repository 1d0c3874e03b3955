package pagescan

import "bytes"

// What says what a reading of a page gathers.
type What struct {
	// Links gathers the page's links, as its scanner finds them.
	Links bool
	// Requisites gathers what the page needs to render, as [Requisites]
	// finds it.
	Requisites bool
	// Refs gathers where each link and requisite is, with its fragment,
	// and the ids a link to the page can name, as [HTML.Refs] does: for a
	// link check.
	Refs bool
}

// A Reading is what one reading of a page found.
type Reading struct {
	// Links are the page's links, as its scanner's Scan finds them, in
	// document order, resolved.
	Links []string
	// Requisites are what the page needs to render, as [Requisites] finds
	// them, in order, and Frames says which of them are the documents of
	// its frames, which are links too; Skipped counts the candidates of
	// srcsets and image-set()s a browser would not load.
	Requisites []string
	Frames     []bool
	Skipped    int
	// Refs are the page's links and requisites with where each is, and
	// IDs the fragments a link to the page can name (see [HTML.Refs]).
	Refs []Ref
	IDs  []string
}

// A Reader is a [Scanner] that finds, in one reading of a page, its links
// and whatever else a crawl asks of it ([What]): [HTML], and a [Region]
// of it.
type Reader interface {
	Scanner
	Read(pageURL string, page []byte, charset string, what What) *Reading
}

// Read reads page, fetched from pageURL with charset named by its
// Content-Type (or kept from it, see [CharsetScanner]), for what what
// asks: its links as s finds them, and the rest. A [Reader] reads the
// page once for all of it; any other scanner, the reference's, finds the
// links in its own reading, and the page is read as [HTML] reads it for
// the rest.
func Read(s Scanner, pageURL string, page []byte, charset string, what What) *Reading {
	if r, ok := s.(Reader); ok {
		return r.Read(pageURL, page, charset, what)
	}
	rd := new(Reading)
	if what.Links {
		// Room for as many links as the page has hrefs, most pages' count
		// or near it: a page of a million links is then held once, not
		// again in the garbage of a slice that grows. But no more than a
		// link every 32 bytes, as short as links come, so that a page of
		// "hrefhref..." cannot make room for four times its size.
		rd.Links = make([]string, 0, min(bytes.Count(page, []byte("href")), len(page)/32))
		found := func(link string) { rd.Links = append(rd.Links, link) }
		if cs, ok := s.(CharsetScanner); ok && charset != "" {
			cs.ScanCharset(pageURL, page, charset, found)
		} else {
			s.Scan(pageURL, page, found)
		}
	}
	if what.Requisites || what.Refs {
		rest := new(HTML).Read(pageURL, page, charset, What{Requisites: what.Requisites, Refs: what.Refs})
		rd.Requisites, rd.Frames, rd.Skipped, rd.Refs, rd.IDs = rest.Requisites, rest.Frames, rest.Skipped, rest.Refs, rest.IDs
	}
	return rd
}

// Read reads page once for what what asks.
func (h *HTML) Read(pageURL string, page []byte, charset string, what What) *Reading {
	d := decode(page, charset)
	return h.readRange(pageURL, d, 0, len(d.text), what)
}

// readRange is Read of the links whose tags start at an offset of d's
// text in [start, end), and of the rest of the whole document.
func (h *HTML) readRange(pageURL string, d document, start, end int, what What) *Reading {
	h.read(pageURL, d, start, end, gather{links: what.Links || what.Refs, requisites: what.Requisites || what.Refs, refs: what.Refs, ids: what.Refs})
	t := &h.t
	rd := &Reading{Skipped: t.skipped}
	base := t.finalBase()
	all := make([]string, len(t.links))
	for i := range t.links {
		all[i] = t.linkURL(base, &t.links[i])
	}
	rd.Links = all
	switch {
	case !what.Links:
		rd.Links = nil
	case what.Refs:
		// Every link was gathered, for the refs: those in the region are
		// the page's links.
		rd.Links = nil
		for i := range t.links {
			if t.links[i].region {
				rd.Links = append(rd.Links, all[i])
			}
		}
	}
	if what.Requisites {
		rd.Requisites = make([]string, 0, len(t.reqs))
		rd.Frames = make([]bool, 0, len(t.reqs))
		for _, r := range t.reqs {
			if !r.checked { // found for the refs alone
				rd.Requisites, rd.Frames = append(rd.Requisites, r.ref), append(rd.Frames, r.frame)
			}
		}
	}
	if what.Refs {
		rd.Refs, rd.IDs = t.refsAndIDs(d.text, all)
	}
	return rd
}

// refsAndIDs returns the refs and the ids the tree gathered of the
// document whose text is text, whose links, resolved, are links.
func (t *tree) refsAndIDs(text []byte, links []string) ([]Ref, []string) {
	p := newPositioner(text)
	refs := make([]Ref, 0, len(t.links)+len(t.reqs))
	for i := range t.links {
		l := &t.links[i]
		line, col := p.position(l.at)
		refs = append(refs, Ref{URL: links[i], Fragment: l.frag, Line: line, Column: col})
	}
	for i := range t.reqs {
		r := &t.reqs[i]
		line, col := p.position(r.at)
		refs = append(refs, Ref{URL: r.ref, Fragment: r.frag, Requisite: !r.asLink, Frame: r.frame, Unloaded: r.checked, Line: line, Column: col})
	}
	var ids []string
	if t.htmlID != "" {
		ids = append(ids, t.htmlID)
	}
	ids = append(ids, t.ids...)
	return refs, ids
}

// Read reads the page once for what what asks: the links in its region,
// and the rest of the whole page. The html scanner reads it once for all
// of it; any other scanner reads its region, and the page is read as
// [HTML] reads it for the rest.
func (r *Region) Read(pageURL string, page []byte, charset string, what What) *Reading {
	h, ok := r.Scanner.(*HTML)
	if !ok {
		rd := new(Reading)
		if what.Links {
			r.ScanCharset(pageURL, page, charset, func(link string) { rd.Links = append(rd.Links, link) })
		}
		if what.Requisites || what.Refs {
			rest := new(HTML).Read(pageURL, page, charset, What{Requisites: what.Requisites, Refs: what.Refs})
			rd.Requisites, rd.Frames, rd.Skipped, rd.Refs, rd.IDs = rest.Requisites, rest.Frames, rest.Skipped, rest.Refs, rest.IDs
		}
		return rd
	}
	d := decode(page, charset)
	start, end, ok := r.Bounds(d.text)
	if !ok {
		start, end = 0, 0 // no region: no tag starts in it
	}
	return h.readRange(pageURL, d, start, end, what)
}
