package pagescan_test

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/refurl"
	"tse-crawler/internal/testbed/playgroundtest"
)

const (
	index = "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html"
	dir   = "http://cs50tse.cs.dartmouth.edu/tse/letters/"
	site  = "http://cs50tse.cs.dartmouth.edu"
)

// scan runs s over page and returns the links it found, or nil.
func scan(s pagescan.Scanner, pageURL string, page []byte) []string {
	var links []string
	s.Scan(pageURL, page, func(link string) { links = append(links, link) })
	return links
}

// A scannerTest is a tricky page with what each scanner finds in it, side
// by side. The reference column follows REFERENCE.md §3; the browser column
// follows the HTML5 tokenizer and RFC 3986.
type scannerTest struct {
	name      string
	page      string // the page's URL; index if empty
	html      string
	reference []string // what Reference finds
	browser   []string // what HTML finds
}

var scannerTests = []scannerTest{
	{
		name:      "empty page",
		html:      "",
		reference: nil,
		browser:   nil,
	},
	{
		name:      "double quotes",
		html:      `<a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "single quotes",
		html:      `<a href='A.html'>A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "unquoted",
		html:      `<a href=A.html>A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "spaces around the equals sign",
		html:      `<a href = "A.html" >A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "value split by a newline",
		html:      "<a href=\"A.\nhtml\">A</a>",
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"}, // the URL standard drops tabs and newlines
	},
	{
		name:      "tab, CR and padding in the value",
		html:      "<a href=\" \tA\r.html \">A</a>",
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "space inside the value",
		html:      `<a href="my page.html">p</a>`,
		reference: []string{dir + "mypage.html"},
		browser:   []string{dir + "my%20page.html"}, // the URL standard percent-encodes
	},
	{
		name:      "attribute name split by a newline",
		html:      "<a hr\nef=\"A.html\">A</a>",
		reference: []string{dir + "A.html"},
		browser:   nil, // attributes "hr" and "ef"
	},
	{
		name:      "space inside the tag name",
		html:      `< a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   nil, // "< a" is text
	},
	{
		name:      "abbr matches <a",
		html:      `<abbr title="x" href="A.html">A</abbr>`,
		reference: []string{dir + "A.html"},
		browser:   nil,
	},
	{
		name:      "area",
		html:      `<map><area href="B.html"></map>`,
		reference: []string{dir + "B.html"},
		browser:   []string{dir + "B.html"},
	},
	{
		name:      "aside and audio match <a",
		html:      `<aside href="C.html"></aside><audio src=x.mp3 href=D.html>`,
		reference: []string{dir + "C.html", dir + "D.html"},
		browser:   nil,
	},
	{
		name:      "a > before the href",
		html:      `<a title=">" href="x.html">x</a>`,
		reference: nil, // the tag seems to end before its href
		browser:   []string{dir + "x.html"},
	},
	{
		name:      "an anchor without href, then a link",
		html:      `<a name="top"><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "data-href comes first",
		html:      `<a data-href="d.html" href="e.html">e</a>`,
		reference: []string{dir + "d.html"},
		browser:   []string{dir + "e.html"},
	},
	{
		name:      "duplicate href",
		html:      `<a href="a.html" href="b.html">a</a>`,
		reference: []string{dir + "a.html"},
		browser:   []string{dir + "a.html"},
	},
	{
		name:      "unquoted runs into the next attribute",
		html:      `<a href=p.html target=_blank>p</a>`,
		reference: []string{dir + "p.htmltarget=_blank"},
		browser:   []string{dir + "p.html"},
	},
	{
		name:      "fragment dropped",
		html:      `<a href="A.html#sec">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "fragment only",
		html:      `<a href="#top">top</a>`,
		reference: nil,
		browser:   []string{index},
	},
	{
		name:      "unquoted fragment only",
		html:      `<a href=#top>top</a>`,
		reference: nil,
		browser:   []string{index},
	},
	{
		name:      "a numeric character reference holds a #",
		html:      `<a href="&#65;.html">A</a>`,
		reference: []string{dir + "&"},
		browser:   []string{dir + "A.html"},
	},
	{
		name: "other schemes",
		html: `<a href="mailto:x@y.z">m</a><a href="javascript:void(0)">j</a>` +
			`<a href="ftp://h/f">f</a>`,
		reference: nil,
		browser:   []string{"mailto:x@y.z", "javascript:void(0)", "ftp://h/f"},
	},
	{
		name:      "a colon in the link text",
		html:      `<a href="x.html">Note: y</a>`,
		reference: nil, // the ':' comes before any '/', '?' or '#'
		browser:   []string{dir + "x.html"},
	},
	{
		name:      "a colon after the closing tag",
		html:      `<a href="x.html">x</a> Note: y`,
		reference: []string{dir + "x.html"}, // the '/' of </a> comes first
		browser:   []string{dir + "x.html"},
	},
	{
		name: "one link of three dropped by the colon test",
		html: `<a href="a.html">1</a><a href="b.html">2:</a>` +
			`<a href="c.html">3</a>`,
		reference: []string{dir + "a.html", dir + "c.html"},
		browser:   []string{dir + "a.html", dir + "b.html", dir + "c.html"},
	},
	{
		name:      "the colon of the next link's scheme",
		html:      `<a href="x.html">x<a href="http://h/">h</a>`,
		reference: []string{"http://h/"},
		browser:   []string{dir + "x.html", "http://h/"},
	},
	{
		name:      "a colon makes an http-prefixed relative link absolute",
		html:      `<a href="httpdocs.html">x:</a>`,
		reference: []string{"httpdocs.html"}, // verbatim, not resolved
		browser:   []string{dir + "httpdocs.html"},
	},
	{
		name:      "a skip resumes inside the skipped tag",
		html:      `<a href="javascript:x('<a href=p.html>')">go</a>`,
		reference: []string{dir + "p.html"},
		browser:   []string{"javascript:x('<a href=p.html>')"},
	},
	{
		name:      "a fragment skip resumes inside the skipped tag",
		html:      `<a href="#<a href=q.html>">q</a>`,
		reference: []string{dir + "q.html"},
		browser:   []string{index},
	},
	{
		name:      "a found link resumes after its URL",
		html:      `<a href="a.html<a href=b.html>">a</a>`,
		reference: []string{dir + "a.html<ahref=b.html>"},
		browser:   []string{dir + "a.html%3Ca%20href=b.html%3E"},
	},
	{
		name:      "empty href",
		html:      `<a href="">here</a>`,
		reference: []string{dir},
		browser:   []string{index},
	},
	{
		name:      "empty unquoted href",
		html:      `<a href=>here</a>`,
		reference: []string{dir},
		browser:   []string{index},
	},
	{
		name:      "entities are not decoded by the reference",
		html:      `<a href="a.html?x=1&amp;y=2">a</a>`,
		reference: []string{dir + "a.html?x=1&amp;y=2"},
		browser:   []string{dir + "a.html?x=1&y=2"},
	},
	{
		name:      "a link in a comment",
		html:      `<!-- <a href="c.html">c</a> -->`,
		reference: []string{dir + "c.html"},
		browser:   nil,
	},
	{
		name:      "a link in a script",
		html:      `<script>document.write('<a href="s.html">s</a>');</script>`,
		reference: []string{dir + "s.html"},
		browser:   nil,
	},
	{
		name:      "a link in a title",
		html:      `<title><a href="t.html">t</a></title>`,
		reference: []string{dir + "t.html"},
		browser:   nil,
	},
	{
		name: "base: the first one counts, even for links before it",
		html: `<a href="x.html">x</a><base href="http://other.example/dir/">` +
			`<base href="http://third.example/"><a href="y.html">y</a>`,
		reference: []string{dir + "x.html", dir + "y.html"},
		browser:   []string{"http://other.example/dir/x.html", "http://other.example/dir/y.html"},
	},
	{
		name:      "relative base",
		html:      `<base href="../"><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{site + "/tse/A.html"},
	},
	{
		name:      "a base without href does not count",
		html:      `<base target="_top"><base href="/x/"><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{site + "/x/A.html"},
	},
	{
		name:      "upper-case tags and attributes",
		html:      `<A HREF="A.html">A</A><A HrEf=B.HTML>B</A>`,
		reference: []string{dir + "A.html", dir + "B.HTML"},
		browser:   []string{dir + "A.html", dir + "B.HTML"},
	},
	{
		name:      "absolute http",
		html:      `<a href="http://cs50tse.cs.dartmouth.edu/tse/letters/A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "absolute HTTP kept verbatim",
		html:      `<a href="HTTP://Example.COM/X.html">X</a>`,
		reference: []string{"HTTP://Example.COM/X.html"},
		browser:   []string{"http://example.com/X.html"}, // the URL standard lower-cases scheme and host
	},
	{
		name:      "absolute https",
		html:      `<a href="https://en.wikipedia.org/wiki/Algorithm">w</a>`,
		reference: []string{"https://en.wikipedia.org/wiki/Algorithm"},
		browser:   []string{"https://en.wikipedia.org/wiki/Algorithm"},
	},
	{
		name:      "absolute with dot segments",
		html:      `<a href="http://h/a/../b.html">b</a>`,
		reference: []string{"http://h/a/../b.html"},
		browser:   []string{"http://h/b.html"},
	},
	{
		name:      "protocol-relative",
		html:      `<a href="//host/x">x</a>`,
		reference: []string{site + "//host/x"},
		browser:   []string{"http://host/x"},
	},
	{
		name:      "dot-dot",
		html:      `<a href="../K.html">K</a>`,
		reference: []string{dir + "../K.html"}, // the normalizer removes the ".."
		browser:   []string{site + "/tse/K.html"},
	},
	{
		name:      "rooted",
		html:      `<a href="/tse/x.html">x</a>`,
		reference: []string{site + "/tse/x.html"},
		browser:   []string{site + "/tse/x.html"},
	},
	{
		name:      "query only",
		html:      `<a href="?q=1">q</a>`,
		reference: []string{dir + "?q=1"},
		browser:   []string{index + "?q=1"},
	},
	{
		name:      "page at the root, relative link",
		page:      "http://Example.COM/index.html",
		html:      `<a href="a.html">a</a><a href="">e</a>`,
		reference: []string{"http://example.com/a.html", "http://example.com/"},
		browser:   []string{"http://example.com/a.html", "http://example.com/index.html"},
	},
	{
		name:      "the page's query",
		page:      "http://h/d/p.html?x=/y",
		html:      `<a href="a.html">a</a><a href="?z">z</a>`,
		reference: []string{"http://h/d/a.html", "http://h/d/?z"},
		browser:   []string{"http://h/d/a.html", "http://h/d/p.html?z"},
	},
	{
		name:      "the page's user-info",
		page:      "http://U:p@H/d/p.html",
		html:      `<a href="/r.html">r</a><a href="s.html">s</a>`,
		reference: []string{"http://U:p@h/r.html", "http://U:p@h/d/s.html"},
		browser:   []string{"http://U:p@h/r.html", "http://U:p@h/d/s.html"},
	},
	{
		name:      "a NUL in the value",
		html:      "<a href=\"a\x00b.html\">a</a>",
		reference: []string{dir + "a\x00b.html"},
		browser:   []string{dir + "a%EF%BF%BDb.html"}, // the tokenizer replaces NUL with U+FFFD
	},
	{
		// A page that declares no encoding and is not UTF-8 is read as
		// windows-1252, whether or not the value also holds a newline.
		name:      "not UTF-8",
		html:      "<a href=\"caf\xe9.html\">a</a><a href=\"caf\xe9\n.html\">b</a>",
		reference: []string{dir + "caf\xe9.html", dir + "caf\xe9.html"},
		browser:   []string{dir + "caf%C3%A9.html", dir + "caf%C3%A9.html"},
	},
	{
		// In a page declared UTF-8, a byte that is not UTF-8 reaches
		// the URL parser as it is, and the parser reads it as U+FFFD.
		name:      "invalid UTF-8",
		html:      "<meta charset=utf-8><a href=\"caf\xe9.html\">a</a><a href=\"caf\xe9\n.html\">b</a>",
		reference: []string{dir + "caf\xe9.html", dir + "caf\xe9.html"},
		browser:   []string{dir + "caf%EF%BF%BD.html", dir + "caf%EF%BF%BD.html"},
	},
	{
		name:      "a NUL before the link",
		html:      "\x00<a href=\"after.html\">a</a>",
		reference: []string{dir + "after.html"}, // the C reference stops at the NUL
		browser:   []string{dir + "after.html"},
	},
	{
		name:      "no end quote",
		html:      `<a href="never.html>x</a>`,
		reference: nil,
		browser:   nil, // the tag never ends
	},
	{
		name:      "no end quote, a later quote ends it",
		html:      `<a href="x.html>x</a><a href="y.html">y</a>`,
		reference: []string{dir + "x.html>x</a><ahref="},
		browser:   []string{dir + "x.html%3Ex%3C/a%3E%3Ca%20href="},
	},
	{
		name:      "no closing > at all",
		html:      `<a href="A.html"`,
		reference: []string{dir + "A.html"},
		browser:   nil,
	},
	{
		name:      "href= with nothing after",
		html:      `<a href=`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "href= and a space at the end",
		html:      "<a href= \n",
		reference: nil,
		browser:   nil,
	},
	{
		name:      "unquoted without a closing >",
		html:      `<a href=A.html`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "no href at all",
		html:      `<a name="x">x</a>`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "the last <a has no href, which ends the scan",
		html:      `<a href="A.html">A</a><a name="n"></a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "the href belongs to another tag",
		html:      `<a name=n>n</a><link href="s.css">`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "a quote inside the other quotes",
		html:      `<a href='say"hi".html'>s</a>`,
		reference: []string{dir + `say"hi".html`},
		browser:   []string{dir + "say%22hi%22.html"},
	},

	// The HTML Standard's tree construction: templates, SVG and MathML,
	// CDATA, noscript.
	{
		name:      "a template's contents are inert",
		html:      `<template><a href="t.html">t</a></template><a href="u.html">u</a>`,
		reference: []string{dir + "t.html", dir + "u.html"},
		browser:   []string{dir + "u.html"},
	},
	{
		name:      "nested templates",
		html:      `<template><template></template><a href="t.html">t</a></template><a href="u.html">u</a>`,
		reference: []string{dir + "t.html", dir + "u.html"},
		browser:   []string{dir + "u.html"},
	},
	{
		name:      "</template> closes the svg in it",
		html:      `<template><svg><a href="s.html"></template><a href="u.html">u</a>`,
		reference: []string{dir + "s.html", dir + "u.html"},
		browser:   []string{dir + "u.html"},
	},
	{
		name:      "a template in svg is no template",
		html:      `<svg><template><a href="s.html"/></template></svg>`,
		reference: []string{dir + "s.html"},
		browser:   []string{dir + "s.html"},
	},
	{
		name:      "a base in a template does not count",
		html:      `<template><base href="http://other.example/"></template><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "a base in svg does not count",
		html:      `<svg><base href="http://other.example/"></base></svg><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "a base in math does not count",
		html:      `<math><base href="http://other.example/"></math><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "a base in foreignObject is HTML",
		html:      `<svg><foreignObject><base href="http://other.example/d/"></foreignObject></svg><a href="A.html">A</a>`,
		reference: []string{dir + "A.html"},
		browser:   []string{"http://other.example/d/A.html"},
	},
	{
		name: "a javascript: or data: base is first, and means the page's URL",
		html: `<base href="javascript:alert(1)"><base href="http://other.example/"><a href="A.html">A</a>` +
			`<base href="data:text/html,x">`,
		reference: []string{dir + "A.html"},
		browser:   []string{dir + "A.html"},
	},
	{
		name:      "svg title holds HTML",
		html:      `<svg><title><a href="t.html">t</a></title></svg>`,
		reference: []string{dir + "t.html"},
		browser:   []string{dir + "t.html"},
	},
	{
		name:      "svg desc holds HTML",
		html:      `<svg><desc><a href="d.html">d</a></desc></svg>`,
		reference: []string{dir + "d.html"},
		browser:   []string{dir + "d.html"},
	},
	{
		name:      "svg foreignObject holds HTML",
		html:      `<SVG><foreignObject><p><a href="f.html">f</a></p></foreignObject></SVG>`,
		reference: []string{dir + "f.html"},
		browser:   []string{dir + "f.html"},
	},
	{
		name: "MathML text integration points hold HTML",
		html: `<math><mi><a href="1.html">1</a></mi><mo><a href="2.html">2</a></mo><mn><a href="3.html">3</a></mn>` +
			`<ms><a href="4.html">4</a></ms><mtext><a href="5.html">5</a></mtext></math>`,
		reference: []string{dir + "1.html", dir + "2.html", dir + "3.html", dir + "4.html", dir + "5.html"},
		browser:   []string{dir + "1.html", dir + "2.html", dir + "3.html", dir + "4.html", dir + "5.html"},
	},
	{
		name: "an HTML annotation-xml holds HTML",
		html: `<math><annotation-xml encoding="Text/HTML"><a href="h.html">h</a></annotation-xml>` +
			`<annotation-xml encoding="application/xhtml+xml"><a href="x.html">x</a></annotation-xml></math>`,
		reference: []string{dir + "h.html", dir + "x.html"},
		browser:   []string{dir + "h.html", dir + "x.html"},
	},
	{
		name:      "another annotation-xml holds MathML",
		html:      `<math><annotation-xml><a href="x.html">x</a></annotation-xml></math>`,
		reference: []string{dir + "x.html"},
		browser:   nil,
	},
	{
		name:      "an <a> in MathML is no link",
		html:      `<math><a href="x.html">x</a></math>`,
		reference: []string{dir + "x.html"},
		browser:   nil,
	},
	{
		name:      "an SVG <a> is a link",
		html:      `<svg><a href="s.html"><text>s</text></a></svg>`,
		reference: []string{dir + "s.html"},
		browser:   []string{dir + "s.html"},
	},
	{
		name:      "an SVG <a> with xlink:href",
		html:      `<svg><a xlink:href="x.html"><text>x</text></a></svg>`,
		reference: []string{dir + "x.html"},
		browser:   []string{dir + "x.html"},
	},
	{
		name:      "an SVG <a>: href wins over xlink:href",
		html:      `<svg><a xlink:href="x.html" href="h.html"/></svg>`,
		reference: []string{dir + "x.html"},
		browser:   []string{dir + "h.html"},
	},
	{
		name:      "an SVG script holds markup",
		html:      `<svg><script><a href="s.html"/></script></svg>`,
		reference: []string{dir + "s.html"},
		browser:   []string{dir + "s.html"},
	},
	{
		name:      "an HTML tag ends the svg",
		html:      `<svg><p></p><title><a href="t.html">t</a></title>`,
		reference: []string{dir + "t.html"},
		browser:   nil,
	},
	{
		name:      "a font with a color ends the svg, a plain one does not",
		html:      `<svg><font><title><a href="1.html"></a></title></font><font color=red><title><a href="2.html"></a></title>`,
		reference: []string{dir + "1.html", dir + "2.html"},
		browser:   []string{dir + "1.html"},
	},
	{
		name:      "</svg> ends the svg",
		html:      `<svg></svg><title><a href="t.html">t</a></title>`,
		reference: []string{dir + "t.html"},
		browser:   nil,
	},
	{
		name:      "</p> ends the svg in it",
		html:      `<p><svg></p><title><a href="t.html">t</a></title>`,
		reference: []string{dir + "t.html"},
		browser:   nil,
	},
	{
		name:      "</body> does not end the svg",
		html:      `<svg></body><a href="s.html"></a>`,
		reference: []string{dir + "s.html"},
		browser:   []string{dir + "s.html"},
	},
	{
		name:      "CDATA in svg is text",
		html:      `<svg><![CDATA[</svg><a href="c.html">]]></svg><a href="d.html">d</a>`,
		reference: []string{dir + "c.html", dir + "d.html"},
		browser:   []string{dir + "d.html"},
	},
	{
		name:      "CDATA in math is text",
		html:      `<math><![CDATA[<a href="c.html">]]></math>`,
		reference: []string{dir + "c.html"},
		browser:   nil,
	},
	{
		name:      "CDATA in HTML is a bogus comment",
		html:      `<![CDATA[<a href="c.html">]]>`,
		reference: []string{dir + "c.html"},
		browser:   nil,
	},
	{
		name:      "noscript holds markup",
		html:      `<noscript><a href="n.html">n</a></noscript>`,
		reference: []string{dir + "n.html"},
		browser:   []string{dir + "n.html"},
	},
	{
		name:      "other raw text elements",
		html:      `<textarea><a href="t.html"></textarea><style><a href="s.html"></style><xmp><a href="x.html"></xmp><noembed><a href="e.html"></noembed><noframes><a href="f.html"></noframes>`,
		reference: []string{dir + "t.html", dir + "s.html", dir + "x.html", dir + "e.html", dir + "f.html"},
		browser:   nil,
	},

	// Links a browser follows without a click.
	{
		name:      "meta refresh, the front page of javadoc",
		html:      `<meta http-equiv="refresh" content="0;url=api/index.html">`,
		reference: nil,
		browser:   []string{dir + "api/index.html"},
	},
	{
		name:      "meta refresh with a delay, spaces, capitals and quotes",
		html:      `<META HTTP-EQUIV="Refresh" CONTENT="5; URL='x.html'">`,
		reference: nil,
		browser:   []string{dir + "x.html"},
	},
	{
		name:      "meta refresh with a comma and no url=",
		html:      `<meta http-equiv="refresh" content="0, x.html">`,
		reference: nil,
		browser:   []string{dir + "x.html"},
	},
	{
		name:      "meta refresh with a fractional delay",
		html:      `<meta http-equiv="refresh" content=".5 ; url = &quot;x y.html&quot;z">`,
		reference: nil,
		browser:   []string{dir + "x%20y.html"},
	},
	{
		name:      "meta refresh: a word that only starts like url=",
		html:      `<meta http-equiv="refresh" content="0; urlx.html">`,
		reference: nil,
		browser:   []string{dir + "urlx.html"},
	},
	{
		name:      "meta refresh without a URL reloads the page",
		html:      `<meta http-equiv="refresh" content="0">`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "meta refresh that does not parse is ignored",
		html:      `<meta http-equiv="refresh" content="soon"><meta http-equiv="refresh" content="0x; url=a.html"><meta http-equiv="refresh" content="0; url=b.html">`,
		reference: nil,
		browser:   []string{dir + "b.html"},
	},
	{
		name:      "only the first meta refresh counts",
		html:      `<meta http-equiv="refresh" content="1"><meta http-equiv="refresh" content="0; url=b.html">`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "a meta without http-equiv refresh",
		html:      `<meta name="refresh" content="0; url=a.html"><meta http-equiv="refresh"><meta http-equiv="refresh" content="">`,
		reference: nil,
		browser:   nil,
	},
	{
		name:      "a meta refresh in a template does nothing",
		html:      `<template><meta http-equiv="refresh" content="0; url=t.html"></template><meta http-equiv="refresh" content="0; url=u.html">`,
		reference: nil,
		browser:   []string{dir + "u.html"},
	},
	{
		name:      "a meta refresh in svg is HTML",
		html:      `<svg><meta http-equiv="refresh" content="0; url=m.html">`,
		reference: nil,
		browser:   []string{dir + "m.html"},
	},
	{
		name:      "a meta refresh in noscript counts",
		html:      `<head><noscript><meta http-equiv="refresh" content="0; url=nojs.html"></noscript></head>`,
		reference: nil,
		browser:   []string{dir + "nojs.html"},
	},
	{
		name: "a refresh or an iframe uses the base known then, a link the final one",
		html: `<meta http-equiv="refresh" content="0; url=r.html"><iframe src="i.html"></iframe>` +
			`<base href="http://other.example/"><a href="a.html">a</a><iframe src="j.html"></iframe>`,
		reference: []string{dir + "a.html"},
		browser:   []string{dir + "r.html", dir + "i.html", "http://other.example/a.html", "http://other.example/j.html"},
	},
	{
		name:      "iframe",
		html:      `<iframe src="i.html"><a href="x.html">x</a></iframe>`,
		reference: []string{dir + "x.html"},
		browser:   []string{dir + "i.html"},
	},
	{
		name:      "an iframe with a srcdoc or an empty src loads no URL",
		html:      `<iframe srcdoc="<a href=x.html>x</a>" src="i.html"></iframe><iframe src=""></iframe><iframe></iframe>`,
		reference: []string{dir + "x.html"},
		browser:   nil,
	},
	{
		name:      "an iframe in a template loads nothing",
		html:      `<template><iframe src="i.html"></iframe></template>`,
		reference: nil,
		browser:   nil,
	},
	{
		name: "a frameset: only its frames count",
		html: `<html><head><title>t</title></head><frameset cols="50%,50%"><frame src="a.html"><frameset><frame src="b.html"></frameset>` +
			`<noframes><a href="n.html">n</a></noframes></frameset><a href="x.html">x</a><frame src="c.html">`,
		reference: []string{dir + "n.html", dir + "x.html"},
		browser:   []string{dir + "a.html", dir + "b.html"},
	},
	{
		name:      "a frameset replaces a body with nothing to see",
		html:      `<meta http-equiv="refresh" content="9; url=r.html"><a href="x.html"></a><frameset><frame src="f.html"></frameset>`,
		reference: []string{dir + "x.html"},
		browser:   []string{dir + "r.html", dir + "f.html"},
	},
	{
		name:      "a frameset after text does not count",
		html:      `<p>text</p><frameset><frame src="f.html"></frameset><a href="a.html">a</a>`,
		reference: []string{dir + "a.html"},
		browser:   []string{dir + "a.html"},
	},
	{
		name:      "a frame outside a frameset does not count",
		html:      `<body><frame src="f.html">`,
		reference: nil,
		browser:   nil,
	},
}

