package pagescan_test

import (
	"bytes"
	"fmt"
	"runtime"
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

// TestReadLinksRoom checks the room Read makes for a page's links: one
// allocation for a page's many links, and for a page of "href" that has
// none, no more than its own size.
func TestReadLinksRoom(t *testing.T) {
	var b strings.Builder
	const links = 2000
	for i := range links {
		fmt.Fprintf(&b, "<a href=\"page%d.html\">a link</a>\n", i)
	}
	tests := []struct {
		name  string
		page  []byte
		links int
		most  float64 // bytes allocated
	}{
		{"a link a line", []byte(b.String()), links, 0},
		{"href without end", bytes.Repeat([]byte("href"), 1<<18), 0, 2 << 20},
	}
	const url = "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r pagescan.Reference
			rd := pagescan.Read(&r, url, tt.page, "", pagescan.What{Links: true})
			if len(rd.Links) != tt.links {
				t.Fatalf("Read found %d links, want %d", len(rd.Links), tt.links)
			}
			if tt.links > 0 && cap(rd.Links) != tt.links {
				t.Errorf("Read made room for %d links, then had %d", cap(rd.Links), tt.links)
			}
			if tt.most == 0 {
				return
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			pagescan.Read(&r, url, tt.page, "", pagescan.What{Links: true})
			runtime.ReadMemStats(&after)
			if n := float64(after.TotalAlloc - before.TotalAlloc); n > tt.most {
				t.Errorf("Read of a page of %d bytes allocated %.0f bytes, want at most %.0f", len(tt.page), n, tt.most)
			}
		})
	}
}
