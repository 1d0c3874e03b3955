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