func TestScanners(t *testing.T) {
	t.Parallel()
	for _, tt := range scannerTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page := tt.page
			if page == "" {
				page = index
			}
			if got := scan(new(pagescan.Reference), page, []byte(tt.html)); !slices.Equal(got, tt.reference) {
				t.Errorf("Reference.Scan(%q, %q) = %q, want %q", page, tt.html, got, tt.reference)
			}
			if got := scan(new(pagescan.HTML), page, []byte(tt.html)); !slices.Equal(got, tt.browser) {
				t.Errorf("HTML.Scan(%q, %q) = %q, want %q", page, tt.html, got, tt.browser)
			}
			// The expectations above were worked out by hand; the oracle is
			// the C code transliterated, and the two must agree.
			if got := referenceOracle(page, []byte(tt.html)); !slices.Equal(got, tt.reference) {
				t.Errorf("referenceOracle(%q, %q) = %q, want %q", page, tt.html, got, tt.reference)
			}
		})
	}
}

// TestScannerReuse checks that a scanner used for one page does not carry
// anything over into the next: each keeps buffers between calls.
func TestScannerReuse(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"reference", "html"} {
		reused, err := pagescan.New(name)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		// Longest page first, so that later pages reuse a larger buffer.
		tests := slices.Clone(scannerTests)
		slices.SortStableFunc(tests, func(a, b scannerTest) int { return len(b.html) - len(a.html) })
		for _, tt := range tests {
			fresh, _ := pagescan.New(name)
			want := scan(fresh, index, []byte(tt.html))
			if got := scan(reused, index, []byte(tt.html)); !slices.Equal(got, want) {
				t.Errorf("%s scanner reused for %q: got %q, want %q", name, tt.html, got, want)
			}
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"reference", "html"} {
		if s, err := pagescan.New(name); err != nil || s == nil {
			t.Errorf("New(%q) = %v, %v; want a scanner", name, s, err)
		}
	}
	for _, name := range []string{"", "Reference", "HTML", "regexp"} {
		if s, err := pagescan.New(name); err == nil {
			t.Errorf("New(%q) = %v, nil; want an error", name, s)
		}
	}
}

