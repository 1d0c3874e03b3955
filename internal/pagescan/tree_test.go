package pagescan_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/testbed/playgroundtest"
)

// linkSet returns links sorted, without duplicates: the tree walk and the
// scanner may order links differently where the parser moves elements
// (foster parenting), and the walk counts twice an <a> the parser clones.
func linkSet(links []string) []string {
	s := slices.Clone(links)
	slices.Sort(s)
	return slices.Compact(s)
}

// treePages are pages on which FuzzHTMLTreeTags once found HTML and the
// tree walk at odds, each for a rule of the tree construction that HTML
// lacked.
var treePages = []string{
	`<svg></p><title><a href="t.html">`,                                                          // </p> is HTML anywhere
	`</br><a href="1"></a><frameset>`,                                                            // </br> is <br>, which ends frameset-ok
	`<area href="0"><frameset>`,                                                                  // so does <area>
	`<template></template><tr><frameset><iframe src="4">`,                                        // an implied body resets frameset-ok
	`<h1><select><select><svg></h1><iframe src="5">`,                                             // a <select> in a <select> closes it
	`<table><table></table><math></table><a href="5">`,                                           // a <table> in a table closes it
	`<form><mi><form><svg></mi><iframe src="5">`,                                                 // a <form> in a form is ignored
	`<table><td><tr><math></td><a href="16">`,                                                    // a row closes the cell
	`<math><annotation-xml encoding="text/html"><p><table></table><![CDATA[</td><area href="7">`, // quirks: <table> leaves <p> open
	`<!DOCTYPE html><math><annotation-xml encoding="text/html"><p><table></table><![CDATA[</td><area href="7">`,
	`<noscript></body><meta http-equiv="refresh" content="0;url=2"><frameset>`,                   // a <noscript> in the head ignores </body>
	`<noscript><base href="/b1/"></body><meta http-equiv="refresh" content="0;url=3"><frameset>`, // but a <base> closes it
	`<noscript><math></noscript><area href="4">`,                                                 // as a <math> does
	`<desc><math><annotation-xml></desc><a href="4">`,                                            // every annotation-xml is special
	`<template><td><svg></td><script></template><a href="6">`,                                    // a template can hold table parts
	`<template><svg><title><tr><![CDATA[</td></template><a href="7">`,                            // unless it began otherwise
	strings.Repeat("<noscript>", 600) + `<template><a href="x.html">`,                            // in the head, nested <noscript>s are one
}

// TestHTMLAgreesWithTree checks HTML, which follows the tree construction
// beside the tokenizer, against a walk of the tree x/net/html's parser
// builds, on every page of the scanner table and on treePages.
func TestHTMLAgreesWithTree(t *testing.T) {
	t.Parallel()
	pages := slices.Clone(treePages)
	for _, tt := range scannerTests {
		if tt.page == "" {
			pages = append(pages, tt.html)
		}
	}
	for _, page := range pages {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			want, err := pagescan.TreeLinks(index, []byte(page))
			if err != nil {
				t.Fatalf("TreeLinks(%q, %q): %v", index, page, err)
			}
			got := scan(new(pagescan.HTML), index, []byte(page))
			if !slices.Equal(linkSet(got), linkSet(want)) {
				t.Errorf("HTML.Scan(%q, %q) = %q, but the tree has %q", index, page, got, want)
			}
		})
	}
}

// TestHTMLDeepPage checks that a page nested deeper than x/net/html's
// parser accepts, or than HTML tracks, still gives its links, and that
// the elements past the limit do not upset those before it.
func TestHTMLDeepPage(t *testing.T) {
	t.Parallel()
	page := strings.Repeat("<div>", 10_000) + `<a href="deep.html">d</a>` + strings.Repeat("</div>", 10_000) +
		`<svg><title><a href="t.html"></a></title></svg><template><a href="x.html"></a></template><a href="end.html">e</a>`
	if _, err := pagescan.TreeLinks(index, []byte(page)); err == nil {
		t.Log("x/net/html now parses pages this deep")
	}
	want := []string{dir + "deep.html", dir + "t.html", dir + "end.html"}
	if got := scan(new(pagescan.HTML), index, []byte(page)); !slices.Equal(got, want) {
		t.Errorf("HTML.Scan(%q, a page 10,000 elements deep) = %q, want %q", index, got, want)
	}
}

// TestHTMLAgreesWithTreeOnPlayground does the same on real pages, which
// have the sloppy nesting the table lacks.
func TestHTMLAgreesWithTreeOnPlayground(t *testing.T) {
	t.Parallel()
	site := playgroundtest.Site(t)
	var h pagescan.HTML
	for _, u := range playgroundPages {
		body, err := playgroundtest.Body(site, u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		want, err := pagescan.TreeLinks(u, body)
		if err != nil {
			t.Fatalf("TreeLinks(%q): %v", u, err)
		}
		got := scan(&h, u, body)
		if !slices.Equal(got, want) {
			t.Errorf("HTML.Scan(%q) finds %d links, the tree %d; first difference:\n%s", u, len(got), len(want), firstDiff(got, want))
		}
	}
}

// firstDiff describes where two lists of links first differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: scanner %q, tree %q", i, got[i], want[i])
		}
	}
	return "one is a prefix of the other"
}

