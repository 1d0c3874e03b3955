package pagescan

import (
	"bytes"
	"strconv"

	"golang.org/x/net/html/atom"
)

// Requisites calls found with the URL of each resource that page, an HTML
// document fetched from pageURL whose Content-Type named charset (""
// if none), needs to render, in document order: absolute, resolved as
// html mode resolves links (the document's <base>, its encoding for the
// query), fragment removed, not normalized further. A URL may be found
// more than once. It reads any page as html mode does, whatever the
// crawl's -links.
//
// The page is read as [HTML] reads it, with the same model of the HTML
// Standard's tree construction, scripting disabled: nothing in a comment,
// a template, a script or a textarea counts, and everything in a
// <noscript> does, as markup. These are requisites, in the order of their
// tags, and of the attributes in a tag (a <style>'s sheet when the element
// closes; a second <html> or <body> tag adds only what the element lacks):
//   - the href of a <link> whose rel holds stylesheet (alternate
//     stylesheets too: a browser fetches them, to offer them), icon,
//     apple-touch-icon, apple-touch-icon-precomposed, manifest, preload
//     (whatever its as, and the candidates of its imagesrcset) or
//     modulepreload;
//   - the src of <script>, <img>, <embed>, <video>, <audio>, of an <input
//     type=image>, of a <source> or a <track> in a <video> or an
//     <audio>; <video>'s poster, <object>'s data;
//   - the candidates of the srcset of an <img>, of a <source> in a
//     <picture>, and of a preload's imagesrcset, as the standard's "parse
//     a srcset attribute" reads it, that a browser could pick at 1× and
//     2× on a viewport up to 1920 px wide, at most four (see [picks]): a
//     candidate whose descriptors do not parse is dropped, as browsers
//     drop it, and sizes is ignored;
//   - the background of <body>, <table> and its parts, which browsers
//     still honour;
//   - the src of an <iframe> without a srcdoc, and of a <frame> in a
//     frameset: the documents they show, which are links too;
//   - in SVG, the href (else the xlink:href) of <image>, <script>, <use>
//     and <feImage>, unless it is only a fragment;
//   - what the CSS of a style attribute and of a <style> element (HTML or
//     SVG) loads, as [StyleRequisites] reads a sheet, resolved against the
//     document's base.
//
// An empty URL, and one that does not resolve or resolves to a scheme
// other than http or https, such as a data: URL, is skipped. Each is
// resolved when its tag is read, against the base known then, as a
// browser starts loading it as soon as it inserts the element. In a frameset page, the body the frameset replaces goes with
// its requisites.
//
// It returns how many candidates of srcsets and image-set()s it skipped,
// as a browser would not load them.
func Requisites(pageURL string, page []byte, charset string, found func(url string)) (skipped int) {
	d := decode(page, charset)
	return new(HTML).scanRange(pageURL, d, 0, len(d.text), nil, found)
}

// urlAttrs names the attributes of a tag that hold requisites: URLs, and a
// srcset. A name left empty matches no attribute.
type urlAttrs struct {
	url, url2, srcset string
	// noStyle says that the style attribute does not count: that of an
	// <html> or a <body> whose element has one already.
	noStyle bool
	// onHTML says that the tag is an <html>.
	onHTML bool
	// local says that a URL that is only a fragment points into the
	// document, and loads nothing.
	local bool
	// frame says that the URL is a frame's document.
	frame bool
	// checkLink says that the URL is no requisite but a link, which a
	// link check checks: the href of a <link> whose rel loads nothing.
	checkLink bool
}

// htmlRequisites is htmlTag for a tag in the document when the tree
// gathers requisites: it notes what the tag loads, if the tree
// construction inserts it, then does what htmlTag does.
func (t *tree) htmlRequisites(g *tag) {
	parent := t.insertionParent()
	inserts := t.findIDs && t.insertsOwn(g)
	opened := t.opens(g, true)
	if t.findIDs {
		t.htmlIDs(g, opened || inserts)
	}
	switch {
	case g.atom == atom.Html || g.atom == atom.Body:
		// Their attributes go to the one element, where they are not yet.
		t.tagRequisites(g, t.mergedAttrs(g))
	case opened || g.atom == atom.Svg || g.atom == atom.Math:
		u := htmlURLAttrs(g, &parent)
		if t.refs && g.atom == atom.Link && u.url == "" {
			// rel=canonical, alternate, license, rev=made…: no browser
			// loads it, and it is a link all the same.
			u.url, u.checkLink = "href", true
		}
		t.tagRequisites(g, u)
	}
	if !opened {
		return
	}
	t.impliedEnd(g.atom)
	if !void(g.atom) {
		// An HTML <style>'s text is raw: the page's, from the tag's end.
		t.push(element{name: t.intern(g.name, g.atom), atom: g.atom, style: g.atom == atom.Style,
			cssFrom: len(t.cssBuf), at: g.tokens.end})
	}
}