// TestReferenceLettersLog scans the playground's letters pages and checks
// that the links found are exactly those of the course's reference log.
func TestReferenceLettersLog(t *testing.T) {
	t.Parallel()
	fsys := playgroundtest.Site(t)

	// Collect each scanned page's Found lines from the log.
	line := regexp.MustCompile(`^ ?\d+ +(\w+): (.*)$`)
	want := make(map[string][]string) // page URL -> links found
	var order []string
	var current string
	sc := bufio.NewScanner(bytes.NewReader(playgroundtest.Log(t, "letters-10")))
	for n := 1; sc.Scan(); n++ {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			t.Fatalf("letters-10.log:%d: unexpected line %q", n, sc.Text())
		}
		switch word, url := m[1], m[2]; word {
		case "Fetched":
			current = ""
		case "Scanning":
			if _, dup := want[url]; dup {
				t.Fatalf("letters-10.log:%d: %s scanned twice", n, url)
			}
			current = url
			want[url] = nil
			order = append(order, url)
		case "Found":
			if current == "" {
				t.Fatalf("letters-10.log:%d: Found outside a scan", n)
			}
			want[current] = append(want[current], url)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, links := range want {
		found += len(links)
	}
	if len(order) == 0 || found == 0 {
		t.Fatalf("letters-10.log scans %d pages and finds %d links; want some of each", len(order), found)
	}

	var r pagescan.Reference // one scanner for every page, as the crawler does
	for _, url := range order {
		body, err := playgroundtest.Body(fsys, url)
		if err != nil {
			t.Fatal(err)
		}
		got := scan(&r, url, body)
		if !slices.Equal(got, want[url]) {
			t.Errorf("Reference.Scan(%q, page) =\n\t%q\nwant (letters-10.log)\n\t%q", url, got, want[url])
		}
		if got := referenceOracle(url, body); !slices.Equal(got, want[url]) {
			t.Errorf("referenceOracle(%q, page) = %q, want %q", url, got, want[url])
		}
	}
}

// fuzzPages are the page URLs the fuzzers pick from.
var fuzzPages = []string{
	index,
	"http://Example.COM/index.html",
	"http://U:p@H:8080/d/e/p.html?x=/y",
	"http://h/",
	"HTTP://h/dir/",
}

// fuzzSeeds are tricky pages for both scanners' fuzzers.
var fuzzSeeds = []string{
	`<a href="A.html">A</a>`,
	`<a title=">" href="x.html">x</a>`,
	`<a href=p.html target=_blank>p</a>`,
	`<a href="x.html">Note: y</a>`,
	`<a href="javascript:x('<a href=p.html>')">go</a>`,
	`<a href="#<a href=q.html>">q</a><a href="">e</a>`,
	`<!-- <a href="c.html"> --><script>'<a href=s.html>'</script>`,
	`<a href="x.html"><base href="//o/d/"><base href="/t/"><a href="../y.html#z">`,
	"<A HREF='//host/x'>\x00<area href=\"a\x00b.html\">",
	"<a hr\nef=\"A.html\">< a href = \"my page.html\" >",
	`<a href="&#65;.html">&amp;<a href="a?x=1&amp;y=2">`,
	`<a href="HTTP://Example.COM/X.html">X</a><a href=mailto:x@y>`,
	`<a href="never.html>x</a><a href="y.html`,
	`<a href=`,
	`<template><a href="t.html"><base href="/t/"></template><svg><base href="/s/"><a xlink:href="s.html"/></svg>`,
	`<svg><title><a href="t.html"></title><foreignObject><a href="f.html"></foreignObject><![CDATA[</svg><a href="c.html">]]></svg>`,
	`<math><mi><a href="m.html"></mi><annotation-xml encoding="text/html"><a href="h.html"></annotation-xml><a href="x.html"></math>`,
	`<noscript><a href="n.html"></noscript><meta http-equiv="refresh" content="0; URL='r.html'"><iframe src="i.html"></iframe>`,
	`<frameset><frame src="f.html"><noframes><a href="n.html"></noframes></frameset>`,
}

func FuzzReference(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		stripped := string(stripSpace(page))
		// The reference puts a relative link x after one of these.
		origin, dirPrefix := refurl.CS50Bases(pageURL)

		links := scan(new(pagescan.Reference), pageURL, page)
		for _, link := range links {
			if x, ok := strings.CutPrefix(link, dirPrefix); ok && !strings.HasPrefix(x, "/") &&
				!strings.Contains(x, "#") && strings.Contains(stripped, x) {
				continue // relative, resolved against the page's directory
			}
			if x, ok := strings.CutPrefix(link, origin); ok && strings.HasPrefix(x, "/") &&
				!strings.Contains(x, "#") && strings.Contains(stripped, x) {
				continue // relative, starting with '/'
			}
			if len(link) >= 4 && strings.EqualFold(link[:4], "http") &&
				!strings.Contains(link, "#") && strings.Contains(stripped, link) {
				continue // absolute, verbatim
			}
			t.Fatalf("Reference.Scan(%q, %q) found %q, which is neither a resolved part of the page nor an http link in it", pageURL, page, link)
		}
		if want := referenceOracle(pageURL, page); !slices.Equal(links, want) {
			t.Fatalf("Reference.Scan(%q, %q) = %q, but the transliterated C finds %q", pageURL, page, links, want)
		}
	})
}