// FuzzHTMLTree checks HTML against the tree walk on any page: the two must
// find the same links.
func FuzzHTMLTree(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	for i, tt := range scannerTests {
		f.Add(uint8(i), []byte(tt.html))
	}
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		want, err := pagescan.TreeLinks(pageURL, page)
		if err != nil {
			t.Skip() // nested too deep for x/net/html's parser
		}
		got := scan(new(pagescan.HTML), pageURL, page)
		if !slices.Equal(linkSet(got), linkSet(want)) {
			t.Fatalf("HTML.Scan(%q, %q) = %q, but the tree has %q", pageURL, page, got, want)
		}
	})
}

// treeVocabulary are the pieces FuzzHTMLTreeTags builds pages from: the
// tags whose nesting the tree construction cares about. %d becomes the
// piece's position, so that each link is told apart. Formatting elements
// such as <a> and <b> come closed: one left open is reopened (cloned) by
// the parser in the next elements, which HTML does not follow.
var treeVocabulary = []string{
	`<a href="%d"></a>`, `<area href="%d">`, `<base href="/b%d/">`,
	`<iframe src="%d">`, `</iframe>`, `<frame src="%d">`, `<frameset>`, `</frameset>`,
	`<meta http-equiv="refresh" content="0;url=%d">`,
	`<svg>`, `</svg>`, `<math>`, `</math>`, `<title>`, `</title>`, `<desc>`, `</desc>`,
	`<foreignObject>`, `</foreignObject>`, `<mi>`, `</mi>`, `<mtext>`, `</mtext>`,
	`<annotation-xml encoding="text/html">`, `<annotation-xml>`, `</annotation-xml>`,
	`<template>`, `</template>`, `<noscript>`, `</noscript>`, `<script>`, `</script>`,
	`<![CDATA[`, `]]>`, `<!--`, `-->`,
	`<p>`, `</p>`, `<div>`, `</div>`, `<span>`, `</span>`, `<font color=red></font>`, `</br>`,
	`<table>`, `</table>`, `<tr>`, `<td>`, `</td>`, `<li>`, `<select>`, `</select>`, `<form>`, `</form>`,
	`<body>`, `</body>`, `<head>`, `</html>`, "x", " ", `<g>`, `</g>`, `<br>`, `<img>`, `<h1>`, `</h1>`,
}

// FuzzHTMLTreeTags checks HTML against the tree walk on pages made of the
// tags that matter, which the byte-level fuzzer seldom puts together.
func FuzzHTMLTreeTags(f *testing.F) {
	f.Add([]byte{10, 18, 0, 15, 11, 0})
	f.Add([]byte{27, 10, 0, 28, 0})
	f.Add([]byte{43, 39, 10, 66, 44, 14, 0})
	f.Fuzz(func(t *testing.T, pieces []byte) {
		var b strings.Builder
		for i, p := range pieces {
			v := treeVocabulary[int(p)%len(treeVocabulary)]
			if strings.Contains(v, "%d") {
				v = fmt.Sprintf(v, i)
			}
			b.WriteString(v)
		}
		page := b.String()
		want, err := pagescan.TreeLinks(index, []byte(page))
		if err != nil {
			t.Skip() // nested too deep for x/net/html's parser
		}
		got := scan(new(pagescan.HTML), index, []byte(page))
		if !slices.Equal(linkSet(got), linkSet(want)) && !treeDiffers(page, got, want) {
			t.Fatalf("HTML.Scan(%q, %q) = %q, but the tree has %q", index, page, got, want)
		}
	})
}

// treeDiffers reports whether HTML and the tree walk may disagree on page
// because the tree holds what HTML does not follow on purpose, or because
// x/net/html's parser departs from the standard:
//   - the parser reopens (clones) an <a> left open, reconstructing the
//     active formatting elements, even outside the template or the body
//     that held it (try "<template><tr><a href=x><td></template><br>" or
//     "<a href=x><frameset></frameset></html> "); HTML reports link tags,
//     not clones, so the tree may have more links, each an <a>'s;
//   - x/net/html stops parsing at a <template> inside SVG or MathML, a
//     guard against mutation XSS that the standard lacks, so the tree
//     misses what follows;
//   - x/net/html takes an SVG or MathML <tr> or <frameset> for HTML's
//     when it leaves a table (try
//     "<math><frameset><mi><table></table><a href=x>"), and parses what
//     follows in the wrong mode;
//   - foster parenting puts a <base> or a <meta> found in a table before
//     the table, so the walk, which goes in tree order, may find a
//     different first base or refresh than a browser, which runs them as
//     it inserts them, in source order, as HTML does.
func treeDiffers(page string, got, want []string) bool {
	clone := func(l string) bool {
		for _, m := range anchor.FindAllStringSubmatch(page, -1) {
			if strings.HasSuffix(l, "/"+m[1]) {
				return true
			}
		}
		return false
	}
	clones := true
	for _, l := range want {
		if !slices.Contains(got, l) && !clone(l) {
			clones = false
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) {
			clones = false
		}
	}
	foreign := min(uint(strings.Index(page, "<svg>")), uint(strings.Index(page, "<math>")))
	switch {
	case clones:
		return true
	case strings.Contains(page, "<template>") && uint(strings.LastIndex(page, "<template>")) > foreign,
		pagescan.ForeignLookalike([]byte(page)):
		return true
	case strings.Contains(page, "<table>") &&
		(strings.Contains(page, "<base ") || strings.Contains(page, "<meta ")):
		return true
	}
	return false
}

// anchor matches the <a> tags of treeVocabulary.
var anchor = regexp.MustCompile(`<a href="(\d+)">`)
