package pagescan

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// StyleRequisites calls found with the URL of each resource the
// stylesheet sheet, fetched from sheetURL, needs: its @import rules and
// every url(...), resolved against sheetURL, in order. charset is the
// Content-Type's charset, if any (CSS's own rules: BOM, then the
// Content-Type charset, then @charset, then the referring document's
// encoding, else UTF-8; take the referrer as UTF-8 if you have none).
//
// The sheet is read with CSS Syntax Level 3's tokenizer, so a url( in a
// comment or a string is no URL, and escapes are decoded. These count:
//   - a url(...) token, quoted or not, wherever it is, and the strings
//     of image-set() and -webkit-image-set(): of an image-set, those of
//     the candidates a browser could pick alone (see [picks]; a
//     candidate's resolution is in x, dppx, dpi or dpcm, 1x if none);
//   - the URL of an @import, url(...) or a bare string, where an @import
//     is valid: at the top level, before any rule with a block (style
//     rules, @media, @font-face, @layer's block form...) and before
//     @namespace. A style rule whose selector does not parse ends the
//     @imports here, though a browser drops it; that is the only guess.
//
// These do not: the URL of @namespace, of a misplaced @import, of an
// @import with a block, an empty url(), and a fragment-only url(#id),
// which points into the document that uses it. A URL that does not
// resolve, or resolves to a scheme other than http or https (data:, say),
// is skipped. Each URL is absolute, serialized by the URL Standard without
// its fragment, with its query in the sheet's encoding, and not
// normalized further.
//
// It returns how many URLs of image-set() candidates it skipped.
func StyleRequisites(sheetURL string, sheet []byte, charset string, found func(url string)) (skipped int) {
	name, bom := sniffSheet(sheet, charset)
	d := decodeAs(sheet[bom:], name)
	return cssURLs(string(d.text), true, func(ref string) {
		if u, ok := requisiteURL(sheetURL, ref, d.query); ok {
			found(u)
		}
	})
}

// sniffSheet returns the name of the encoding a browser decodes a
// stylesheet in, given the charset its Content-Type names ("" for none),
// and the length of its byte order mark, as CSS Syntax Level 3 §3.2 says,
// with no referring document: a byte order mark, the Content-Type, an
// @charset rule at the very start, else UTF-8.
func sniffSheet(sheet []byte, label string) (name string, bom int) {
	switch {
	case bytes.HasPrefix(sheet, []byte("\xef\xbb\xbf")):
		return "utf-8", 3
	case bytes.HasPrefix(sheet, []byte("\xfe\xff")):
		return "utf-16be", 2
	case bytes.HasPrefix(sheet, []byte("\xff\xfe")):
		return "utf-16le", 2
	}
	if label != "" {
		if e, n := charset.Lookup(label); e != nil {
			return n, 0
		}
	}
	if label, ok := atCharset(sheet[:min(len(sheet), 1024)]); ok {
		if e, n := charset.Lookup(label); e != nil {
			if n == "utf-16be" || n == "utf-16le" {
				return "utf-8", 0 // a sheet that reads the rule is not UTF-16
			}
			return n, 0
		}
	}
	return "utf-8", 0
}

// atCharset returns the label of the @charset rule that b starts with,
// byte for byte: `@charset "label";`, the label in printable ASCII but
// for '"' (and the bytes 0x16 to 0x1F, which the standard allows too).
func atCharset(b []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(`@charset "`))
	if !ok {
		return "", false
	}
	for i, c := range rest {
		switch {
		case c == '"':
			if i+1 < len(rest) && rest[i+1] == ';' {
				return string(rest[:i]), true
			}
			return "", false
		case c < 0x16 || c > 0x7f:
			return "", false
		}
	}
	return "", false
}

// cssURLs calls found with the reference of each resource that the CSS
// text loads, in order, unresolved: see [StyleRequisites] for which. text
// is a style sheet (a <style> element's too) if sheet is true, and a style
// attribute's declarations if not, in which no at-rule counts. It
// returns how many references of image-set() candidates it skipped.
func cssURLs(text string, sheet bool, found func(ref string)) (skipped int) {
	f := newCSSFinder(text, sheet)
	f.found = found
	f.run()
	return f.skipped
}