// insertionParent returns the element that a tag which is not a table's
// part goes in: the current node, or, in a table, the element before the
// table, where the parser moves what a table cannot hold (foster
// parenting).
func (t *tree) insertionParent() element {
	e := t.top()
	if e == nil {
		return element{}
	}
	if e.ns != nsHTML || e.atom != atom.Table && e.atom != atom.Tbody && e.atom != atom.Thead &&
		e.atom != atom.Tfoot && e.atom != atom.Tr {
		return *e
	}
	for i := len(t.stack) - 1; i > 0; i-- {
		if e := &t.stack[i]; e.ns == nsHTML && e.atom == atom.Table {
			return t.stack[i-1]
		}
	}
	return element{}
}

// htmlURLAttrs returns which attributes of an HTML tag whose element goes
// in parent hold requisites.
func htmlURLAttrs(g *tag, parent *element) urlAttrs {
	media := parent.ns == nsHTML && (parent.atom == atom.Video || parent.atom == atom.Audio)
	switch g.atom {
	case atom.Img, atom.Image: // the parser renames <image> <img>
		return urlAttrs{url: "src", srcset: "srcset"}
	case atom.Script, atom.Embed, atom.Audio:
		return urlAttrs{url: "src"}
	case atom.Video:
		return urlAttrs{url: "src", url2: "poster"}
	case atom.Object:
		return urlAttrs{url: "data"}
	case atom.Iframe:
		// A browser shows its srcdoc instead, if it has one.
		if !g.has("srcdoc") {
			return urlAttrs{url: "src", frame: true}
		}
	case atom.Frame: // in a frameset: the tree opens no other
		return urlAttrs{url: "src", frame: true}
	case atom.Track:
		if media {
			return urlAttrs{url: "src"}
		}
	case atom.Source:
		if media {
			return urlAttrs{url: "src"}
		}
		if parent.ns == nsHTML && parent.atom == atom.Picture {
			return urlAttrs{srcset: "srcset"}
		}
	case atom.Input:
		if typ, _ := g.get("type"); asciiEqualFold(typ, "image") {
			return urlAttrs{url: "src"}
		}
	case atom.Link:
		return linkAttrs(g)
	case atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Tr, atom.Td, atom.Th:
		return urlAttrs{url: "background"}
	}
	return urlAttrs{}
}

// mergedAttrs returns which attributes of an <html> or a <body> tag hold
// requisites: the parser adds a later tag's attributes to the element
// only where it has none of that name.
func (t *tree) mergedAttrs(g *tag) urlAttrs {
	var u urlAttrs
	style := g.has("style")
	if g.atom == atom.Html {
		u.noStyle, u.onHTML = t.htmlStyle, true
		t.htmlStyle = t.htmlStyle || style
		return u
	}
	u.noStyle = t.bodyStyle
	t.bodyStyle = t.bodyStyle || style
	if !t.bodyBackground {
		u.url = "background"
		t.bodyBackground = g.has("background")
	}
	return u
}

// linkAttrs returns which attributes of a <link> hold requisites, by the
// keywords of its rel, a list of tokens in any case.
func linkAttrs(g *tag) urlAttrs {
	var u urlAttrs
	rel, _ := g.get("rel")
	for len(rel) > 0 {
		var word []byte
		word, rel = nextWord(rel)
		for _, k := range [...]string{"stylesheet", "icon", "apple-touch-icon", "apple-touch-icon-precomposed",
			"manifest", "modulepreload"} {
			if asciiEqualFold(word, k) {
				u.url = "href"
			}
		}
		if asciiEqualFold(word, "preload") {
			u.url, u.srcset = "href", "imagesrcset"
		}
	}
	return u
}

