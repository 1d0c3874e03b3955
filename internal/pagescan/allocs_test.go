package pagescan_test

import (
	"fmt"
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
)

// TestReferenceAllocs guards the reference scanner's speed without timing
// it: once its buffer has grown, a page costs one allocation per link (the
// link's own string) and a few for the page (its base URLs), whatever the
// page's size.
func TestReferenceAllocs(t *testing.T) {
	var b strings.Builder
	const links = 200
	for i := range links {
		fmt.Fprintf(&b, "<p>Some text <a href=\"page%d.html\">a link</a> and <A HREF='http://x.edu/%d.html'>another</A>.</p>\n", i, i)
	}
	page := []byte(b.String())
	var r pagescan.Reference
	found := 0
	r.Scan("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", page, func(string) { found++ })
	if found != 2*links {
		t.Fatalf("found %d links, want %d", found, 2*links)
	}
	allocs := testing.AllocsPerRun(20, func() {
		r.Scan("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", page, func(string) {})
	})
	if max := float64(2*links + 8); allocs > max {
		t.Errorf("Scan allocated %.0f times for %d links, want at most %.0f", allocs, 2*links, max)
	}
}

// TestHTMLAllocs guards the html scanner's tree model: a tag without
// attributes, a custom element seen before and an end tag cost no
// allocation, so a page costs the tokenizer's few and one or two per
// attribute, whatever its nesting.
func TestHTMLAllocs(t *testing.T) {
	var b strings.Builder
	const tags = 500
	for range tags {
		b.WriteString("<div><p>Some <b>text</b>, <my-widget>custom</my-widget><svg><g></g></svg></p></div>\n")
	}
	page := []byte(b.String())
	var h pagescan.HTML
	h.Scan("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", page, func(string) {})
	allocs := testing.AllocsPerRun(20, func() {
		h.Scan("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", page, func(string) {})
	})
	if max := 10.0; allocs > max {
		t.Errorf("Scan allocated %.0f times for %d tags without attributes, want at most %.0f", allocs, 9*tags, max)
	}
}
