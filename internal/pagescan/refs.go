package pagescan

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// A Ref is a URL a page refers to, and where.
type Ref struct {
	// URL is resolved, without its fragment, exactly as
	// [HTML.Read] reports it.
	URL string
	// Fragment is the link's fragment, without '#', as written (not
	// percent-decoded), or "" if none.
	Fragment string
	// Requisite says whether the URL is a requisite (what [Requisites]
	// finds), rather than a page link (what [HTML.Scan] finds).
	Requisite bool
	// Frame says that a requisite is an <iframe>'s or a <frame>'s
	// document, which is a link of the page too.
	Frame bool
	// Unloaded says that no browser loads the URL, nor does the crawl,
	// and that a link check checks it all the same: the href of a <link>
	// whose rel loads nothing, a link, and an srcset's or an
	// image-set()'s candidate a browser does not pick at 1× or 2×, a
	// requisite.
	Unloaded bool
	// Line and Column, both from 1, are where the '<' of the tag that
	// holds the URL is, or, in the sheet of an HTML <style>, its url(
	// or string. Column counts characters (runes) of the decoded text.
	Line, Column int
}

// Refs calls ref with each link of page (as ScanCharset finds them, in the
// same order), then each requisite (as [Requisites] finds them), each
// with its position, the requisites among the URLs that a link check
// checks and no browser loads (Unloaded), and id with each fragment a link to this page can
// name: the id of every element in the document (not inside a
// <template>'s contents), and the name of every HTML <a> element. charset
// is as for ScanCharset. Either function may be nil: the ids cost an
// attribute lookup on every tag, which a nil id spares.
//
// A line ends at a '\n', and at a '\r' not followed by one. A URL in an
// SVG <style>, whose text holds character references and may hold
// elements, is placed at its <style> tag, and one in a style attribute at
// its tag. The ids come in the order of their tags, the <html> element's
// first, each as often as it comes.
func (h *HTML) Refs(pageURL string, page []byte, charset string, ref func(Ref), id func(string)) {
	d := decode(page, charset)
	h.read(pageURL, d, 0, len(d.text), gather{links: true, requisites: true, refs: true, ids: id != nil})
	t := &h.t
	if ref != nil {
		p := newPositioner(d.text)
		base := t.finalBase()
		for i := range t.links {
			l := &t.links[i]
			line, col := p.position(l.at)
			ref(Ref{URL: t.linkURL(base, l), Fragment: l.frag, Line: line, Column: col})
		}
		for i := range t.reqs {
			r := &t.reqs[i]
			line, col := p.position(r.at)
			ref(Ref{URL: r.ref, Fragment: r.frag, Requisite: !r.asLink, Frame: r.frame, Unloaded: r.checked, Line: line, Column: col})
		}
	}
	if id != nil {
		if t.htmlID != "" {
			id(t.htmlID)
		}
		for _, s := range t.ids {
			id(s)
		}
	}
}

// CSSRefs calls ref with each URL a stylesheet refers to (@import and
// url(), as [StyleRequisites] finds them, resolved against sheetURL), with
// the line and column of its url( or its string in the sheet, decoded,
// without its byte order mark. A line ends at a '\n', and at a '\r' not
// followed by one (a form feed, which CSS takes for a line break too,
// does not end one); a column counts characters (runes). charset is as
// for StyleRequisites.
func CSSRefs(sheetURL string, sheet []byte, charset string, ref func(Ref)) {
	name, bom := sniffSheet(sheet, charset)
	d := decodeAs(sheet[bom:], name)
	m := textMap{src: d.text}
	p := newPositioner(d.text)
	add := func(r string, at int, unloaded bool) {
		if u, ok := requisiteURL(sheetURL, r, d.query); ok {
			line, col := p.position(m.offset(at))
			ref(Ref{URL: u, Fragment: fragment(r), Requisite: true, Unloaded: unloaded, Line: line, Column: col})
		}
	}
	// Every image-set() candidate: the bound is a crawl's, not a check's.
	cssURLsAt(string(d.text), true, func(r string, at int) { add(r, at, false) }, func(r string, at int) { add(r, at, true) })
}