// nextWord returns the first word of s, a list separated by ASCII
// whitespace, and what follows it.
func nextWord(s []byte) (word, rest []byte) {
	s = bytes.TrimLeft(s, " \t\n\f\r")
	i := bytes.IndexAny(s, " \t\n\f\r")
	if i < 0 {
		return s, nil
	}
	return s[:i], s[i:]
}

// foreignURLAttrs returns which attributes of a tag in SVG or MathML, whose
// element is e, hold requisites. SVG 2's href wins over xlink:href.
func foreignURLAttrs(g *tag, e *element) urlAttrs {
	if e.ns != nsSVG {
		return urlAttrs{}
	}
	switch e.name {
	case "image", "script", "use", "feimage", "feImage":
		// <use> and <feImage> load another file only when href names
		// one: "#icon" points into this document (addRequisite).
		if g.has("href") {
			return urlAttrs{url: "href", local: true}
		}
		return urlAttrs{url: "xlink:href", local: true}
	}
	return urlAttrs{}
}

// tagRequisites notes the requisites of a tag whose URL attributes are u,
// and of its style attribute, in the order of its attributes.
func (t *tree) tagRequisites(g *tag, u urlAttrs) {
	if u.url == "" && u.url2 == "" && u.srcset == "" && (u.noStyle || !g.mayHave("style")) {
		return // most tags: nothing to read
	}
	t.onHTML, t.frame = u.onHTML, u.frame
	for _, a := range g.all() {
		switch k := string(a.key); {
		case k == "style" && !u.noStyle:
			t.cssRequisites(a.val, nil)
		case k == u.url || k == u.url2:
			if u.local && bytes.HasPrefix(bytes.TrimLeft(a.val, " \t\n\f\r"), []byte("#")) {
				continue // a place in this document, which loads nothing
			}
			if u.checkLink {
				t.addChecked(a.val, true)
				continue
			}
			t.addRequisite(a.val)
		case k == u.srcset:
			var unpicked func([]byte)
			if t.refs {
				unpicked = func(v []byte) { t.addChecked(v, false) }
			}
			t.skipped += srcsetURLs(a.val, t.addRequisite, unpicked)
		}
	}
	t.onHTML, t.frame = false, false
}

// mayHave reports whether the tag may have an attribute named key, which
// is lower-case ASCII: whether its source holds key in any case. Without
// it, the tag has no such attribute, and its attributes need not be read.
func (g *tag) mayHave(key string) bool {
	raw := g.z.Raw()
	// From each place key's first letter is, in either case, as
	// bytes.IndexByte finds them: a byte loop cost more than the rest of
	// tagRequisites.
	lower, upper := key[0], key[0]-('a'-'A')
	nextUpper := bytes.IndexByte(raw, upper)
	for from := 0; ; {
		i := bytes.IndexByte(raw[from:], lower)
		if i >= 0 {
			i += from
		}
		if nextUpper >= 0 && (i < 0 || nextUpper < i) {
			i = nextUpper
		}
		if i < 0 || i+len(key) > len(raw) {
			return false
		}
		if equalFold(raw[i:i+len(key)], key) {
			return true
		}
		from = i + 1
		if nextUpper >= 0 && nextUpper < from {
			if nextUpper = bytes.IndexByte(raw[from:], upper); nextUpper >= 0 {
				nextUpper += from
			}
		}
	}
}

// addRequisite notes the URL in an attribute's value, resolved now.
func (t *tree) addRequisite(v []byte) {
	ref := cleanHref(v)
	if ref == "" {
		return
	}
	if u, ok := t.resolve(t.currentBase(), ref); ok && fetchable(u) {
		t.reqs = append(t.reqs, link{ref: u, resolved: true, onHTML: t.onHTML, at: t.at, frag: t.fragment(ref), frame: t.frame})
	}
}

// addChecked notes the URL in an attribute's value as one a link check
// checks, which is no requisite: a link if asLink, else an srcset's
// candidate that no browser picks at 1× or 2×.
func (t *tree) addChecked(v []byte, asLink bool) {
	n := len(t.reqs)
	t.addRequisite(v)
	if len(t.reqs) > n {
		t.reqs[n].checked, t.reqs[n].asLink = true, asLink
	}
}

