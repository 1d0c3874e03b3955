package pagescan_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
)

func FuzzRequisites(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	for i, tt := range requisiteTests {
		f.Add(uint8(i), []byte(tt.html))
	}
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		charset := fuzzCharsets[int(which)/len(fuzzPages)%len(fuzzCharsets)]
		got := requisites(pageURL, string(page), charset)
		what := fmt.Sprintf("Requisites(%q, %q, %q)", pageURL, page, charset)
		for _, u := range got {
			checkRequisite(t, what, u)
		}
		if again := requisites(pageURL, string(page), charset); !slices.Equal(again, got) {
			t.Fatalf("%s = %q, then %q", what, got, again)
		}
	})
}

// FuzzRequisitesTree checks Requisites against the walk of x/net/html's
// tree on any page: the two must find the same URLs.
func FuzzRequisitesTree(f *testing.F) {
	for i, tt := range requisiteTests {
		f.Add(uint8(i), []byte(tt.html))
	}
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		want, err := pagescan.TreeRequisites(pageURL, page)
		if err != nil {
			t.Skip() // nested too deep for x/net/html's parser
		}
		got := requisites(pageURL, string(page), "")
		if !slices.Equal(linkSet(got), linkSet(want)) {
			t.Fatalf("Requisites(%q, %q) = %q, but the tree has %q", pageURL, page, got, want)
		}
	})
}

// requisiteVocabulary adds to treeVocabulary the tags that load
// requisites; %d becomes the piece's position.
var requisiteVocabulary = append(slices.Clone(treeVocabulary),
	`<img src="%d">`, `<img srcset="%d 2x, s%d 100w">`, `<image src="%d">`, `<picture>`, `</picture>`,
	`<source srcset="%d">`, `<source src="%d">`, `<video poster="%d">`, `</video>`, `<audio>`, `</audio>`,
	`<track src="%d">`, `<link rel=stylesheet href="%d">`, `<link rel="preload" imagesrcset="%d">`,
	`<script src="%d"></script>`, `<style>a{b:url(%d)}</style>`, `<style>`, `</style>`, `c{d:url(t%d)}`,
	`<p style="x:url(%d)">`, `<image href="%d">`, `<image xlink:href="%d" href="h%d">`, `<use href="u%d.svg#i">`, `<use xlink:href="#%d">`, `<feImage href="%d">`, `<script href="%d">`,
	`<input type=image src="%d">`, `<embed src="%d">`, `<object data="%d">`, `</object>`,
	`<body background="%d">`, `<body style="x:url(%d)">`, `<html style="x:url(%d)">`,
	`<td background="%d">`, `<b style="x:url(%d)"></b>`, `<noscript>`, `<svg style="x:url(%d)">`,
	`<img srcset="a%d 1x, b%d 3x, c%d 2x, d%d 1.5x">`, `<source srcset="a%d 300w, b%d 5000w, c%d 900w">`,
	`<i style="x:image-set('a%d' 1x, 'b%d' 3x, url(c%d) 2x)"></i>`,
)

// FuzzRequisitesTreeTags checks Requisites against the tree walk on pages
// made of the tags that matter, as FuzzHTMLTreeTags does for links.
func FuzzRequisitesTreeTags(f *testing.F) {
	f.Add([]byte{66, 70, 9, 67, 71})
	f.Add([]byte{9, 83, 79, 87, 10, 88})
	f.Add([]byte{27, 70, 99, 28, 78, 6})
	f.Fuzz(func(t *testing.T, pieces []byte) {
		var b strings.Builder
		for i, p := range pieces {
			b.WriteString(strings.ReplaceAll(requisiteVocabulary[int(p)%len(requisiteVocabulary)], "%d", fmt.Sprint(i)))
		}
		page := b.String()
		want, err := pagescan.TreeRequisites(index, []byte(page))
		if err != nil {
			t.Skip() // nested too deep for x/net/html's parser
		}
		got := requisites(index, page, "")
		if !slices.Equal(linkSet(got), linkSet(want)) && !requisiteTreeDiffers(page, got, want) {
			t.Fatalf("Requisites(%q, %q) = %q, but the tree has %q", index, page, got, want)
		}
	})
}

// requisiteTreeDiffers reports whether Requisites and the tree walk may
// disagree on page: where treeDiffers says (an <svg> with attributes
// counting as an <svg>), and where a <body> or an <html> tag adds its
// attributes to an element the walk meets before a <base> that the tag
// comes after, as in "<li><base href=/b/><body background=x>". The walk
// resolves them against the page's URL; a browser, which reads them when
// it computes the body's style, against the base, as Requisites does.
func requisiteTreeDiffers(page string, got, want []string) bool {
	return treeDiffers(strings.ReplaceAll(page, "<svg ", "<svg><"), got, want) ||
		strings.Contains(page, "<base ") && (strings.Contains(page, "<body ") || strings.Contains(page, "<html "))
}
