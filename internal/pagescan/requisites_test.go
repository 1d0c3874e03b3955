package pagescan_test

import (
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/testbed/playgroundtest"
)

// requisites returns what Requisites finds in page, at pageURL, whose
// Content-Type names charset.
func requisites(pageURL, page, charset string) []string {
	var urls []string
	pagescan.Requisites(pageURL, []byte(page), charset, func(u string) { urls = append(urls, u) })
	return urls
}

// inDir returns the names, resolved against dir.
func inDir(names ...string) []string {
	var urls []string
	for _, n := range names {
		urls = append(urls, dir+n)
	}
	return urls
}

// requisiteTests are pages and what they load, in order, at index.
var requisiteTests = []struct {
	name, html string
	want       []string
}{
	// <link>
	{"stylesheet", `<link rel=stylesheet href=s.css>`, inDir("s.css")},
	{"rel in any case, among other words", "<link rel=\"Shortcut\tICON\" href=f.ico><link rel='\nStyleSheet ' href=s.css>", inDir("f.ico", "s.css")},
	{"alternate stylesheet", `<link rel="alternate stylesheet" title=big href=big.css>`, inDir("big.css")},
	{"icons and a manifest", `<link rel=apple-touch-icon href=a.png><link rel=apple-touch-icon-precomposed href=p.png><link rel=manifest href=m.json>`, inDir("a.png", "p.png", "m.json")},
	{"preloads", `<link rel=preload as=font href=f.woff2 crossorigin><link rel=modulepreload href=m.js><link rel=preload as=image imagesrcset="i1.png 1x, i2.png 2x">`, inDir("f.woff2", "m.js", "i1.png", "i2.png")},
	{"links that load nothing to render", `<link rel=prefetch href=n1.html><link rel=next href=n2.html><link rel=canonical href=n3.html><link rel=alternate href=n4.xml><link rel=dns-prefetch href=//n5><link rel=stylesheet><link rel=stylesheet href="">`, nil},
	{"a stylesheet's fragment goes", `<link rel=stylesheet href="s.css#top">`, inDir("s.css")},
	// <script>
	{"scripts", `<script src=a.js></script><script>document.write('<img src=no.png>')</script><script type=module src=m.js></script><script src="">x</script>`, inDir("a.js", "m.js")},
	// images
	{"img src then srcset", `<img src=a.png srcset="b.png 2x, c.png 1x" sizes="50vw">`, inDir("a.png", "b.png", "c.png")},
	{"img srcset then src, attribute order", `<img srcset="b.png 100w" src=a.png>`, inDir("b.png", "a.png")},
	{"<image> is <img>", `<image src=i.png>`, inDir("i.png")},
	{"picture", `<picture><source srcset="p.avif" type=image/avif><source srcset="p.webp 1x, p2.webp 2x" media="(min-width: 40em)"><img src=p.jpg></picture>`, inDir("p.avif", "p.webp", "p2.webp", "p.jpg")},
	{"a source's srcset counts in a picture only", `<source srcset=no1.png><div><source srcset=no2.png></div><video><source srcset=no3.png></video><picture><source src=no4.png></picture>`, nil},
	{"an srcset candidate whose descriptors do not parse", `<img srcset="a.png 1x 2x, b.png 2q, c.png 10w">`, inDir("c.png")},
	// media and embedded content
	{"video", `<video poster=v.jpg src=v.mp4><source src=v.webm type=video/webm><track kind=captions src=v.vtt></video>`, inDir("v.jpg", "v.mp4", "v.webm", "v.vtt")},
	{"audio", `<audio src=a.mp3><source src=a.ogg></audio>`, inDir("a.mp3", "a.ogg")},
	{"a source or a track outside media", `<source src=no.mp4><track src=no.vtt><div><track src=no2.vtt></div>`, nil},
	{"input type=image", `<input type=IMAGE src=go.png><input src=no.png><input type=text src=no2.png>`, inDir("go.png")},
	{"embed and object", `<embed src=e.swf><object data=o.svg type=image/svg+xml><embed src=fallback.swf></object>`, inDir("e.swf", "o.svg", "fallback.swf")},
	{"pages are not requisites, but a frame's is", `<iframe src=i.html></iframe><a href=a.html>a</a><area href=b.html><meta http-equiv=refresh content="0; url=r.html"><form action=f.cgi>`, inDir("i.html")},
	{"an iframe with a srcdoc, or an empty src, shows no file", `<iframe srcdoc="<p>" src=no.html></iframe><iframe src=""></iframe><iframe src=i.html>`, inDir("i.html")},
	{"frames", `<frameset><frame src=f.html><frame src=g.html></frameset>`, inDir("f.html", "g.html")},
	{"backgrounds", `<body background=b.png><table background=t.png><tr background=r.png><td background=d.png>x</table>`, inDir("b.png", "t.png", "r.png", "d.png")},
	{"a cell outside a table is no cell", `<td background=no.png>x`, nil},
	{"what a table cannot hold goes before it", `<video><table><source src=s.webm><tr><td><source src=no.webm>`, inDir("s.webm")},
	{"a form in a table closes at once", `<table><video poster=p.jpg><form><source src=s.webm>`, inDir("p.jpg", "s.webm")},
	// SVG
	{"svg image", `<svg><image href=h.png /><image xlink:href=x.png /><image xlink:href=no.png href=h2.png /></svg>`, inDir("h.png", "x.png", "h2.png")},
	{"svg use and feImage, but not a place in the page", `<svg><use href="sprite.svg#icon" /><use href="#here" /><use xlink:href=" #there" /><filter><feImage href=f.png /></filter><use xlink:href=u.svg#x /></svg>`, inDir("sprite.svg", "f.png", "u.svg")},
	{"svg script", `<svg><script href=s.js></script><script xlink:href=x.js>var a = 1</script></svg>`, inDir("s.js", "x.js")},
	{"svg script holds markup", `<svg><script>"<img src=i.png>"</script></svg>`, inDir("i.png")},
	{"an <img> in svg is HTML's, and ends the svg", `<svg><img src=i.png><image href=no.png src=html.png></svg>`, inDir("i.png", "html.png")},
	{"mathml has no image", `<math><image href=no.png /></math><math><mi><img src=i.png></mi></math>`, inDir("i.png")},
	// CSS in the page
	{"style attribute", `<div style="background: url(a.png) no-repeat, url('b.png'); mask: url(&quot;c.svg&quot;)">`, inDir("a.png", "b.png", "c.svg")},
	{"style attribute in any case, among other esses", `<P STYLE="x:url(u1.png)"><b class=sS sTyLe="x:url(u2.png)"><i title="Styles" data-x=S Style='x:url(u3.png)'></i><span title=style>s</span><u styl=x:url(no.png) s`, inDir("u1.png", "u2.png", "u3.png")},
	{"style attribute after the element's own URLs", `<img style="background:url(bg.png)" src=i.png>`, inDir("bg.png", "i.png")},
	{"style attribute: no at-rule", `<p style="@import 'no.css'; background: url(yes.png)">`, inDir("yes.png")},
	{"style attribute on svg", `<svg style="background:url(s.png)"><rect style="fill:url(#grad);filter:url(f.svg#blur)"/></svg>`, inDir("s.png", "f.svg")},
	{"style element", `<style>@import "i.css"; body { background: url(b.png) } /* url(no.png) */</style>`, inDir("i.css", "b.png")},
	{"svg style element, comments and all", `<svg><style>a { fill: url(<!-- x -->f.svg) }<![CDATA[ b { background: url(c.png) } ]]></style></svg>`, inDir("f.svg", "c.png")},
	{"style element left open", `<style>a{background:url(a.png)}`, inDir("a.png")},
	{"<html> and <body> keep their first style", `<html style="background:url(h.png)"><body style="background:url(b.png)"><p>x<body style="background:url(no.png)" background=b2.png><html style="x:url(no2.png)">`, inDir("h.png", "b.png", "b2.png")},
	// What is not in the document
	{"comments, scripts, textareas and titles", `<!-- <img src=no1.png> --><title><img src=no2.png></title><textarea><img src=no3.png></textarea><script><img src=no4.png></script><noembed><img src=no5.png></noembed>`, nil},
	{"templates", `<template><img src=no.png><style>a{b:url(no2.png)}</style><link rel=stylesheet href=no3.css></template><img src=yes.png>`, inDir("yes.png")},
	{"noscript is markup, scripting being off", `<head><noscript><link rel=stylesheet href=n.css><style>a{b:url(n.png)}</style></noscript></head><noscript><img src=n2.png></noscript>`, inDir("n.css", "n.png", "n2.png")},
	{"a frameset drops the body it replaces", `<link rel=stylesheet href=s.css><p style="x:url(no.png)"><link rel=stylesheet href=no.css><frameset><frame src=f.html></frameset>`, inDir("s.css", "f.html")},
	{"but not a body that holds an image", `<img src=i.png><frameset><frame src=f.html></frameset>`, inDir("i.png")},
	// URLs
	{"schemes that are not http", `<img src="data:image/png;base64,AAAA"><img src="javascript:x"><img src="mailto:a@b"><img src="ftp://h/x.png"><img src="https://h/ok.png"><img src=//h2/ok2.png>`, []string{"https://h/ok.png", "http://h2/ok2.png"}},
	{"empty, blank and bad URLs", "<img src=\"\"><img src=\" \t\"><img src=\"http://[::1/\"><img src=\"http://h:99999/\">", nil},
	{"references and spaces", "<img src=\" a.png?x=1&amp;y=2\n\"><img src='b&#46;png#f'>", inDir("a.png?x=1&y=2", "b.png")},
	{"the same URL twice", `<img src=a.png><img src=a.png>`, inDir("a.png", "a.png")},
	{"a base before", `<base href="/b/"><img src=i.png><style>a{b:url(c.png)}</style><p style="x:url(s.png)">`, []string{site + "/b/i.png", site + "/b/c.png", site + "/b/s.png"}},
	{"a base after", `<img src=i.png><base href="/b/"><img src=j.png>`, []string{dir + "i.png", site + "/b/j.png"}},
	{"the first base counts, not one in a template", `<template><base href="/t/"></template><base href="/b/"><base href="/c/"><img src=i.png>`, []string{site + "/b/i.png"}},
}