// scheme matches the start of an absolute URL, as RFC 3986 §3.1 defines it.
var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

func FuzzHTML(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		var h pagescan.HTML
		links := scan(&h, pageURL, page)
		for _, link := range links {
			// A link that does not resolve comes as written, and the
			// crawler's normalizer must then reject it.
			if _, ok := browserurl.Normalize(link); ok && (!scheme.MatchString(link) || strings.Contains(link, "#")) {
				t.Fatalf("HTML.Scan(%q, %q) found %q, which is not absolute or has a fragment", pageURL, page, link)
			}
		}
		if again := scan(&h, pageURL, page); !slices.Equal(again, links) {
			t.Fatalf("HTML.Scan(%q, %q) = %q, then %q when the scanner is reused", pageURL, page, links, again)
		}
	})
}

// FuzzHTMLRoundTrip checks that any href, HTML-escaped in an <a> tag,
// comes back as the URL standard reads it: padding trimmed, tabs and
// newlines removed, then resolved, or as written if it does not resolve. A
// NUL cannot round-trip: the tokenizer turns it into U+FFFD. An href that
// is not UTF-8 makes a page that is not, which is read as windows-1252.
func FuzzHTMLRoundTrip(f *testing.F) {
	for _, s := range []string{"A.html", " ../K.html#top\n", "a&amp;b", `x"y'z<>`, "//h/p", "\tq\r\nr", "é%zz", "caf\xe9.html?\xe9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) {
		if strings.ContainsRune(href, 0) {
			return // nothing to check: see above
		}
		page := `<p><a class=x href="` + escape(href) + `">link</a></p>`
		got := scan(new(pagescan.HTML), index, []byte(page))
		var enc encoding.Encoding
		if !utf8.ValidString(href) {
			enc = charmap.Windows1252
			href, _ = enc.NewDecoder().String(href)
		}
		want, ok := browserurl.ResolveEncoded(index, href, enc)
		if !ok {
			want = urlStandardClean(href)
		}
		if !slices.Equal(got, []string{want}) {
			t.Fatalf("HTML.Scan(%q, %q) = %q, want [%q]", index, page, got, want)
		}
	})
}