// cssRequisites notes what the CSS text loads: the sheet of style, a
// <style> element, or a style attribute's declarations if style is nil.
func (t *tree) cssRequisites(text []byte, style *element) {
	base := t.currentBase()
	// An HTML <style>'s URLs are found in its text as the page has it;
	// any other's where its tag, or the tag of the style attribute, is.
	switch {
	case t.refs && style != nil && style.ns == nsHTML:
		t.cssAt, t.sheetMap = -1, textMap{src: t.doc[style.at:], from: style.at}
	case style != nil:
		t.cssAt = style.at
	default:
		t.cssAt = t.at
	}
	add := func(ref string, offset int, checked bool) {
		if u, ok := t.resolve(base, ref); ok && fetchable(u) {
			l := link{ref: u, resolved: true, onHTML: t.onHTML, at: t.cssAt, frag: t.fragment(ref), checked: checked}
			if l.at < 0 {
				l.at = t.sheetMap.offset(offset)
			}
			t.reqs = append(t.reqs, l)
		}
	}
	var unpicked func(string, int)
	if t.refs {
		unpicked = func(ref string, offset int) { add(ref, offset, true) }
	}
	t.skipped += cssURLsAt(string(text), style != nil, func(ref string, offset int) { add(ref, offset, false) }, unpicked)
}

// inStyle reports whether the current node is a <style> whose text is a
// sheet, when the tree gathers requisites.
func (t *tree) inStyle() bool {
	e := t.top()
	return e != nil && e.style
}

// requisiteText sees a text token in a <style> (see inStyle): its sheet.
func (t *tree) requisiteText(s []byte) {
	// A sheet is read when its element ends. One longer than a token may
	// be, which in SVG is many tokens, is cut there, so that it cannot
	// cost as much as the page.
	if len(t.cssBuf)+len(s) <= maxToken {
		t.cssBuf = append(t.cssBuf, s...)
	}
	if !t.settled() {
		t.text(s)
	}
}

// popStyles reads the sheets of the <style> elements from the top of the
// stack down to index i, which are closing: the innermost first, as each
// holds its own text only.
func (t *tree) popStyles(i int) {
	for j := len(t.stack) - 1; j >= i; j-- {
		if e := &t.stack[j]; e.style {
			e.style = false
			t.cssRequisites(t.cssBuf[e.cssFrom:], e)
			t.cssBuf = t.cssBuf[:e.cssFrom]
		}
	}
}

// next reads the tag's next attribute, if it has one left, and reports
// whether it had.
func (g *tag) next() bool {
	if !g.more {
		return false
	}
	var key, val []byte
	key, val, g.more = g.z.TagAttr()
	if len(key) == 0 {
		g.more = false // no attributes at all
		return false
	}
	// Fresh copies, which the next call leaves alone.
	*g.read = append(*g.read, attr{key, val})
	return true
}

// get returns the value of the tag's attribute named key, and whether it
// has one, reading its attributes up to that one. The tokenizer keeps
// only the first of duplicated attributes, so the first found is the one.
func (g *tag) get(key string) ([]byte, bool) {
	for _, a := range *g.read {
		if string(a.key) == key {
			return a.val, true
		}
	}
	for g.next() {
		if a := (*g.read)[len(*g.read)-1]; string(a.key) == key {
			return a.val, true
		}
	}
	return nil, false
}

func (g *tag) has(key string) bool {
	_, ok := g.get(key)
	return ok
}

// all returns every attribute of the tag, in order.
func (g *tag) all() []attr {
	for g.next() {
	}
	return *g.read
}

// srcsetURLs calls found with the URL of each image candidate in the
// srcset s that a browser could pick (see [picks]), in order, and unpicked,
// if not nil, with each other, and returns how many others it holds.
func srcsetURLs(s []byte, found, unpicked func(url []byte)) (skipped int) {
	var urls [][]byte
	var cands []candidate
	srcsetCandidates(s, func(url []byte, c candidate) {
		urls = append(urls, url)
		cands = append(cands, c)
	})
	for i, ok := range picks(cands) {
		switch {
		case ok:
			found(urls[i])
		case unpicked != nil:
			unpicked(urls[i])
			skipped++
		default:
			skipped++
		}
	}
	return skipped
}