func TestRequisites(t *testing.T) {
	t.Parallel()
	for _, tt := range requisiteTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := requisites(index, tt.html, ""); !slices.Equal(got, tt.want) {
				t.Errorf("Requisites(%q, %q) = %q, want %q", index, tt.html, got, tt.want)
			}
		})
	}
}

// TestRequisitesAgreeWithTree checks Requisites, which follows the tree
// construction beside the tokenizer, against a walk of the tree
// x/net/html's parser builds, on every page of the table.
func TestRequisitesAgreeWithTree(t *testing.T) {
	t.Parallel()
	for _, tt := range requisiteTests {
		want, err := pagescan.TreeRequisites(index, []byte(tt.html))
		if err != nil {
			t.Fatalf("TreeRequisites(%q, %q): %v", index, tt.html, err)
		}
		if got := requisites(index, tt.html, ""); !slices.Equal(linkSet(got), linkSet(want)) {
			t.Errorf("Requisites(%q, %q) = %q, but the tree has %q", index, tt.html, got, want)
		}
	}
}

// TestRequisitesCharset checks that a page's encoding decides how it is
// read and how its URLs' queries are written, in attributes, srcsets and
// CSS alike: in windows-1252, é is 0xE9; in Shift_JIS, 表 is 0x95 0x5C.
func TestRequisitesCharset(t *testing.T) {
	t.Parallel()
	const page = "<img src=\"caf\xe9.png?x=\xe9\" srcset=\"s.png?\xe9 2x\"><p style=\"background:url(p.png?\xe9)\">" +
		"<style>a{b:url(\"st.png?\xe9\")}</style>"
	latin := inDir("caf%C3%A9.png?x=%E9", "s.png?%E9", "p.png?%E9", "st.png?%E9")
	tests := []struct {
		name, charset, html string
		want                []string
	}{
		{"windows-1252, declared nowhere", "", page, latin},
		{"windows-1252 by <meta>", "", "<meta charset=windows-1252>" + page, latin},
		{"windows-1252 by the Content-Type", "windows-1252", page, latin},
		{"UTF-8", "", "<img src=\"caf\u00e9.png?x=\u00e9\">", inDir("caf%C3%A9.png?x=%C3%A9")},
		{"UTF-16 writes queries in UTF-8", "", utf16LE(t, "<img src=\"caf\u00e9.png?x=\u00e9\">"), inDir("caf%C3%A9.png?x=%C3%A9")},
		{"Shift_JIS by the Content-Type", "shift_jis", "<base href=\"/b/?\x95\x5c\"><img src=\"i.png?\x95\x5c\"><p style=\"x:url(?\x95\x5c)\">",
			[]string{site + "/b/i.png?%95\\", site + "/b/?%95\\"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := requisites(index, tt.html, tt.charset); !slices.Equal(got, tt.want) {
				t.Errorf("Requisites(%q, %q, %q) = %q, want %q", index, tt.html, tt.charset, got, tt.want)
			}
		})
	}
}