// fragment returns ref's fragment if the tree notes fragments, and ""
// if not.
func (t *tree) fragment(ref string) string {
	if !t.refs {
		return ""
	}
	return fragment(ref)
}

// fragment returns the fragment of ref, a URL as written: what follows
// its first '#', which begins the fragment wherever it is, without the
// trailing spaces and control characters, tabs and newlines that the URL
// parser drops; "" if none.
func fragment(ref string) string {
	i := strings.IndexByte(ref, '#')
	if i < 0 {
		return ""
	}
	f := strings.TrimRightFunc(ref[i+1:], func(r rune) bool { return r <= ' ' })
	if !strings.ContainsAny(f, "\t\n\r") {
		return f
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, f)
}

// A positioner finds the line and column of offsets in a text. It reads
// the text from one offset to the next, so offsets in increasing order
// cost one pass over it; one that goes backwards costs a rescan of the
// stretch in between, and of its line up to it.
type positioner struct {
	text []byte
	off  int // the last offset asked for
	line int // its line, from 1
	col  int // the runes between its line's start and it
}

func newPositioner(text []byte) positioner {
	return positioner{text: text, line: 1}
}

// position returns the line and column of the offset off in the text.
func (p *positioner) position(off int) (line, column int) {
	off = min(max(off, 0), len(p.text))
	from, to := min(p.off, off), max(p.off, off)
	switch n := lineBreaks(p.text, from, to); {
	case n > 0:
		if off > p.off {
			p.line += n
		} else {
			p.line -= n
		}
		p.col = utf8.RuneCount(p.text[lastBreak(p.text, off)+1 : off])
	case off > p.off:
		p.col += utf8.RuneCount(p.text[from:to])
	default:
		p.col -= utf8.RuneCount(p.text[from:to])
	}
	p.off = off
	return p.line, p.col + 1
}

// isBreak reports whether a line ends at text[i]: a '\n', or a '\r' not
// followed by one.
func isBreak(text []byte, i int) bool {
	switch text[i] {
	case '\n':
		return true
	case '\r':
		return i+1 == len(text) || text[i+1] != '\n'
	}
	return false
}

// lineBreaks counts the line breaks in text[from:to].
func lineBreaks(text []byte, from, to int) int {
	seg := text[from:to]
	n := bytes.Count(seg, []byte{'\n'})
	for i := 0; ; i++ {
		j := bytes.IndexByte(seg[i:], '\r')
		if j < 0 {
			return n
		}
		i += j
		if isBreak(text, from+i) {
			n++
		}
	}
}

// lastBreak returns the offset of the last line break in text before off,
// or -1.
func lastBreak(text []byte, off int) int {
	for i := off - 1; i >= 0; i-- {
		if isBreak(text, i) {
			return i
		}
	}
	return -1
}

// A textMap maps offsets in CSS, as the tokenizer reads it, to offsets in
// src, the text it comes from, which starts at from in the document:
// preprocessing (see [cssPreprocess]), and for a <style> the HTML
// tokenizer before it, made each CR LF, CR and FF one LF, and each NUL a
// U+FFFD of three bytes. It reads src onward from one offset to the next.
type textMap struct {
	src  []byte
	from int
	i, j int // an offset in src, and the offset in the CSS it maps to
}

// offset returns the offset in the document of the offset j in the CSS.
func (m *textMap) offset(j int) int {
	if j < m.j {
		m.i, m.j = 0, 0
	}
	for m.j < j && m.i < len(m.src) {
		switch m.src[m.i] {
		case '\r':
			if m.i+1 < len(m.src) && m.src[m.i+1] == '\n' {
				m.i++
			}
		case 0:
			m.j += len("\uFFFD") - 1
		}
		m.i++
		m.j++
	}
	return m.from + m.i
}