// srcsetCandidates calls found with each image candidate in the srcset s,
// as the HTML Standard's "parse a srcset attribute" finds them: a URL may
// hold commas, but not end with one; a candidate whose descriptors do not
// parse is dropped; one without a density or a width is 1x.
func srcsetCandidates(s []byte, found func(url []byte, c candidate)) {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	for i := 0; ; {
		for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			return
		}
		start := i
		for i < len(s) && !isSpace(s[i]) {
			i++
		}
		url := s[start:i]
		if url[len(url)-1] == ',' {
			// A candidate without descriptors.
			found(bytes.TrimRight(url, ","), candidate{density: 1})
			continue
		}
		var d descriptors
		i = d.read(s, i, isSpace)
		if d.valid() {
			found(url, d.candidate())
		}
	}
}

// descriptors are those of an image candidate, as the standard's
// descriptor parser checks them, and the values of its width and density.
type descriptors struct {
	width, density, height, bad bool
	w, x                        float64
}

// candidate returns the candidate the valid descriptors make.
func (d *descriptors) candidate() candidate {
	switch {
	case d.width:
		return candidate{width: d.w}
	case d.density:
		return candidate{density: d.x}
	}
	return candidate{density: 1}
}

// read runs the standard's descriptor tokenizer from i in s, and checks
// each descriptor. It returns where the candidate ends: after its comma,
// or at the end of s.
func (d *descriptors) read(s []byte, i int, isSpace func(byte) bool) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start, parens := i, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case parens:
			parens = c != ')'
		case c == '(':
			parens = true
		case c == ',':
			d.add(s[start:i])
			return i + 1
		case isSpace(c):
			d.add(s[start:i])
			for i+1 < len(s) && isSpace(s[i+1]) {
				i++
			}
			start = i + 1
		}
	}
	d.add(s[start:])
	return i
}

// add checks one descriptor, if not empty.
func (d *descriptors) add(desc []byte) {
	if len(desc) == 0 {
		return
	}
	value := desc[:len(desc)-1]
	switch desc[len(desc)-1] {
	case 'w':
		d.bad = d.bad || d.width || d.density || !positiveInteger(value)
		d.width = true
		d.w, _ = strconv.ParseFloat(string(value), 64) // digits: +Inf at worst
	case 'x':
		d.bad = d.bad || d.width || d.density || d.height || !nonNegativeFloat(value)
		d.density = true
		d.x, _ = strconv.ParseFloat(string(value), 64)
	case 'h':
		d.bad = d.bad || d.height || d.density || !positiveInteger(value)
		d.height = true
	default:
		d.bad = true
	}
}

// valid reports whether the descriptors make a candidate: an h without a
// w does not.
func (d *descriptors) valid() bool {
	return !d.bad && (!d.height || d.width)
}

// positiveInteger reports whether s is a valid non-negative integer, as
// HTML says, that is not zero.
func positiveInteger(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	nonzero := false
	for _, c := range s {
		if !isDigit(c) {
			return false
		}
		nonzero = nonzero || c != '0'
	}
	return nonzero
}

// nonNegativeFloat reports whether s is a valid floating-point number, as
// HTML says, whose value, rounded to a double, is not negative.
func nonNegativeFloat(s []byte) bool {
	rest := bytes.TrimPrefix(s, []byte("-"))
	intDigits := leadingDigits(rest)
	rest = rest[intDigits:]
	fracDigits := -1
	if len(rest) > 0 && rest[0] == '.' {
		fracDigits = leadingDigits(rest[1:])
		rest = rest[1+fracDigits:]
	}
	if fracDigits == 0 || intDigits == 0 && fracDigits < 0 {
		return false // "1." and "" are no numbers
	}
	if len(rest) > 0 && (rest[0] == 'e' || rest[0] == 'E') {
		rest = rest[1:]
		if len(rest) > 0 && (rest[0] == '-' || rest[0] == '+') {
			rest = rest[1:]
		}
		n := leadingDigits(rest)
		if n == 0 {
			return false
		}
		rest = rest[n:]
	}
	if len(rest) > 0 {
		return false
	}
	f, err := strconv.ParseFloat(string(s), 64)
	return err == nil && f >= 0 // -0 is not negative; a value too large is an error
}

func leadingDigits(s []byte) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}