// TestSrcset checks the parsing of srcset against the HTML Standard's
// algorithm, with cases from its examples and from the web platform
// tests' parse-a-srcset-attribute: whitespace is ASCII's, a URL may hold
// commas but not end with one, and a candidate whose descriptors break
// the rules is dropped.
func TestSrcset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		srcset string
		want   []string
	}{
		{"", nil},
		{",", nil},
		{",,,", nil},
		{" \t\n\f\r", nil},
		{"\t\tdata:,a\t\t1x\t\t", []string{"data:,a"}},
		{"\n\ndata:,a\n\n1x\n\n", []string{"data:,a"}},
		{"\f\fdata:,a\f\f1x\f\f", []string{"data:,a"}},
		{"\v\vdata:,a\v\v1x\v\v", []string{"\v\vdata:,a\v\v1x\v\v"}}, // VT is no ASCII whitespace
		{"data:,a", []string{"data:,a"}},
		{"data:,a ", []string{"data:,a"}},
		{"data:,a ,", []string{"data:,a"}},
		{"data:,a,", []string{"data:,a"}},
		{"data:,a, ", []string{"data:,a"}},
		{"data:,a,,,", []string{"data:,a"}},
		{" data:,a", []string{"data:,a"}},
		{",,,data:,a", []string{"data:,a"}},
		{" , ,,data:,a", []string{"data:,a"}},
		{"a.png,b.png", []string{"a.png,b.png"}},
		{"a.png 1x,b.png 2x", []string{"a.png", "b.png"}},
		{"a.png , b.png", []string{"a.png", "b.png"}},
		{"/uploads/150-marie-lloyd.jpg 1.5x, /uploads/200-marie-lloyd.jpg 2x", []string{"/uploads/150-marie-lloyd.jpg", "/uploads/200-marie-lloyd.jpg"}},
		{"images/sunset-small.jpg 400w, images/sunset-large.jpg 1200w", []string{"images/sunset-small.jpg", "images/sunset-large.jpg"}},
		// Densities.
		{"a 1x", []string{"a"}},
		{"a 0x", []string{"a"}},
		{"a -0x", []string{"a"}},
		{"a .5x", []string{"a"}},
		{"a 1e1x", []string{"a"}},
		{"a 1E+1x", []string{"a"}},
		{"a 1.0e-1x", []string{"a"}},
		{"a -1x", nil},
		{"a +1x", nil},
		{"a 1.x", nil},
		{"a 1X", nil},
		{"a 1e400x", nil},
		{"a x", nil},
		{"a 1ex", nil},
		{"a 1x 1x", nil},
		{"a 1x 2x, b 2x", []string{"b"}},
		// Widths and heights.
		{"a 1w", []string{"a"}},
		{"a 01w", []string{"a"}},
		{"a 0w", nil},
		{"a 1.0w", nil},
		{"a +1w", nil},
		{"a -1w", nil},
		{"a 1e1w", nil},
		{"a 1W", nil},
		{"a 1w 1w", nil},
		{"a 1w 1x", nil},
		{"a 1x 1w", nil},
		{"a 100w 50h", []string{"a"}},
		{"a 50h 100w", []string{"a"}},
		{"a 50h", nil},
		{"a 1x 50h", nil},
		{"a 50h 1x", nil},
		{"a 100w 0h", nil},
		{"a foo", nil},
		// Parentheses hold commas and spaces, and do not make descriptors.
		{"a (1x), b 2x", []string{"b"}},
		{"a 1x (x, y), b", []string{"b"}},
		{"a foo(bar, baz) 1x", nil},
		{"a (", nil},
		{"a 1x(", nil},
		{"a 1x,", []string{"a"}},
		{"a 1x , b 2x", []string{"a", "b"}},
	}
	for _, tt := range tests {
		if got := pagescan.SrcsetURLs(tt.srcset); !slices.Equal(got, tt.want) {
			t.Errorf("srcset %q: candidates %q, want %q", tt.srcset, got, tt.want)
		}
	}
}

// TestRequisitesDeep checks a page nested deeper than x/net/html's parser
// accepts.
func TestRequisitesDeep(t *testing.T) {
	t.Parallel()
	if got := requisites(index, strings.Repeat("<div>", 600)+"<img src=deep.png>", ""); !slices.Equal(got, inDir("deep.png")) {
		t.Errorf("a page 600 elements deep: Requisites = %q, want %q", got, inDir("deep.png"))
	}
}

// TestRequisitesAgreeWithTreeOnPlayground does the same on real pages:
// Wikipedia's load stylesheets, scripts, icons and images.
func TestRequisitesAgreeWithTreeOnPlayground(t *testing.T) {
	t.Parallel()
	site := playgroundtest.Site(t)
	for _, u := range playgroundPages {
		body, err := playgroundtest.Body(site, u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		want, err := pagescan.TreeRequisites(u, body)
		if err != nil {
			t.Fatalf("TreeRequisites(%q): %v", u, err)
		}
		if got := requisites(u, string(body), ""); !slices.Equal(got, want) {
			t.Errorf("Requisites(%q) finds %d, the tree %d; first difference:\n%s", u, len(got), len(want), firstDiff(got, want))
		}
	}
}