// cssURLsAt is cssURLs, and also gives found where each reference's token
// starts (the url( or the string), as an offset in text preprocessed (see
// [cssPreprocess]); and unpicked, if not nil, each reference of an
// image-set() candidate that is skipped.
func cssURLsAt(text string, sheet bool, found, unpicked func(ref string, at int)) (skipped int) {
	f := newCSSFinder(text, sheet)
	f.foundAt, f.unpicked = found, unpicked
	f.run()
	return f.skipped
}

// newCSSFinder returns a finder of the URLs in text, a style sheet if
// sheet is true, else a style attribute's declarations.
func newCSSFinder(text string, sheet bool) cssFinder {
	return cssFinder{z: cssScanner{s: cssPreprocess(text)}, sheet: sheet, importsOK: sheet, suppress: -1, set: -1}
}

// A cssFinder finds the URLs in CSS, token by token. In a sheet, it
// follows the top-level rules as far as telling which @import counts, and
// which URLs are in a block, where declarations are: one in a selector or
// in an at-rule's prelude, such as @supports (background: url(x)), loads
// nothing.
type cssFinder struct {
	z     cssScanner
	found func(ref string)
	// foundAt, if found is nil, takes where each reference's token starts
	// too. Two fields, not a closure that drops the offset, so that
	// cssURLs costs no allocation for it.
	foundAt func(ref string, at int)
	// unpicked, if not nil, takes the references of the image-set()
	// candidates skipped, for a link check, which checks them all.
	unpicked func(ref string, at int)
	stack    []cssFrame // the open blocks and functions
	// blocks counts the {} blocks on the stack.
	blocks    int
	sheet     bool
	rule      cssRule // the top-level rule being read, in a sheet
	importsOK bool    // whether an @import may still come
	// pending is the URL of the @import being read, which counts once it
	// ends without a block.
	pending    string
	hasPending bool
	pendingAt  int
	// fnAt is where the last function's token starts: the url( whose
	// string counts, which comes right after it.
	fnAt int
	// suppress is the depth of a nested @import or @namespace, or of any
	// at-rule in a style attribute, whose URLs do not count, or -1.
	suppress int
	// set is the depth of the image-set() being read, or -1; cands are
	// its candidates, cand the one being read, whose references wait
	// until the set ends to be picked.
	set     int
	cands   []setCandidate
	cand    setCandidate
	skipped int // references of image-set() candidates not picked
}

// A setCandidate is a candidate of an image-set(): its density, the
// references in it, and whether anything was.
type setCandidate struct {
	density float64
	refs    []setRef
	any     bool
}

// A setRef is a reference in an image-set() and where its token starts.
type setRef struct {
	ref string
	at  int
}

// A cssFrame is an open block or function.
type cssFrame struct {
	close    byte    // the token that closes it
	fn       cssName // for a function, which
	done     bool    // whether a url( function's string came
	imported bool    // whether the url( function is an @import's
}

// A cssRule is the kind of top-level rule being read.
type cssRule uint8

const (
	ruleNone      cssRule = iota // between rules
	ruleQualified                // a style rule, or what is meant as one
	ruleAt                       // an at-rule
	ruleImportURL                // an @import, before its URL
	ruleImport                   // an @import with its URL pending
	ruleIgnored                  // @namespace, or an @import that does not count
)

func (f *cssFinder) run() {
	for {
		switch tok := f.z.next(); {
		case tok.kind == cssEOF:
			if f.set >= 0 {
				f.endSet() // the end closes what is open
			}
			f.endRule() // the end of the sheet ends an @import too
			return
		case tok.kind == cssSpace:
		case f.sheet && len(f.stack) == 0 && f.topLevel(tok):
		default:
			f.token(tok)
		}
	}
}

