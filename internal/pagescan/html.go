package pagescan

import (
	"bytes"
	"cmp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/encoding"

	"tse-crawler/internal/browserurl"
)

// HTML finds the links a browser follows in a page, as the HTML Standard
// builds the page's tree with scripting disabled, since a crawler runs no
// scripts. It reads the page with the HTML5 tokenizer of golang.org/x/net/html
// and keeps beside it the part of the tree construction that decides what
// is a link: which elements are open, in which namespace, whether inside a
// template, and whether the page is a frameset.
//
// These are links, in document order:
//   - the href of <a> and <area>, and of an SVG <a> (href, else xlink:href),
//     which a browser navigates to when clicked;
//   - the src of <iframe>, unless it has a srcdoc, and of <frame> in a
//     frameset: a browser loads them at once;
//   - the URL of the first <meta http-equiv="refresh"> whose content
//     parses, as the standard's shared declarative refresh steps read it,
//     whatever its delay.
//
// And these are not:
//   - anything in a comment, a script, a style, a textarea, a title, a
//     template's contents, or CDATA in SVG or MathML;
//   - an <a> in MathML, an <iframe> or <frame> whose src is empty, a <frame>
//     outside a frameset, a refresh without a URL (it reloads the page, and
//     later refreshes do nothing);
//   - in a frameset page, everything but its frames, and the links of a
//     body that the frameset replaces.
//
// <noscript> hides nothing: without scripts its contents are markup. SVG's
// <title>, <desc> and <foreignObject>, MathML's <mi>, <mo>, <mn>, <ms>,
// <mtext> and an <annotation-xml> whose encoding is HTML hold HTML, so an
// <a> there is an HTML link. Character references such as &amp; are
// decoded, and of duplicated attributes the first counts. Leading and
// trailing spaces and control characters are trimmed, and tabs and
// newlines inside the value dropped, as the URL standard says.
//
// The base URL is that of the first HTML <base> with an href, wherever it is
// (one in a template, SVG or MathML does not count), resolved against the
// page's URL; the page's URL itself if it does not resolve or is a data: or
// javascript: URL. Links followed on a click (<a>, <area>) are resolved
// against it even when they come before it; the others are resolved as
// they appear, against the base known then, because a browser loads them
// as soon as it inserts them. Links are reported without their fragment;
// one that does not resolve is reported as written.
//
// The page is decoded first, as a browser decodes it: by its byte order
// mark, the charset its Content-Type names ([HTML.ScanCharset]), or the
// <meta> charset in its first 1024 bytes; else as UTF-8 if it is, and as
// windows-1252 if not. A link's path is then UTF-8, and its query in the
// page's encoding, as the URL standard says (see
// browserurl.ResolveEncoded).
//
// Where a misnested page makes the standard move elements around (the
// adoption agency and foster parenting), HTML follows the tags in source
// order and reports each link tag once, where the tree may hold clones of
// an <a>. It keeps the namespaces and templates right, and tracks elements
// 512 deep, as browsers build the tree. A token of 16 MiB or more (a text,
// a comment, a script, a tag) it skips whole, reading on from its end.
//
// The zero value is ready to use. An HTML scanner reuses memory from page
// to page, so it is not safe for concurrent use.
type HTML struct {
	t tree
	k tokens
	// maxToken is the bound on a token's bytes, if positive, else the
	// constant maxToken: tests set less.
	maxToken int
}

// Scan calls found with each link in page, resolved, in document order.
func (h *HTML) Scan(pageURL string, page []byte, found func(link string)) {
	h.ScanCharset(pageURL, page, "", found)
}

// ScanCharset is Scan for a page whose Content-Type names charset.
func (h *HTML) ScanCharset(pageURL string, page []byte, charset string, found func(link string)) {
	d := decode(page, charset)
	h.scanRange(pageURL, d, 0, len(d.text), found, nil)
}

// scanRange reads the whole document, and calls found, unless it is nil,
// with the links whose tags start at an offset of its text in [start,
// end), then requisite, unless it is nil, with the page's requisites.
// It returns how many candidates of srcsets and image-set()s it skipped
// (see [Requisites]), when it gathers requisites.
func (h *HTML) scanRange(pageURL string, d document, start, end int, found, requisite func(url string)) (skipped int) {
	h.read(pageURL, d, start, end, gather{links: found != nil, requisites: requisite != nil})
	h.t.report(found, requisite)
	return h.t.skipped
}

// gather says what a reading of a page gathers.
type gather struct {
	links, requisites bool
	// refs notes where each link and requisite is, and its fragment, and
	// ids the fragments the page's elements can be the target of: for
	// [HTML.Refs], which gathers the requisites too.
	refs, ids bool
}

