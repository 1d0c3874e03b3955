package pagescan_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tse-crawler/internal/pagescan"
)

// refs returns what Refs finds in page, at index: the refs, and the ids.
func refs(h *pagescan.HTML, page, charset string) ([]pagescan.Ref, []string) {
	var got []pagescan.Ref
	var ids []string
	h.Refs(index, []byte(page), charset, func(r pagescan.Ref) { got = append(got, r) }, func(id string) { ids = append(ids, id) })
	return got, ids
}

// link and req make the Ref of a link and of a requisite, in dir, at a
// line and column.
func link(name string, line, col int) pagescan.Ref {
	u, frag, _ := strings.Cut(name, "#")
	return pagescan.Ref{URL: dir + u, Fragment: frag, Line: line, Column: col}
}

func req(name string, line, col int) pagescan.Ref {
	r := link(name, line, col)
	r.Requisite = true
	return r
}

// frame is a frame's document, at line and col, as a requisite.
func frame(name string, line, col int) pagescan.Ref {
	r := req(name, line, col)
	r.Frame = true
	return r
}

// unloaded makes r a Ref no browser loads, which a check checks.
func unloaded(r pagescan.Ref) pagescan.Ref {
	r.Unloaded = true
	return r
}

// TestRefs checks where Refs places each link and requisite: at the '<'
// of its tag, lines ending at LF, CR LF and a lone CR, columns counting
// characters; in an HTML <style>, at its url( or string. It finds every
// candidate of an srcset and an image-set(), and the href of a <link>
// whose rel loads nothing, a link, each Unloaded.
func TestRefs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, html string
		want       []pagescan.Ref
	}{
		{"lines and columns", "<p>a\r\nb <a href=a.html>a</a>\n\n  <a href=b.html>b</a>\rc<a href=c.html>", []pagescan.Ref{
			link("a.html", 2, 3), link("b.html", 4, 3), link("c.html", 5, 2),
		}},
		{"characters, not bytes", "<p>héllo, wörld € 表 <a href=a.html>\r\n<p>ü <a href=b.html>", []pagescan.Ref{
			link("a.html", 1, 21), link("b.html", 2, 6),
		}},
		{"a tag over several lines is where it starts", "\n <img\n  src=i.png\n>", []pagescan.Ref{
			req("i.png", 2, 2),
		}},
		{"fragments as written", `<a href="b.html#Sec%20one">x</a> <a href="#top">y</a> <a href=" c.html#é x ">z</a><a href="d.html#">`, []pagescan.Ref{
			link("b.html#Sec%20one", 1, 1), {URL: index, Fragment: "top", Line: 1, Column: 34},
			link("c.html#é x", 1, 55), link("d.html", 1, 83),
		}},
		{"links, then requisites", "<link rel=stylesheet href=s.css#x>\n<a href=a.html>a</a>\n<img src=i.png srcset='j.png 2x, k.png#f 1x'>", []pagescan.Ref{
			link("a.html", 2, 1), req("s.css#x", 1, 1), req("i.png", 3, 1), req("j.png", 3, 1), req("k.png#f", 3, 1),
		}},
		{"an iframe and a refresh", "<meta http-equiv=refresh content='0; url=r.html#r'>\n<iframe src=f.html#x></iframe>", []pagescan.Ref{
			link("r.html#r", 1, 1), link("f.html#x", 2, 1), frame("f.html#x", 2, 1),
		}},
		{"a style element's URLs, each where it is", "<style>\r\n@import 'i.css';\r\r\n\fb { background: url(b.png#b) }\n p{x:\\75rl(\"u.png\")}</style>\n<p style='x:url(p.png)'>", []pagescan.Ref{
			req("i.css", 2, 9), req("b.png#b", 4, 18), req("u.png", 5, 6), req("p.png", 6, 1),
		}},
		{"a NUL in a style element is one character", "<style>\x00a{b:url(x\x00.png)}</style>", []pagescan.Ref{
			{URL: dir + "x%EF%BF%BD.png", Requisite: true, Line: 1, Column: 13},
		}},
		{"an svg style's URLs are at its tag, before its image's", "<svg>\n<style>a{b:url(s.png)}\n<image href=i.png />\n</style></svg>", []pagescan.Ref{
			req("i.png", 3, 1), req("s.png", 2, 1),
		}},
		{"every candidate", "<img srcset='a.png 1x, b.png 1.5x, c.png 2x, d.png 3x'>\n<p style=\"b: image-set('e.png' 1x, 'f.png' 3x, 'g.png' 2x)\">", []pagescan.Ref{
			req("a.png", 1, 1), unloaded(req("b.png", 1, 1)), req("c.png", 1, 1), unloaded(req("d.png", 1, 1)),
			req("e.png", 2, 1), unloaded(req("f.png", 2, 1)), req("g.png", 2, 1),
		}},
		{"a link of any rel", "<link rel=canonical href=c.html#x>\n<link rev=made href=m.html><link rel=alternate type=application/rss+xml href=f.xml>" +
			"<link rel='alternate stylesheet' href=s.css><link rel=license href=mailto:x@y><a href=a.html>", []pagescan.Ref{
			link("a.html", 2, 162), unloaded(link("c.html#x", 1, 1)), unloaded(link("m.html", 2, 1)), unloaded(link("f.xml", 2, 28)), req("s.css", 2, 84),
		}},
		{"a frameset page", "<html><head><link rel=icon href=f.ico></head>\r\n<frameset><frame src=a.html#a>\r\n<frame src=b.html></frameset>", []pagescan.Ref{
			link("a.html#a", 2, 11), link("b.html", 3, 1), req("f.ico", 1, 13), frame("a.html#a", 2, 11), frame("b.html", 3, 1),
		}},
	}
	var h pagescan.HTML
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := refs(&h, tt.html, ""); !slices.Equal(got, tt.want) {
				t.Errorf("Refs(%q):\n got %+v\nwant %+v", tt.html, got, tt.want)
			}
		})
	}
}