// escape escapes s for a double-quoted attribute value.
func escape(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}

// urlStandardClean is what the URL standard does to an href: trim leading
// and trailing C0 controls and spaces, remove tabs and newlines. The
// tokenizer has already turned each "\r\n" and "\r" into "\n".
func urlStandardClean(s string) string {
	s = strings.Trim(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"+
		"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
}

// stripSpace returns page without the bytes C's isspace accepts.
func stripSpace(page []byte) []byte {
	out := make([]byte, 0, len(page))
	for _, c := range page {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
		default:
			out = append(out, c)
		}
	}
	return out
}

// referenceOracle is libcs50's webpage_getNextURL (2021), transliterated
// statement by statement into Go so that the real scanner, which is
// written for speed, can be checked against it. Pointers become indexes,
// NULL becomes -1, and the document ends at its last byte instead of at a
// NUL, which is the one deliberate difference (REFERENCE.md §7). Relative
// links are resolved with [refurl.CS50Bases], which has its own tests.
func referenceOracle(pageURL string, page []byte) []string {
	html := stripSpace(page) // removeWhitespace(html)
	// strcasestr, in the "C" locale, folds only A-Z.
	lower := make([]byte, len(html))
	for i, c := range html {
		lower[i] = c
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	find := func(s []byte, from int, sep string) int { // strstr from &s[from]
		if i := bytes.Index(s[from:], []byte(sep)); i >= 0 {
			return from + i
		}
		return -1
	}
	findAny := func(from int, chars string) int { // strpbrk
		if i := bytes.IndexAny(html[from:], chars); i >= 0 {
			return from + i
		}
		return -1
	}
	at := func(i int) byte { // *p, with the terminating NUL
		if i < len(html) {
			return html[i]
		}
		return 0
	}

	var links []string
	pos := 0
	for {
		var lnk, href, end int
		relative, badLink := false, true
		for badLink {
			relative, badLink = false, false
			lnk = find(lower, pos, "<a")
			if lnk < 0 {
				return links
			}
			href = find(lower, lnk, "href=")
			if href < 0 {
				return links
			}
			end = find(html, lnk, ">")
			if end >= 0 && end < href {
				badLink, pos = true, pos+2
				continue
			}
			href += 5
			if c := at(href); c == '\'' || c == '"' {
				href++
				end = find(html, href, string(c))
			} else {
				end = find(html, href, ">")
			}
			if hash := find(html, href, "#"); hash >= 0 && end >= 0 && hash < end {
				end = hash
			}
			if end < 0 {
				badLink, pos = true, pos+2
				continue
			}
			if at(href) == '#' {
				badLink, pos = true, pos+2
				continue
			}
			ptr := findAny(href, ":/?#")
			if ptr < 0 || html[ptr] != ':' {
				relative = true
			} else if len(lower)-href < 4 || string(lower[href:href+4]) != "http" { // strncasecmp
				badLink, pos = true, pos+2
				continue
			}
		}
		pos = end
		link := string(html[href:end])
		if relative {
			root, dir := refurl.CS50Bases(pageURL)
			if strings.HasPrefix(link, "/") {
				link = root + link
			} else {
				link = dir + link
			}
		}
		links = append(links, link)
	}
}

// benchPage is a synthetic page of about 100 KB with many links of every
// kind, and text in between.
var benchPage = func() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><title>Bench</title></head><body>\n")
	for i := 0; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, "<p class=\"para\">Paragraph %d, with some text and a <a href=\"page%d.html\">relative link</a>,\n", i, i)
		fmt.Fprintf(&b, "an <a href='https://en.wikipedia.org/wiki/Item_%d#History'>absolute one</a>, a <a href=\"../up/%d.html\">parent</a>,\n", i, i)
		fmt.Fprintf(&b, "<a name=\"n%d\">an anchor</a> and <a href=\"#n%d\">a fragment</a> &amp; <abbr title=\"x\">abbr</abbr>.</p>\n", i, i)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}()

func benchmarkScanner(b *testing.B, s pagescan.Scanner) {
	b.SetBytes(int64(len(benchPage)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s.Scan(index, benchPage, func(string) { n++ })
	}
	if n == 0 {
		b.Fatal("no links found")
	}
}

func BenchmarkReference(b *testing.B) { benchmarkScanner(b, new(pagescan.Reference)) }

func BenchmarkHTML(b *testing.B) { benchmarkScanner(b, new(pagescan.HTML)) }