// read reads the whole document, gathering what g says, from the tags
// that start at an offset of its text in [start, end) for the links.
func (h *HTML) read(pageURL string, d document, start, end int, g gather) {
	t := &h.t
	t.reset(pageURL, d, g)
	k := &h.k
	k.reset(d.text, cmp.Or(h.maxToken, maxToken))
	for {
		// CDATA sections exist only in foreign content; elsewhere
		// "<![CDATA[" opens a bogus comment.
		tt := k.next(t.foreignTop())
		if tt == html.ErrorToken {
			break // io.EOF: the tokenizer reads from memory and cannot fail otherwise
		}
		z := k.z
		switch tt {
		case html.TextToken:
			// z.Text copies and decodes the text: only for the tree.
			if t.requisites && t.inStyle() {
				t.requisiteText(z.Text())
			} else if !t.settled() {
				t.text(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name := t.tagName(z)
			a := atom.Lookup(name)
			k.startTag(a)
			t.at = k.at
			t.inRegion = start <= k.at && k.at < end
			t.startTag(&tag{
				z:           z,
				tokens:      k,
				name:        name,
				atom:        a,
				more:        true,
				read:        &t.attrBuf,
				selfClosing: tt == html.SelfClosingTagToken,
				inRegion:    t.inRegion,
			})
		case html.EndTagToken:
			name := t.tagName(z)
			t.endTag(name, atom.Lookup(name))
		case html.DoctypeToken:
			t.doctype(z.Text())
		}
	}
	if t.requisites {
		t.popStyles(0) // the styles left open end with the page
	}
}

// tagName returns the lower-cased name of the current tag. It reads it
// from the raw tag into a buffer of its own, because z.TagName allocates a
// copy for every tag; a long name, or one with a NUL (which z.TagName
// replaces), it leaves to z.TagName.
func (t *tree) tagName(z *html.Tokenizer) []byte {
	raw := z.Raw()
	i := 1 // after "<"
	if len(raw) > 1 && raw[1] == '/' {
		i = 2
	}
	n := 0
	for _, c := range raw[i:] {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>' {
			break
		}
		if c == 0 || n == len(t.nameBuf) {
			name, _ := z.TagName()
			return name
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		t.nameBuf[n] = c
		n++
	}
	return t.nameBuf[:n]
}

// resolveLink resolves href, already cleaned by [cleanHref], against base
// in a document whose URLs' queries are written in query (nil for UTF-8),
// and returns the result without its fragment, or false if a browser would
// reject it. Every link and base goes through it. A link that fails is
// still a link the page has, so it is reported as written, and the
// crawler's normalizer rejects it in turn; a <base> or a refresh that fails
// does nothing, as in a browser.
func resolveLink(base, href string, query encoding.Encoding) (string, bool) {
	if query != nil {
		return browserurl.ResolveEncoded(base, href, query)
	}
	return resolve(base, href)
}

// resolve is resolveLink in the tree's document, with a resolver that reads
// base once for all the links resolved against it.
func (t *tree) resolve(base, href string) (string, bool) {
	if t.query != nil {
		return browserurl.ResolveEncoded(base, href, t.query)
	}
	if t.resolver.Base() != base {
		t.resolver = browserurl.NewResolver(base)
	}
	return t.resolver.Resolve(href)
}

// cleanHref does what the URL standard does to an href before parsing it:
// strip leading and trailing C0 controls and spaces, and remove every tab
// and newline. It is idempotent, so a resolver that does it again is
// harmless.
func cleanHref(v []byte) string {
	// Byte by byte, which is rune by rune here: a byte of a multi-byte
	// sequence, or of none, is above ' ', as is the rune it starts.
	for len(v) > 0 && v[0] <= ' ' {
		v = v[1:]
	}
	for len(v) > 0 && v[len(v)-1] <= ' ' {
		v = v[:len(v)-1]
	}
	i := 0
	for i < len(v) && v[i] != '\t' && v[i] != '\n' && v[i] != '\r' {
		i++
	}
	if i == len(v) {
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

// parseRefresh reads the content of a <meta http-equiv="refresh"> as the
// HTML Standard's shared declarative refresh steps do. It returns the URL
// to go to, if the content names one, and reports whether the content
// parses at all: a refresh that does not parse is ignored, and one that
// parses without a URL reloads the page.
func parseRefresh(s string) (url string, hasURL, ok bool) {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	skipSpace := func() {
		for s != "" && isSpace(s[0]) {
			s = s[1:]
		}
	}
	skipSpace()
	// The delay: digits, or a dot, then any digits and dots. Its value does
	// not matter to a crawler, which follows a slow refresh too.
	if s == "" || s[0] != '.' && (s[0] < '0' || s[0] > '9') {
		return "", false, false
	}
	for s != "" && (s[0] == '.' || '0' <= s[0] && s[0] <= '9') {
		s = s[1:]
	}
	if s != "" {
		if s[0] != ';' && s[0] != ',' && !isSpace(s[0]) {
			return "", false, false
		}
		skipSpace()
		if s != "" && (s[0] == ';' || s[0] == ',') {
			s = s[1:]
		}
		skipSpace()
	}
	if s == "" {
		return "", false, true
	}
	// An optional "url =", in any case. A word that only starts like it
	// is the URL itself, quotes and all.
	rest := s
	switch {
	case len(s) >= 3 && s[0]|0x20 == 'u' && s[1]|0x20 == 'r' && s[2]|0x20 == 'l':
		s = s[3:]
		skipSpace()
		if s == "" || s[0] != '=' {
			return rest, true, true
		}
		s = s[1:]
		skipSpace()
	case s[0]|0x20 == 'u':
		return rest, true, true
	}
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		s = s[1:]
		if i := strings.IndexByte(s, q); i >= 0 {
			s = s[:i]
		}
	}
	return s, true, true
}

// A namespace is that of an element: HTML, SVG or MathML.
type namespace uint8

const (
	nsHTML namespace = iota
	nsSVG
	nsMathML
)

// An element is an open element, as the tree construction's stack of open
// elements holds it.
type element struct {
	name string    // lower case, as the tokenizer gives it
	atom atom.Atom // 0 if the atom table lacks the name
	ns   namespace
	// point says whether a foreign element holds HTML tags and text.
	point integration
	// tableParts says, of a template whose first tag has been seen
	// (decided), whether that tag was a table part: then the template
	// holds table parts, else they are ignored in it.
	tableParts, decided bool
	// style says, when the tree gathers requisites, whether the element
	// is a <style> in the document, whose text from cssFrom in the tree's
	// cssBuf is its style sheet.
	style   bool
	cssFrom int
	// at is, of a <style> in the document, where its sheet is in the
	// document's text: for HTML's, whose text is raw, where the text
	// starts; for SVG's, where its tag starts.
	at int
}

// An integration point is a foreign element that holds HTML tags and text.
type integration uint8

const (
	notPoint integration = iota
	// htmlPoint: SVG title, desc and foreignObject, and an annotation-xml
	// whose encoding is HTML.
	htmlPoint
	// mathTextPoint: MathML's mi, mo, mn, ms and mtext, whose <mglyph> and
	// <malignmark> stay MathML.
	mathTextPoint
)

// maxDepth bounds the stack of open elements, as browsers bound the depth
// of the tree, so that a hostile page of endless unclosed tags costs no
// more than this. Deeper elements are not tracked.
const maxDepth = 512

// A mode is where the page is in the tree construction, as far as links
// are concerned.
type mode uint8

const (
	inBody        mode = iota // any mode but these: everything counts
	inFrameset                // only frames count
	afterFrameset             // nothing counts
)

// A tree is as much of the HTML Standard's tree construction as decides
// which tags are links. It builds no nodes.
type tree struct {
	pageURL string
	query   encoding.Encoding // of the URLs' queries; nil for UTF-8
	stack   []element
	// templates counts the HTML templates on the stack: inside one, nothing
	// is in the document, so nothing counts.
	templates int
	mode      mode
	// A frameset replaces the body only while the body holds nothing a
	// reader would see (the standard's frameset-ok flag); the links found
	// in that body then vanish with it.
	framesetOK  bool
	bodyStarted bool
	// bodyMark and reqMark are len(links) and len(reqs) when the body
	// started.
	bodyMark, reqMark int
	// base is the frozen base URL of the first <base href>, if haveBase.
	base                 string
	haveBase, baseInBody bool
	refreshed            bool // a refresh has been seen: later ones do nothing
	// initial says whether nothing but comments and spaces came yet, so
	// that a DOCTYPE counts; noQuirks, whether it was <!DOCTYPE html>.
	initial, noQuirks bool
	// form is the standard's form element pointer: a <form> outside a
	// template is ignored from one <form> to its </form>.
	form bool
	// findLinks and requisites say whether the tree gathers the page's
	// links, in links, and its requisites (see [Requisites]), in reqs:
	// either or both, from one reading of the page.
	findLinks, requisites bool
	links, reqs           []link
	skipped               int // srcset and image-set() candidates not picked
	// at is where the tag being read starts in the document's text, to
	// note with each link and requisite, and inRegion whether it starts
	// in the region whose links are reported.
	at       int
	inRegion bool
	// refs says whether the tree notes each link's fragment, and maps
	// the URLs of a <style> to their places in doc, the document's text.
	refs bool
	doc  []byte
	// cssAt is where the URLs of the CSS being read are, or -1 if
	// sheetMap maps their offsets in it, an HTML <style>'s sheet, to doc:
	// fields, not variables of cssRequisites, which its closure would
	// have to allocate.
	cssAt    int
	sheetMap textMap
	// findIDs says whether the tree gathers, with the requisites, the
	// fragments a link to the page can name: the ids of the elements in
	// the document and the names of its <a>s, in ids, but for the <html>
	// element's id, htmlID, which stays when a frameset replaces the body
	// and the ids from idMark on go. haveHTMLID and haveBodyID say
	// whether that element has an id already, which a later tag's does
	// not replace; pastHead, whether a tag came after which a <head> tag
	// is ignored.
	findIDs                          bool
	ids                              []string
	idMark                           int
	htmlID                           string
	haveHTMLID, haveBodyID, pastHead bool
	resolver                         browserurl.Resolver // for the base last resolved against
	// names interns the names of elements that the atom table lacks, so
	// that a custom element costs no allocation once seen.
	names   map[string]string
	nameBuf [32]byte
	// attrBuf holds the current tag's attributes read so far, and, when
	// the tree gathers requisites, cssBuf the text of the open <style>
	// elements.
	attrBuf []attr
	cssBuf  []byte
	// htmlStyle and bodyStyle, bodyBackground say whether the <html> or
	// the <body> got that attribute: a later tag's does not replace it.
	htmlStyle, bodyStyle, bodyBackground bool
	onHTML                               bool // the requisites being noted are the <html>'s
	frame                                bool // the requisite being noted is a frame's document
}

// A link is a link or a requisite found in the page, not yet reported.
type link struct {
	ref string
	// resolved says whether ref is already resolved, because a browser
	// resolves it on insertion, against the base known then.
	resolved bool
	// onHTML says that the requisite is the <html> element's, which
	// stays when a frameset replaces the body.
	onHTML bool
	// at is where it is in the document's text: where its tag starts,
	// or its url( or string in a <style>. frag is its fragment, if the
	// tree notes fragments.
	at   int
	frag string
	// region says that a link's tag starts in the region whose links are
	// reported: a tree that notes where links are gathers them all, for a
	// link check, and reports those in the region alone as links.
	region bool
	// frame says that the requisite is an <iframe>'s or a <frame>'s
	// document, which is a link too.
	frame bool
	// checked says that it is no requisite, but found for a link check
	// (see addChecked): a link if asLink, else an image candidate.
	checked, asLink bool
}

// A tag is the start tag being read.
type tag struct {
	z           *html.Tokenizer
	tokens      *tokens // z's reader, which must know when z reads raw text
	name        []byte
	atom        atom.Atom
	more        bool // whether attributes may be left to read from the tokenizer
	selfClosing bool
	inRegion    bool // whether the tag starts in the region to report
	// read holds the attributes read so far, in order: the tree's buffer,
	// emptied for each tag. They are read as they are looked up, and no
	// further, since each costs the tokenizer two copies.
	read *[]attr
}

// An attr is an attribute of a tag, its name in lower case and its value
// decoded, as the tokenizer gives them: valid until its next token.
type attr struct {
	key, val []byte
}

// attrs returns the values of the tag's attributes named k0 and k1, and
// whether each is present; an empty k1 names none.
func (g *tag) attrs(k0, k1 string) (v0, v1 []byte, has0, has1 bool) {
	v0, has0 = g.get(k0)
	if k1 != "" {
		v1, has1 = g.get(k1)
	}
	return v0, v1, has0, has1
}

// reset readies the tree for the page d, to gather what g says.
func (t *tree) reset(pageURL string, d document, g gather) {
	clear(t.links)
	clear(t.reqs)
	clear(t.ids)
	if len(t.names) > 1000 {
		clear(t.names) // a page of random tag names must not grow it forever
	}
	*t = tree{
		pageURL:    pageURL,
		query:      d.query,
		initial:    true,
		stack:      t.stack[:0],
		framesetOK: true,
		links:      t.links[:0],
		reqs:       t.reqs[:0],
		names:      t.names,
		resolver:   t.resolver,
		findLinks:  g.links,
		requisites: g.requisites,
		attrBuf:    t.attrBuf[:0],
		cssBuf:     t.cssBuf[:0],
		ids:        t.ids[:0],
	}
	if g.refs {
		t.refs, t.doc = true, d.text
		t.findIDs = g.ids && g.requisites
	}
}

// report calls found with each link, resolved, then requisite with each
// requisite; the tree gathered none of either that is nil.
func (t *tree) report(found, requisite func(url string)) {
	base := t.finalBase()
	for i := range t.links {
		found(t.linkURL(base, &t.links[i]))
	}
	for _, r := range t.reqs {
		if !r.checked {
			requisite(r.ref)
		}
	}
}

// finalBase returns the page's base URL, as it stands at its end.
func (t *tree) finalBase() string {
	if t.haveBase {
		return t.base
	}
	return t.pageURL
}

// linkURL returns the URL of the link l, resolved against base, the
// page's final base, unless it was resolved when found; as written if it
// does not resolve.
func (t *tree) linkURL(base string, l *link) string {
	if l.resolved {
		return l.ref
	}
	if u, ok := t.resolve(base, l.ref); ok {
		return u
	}
	return l.ref
}

func (t *tree) top() *element {
	if len(t.stack) == 0 {
		return nil
	}
	return &t.stack[len(t.stack)-1]
}

// foreignTop reports whether the current node is in SVG or MathML.
func (t *tree) foreignTop() bool {
	e := t.top()
	return e != nil && e.ns != nsHTML
}

// settled reports whether text can no longer change anything.
func (t *tree) settled() bool {
	return t.mode != inBody || !t.framesetOK && t.bodyStarted
}

// text sees a text token.
func (t *tree) text(s []byte) {
	if e := t.top(); e != nil && e.ns == nsHTML && rawText(e.atom) {
		return // a script's or a title's text, not the page's
	}
	if len(bytes.Trim(s, " \t\n\f\r\x00")) == 0 {
		return
	}
	t.initial = false
	t.startBody()
	t.framesetOK = false
}

// inHeadNoscript reports whether e, the current node, is a <noscript> in
// the head.
func (t *tree) inHeadNoscript(e *element) bool {
	return !t.bodyStarted && t.templates == 0 && e != nil && e.ns == nsHTML && e.atom == atom.Noscript
}

// startBody notes that the body has begun, unless in a template in the
// head. What the head left open, a <noscript>, closes. A body that begins
// is open to a frameset again, even after a template in the head, as in
// x/net/html and html5lib.
func (t *tree) startBody() {
	if !t.bodyStarted && t.templates == 0 {
		t.popTo(0)
		t.bodyStarted, t.bodyMark, t.reqMark, t.framesetOK = true, len(t.links), len(t.reqs), true
		t.idMark = len(t.ids)
	}
}

// foreignContent reports whether a start tag goes to the rules for foreign
// content, rather than to those of HTML.
func (t *tree) foreignContent(a atom.Atom) bool {
	e := t.top()
	switch {
	case e == nil || e.ns == nsHTML || e.point == htmlPoint:
		return false
	case e.point == mathTextPoint:
		return a == atom.Mglyph || a == atom.Malignmark
	case e.ns == nsMathML && e.atom == atom.AnnotationXml:
		return a != atom.Svg
	}
	return true
}

// doctype sees a DOCTYPE. Only <!DOCTYPE html> puts the page in no-quirks
// mode, where a <table> closes an open <p>. That is a simplification: the
// standard lists the older doctypes that do too, but the difference
// matters only to the end tags of such a paragraph.
func (t *tree) doctype(s []byte) {
	if t.initial {
		t.noQuirks = bytes.EqualFold(bytes.TrimSpace(s), []byte("html"))
	}
	t.initial = false
}

func (t *tree) startTag(g *tag) {
	t.initial = false
	t.attrBuf = t.attrBuf[:0]
	if t.mode != inBody {
		t.framesetTag(g)
		return
	}
	if t.foreignContent(g.atom) {
		if !breaksOut(g) {
			t.foreignTag(g)
			return
		}
		t.breakOut()
	}
	t.htmlTag(g)
}

// breakOut closes the SVG or MathML in which an HTML tag appears, up to
// the nearest element that holds HTML.
func (t *tree) breakOut() {
	for e := t.top(); e != nil && e.ns != nsHTML && e.point == notPoint; e = t.top() {
		t.popTo(len(t.stack) - 1)
	}
}

// breaksOut reports whether a start tag in foreign content is an HTML tag
// that closes the foreign content: the standard lists them.
func breaksOut(g *tag) bool {
	switch g.atom {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center, atom.Code,
		atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Hr,
		atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu, atom.Meta, atom.Nobr,
		atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span,
		atom.Strong, atom.Strike, atom.Sub, atom.Sup, atom.Table, atom.Tt,
		atom.U, atom.Ul, atom.Var:
		return true
	case atom.Font:
		return g.has("color") || g.has("face") || g.has("size")
	}
	return false
}

// foreignTag handles a start tag in SVG or MathML.
func (t *tree) foreignTag(g *tag) {
	// Nothing is raw text in foreign content: an SVG <title> or <script>
	// holds markup.
	g.tokens.notRaw()
	e := element{name: t.intern(g.name, g.atom), atom: g.atom, ns: t.top().ns}
	switch {
	case e.ns == nsSVG && e.name == "a" && t.linkCounts(g):
		// An SVG <a> is a link a browser follows; SVG 2's href wins over
		// the older xlink:href.
		href, xlink, hasHref, hasXlink := g.attrs("href", "xlink:href")
		if hasHref {
			t.addLink(href)
		} else if hasXlink {
			t.addLink(xlink)
		}
	case e.ns == nsSVG && (e.name == "title" || e.name == "desc" || e.name == "foreignobject"):
		e.point = htmlPoint
	case e.ns == nsMathML && e.atom == atom.AnnotationXml:
		if enc, _, _, _ := g.attrs("encoding", ""); bytes.EqualFold(enc, []byte("text/html")) ||
			bytes.EqualFold(enc, []byte("application/xhtml+xml")) {
			e.point = htmlPoint
		}
	case e.ns == nsMathML && (e.atom == atom.Mi || e.atom == atom.Mo || e.atom == atom.Mn ||
		e.atom == atom.Ms || e.atom == atom.Mtext):
		e.point = mathTextPoint
	}
	if t.requisites && t.templates == 0 {
		t.tagRequisites(g, foreignURLAttrs(g, &e))
		e.style, e.cssFrom, e.at = e.ns == nsSVG && e.atom == atom.Style, len(t.cssBuf), t.at
		if t.findIDs {
			t.noteID(g, false)
		}
	}
	if !g.selfClosing {
		t.push(e)
	}
}

// framesetTag handles a start tag in a frameset page.
func (t *tree) framesetTag(g *tag) {
	if g.atom == atom.Html && t.requisites {
		// In any mode, an <html> tag adds its attributes to the element.
		if t.findIDs {
			t.mergedID(g)
		}
		t.tagRequisites(g, t.mergedAttrs(g))
	}
	if t.findIDs && (g.atom == atom.Noframes ||
		t.mode == inFrameset && (g.atom == atom.Frameset || g.atom == atom.Frame)) {
		t.noteID(g, false) // the elements a frameset page holds
	}
	if t.mode != inFrameset {
		return
	}
	switch g.atom {
	case atom.Frameset:
		if !g.selfClosing {
			t.push(element{name: "frameset", atom: atom.Frameset})
		}
	case atom.Frame:
		t.addSrc(g)
		if t.requisites {
			t.tagRequisites(g, urlAttrs{url: "src", frame: true})
		}
	}
}

// htmlTag handles a start tag in HTML.
func (t *tree) htmlTag(g *tag) {
	live := t.beforeHTMLTag(g)
	if t.requisites && live {
		t.htmlRequisites(g)
		return
	}
	if !t.opens(g, live) {
		return
	}
	t.impliedEnd(g.atom)
	if !void(g.atom) {
		t.push(element{name: t.intern(g.name, g.atom), atom: g.atom})
	}
}

// beforeHTMLTag does what any start tag in HTML does first: it closes a
// <noscript> in the head that the tag may not be in, starts the body if
// the tag does not belong in the head, and in a template decides what
// the template holds. It reports whether the tag is live: in the
// document, not in a template.
func (t *tree) beforeHTMLTag(g *tag) (live bool) {
	if e := t.top(); t.inHeadNoscript(e) {
		// A <noscript> in the head holds only what styles the page.
		switch g.atom {
		case atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Style,
			atom.Html, atom.Head, atom.Noscript:
		default:
			t.popTo(len(t.stack) - 1)
		}
	}
	if !t.bodyStarted && !inHead(g.atom) {
		t.startBody()
	}
	live = t.templates == 0
	if !live {
		t.decideTemplate(g.atom)
	}
	return live
}

// opens handles what a start tag in HTML means for the page's links and
// the tree's state, and reports whether it opens an element of its name,
// rather than being ignored or opening one of its own.
func (t *tree) opens(g *tag, live bool) bool {
	switch g.atom {
	case atom.Html, atom.Head:
		return false
	case atom.Body:
		if live {
			t.framesetOK = false
		}
		return false
	case atom.Frameset:
		if live && (!t.bodyStarted || t.framesetOK) {
			t.startFrameset()
		}
		return false
	case atom.Frame, atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot,
		atom.Th, atom.Thead, atom.Tr:
		// A <frame> outside a frameset, and table parts outside a table
		// or a template for them, are ignored.
		i := t.indexInScope(tableScope, atom.Table, atom.Template)
		if g.atom == atom.Frame || i < 0 || t.stack[i].atom == atom.Template && !t.stack[i].tableParts {
			return false
		}
	case atom.A, atom.Area, atom.Base, atom.Meta, atom.Iframe:
		t.linkTag(g, live)
	case atom.Template:
		t.framesetOK = false
	case atom.Noscript:
		// Scripting is disabled, so <noscript> holds markup. In the head,
		// a <noscript> in a <noscript> is ignored.
		g.tokens.notRaw()
		if t.inHeadNoscript(t.top()) {
			return false
		}
	case atom.Svg:
		if !g.selfClosing {
			t.push(element{name: "svg", atom: atom.Svg, ns: nsSVG})
		}
		return false
	case atom.Math:
		if !g.selfClosing {
			t.push(element{name: "math", atom: atom.Math, ns: nsMathML})
		}
		return false
	case atom.Input:
		if typ, _, _, _ := g.attrs("type", ""); !bytes.EqualFold(typ, []byte("hidden")) {
			t.framesetOK = false
		}
	case atom.Form:
		if t.inTable() {
			// In a table, a form is inserted and closed at once, unless
			// ignored.
			t.form = t.form || live
			return false
		}
		if t.form && live {
			return false
		}
		t.form = live
	case atom.Select:
		// A select in a select closes it, and no other opens.
		if i := t.indexInScope(defaultScope, atom.Select); i >= 0 {
			t.popTo(i)
			return false
		}
		t.framesetOK = false
	case atom.Pre, atom.Listing, atom.Li, atom.Dd, atom.Dt, atom.Button, atom.Applet,
		atom.Marquee, atom.Object, atom.Table, atom.Br, atom.Embed, atom.Img, atom.Image,
		atom.Keygen, atom.Wbr, atom.Hr, atom.Textarea, atom.Xmp:
		t.framesetOK = false
	}
	return true
}

// inTable reports whether the tree construction is in one of the table
// insertion modes, where a tag is a table's, not a cell's or a caption's,
// whatever the table holds in front of it (foster parenting).
func (t *tree) inTable() bool {
	for i := len(t.stack) - 1; i >= 0; i-- {
		if e := &t.stack[i]; e.ns == nsHTML {
			switch e.atom {
			case atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr:
				return true
			case atom.Td, atom.Th, atom.Caption, atom.Template, atom.Html, atom.Body:
				return false
			}
		}
	}
	return false
}

// linkTag handles a start tag in HTML that may carry a link, or say how
// links resolve: <a>, <area>, <base>, <meta> (a refresh) and <iframe>.
// Each opens an element of its name, or is void.
func (t *tree) linkTag(g *tag, live bool) {
	switch g.atom {
	case atom.A:
		// An <a> closes the one still open.
		t.closeFormatting(atom.A)
		if href, ok := t.href(g); ok {
			t.addLink(href)
		}
	case atom.Area:
		t.framesetOK = false
		if href, ok := t.href(g); ok {
			t.addLink(href)
		}
	case atom.Base:
		if !live || t.haveBase {
			break
		}
		if href, _, has, _ := g.attrs("href", ""); has {
			t.setBase(href)
		}
	case atom.Meta:
		// A refresh only ever adds a link.
		if live && !t.refreshed && t.findLinks {
			t.refresh(g)
		}
	case atom.Iframe:
		t.framesetOK = false
		t.addSrc(g)
	}
}

// decideTemplate notes, at the first tag in a template but those that
// belong in a head, whether the template holds table parts.
func (t *tree) decideTemplate(a atom.Atom) {
	switch a {
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes,
		atom.Script, atom.Style, atom.Template, atom.Title:
		return
	}
	for i := len(t.stack) - 1; i >= 0; i-- {
		if e := &t.stack[i]; e.ns == nsHTML && e.atom == atom.Template {
			if !e.decided {
				e.decided = true
				switch a {
				case atom.Caption, atom.Colgroup, atom.Col, atom.Tbody, atom.Tfoot, atom.Thead,
					atom.Tr, atom.Td, atom.Th:
					e.tableParts = true
				}
			}
			return
		}
	}
}

// impliedEnd closes what a start tag closes. Only some of the standard's
// rules are here: those that keep a sloppy page, with its unclosed
// paragraphs, items and cells, from piling up open elements.
func (t *tree) impliedEnd(a atom.Atom) {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Header, atom.Hgroup, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P,
		atom.Search, atom.Section, atom.Summary, atom.Ul, atom.Pre, atom.Listing, atom.Form,
		atom.Plaintext, atom.Hr, atom.Xmp:
		t.closeInScope(buttonScope, atom.P)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		t.closeInScope(buttonScope, atom.P)
		if e := t.top(); e != nil && e.ns == nsHTML && heading(e.atom) {
			t.popTo(len(t.stack) - 1)
		}
	case atom.Li, atom.Dd, atom.Dt:
		// An item closes the open item of its kind, unless something
		// special (but address, div or p) is in between.
		for i := len(t.stack) - 1; i >= 0; i-- {
			e := &t.stack[i]
			if e.ns == nsHTML && (e.atom == a || a != atom.Li && (e.atom == atom.Dd || e.atom == atom.Dt)) {
				t.popTo(i)
				break
			}
			if special(e) && e.atom != atom.Address && e.atom != atom.Div && e.atom != atom.P {
				break
			}
		}
		t.closeInScope(buttonScope, atom.P)
	case atom.Button:
		t.closeInScope(defaultScope, atom.Button)
	case atom.Nobr:
		t.closeFormatting(atom.Nobr)
	case atom.Input:
		t.closeInScope(defaultScope, atom.Select)
	case atom.Option, atom.Optgroup:
		if t.indexInScope(defaultScope, atom.Select) < 0 {
			if e := t.top(); e != nil && e.ns == nsHTML && e.atom == atom.Option {
				t.popTo(len(t.stack) - 1)
			}
		} else if a == atom.Option {
			t.endImplied(atom.Optgroup)
		} else {
			t.endImplied(0)
		}
	case atom.Rb, atom.Rtc, atom.Rp, atom.Rt:
		if t.indexInScope(defaultScope, atom.Ruby) >= 0 {
			if a == atom.Rp || a == atom.Rt {
				t.endImplied(atom.Rtc)
			} else {
				t.endImplied(0)
			}
		}
	case atom.Table:
		// A table in a table, but not in a cell, closes it.
		if t.noQuirks {
			t.closeInScope(buttonScope, atom.P)
		}
		for i := len(t.stack) - 1; i >= 0; i-- {
			e := &t.stack[i]
			if e.ns != nsHTML {
				continue
			}
			if e.atom == atom.Table {
				t.popTo(i)
				break
			}
			if e.atom == atom.Td || e.atom == atom.Th || e.atom == atom.Caption || e.atom == atom.Template {
				break
			}
		}
	case atom.Td, atom.Th:
		t.clearTable(atom.Tr, atom.Tbody, atom.Thead, atom.Tfoot, atom.Table, atom.Template)
	case atom.Tr:
		t.clearTable(atom.Tbody, atom.Thead, atom.Tfoot, atom.Table, atom.Template)
	case atom.Caption, atom.Colgroup, atom.Tbody, atom.Thead, atom.Tfoot:
		t.clearTable(atom.Table, atom.Template)
	}
}

// clearTable closes a table part so that a new one can open: everything
// after the nearest of the elements that can hold it. The rows and the
// body that a table implies are not on the stack, so a row closes back to
// the table as well as to a <tbody>.
func (t *tree) clearTable(parents ...atom.Atom) {
	if i := t.indexInScope(tableScope, parents...); i >= 0 {
		t.popTo(i + 1)
	}
}

// endImplied closes the elements whose end tag the standard implies, such
// as an open <p> or <li>, from the current node down, up to one named
// except.
func (t *tree) endImplied(except atom.Atom) {
	for e := t.top(); e != nil && e.ns == nsHTML && e.atom != except; e = t.top() {
		switch e.atom {
		case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P, atom.Rb, atom.Rp,
			atom.Rt, atom.Rtc:
			t.popTo(len(t.stack) - 1)
		default:
			return
		}
	}
}

// endTag handles an end tag.
func (t *tree) endTag(name []byte, a atom.Atom) {
	t.initial = false
	switch {
	case t.mode != inBody:
		if a == atom.Frameset && len(t.stack) > 0 {
			if t.popTo(len(t.stack) - 1); len(t.stack) == 0 {
				t.mode = afterFrameset
			}
		}
	case t.foreignTop() && (a == atom.P || a == atom.Br):
		// </p> and </br> are HTML tags wherever they are.
		t.breakOut()
		t.htmlEnd(name, a)
	case t.foreignTop():
		t.foreignEnd(name, a)
	default:
		t.htmlEnd(name, a)
	}
}

// foreignEnd handles an end tag when the current node is SVG or MathML:
// it closes the nearest foreign element of its name, unless an HTML
// element comes first, which then handles it.
func (t *tree) foreignEnd(name []byte, a atom.Atom) {
	for i := len(t.stack) - 1; i >= 0; i-- {
		if strings.EqualFold(t.stack[i].name, string(name)) {
			t.popTo(i)
			return
		}
		if i > 0 && t.stack[i-1].ns == nsHTML {
			break
		}
	}
	t.htmlEnd(name, a)
}

// htmlEnd handles an end tag by the rules of HTML.
func (t *tree) htmlEnd(name []byte, a atom.Atom) {
	switch a {
	case atom.Body, atom.Html:
		// They close nothing, but before the body they start it, unless
		// in a <noscript> in the head, which ignores them.
		if !t.inHeadNoscript(t.top()) {
			t.startBody()
		}
	case atom.Br:
		// </br> is read as <br>.
		t.startBody()
		t.framesetOK = false
	case atom.Template:
		if t.templates > 0 {
			for i := len(t.stack) - 1; i >= 0; i-- {
				if e := &t.stack[i]; e.ns == nsHTML && e.atom == atom.Template {
					t.popTo(i)
					break
				}
			}
		}
	case atom.P:
		t.closeInScope(buttonScope, atom.P)
	case atom.Li:
		t.closeInScope(listItemScope, atom.Li)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		t.closeInScope(defaultScope, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6)
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Button, atom.Center,
		atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Header, atom.Hgroup, atom.Listing, atom.Main, atom.Menu,
		atom.Nav, atom.Ol, atom.Pre, atom.Search, atom.Section, atom.Select, atom.Summary, atom.Ul,
		atom.Dd, atom.Dt, atom.Applet, atom.Marquee, atom.Object:
		t.closeInScope(defaultScope, a)
	case atom.Form:
		// Outside a template, </form> takes the form out of the stack and
		// leaves what it holds open.
		if i := t.indexInScope(defaultScope, atom.Form); i >= 0 && t.templates == 0 {
			t.stack = append(t.stack[:i], t.stack[i+1:]...)
		} else if i >= 0 {
			t.popTo(i)
		}
		if t.templates == 0 {
			t.form = false
		}
	case atom.Table, atom.Caption, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr,
		atom.Td, atom.Th:
		t.closeInScope(tableScope, a)
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr, atom.S,
		atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		t.closeFormatting(a)
	default:
		// Any other end tag closes the nearest element of its name, unless
		// a special element comes first.
		for i := len(t.stack) - 1; i >= 0; i-- {
			e := &t.stack[i]
			if e.ns == nsHTML && e.atom == a && (a != 0 || e.name == string(name)) {
				t.popTo(i)
				return
			}
			if special(e) {
				return
			}
		}
	}
}

// closeFormatting closes a formatting element such as <b> or <a>, as the
// adoption agency algorithm leaves the stack: the element and everything
// after it but special elements are gone.
func (t *tree) closeFormatting(a atom.Atom) {
	i := t.indexInScope(defaultScope, a)
	if i < 0 {
		return
	}
	// No template can follow: it would end the scope.
	if t.requisites {
		// Only an SVG <style>, which is not special, can be open here:
		// an HTML one holds text up to its end tag.
		t.popStyles(i)
	}
	kept := t.stack[:i]
	for _, e := range t.stack[i+1:] {
		if special(&e) {
			kept = append(kept, e)
		}
	}
	t.stack = kept
}

// A scope is a set of elements that hide what is beneath them from an end
// tag.
type scope uint8

const (
	defaultScope scope = iota
	buttonScope
	listItemScope
	tableScope
)

// indexInScope returns the index of the nearest HTML element with one of
// the names, if it is in the scope, or -1.
func (t *tree) indexInScope(s scope, names ...atom.Atom) int {
	for i := len(t.stack) - 1; i >= 0; i-- {
		e := &t.stack[i]
		if e.ns == nsHTML {
			for _, a := range names {
				if e.atom == a {
					return i
				}
			}
		}
		switch {
		case e.ns == nsHTML && (e.atom == atom.Html || e.atom == atom.Table || e.atom == atom.Template):
			return -1
		case s == tableScope:
		case e.ns == nsHTML && (e.atom == atom.Applet || e.atom == atom.Caption ||
			e.atom == atom.Td || e.atom == atom.Th || e.atom == atom.Marquee ||
			e.atom == atom.Object || e.atom == atom.Select):
			return -1
		case e.ns != nsHTML && special(e):
			return -1
		case s == buttonScope && e.ns == nsHTML && e.atom == atom.Button:
			return -1
		case s == listItemScope && e.ns == nsHTML && (e.atom == atom.Ol || e.atom == atom.Ul):
			return -1
		}
	}
	return -1
}

// closeInScope pops up to and including the nearest HTML element with one
// of the names, if it is in the scope.
func (t *tree) closeInScope(s scope, names ...atom.Atom) {
	if i := t.indexInScope(s, names...); i >= 0 {
		t.popTo(i)
	}
}

// push opens an element.
func (t *tree) push(e element) {
	if len(t.stack) >= maxDepth {
		return
	}
	if e.ns == nsHTML && e.atom == atom.Template {
		t.templates++
	}
	t.stack = append(t.stack, e)
}

// popTo closes the element at index i and every element after it.
func (t *tree) popTo(i int) {
	for _, e := range t.stack[i:] {
		if e.ns == nsHTML && e.atom == atom.Template {
			t.templates--
		}
	}
	if t.requisites {
		t.popStyles(i)
	}
	t.stack = t.stack[:i]
}

// intern returns name as a string, without allocating for a name seen
// before.
func (t *tree) intern(name []byte, a atom.Atom) string {
	if a != 0 {
		return a.String()
	}
	if s, ok := t.names[string(name)]; ok {
		return s
	}
	if t.names == nil {
		t.names = make(map[string]string)
	}
	s := string(name)
	t.names[s] = s
	return s
}

// startFrameset replaces the body, and what it held, with a frameset.
func (t *tree) startFrameset() {
	for i := range t.stack {
		t.stack[i].style = false // what the body's <style>s hold goes with it
	}
	if t.bodyStarted {
		clear(t.links[t.bodyMark:])
		t.links = t.links[:t.bodyMark]
		// The <html> element stays, and so do its requisites.
		kept := t.reqs[:t.reqMark]
		for _, r := range t.reqs[t.reqMark:] {
			if r.onHTML {
				kept = append(kept, r)
			}
		}
		clear(t.reqs[len(kept):])
		t.reqs = kept
		clear(t.ids[t.idMark:])
		t.ids = t.ids[:t.idMark]
		if t.baseInBody {
			t.haveBase, t.base = false, ""
		}
	}
	t.popTo(0)
	t.push(element{name: "frameset", atom: atom.Frameset})
	t.mode = inFrameset
}

// linkCounts reports whether a link on the tag would count: whether the
// tree gathers links, the tag is in the region (or the tree notes where
// every link is), and not in a template.
func (t *tree) linkCounts(g *tag) bool {
	return t.findLinks && (g.inRegion || t.refs) && t.templates == 0
}

// href returns the tag's href, and whether it has one, if a link on the
// tag would count; else it reads nothing and reports false.
func (t *tree) href(g *tag) ([]byte, bool) {
	if !t.linkCounts(g) {
		return nil, false
	}
	v, _, has, _ := g.attrs("href", "")
	return v, has
}

// addLink notes a link that a click follows, to be resolved against the
// page's final base. The caller has checked that it counts.
func (t *tree) addLink(href []byte) {
	ref := cleanHref(href)
	t.links = append(t.links, link{ref: ref, at: t.at, frag: t.fragment(ref), region: t.inRegion})
}

// addSrc notes the src of an <iframe> or a <frame>, which a browser loads
// at once, resolved against the base known now. An empty src loads
// nothing, and an <iframe> with a srcdoc shows that instead.
func (t *tree) addSrc(g *tag) {
	if !t.linkCounts(g) {
		return
	}
	src, _, hasSrc, hasSrcdoc := g.attrs("src", "srcdoc")
	if len(src) == 0 || g.atom == atom.Iframe && hasSrcdoc || !hasSrc {
		return
	}
	ref := cleanHref(src)
	l := link{ref: ref, resolved: true, at: t.at, frag: t.fragment(ref), region: t.inRegion}
	if u, ok := t.resolve(t.currentBase(), ref); ok {
		l.ref = u
	}
	t.links = append(t.links, l)
}

// refresh runs the shared declarative refresh steps for a <meta>.
func (t *tree) refresh(g *tag) {
	equiv, content, _, _ := g.attrs("http-equiv", "content")
	if !bytes.EqualFold(equiv, []byte("refresh")) || len(content) == 0 {
		return
	}
	ref, hasURL, ok := parseRefresh(string(content))
	if !ok {
		return
	}
	if !hasURL {
		t.refreshed = true // it reloads the page, which is no new link
		return
	}
	ref = cleanHref([]byte(ref))
	u, ok := t.resolve(t.currentBase(), ref)
	if !ok {
		return // a URL that does not parse cancels the refresh
	}
	t.refreshed = true
	if g.inRegion || t.refs {
		t.links = append(t.links, link{ref: u, resolved: true, at: t.at, frag: t.fragment(ref), region: t.inRegion})
	}
}

// setBase freezes the base URL from the first <base href>.
func (t *tree) setBase(href []byte) {
	t.haveBase, t.baseInBody, t.base = true, t.bodyStarted, t.pageURL
	u, ok := t.resolve(t.pageURL, cleanHref(href))
	if !ok {
		return
	}
	if i := strings.IndexByte(u, ':'); i >= 0 {
		if scheme := u[:i]; strings.EqualFold(scheme, "data") || strings.EqualFold(scheme, "javascript") {
			return
		}
	}
	t.base = u
}

// currentBase returns the base URL as it stands.
func (t *tree) currentBase() string {
	if t.haveBase {
		return t.base
	}
	return t.pageURL
}

// inHead reports whether a start tag can come before the body without
// starting it.
func inHead(a atom.Atom) bool {
	switch a {
	case atom.Html, atom.Head, atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta,
		atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title, atom.Noscript,
		atom.Frameset:
		return true
	}
	return false
}

// rawText reports whether the tokenizer reads an HTML element's content as
// text. <noscript> is not among them: scripting is disabled.
func rawText(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Plaintext, atom.Script, atom.Style,
		atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

// void reports whether an HTML element has no content and no end tag.
func void(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Basefont, atom.Bgsound, atom.Br, atom.Col, atom.Embed,
		atom.Frame, atom.Hr, atom.Image, atom.Img, atom.Input, atom.Keygen, atom.Link,
		atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

func heading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// special reports whether an element is in the standard's special
// category, which stops an end tag looking for an element to close.
func special(e *element) bool {
	if e.ns != nsHTML {
		// The integration points, and every annotation-xml.
		return e.point != notPoint || e.ns == nsMathML && e.atom == atom.AnnotationXml
	}
	switch e.atom {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base,
		atom.Basefont, atom.Bgsound, atom.Blockquote, atom.Body, atom.Br, atom.Button,
		atom.Caption, atom.Center, atom.Col, atom.Colgroup, atom.Dd, atom.Details, atom.Dir,
		atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2, atom.H3,
		atom.H4, atom.H5, atom.H6, atom.Head, atom.Header, atom.Hgroup, atom.Hr, atom.Html,
		atom.Iframe, atom.Img, atom.Input, atom.Keygen, atom.Li, atom.Link, atom.Listing,
		atom.Main, atom.Marquee, atom.Menu, atom.Meta, atom.Nav, atom.Noembed,
		atom.Noframes, atom.Noscript, atom.Object, atom.Ol, atom.P, atom.Param,
		atom.Plaintext, atom.Pre, atom.Script, atom.Search, atom.Section, atom.Select,
		atom.Source, atom.Style, atom.Summary, atom.Table, atom.Tbody, atom.Td,
		atom.Template, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead, atom.Title, atom.Tr,
		atom.Track, atom.Ul, atom.Wbr, atom.Xmp:
		return true
	}
	return false
}