// topLevel reads a token at the top level of a sheet, where rules begin
// and end, and reports whether it is done with it.
func (f *cssFinder) topLevel(tok cssToken) bool {
	switch f.rule {
	case ruleNone:
		switch tok.kind {
		case cssCDOCDC:
			return true // ignored between rules
		case cssAtKeyword:
			switch {
			case tok.name == cssNameImport && f.importsOK:
				f.rule = ruleImportURL
			case tok.name == cssNameImport:
				f.rule = ruleIgnored
			case tok.name == cssNameNamespace:
				f.rule, f.importsOK = ruleIgnored, false
			default:
				f.rule = ruleAt
			}
			return true
		}
		f.rule = ruleQualified
	case ruleImportURL:
		// The URL must come first, as a string or a url.
		f.rule = ruleIgnored
		switch {
		case tok.kind == cssString || tok.kind == cssURL:
			f.rule, f.pending, f.hasPending, f.pendingAt = ruleImport, tok.value, true, f.z.start
			return true
		case tok.kind == cssFunction && tok.name == cssNameURL:
			f.rule = ruleImport
			f.push(cssFrame{close: ')', fn: cssNameURL, imported: true})
			f.fnAt = f.z.start
			return true
		}
	}
	switch {
	case tok.kind == cssSemicolon && f.rule != ruleQualified:
		f.endRule()
		return true
	case tok.kind == cssOpen && tok.close == '}':
		// A rule with a block ends the @imports, and an @import with one
		// is no @import.
		f.importsOK = false
		if f.rule == ruleImport {
			f.rule, f.hasPending = ruleIgnored, false
		}
	}
	return false
}

// endRule ends the top-level at-rule being read.
func (f *cssFinder) endRule() {
	if f.rule == ruleImport && f.hasPending {
		f.emit(f.pending, f.pendingAt)
	}
	f.rule, f.hasPending = ruleNone, false
}

// token reads a token anywhere but where topLevel took it.
func (f *cssFinder) token(tok cssToken) {
	depth := len(f.stack)
	if f.set >= 0 && depth == f.set+1 && f.setToken(tok) {
		return
	}
	if depth > 0 && tok.kind != cssString {
		// A url( function holds its string first, or none.
		f.stack[depth-1].done = true
	}
	switch tok.kind {
	case cssURL:
		if f.counts() {
			f.emit(tok.value, f.z.start)
		}
	case cssString:
		if depth > 0 {
			f.str(&f.stack[depth-1], tok.value)
		}
	case cssFunction:
		if tok.name == cssNameImageSet && f.set < 0 {
			f.set, f.cand = depth, setCandidate{density: 1}
		}
		f.push(cssFrame{close: ')', fn: tok.name})
		f.fnAt = f.z.start
	case cssOpen:
		f.push(cssFrame{close: tok.close})
	case cssClose:
		// Any other closing token is a token like another.
		if depth > 0 && f.stack[depth-1].close == tok.close {
			f.pop()
		}
	case cssSemicolon:
		if f.suppress == depth {
			f.suppress = -1
		}
	case cssAtKeyword:
		nested := depth > 0 && (tok.name == cssNameImport || tok.name == cssNameNamespace)
		if f.suppress < 0 && (nested || depth == 0 && !f.sheet) {
			f.suppress = depth
		}
	}
}

// str reads a string in the function or block top.
func (f *cssFinder) str(top *cssFrame, s string) {
	switch {
	case top.fn == cssNameURL && !top.done:
		top.done = true
		if top.imported {
			f.pending, f.hasPending, f.pendingAt = s, true, f.fnAt
		} else if f.counts() {
			f.emit(s, f.fnAt)
		}
	case top.fn == cssNameImageSet:
		// Its strings are URLs; one in a function in it, such as
		// type("image/avif"), is not.
		if f.counts() {
			f.emit(s, f.z.start)
		}
	}
}

func (f *cssFinder) push(e cssFrame) {
	if e.close == '}' {
		f.blocks++
	}
	f.stack = append(f.stack, e)
}

