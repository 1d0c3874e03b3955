package pagescan

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxToken bounds the bytes the tokenizer holds for one token. The
// tokenizer keeps a token whole in a buffer of its own, which it grows by
// doubling, so a page of a GiB of text (a gzip bomb of spaces) cost two
// more GiB beside the page; bounded, it costs a few times maxToken. No
// link is that long: what is lost past the bound is text, a comment, a
// script, or the rest of a tag that holds, say, a data: URL of 16 MiB.
const maxToken = 16 << 20

// tokens reads a document's tokens with the x/net/html tokenizer, as
// Tokenizer.Next does, but never holds more than max bytes of one token.
// When a token outgrows it, tokens finds where the token ends, as the
// tokenizer would, and starts a new tokenizer there:
//   - text ends at a '<' that begins markup;
//   - raw text (in <script>, <style>, <textarea>…) at its element's end
//     tag, and <plaintext>'s with the document;
//   - a tag, a comment or a doctype at its '>', "-->" or "]]>".
//
// The token that outgrew the bound is never returned: what follows it is.
// So a browser's parser is in the same state there, and nothing in a
// comment, a script or a quoted value reads as a link.
type tokens struct {
	z    *html.Tokenizer
	text []byte // the document
	max  int
	// at is where the current token begins in text, and end where it
	// ends: the next token's at.
	at, end int
	// raw names the element whose raw text the tokenizer reads next, as
	// the last start tag made it, or "".
	raw string
	cut bool // whether a token outgrew the bound
}

// reset readies t to read text, holding at most max bytes of a token.
func (t *tokens) reset(text []byte, max int) {
	*t = tokens{text: text, max: max}
	t.start(0)
}

// start begins a new tokenizer at text[from:].
func (t *tokens) start(from int) {
	t.z = html.NewTokenizer(bytes.NewReader(t.text[from:]))
	if len(t.text)-from >= t.max {
		// Only then, since the bound costs the tokenizer a test for
		// every byte: 8% of html mode's scan.
		t.z.SetMaxBuf(t.max)
	}
	t.at, t.end, t.raw = from, from, ""
}

// next reads the next token, as Tokenizer.Next does, with CDATA sections
// allowed if cdata. It returns html.ErrorToken at the end of the document.
func (t *tokens) next(cdata bool) html.TokenType {
	for {
		t.z.AllowCDATA(cdata)
		tt := t.z.Next()
		// A token cut at the bound comes back whole-looking, as text or a
		// comment, or as an error; either way it holds max bytes.
		if len(t.z.Raw()) >= t.max {
			t.cut = true
			t.start(max(t.tokenEnd(cdata), t.end+1)) // ever onward
			continue
		}
		if tt != html.ErrorToken {
			t.at = t.end
			t.end += len(t.z.Raw())
			t.raw = ""
		}
		return tt
	}
}

// startTag notes that the current token, a start tag of the element a,
// made the tokenizer read what follows as raw text, as the tokenizer
// decides that: by the tag's name alone.
func (t *tokens) startTag(a atom.Atom) {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext,
		atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		t.raw = a.String()
	}
}

// notRaw is Tokenizer.NextIsNotRawText.
func (t *tokens) notRaw() {
	t.z.NextIsNotRawText()
	t.raw = ""
}

// tokenEnd returns the offset in text where the token that begins at t.end
// ends, as the tokenizer reads it with CDATA sections allowed if cdata.
func (t *tokens) tokenEnd(cdata bool) int {
	text, from := t.text, t.end
	switch {
	case t.raw == "plaintext":
		return len(text)
	case t.raw != "":
		return endTag(text, from, t.raw)
	case from+1 < len(text) && text[from] == '<' && markupStart(text[from+1]):
		return markupEnd(text, from, cdata)
	}
	// Text: up to the next '<' that begins markup.
	for i := from + 1; ; i++ {
		j := bytes.IndexByte(text[i:], '<')
		if j < 0 {
			return len(text)
		}
		i += j
		if i+1 < len(text) && markupStart(text[i+1]) {
			return i
		}
	}
}

// endTag returns the offset in text, from from on, of the end tag of the
// element named name, which ends its raw text: "</", the name in any case,
// then a space, '/' or '>'. With none, the raw text ends with the
// document. (A script's text can hide an end tag in "<!--<script>", which
// this does not follow.)
func endTag(text []byte, from int, name string) int {
	for i := from; ; i++ {
		j := bytes.Index(text[i:], []byte("</"))
		if j < 0 {
			return len(text)
		}
		i += j
		rest := text[i+2:]
		if len(rest) > len(name) && bytes.EqualFold(rest[:len(name)], []byte(name)) &&
			bytes.IndexByte([]byte(" \t\n\f\r/>"), rest[len(name)]) >= 0 {
			return i
		}
	}
}

// markupStart says whether c, after a '<' in text, makes it a tag, an end
// tag, a comment, a doctype or a bogus comment.
func markupStart(c byte) bool {
	return isLetter(c) || c == '/' || c == '!' || c == '?'
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// markupEnd returns the offset just past the markup that begins at
// text[from], a '<': past "-->" for a comment, "]]>" for CDATA if cdata
// allows it, and otherwise past the first '>' outside a quoted attribute
// value. Markup never ended ends with the document.
func markupEnd(text []byte, from int, cdata bool) int {
	rest := text[from:]
	end := func(close string) int {
		if i := bytes.Index(rest, []byte(close)); i >= 0 {
			return from + i + len(close)
		}
		return len(text)
	}
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		return end("-->")
	case cdata && bytes.HasPrefix(rest, []byte("<![CDATA[")):
		return end("]]>")
	case rest[1] == '!' || rest[1] == '?' || rest[1] == '/' && (len(rest) < 3 || !isLetter(rest[2])):
		return end(">") // a doctype or a bogus comment
	}
	// A start or end tag: a value is quoted when a quote is the first
	// thing after its '=' and the spaces that follow it.
	for i := 1; i < len(rest); i++ {
		switch rest[i] {
		case '>':
			return from + i + 1
		case '=':
			j := i + 1
			for j < len(rest) && bytes.IndexByte([]byte(" \t\n\f\r"), rest[j]) >= 0 {
				j++
			}
			if j < len(rest) && (rest[j] == '"' || rest[j] == '\'') {
				k := bytes.IndexByte(rest[j+1:], rest[j])
				if k < 0 {
					return len(text)
				}
				j += 1 + k
			}
			i = j
		}
	}
	return len(text)
}