// TestRefsIDs checks which fragments Refs finds a page can be the target
// of: ids of the elements in the document, and names of HTML <a>s.
func TestRefsIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, html string
		want       []string
	}{
		{"ids on all kinds of elements", `<html id=h><head id=hd><title id=t>x</title></head><body id=b><p id="a b">x<img id=i><table id=tb><tr id=tr><td id=td>`, []string{"h", "hd", "t", "b", "a b", "i", "tb", "tr", "td"}},
		{"an <a>'s name, not another's", `<a name=top>x</a><a id=i name=n href=x.html></a><img name=no><form name=no2>`, []string{"top", "i", "n"}},
		{"an empty id or name is none", `<p id=""><a name="">`, nil},
		{"svg and mathml", `<svg id=s><a id=sa name=no /><circle id=c /></svg><math id=m><mi id=mi>x</mi></math>`, []string{"s", "sa", "c", "m", "mi"}},
		{"a template's id, not its contents'", `<template id=tp><p id=no><a name=no2></a><svg id=no3></svg></template><p id=yes>`, []string{"tp", "yes"}},
		{"not in comments, scripts or raw text", `<!-- <p id=no> --><script>"<p id=no2>"</script><textarea><p id=no3></textarea><p id=yes>`, []string{"yes"}},
		{"a later <html> or <body> adds an id only where none is", `<body id=b><p>x<body id=no><html id=h><html id=no2>`, []string{"h", "b"}},
		{"tags the parser ignores", `<head id=h><head id=no></head><frame id=no2><td id=no3><p id=p><form id=f><form id=no4>`, []string{"h", "p", "f"}},
		{"a form in a table is an element", `<table><form id=f></form><tr><td>x</td></tr></table>`, []string{"f"}},
		{"a frameset drops the body it replaces", `<html id=h><head id=hd></head><div id=no><frameset id=fs><frame id=f1><frame id=f2></frameset><noframes id=nf></noframes>`, []string{"h", "hd", "fs", "f1", "f2", "nf"}},
		{"a frameset after a body with text does not", `<p id=p>x</p><frameset id=no><frame id=no2>`, []string{"p"}},
	}
	var h pagescan.HTML
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := refs(&h, tt.html, ""); !slices.Equal(got, tt.want) {
				t.Errorf("Refs(%q) ids = %q, want %q", tt.html, got, tt.want)
			}
		})
	}
}