func (f *cssFinder) pop() {
	e := f.stack[len(f.stack)-1]
	f.stack = f.stack[:len(f.stack)-1]
	depth := len(f.stack)
	if e.close == '}' {
		f.blocks--
	}
	// A block's end ends the at-rule it belongs to, and any in it.
	if f.suppress > depth || e.close == '}' && f.suppress == depth {
		f.suppress = -1
	}
	if f.sheet && depth == 0 && e.close == '}' {
		f.rule, f.hasPending = ruleNone, false
	}
	if depth == f.set {
		f.endSet()
	}
}

// setToken reads a token right in the image-set() being read, and
// reports whether it is done with it: a comma ends a candidate, and a
// resolution gives its density.
func (f *cssFinder) setToken(tok cssToken) bool {
	if tok.kind == cssClose && tok.close == ')' {
		return false // the set's end, which pop sees
	}
	if tok.kind != cssOther {
		f.cand.any = true
		return false
	}
	raw := f.z.s[f.z.start:f.z.i]
	if raw == "," {
		f.endCandidate()
		return true
	}
	f.cand.any = true
	if d, ok := cssResolution(raw); ok {
		f.cand.density = d
	}
	return true
}

// endCandidate ends the image-set() candidate being read.
func (f *cssFinder) endCandidate() {
	if f.cand.any {
		f.cands = append(f.cands, f.cand)
	}
	f.cand = setCandidate{density: 1}
}

// endSet ends the image-set() being read: the references of the
// candidates a browser could pick are found, and the others skipped.
func (f *cssFinder) endSet() {
	f.endCandidate()
	f.set = -1
	cands := make([]candidate, len(f.cands))
	for i, c := range f.cands {
		cands[i] = candidate{density: c.density}
	}
	for i, ok := range picks(cands) {
		for _, r := range f.cands[i].refs {
			switch {
			case ok:
				f.emit(r.ref, r.at)
			case f.unpicked != nil:
				f.unpicked(r.ref, r.at)
				f.skipped++
			default:
				f.skipped++
			}
		}
	}
	f.cands = f.cands[:0]
}

// cssResolution returns the density a resolution, such as 2x, 1.5dppx or
// 192dpi, stands for, and whether raw is one that is not negative.
func cssResolution(raw string) (float64, bool) {
	i := len(raw)
	for i > 0 && (raw[i-1]|0x20 >= 'a' && raw[i-1]|0x20 <= 'z') {
		i--
	}
	v, err := strconv.ParseFloat(raw[:i], 64)
	if err != nil || v < 0 || i == 0 {
		return 0, false
	}
	switch unit := strings.ToLower(raw[i:]); unit {
	case "x", "dppx":
		return v, true
	case "dpi":
		return v / 96, true
	case "dpcm":
		return v * 2.54 / 96, true
	}
	return 0, false
}

// counts reports whether a URL read now loads a resource: it is not in
// an at-rule that loads nothing, nor, in a sheet, outside every block.
func (f *cssFinder) counts() bool {
	return f.suppress < 0 && (!f.sheet || f.blocks > 0 && f.rule != ruleIgnored)
}

// emit reports ref, whose token starts at at, unless it is empty or only
// a fragment, which points into the document that uses it.
func (f *cssFinder) emit(ref string, at int) {
	if s := strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' }); s == "" || s[0] == '#' {
		return
	}
	if f.set >= 0 {
		f.cand.refs = append(f.cand.refs, setRef{ref, at})
		return
	}
	if f.found != nil {
		f.found(ref)
	} else {
		f.foundAt(ref, at)
	}
}

