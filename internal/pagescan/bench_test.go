package pagescan_test

import (
	"testing"

	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/testbed/playgroundtest"
)

// playgroundPages are real pages the reference crawls scan: every page of
// wikipedia and toscrape scanned at depth 2, and letters.
var playgroundPages = []string{
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/index.html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Hash_table.html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Dartmouth_College.html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Unix.html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/C_(programming_language).html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Computer_science.html",
	"http://cs50tse.cs.dartmouth.edu/tse/toscrape/index.html",
	"http://cs50tse.cs.dartmouth.edu/tse/toscrape/catalogue/page-2.html",
	"http://cs50tse.cs.dartmouth.edu/tse/letters/index.html",
	"http://cs50tse.cs.dartmouth.edu/tse/letters/A.html",
}

// benchmarkPlayground scans the playground pages over and over, reusing one
// scanner as the crawler does, and reports the throughput in page bytes.
func benchmarkPlayground(b *testing.B, s pagescan.Scanner) {
	site := playgroundtest.Site(b)
	pages := make([][]byte, len(playgroundPages))
	var total int64
	for i, u := range playgroundPages {
		body, err := playgroundtest.Body(site, u)
		if err != nil {
			b.Fatalf("%s: %v", u, err)
		}
		pages[i] = body
		total += int64(len(body))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	links := 0
	for b.Loop() {
		for i, p := range pages {
			s.Scan(playgroundPages[i], p, func(string) { links++ })
		}
	}
	b.ReportMetric(float64(links)/float64(b.N), "links/op")
}

func BenchmarkPlaygroundReference(b *testing.B) { benchmarkPlayground(b, new(pagescan.Reference)) }

func BenchmarkPlaygroundHTML(b *testing.B) { benchmarkPlayground(b, new(pagescan.HTML)) }

// BenchmarkPlaygroundTree is the road not taken: the same pages through
// x/net/html's tree parser and a walk of the tree, as the tests' oracle
// does, for the html scanner's figures to be read against.
func BenchmarkPlaygroundTree(b *testing.B) {
	benchmarkPlayground(b, treeScanner{})
}

// A treeScanner scans with the tests' oracle.
type treeScanner struct{}

func (treeScanner) Scan(pageURL string, page []byte, found func(link string)) {
	links, _ := pagescan.TreeLinks(pageURL, page)
	for _, l := range links {
		found(l)
	}
}