// TestCSSRefs checks CSSRefs: the URLs StyleRequisites finds, each at its
// url( or string.
func TestCSSRefs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sheet string
		want        []pagescan.Ref
	}{
		{"@import and url() on lines of their own",
			"@import 'a.css';\n@import url(\"b.css#m\") screen;\r\n\r\nbody {\n  background: URL( c.png ) , url(#no);\r  mask: image-set('d.png' 1x)\n}",
			[]pagescan.Ref{
				{URL: sheetDir + "a.css", Requisite: true, Line: 1, Column: 9},
				{URL: sheetDir + "b.css", Fragment: "m", Requisite: true, Line: 2, Column: 9},
				{URL: sheetDir + "c.png", Requisite: true, Line: 5, Column: 15},
				{URL: sheetDir + "d.png", Requisite: true, Line: 6, Column: 19},
			}},
		{"every image-set() candidate", "a{b:image-set('a.png' 1x, 'b.png' 1.5x, 'c.png' 2x, 'd.png' 3x)}", []pagescan.Ref{
			{URL: sheetDir + "a.png", Requisite: true, Line: 1, Column: 15},
			{URL: sheetDir + "b.png", Requisite: true, Unloaded: true, Line: 1, Column: 27},
			{URL: sheetDir + "c.png", Requisite: true, Line: 1, Column: 41},
			{URL: sheetDir + "d.png", Requisite: true, Unloaded: true, Line: 1, Column: 53},
		}},
		{"a comment, an FF and a byte order mark", "\ufeff/* é\f */a{b:url(x.svg#y)}", []pagescan.Ref{
			{URL: sheetDir + "x.svg", Fragment: "y", Requisite: true, Line: 1, Column: 13},
		}},
		{"characters in the sheet's encoding", "@charset \"windows-1252\";\na{content:'\xe9\xe9'; b:url(x.png)}", []pagescan.Ref{
			{URL: sheetDir + "x.png", Requisite: true, Line: 2, Column: 19},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []pagescan.Ref
			pagescan.CSSRefs(sheetURL, []byte(tt.sheet), "", func(r pagescan.Ref) { got = append(got, r) })
			if !slices.Equal(got, tt.want) {
				t.Errorf("CSSRefs(%q):\n got %+v\nwant %+v", tt.sheet, got, tt.want)
			}
		})
	}
}

// FuzzRefs checks that Refs reports the URLs Read does, in the
// same order, links then requisites, each at a line and a column of the
// page; where the page is its own text (ASCII in an encoding that keeps
// it), at a '<', or at the start of a url( or a string in CSS.
func FuzzRefs(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	for i, tt := range requisiteTests {
		f.Add(uint8(i), []byte(tt.html))
	}
	f.Add(uint8(0), []byte("<style>\r\n@import 'i.css';\r\r\n\fb { background: url(b.png#b) }\x00\n p{x:\\75rl(\"u.png\")}</style>\n<p style='x:url(p.png)'>"))
	f.Add(uint8(0), []byte("<svg>\n<style>a{b:url(s.png)}\n<image href=i.png />\n</style></svg><p id=x><a name=y>"))
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		charset := fuzzCharsets[int(which)/len(fuzzPages)%len(fuzzCharsets)]
		rd := new(pagescan.HTML).Read(pageURL, page, charset, pagescan.What{Links: true, Requisites: true})
		want := slices.Concat(rd.Links, rd.Requisites)
		var got []pagescan.Ref
		new(pagescan.HTML).Refs(pageURL, page, charset, func(r pagescan.Ref) { got = append(got, r) }, func(string) {})
		what := fmt.Sprintf("Refs(%q, %q, %q)", pageURL, page, charset)
		var urls []string
		for _, r := range got {
			if !r.Unloaded { // the check's alone
				urls = append(urls, r.URL)
			}
		}
		if !slices.Equal(urls, want) {
			t.Fatalf("%s = %q, but Read finds %q", what, urls, want)
		}
		ownText := charset != "utf-16le" && !slices.ContainsFunc(page, func(c byte) bool { return c >= 0x80 || c == 0x1b })
		for _, r := range got {
			if r.Line < 1 || r.Column < 1 {
				t.Fatalf("%s: %+v is at no place", what, r)
			}
			if !ownText {
				continue
			}
			if i := offset(page, r.Line, r.Column); i >= len(page) || !strings.ContainsRune(`<uU\"'`, rune(page[i])) {
				t.Fatalf("%s: %+v is at offset %d, not at a '<', a url( or a string", what, r, i)
			}
		}
	})
}

// offset returns the offset in text of a line and a column, as Refs counts
// them, or len(text) if text has no such place.
func offset(text []byte, line, column int) int {
	for i := 0; i <= len(text); {
		if line == 1 {
			for ; column > 1 && i < len(text) && text[i] != '\n' && text[i] != '\r'; column-- {
				_, size := utf8.DecodeRune(text[i:])
				i += size
			}
			if column > 1 {
				return len(text)
			}
			return i
		}
		j := i
		for j < len(text) && text[j] != '\n' && text[j] != '\r' {
			j++
		}
		if j == len(text) {
			return len(text)
		}
		if text[j] == '\r' && j+1 < len(text) && text[j+1] == '\n' {
			j++
		}
		i, line = j+1, line-1
	}
	return len(text)
}