// cssPreprocess does what CSS Syntax Level 3 §3.3 does to the text before
// tokenizing it: every CR, FF and CR LF becomes LF, and NUL becomes
// U+FFFD.
func cssPreprocess(s string) string {
	if !strings.ContainsAny(s, "\r\f\x00") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\f':
			b.WriteByte('\n')
		case 0:
			b.WriteString("\uFFFD")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// A cssKind is the kind of a CSS token, as far as finding URLs goes.
type cssKind uint8

const (
	cssEOF cssKind = iota
	cssSpace
	cssString
	cssBadString
	cssURL // url( and a URL without quotes, then )
	cssBadURL
	cssFunction  // a name and (: name says which
	cssAtKeyword // @ and a name: name says which
	cssOpen      // (, [ or {: close says what closes it
	cssClose     // ), ] or }: close is it
	cssSemicolon
	cssCDOCDC // <!-- or -->
	cssOther  // an ident, a hash, a number, a delim, a colon or a comma
)

// A cssName is the name of a function or an at-keyword that matters here,
// matched ASCII case-insensitively.
type cssName uint8

const (
	cssNameOther cssName = iota
	cssNameURL
	cssNameImageSet // image-set and -webkit-image-set
	cssNameImport
	cssNameNamespace
)

// cssNameOf returns which name an identifier, escapes decoded, is.
func cssNameOf(name []byte) cssName {
	switch {
	case asciiEqualFold(name, "url"):
		return cssNameURL
	case asciiEqualFold(name, "image-set"), asciiEqualFold(name, "-webkit-image-set"):
		return cssNameImageSet
	case asciiEqualFold(name, "import"):
		return cssNameImport
	case asciiEqualFold(name, "namespace"):
		return cssNameNamespace
	}
	return cssNameOther
}

// asciiEqualFold reports whether b is s in ASCII case-insensitive
// comparison, s being lower case. bytes.EqualFold would also match
// U+017F (ſ) to s and U+212A (K) to k, which CSS and HTML do not.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// A cssToken is a token of CSS Syntax Level 3 §4.
type cssToken struct {
	kind  cssKind
	name  cssName
	close byte
	value string // of a string or a url token
}

// A cssScanner is CSS Syntax Level 3's tokenizer (§4.3), over text already
// preprocessed. It reads bytes: every byte of a non-ASCII character is an
// identifier's, as the character is.
type cssScanner struct {
	s string
	i int
	// start is where the last token that next returned starts.
	start int
	buf   []byte // the value being read, escapes decoded
}

// at returns the byte at i, or 0 past the end: preprocessing leaves no NUL.
func (z *cssScanner) at(i int) byte {
	if i < len(z.s) {
		return z.s[i]
	}
	return 0
}

// next returns the next token, after any comments.
func (z *cssScanner) next() cssToken {
	for strings.HasPrefix(z.s[z.i:], "/*") {
		end := strings.Index(z.s[z.i+2:], "*/")
		if end < 0 {
			z.i = len(z.s) // a comment left open runs to the end
			break
		}
		z.i += 2 + end + 2
	}
	z.start = z.i
	if z.i >= len(z.s) {
		return cssToken{kind: cssEOF}
	}
	c := z.s[z.i]
	switch {
	case isCSSSpace(c):
		for isCSSSpace(z.at(z.i)) {
			z.i++
		}
		return cssToken{kind: cssSpace}
	case c == '"' || c == '\'':
		z.i++
		return z.consumeString(c)
	case c == '(':
		z.i++
		return cssToken{kind: cssOpen, close: ')'}
	case c == '[':
		z.i++
		return cssToken{kind: cssOpen, close: ']'}
	case c == '{':
		z.i++
		return cssToken{kind: cssOpen, close: '}'}
	case c == ')' || c == ']' || c == '}':
		z.i++
		return cssToken{kind: cssClose, close: c}
	case c == ';':
		z.i++
		return cssToken{kind: cssSemicolon}
	case isDigit(c) || (c == '+' || c == '-' || c == '.') && z.startsNumber(z.i):
		z.consumeNumeric()
		return cssToken{kind: cssOther}
	case strings.HasPrefix(z.s[z.i:], "-->"):
		z.i += 3
		return cssToken{kind: cssCDOCDC}
	case strings.HasPrefix(z.s[z.i:], "<!--"):
		z.i += 4
		return cssToken{kind: cssCDOCDC}
	case c == '@' && z.startsIdent(z.i+1):
		z.i++
		z.consumeIdent()
		return cssToken{kind: cssAtKeyword, name: cssNameOf(z.buf)}
	case c == '#' && (isIdentByte(z.at(z.i+1)) || isDigit(z.at(z.i+1)) || z.at(z.i+1) == '-' || z.validEscape(z.i+1)):
		z.i++
		z.consumeIdent()
		return cssToken{kind: cssOther}
	case z.startsIdent(z.i):
		return z.consumeIdentLike()
	}
	z.i++ // a delim, a colon or a comma
	return cssToken{kind: cssOther}
}

// consumeString reads a string after its opening quote. A newline in it
// makes a bad string, and leaves the newline to be read; the end of the
// text ends it.
func (z *cssScanner) consumeString(quote byte) cssToken {
	z.buf = z.buf[:0]
	for z.i < len(z.s) {
		c := z.s[z.i]
		switch {
		case c == quote:
			z.i++
			return cssToken{kind: cssString, value: string(z.buf)}
		case c == '\n':
			return cssToken{kind: cssBadString}
		case c == '\\' && z.at(z.i+1) == '\n':
			z.i += 2 // an escaped newline continues the string
		case c == '\\':
			z.i++
			if z.i < len(z.s) { // a backslash at the end is nothing
				z.consumeEscape()
			}
		default:
			z.buf = append(z.buf, c)
			z.i++
		}
	}
	return cssToken{kind: cssString, value: string(z.buf)}
}

// consumeIdentLike reads an identifier, a function or a url token.
func (z *cssScanner) consumeIdentLike() cssToken {
	z.consumeIdent()
	name := cssNameOf(z.buf)
	if z.at(z.i) != '(' {
		return cssToken{kind: cssOther}
	}
	z.i++
	if name != cssNameURL {
		return cssToken{kind: cssFunction, name: name}
	}
	for isCSSSpace(z.at(z.i)) && isCSSSpace(z.at(z.i+1)) {
		z.i++
	}
	c := z.at(z.i)
	if c == '"' || c == '\'' || isCSSSpace(c) && (z.at(z.i+1) == '"' || z.at(z.i+1) == '\'') {
		return cssToken{kind: cssFunction, name: cssNameURL} // url("..."): a string follows
	}
	return z.consumeURL()
}

// consumeURL reads an unquoted url( after its parenthesis: spaces around
// the URL, then ')' or the end of the text. A quote, a '(', a control
// character, a space inside or a backslash before a newline makes a bad
// url, which runs to the next ')'.
func (z *cssScanner) consumeURL() cssToken {
	z.buf = z.buf[:0]
	for isCSSSpace(z.at(z.i)) {
		z.i++
	}
	for z.i < len(z.s) {
		c := z.s[z.i]
		switch {
		case c == ')':
			z.i++
			return cssToken{kind: cssURL, value: string(z.buf)}
		case isCSSSpace(c):
			for isCSSSpace(z.at(z.i)) {
				z.i++
			}
			if z.i >= len(z.s) || z.s[z.i] == ')' {
				z.i = min(z.i+1, len(z.s))
				return cssToken{kind: cssURL, value: string(z.buf)}
			}
			return z.badURL()
		case c == '"' || c == '\'' || c == '(' || c <= 0x08 || c == 0x0b || 0x0e <= c && c <= 0x1f || c == 0x7f:
			return z.badURL()
		case c == '\\':
			if !z.validEscape(z.i) {
				return z.badURL()
			}
			z.i++
			z.consumeEscape()
		default:
			z.buf = append(z.buf, c)
			z.i++
		}
	}
	return cssToken{kind: cssURL, value: string(z.buf)} // the end of the text ends it
}

// badURL reads the rest of a bad url, up to and including a ')' that is
// not escaped.
func (z *cssScanner) badURL() cssToken {
	for z.i < len(z.s) {
		if z.s[z.i] == ')' {
			z.i++
			break
		}
		if z.validEscape(z.i) {
			z.i++
			z.consumeEscape() // so that "\)" does not end it
			continue
		}
		z.i++
	}
	return cssToken{kind: cssBadURL}
}

// consumeIdent reads a name into buf, escapes decoded.
func (z *cssScanner) consumeIdent() {
	z.buf = z.buf[:0]
	for {
		switch c := z.at(z.i); {
		case isIdentByte(c) || isDigit(c) || c == '-':
			z.buf = append(z.buf, c)
			z.i++
		case z.validEscape(z.i):
			z.i++
			z.consumeEscape()
		default:
			return
		}
	}
}

// consumeEscape reads an escape after its backslash and appends the code
// point it stands for to buf: up to six hex digits and one space, or any
// other character. Zero, a surrogate, a code point past U+10FFFF and the
// end of the text stand for U+FFFD.
func (z *cssScanner) consumeEscape() {
	if z.i >= len(z.s) {
		z.buf = utf8.AppendRune(z.buf, utf8.RuneError)
		return
	}
	if !isHex(z.s[z.i]) {
		// Bytes that are not UTF-8 are copied as they are, one by one.
		_, size := utf8.DecodeRuneInString(z.s[z.i:])
		z.buf = append(z.buf, z.s[z.i:z.i+size]...)
		z.i += size
		return
	}
	var r rune
	for n := 0; n < 6 && isHex(z.at(z.i)); n++ {
		c := z.s[z.i]
		switch {
		case c <= '9':
			r = r*16 + rune(c-'0')
		default:
			r = r*16 + rune(c|0x20-'a'+10)
		}
		z.i++
	}
	if isCSSSpace(z.at(z.i)) {
		z.i++
	}
	if r == 0 || 0xd800 <= r && r <= 0xdfff || r > utf8.MaxRune {
		r = utf8.RuneError
	}
	z.buf = utf8.AppendRune(z.buf, r)
}

// consumeNumeric reads a number, a percentage or a dimension.
func (z *cssScanner) consumeNumeric() {
	if c := z.at(z.i); c == '+' || c == '-' {
		z.i++
	}
	z.digits()
	if z.at(z.i) == '.' && isDigit(z.at(z.i+1)) {
		z.i++
		z.digits()
	}
	if c := z.at(z.i); c == 'e' || c == 'E' {
		switch d := z.at(z.i + 1); {
		case isDigit(d):
			z.i++
			z.digits()
		case (d == '+' || d == '-') && isDigit(z.at(z.i+2)):
			z.i += 2
			z.digits()
		}
	}
	switch {
	case z.startsIdent(z.i):
		z.consumeIdent() // a dimension's unit: "10url(x)" holds no url
	case z.at(z.i) == '%':
		z.i++
	}
}

func (z *cssScanner) digits() {
	for isDigit(z.at(z.i)) {
		z.i++
	}
}

// validEscape reports whether a backslash at i starts an escape: it is not
// followed by a newline.
func (z *cssScanner) validEscape(i int) bool {
	return z.at(i) == '\\' && z.at(i+1) != '\n'
}

// startsIdent reports whether an identifier starts at i.
func (z *cssScanner) startsIdent(i int) bool {
	switch c := z.at(i); {
	case c == '-':
		c2 := z.at(i + 1)
		return isIdentByte(c2) || c2 == '-' || z.validEscape(i+1)
	case isIdentByte(c):
		return true
	}
	return z.validEscape(i)
}

// startsNumber reports whether a number starts at i.
func (z *cssScanner) startsNumber(i int) bool {
	switch c := z.at(i); {
	case c == '+' || c == '-':
		c2 := z.at(i + 1)
		return isDigit(c2) || c2 == '.' && isDigit(z.at(i+2))
	case c == '.':
		return isDigit(z.at(i + 1))
	default:
		return isDigit(c)
	}
}

// isIdentByte reports whether c can start an identifier: a letter, '_',
// or any byte of a non-ASCII character.
func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

// isCSSSpace reports whether c is CSS whitespace once preprocessed.
func isCSSSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
