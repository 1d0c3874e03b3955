package pagescan_test

import (
	"slices"
	"testing"

	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/testbed/playgroundtest"
)

var (
	_ pagescan.RequisiteScanner = new(pagescan.HTML)
	_ pagescan.RequisiteScanner = new(pagescan.Region)
)

// onePass returns what s.ScanRequisites finds in page: its links, then its
// requisites.
func onePass(s pagescan.RequisiteScanner, pageURL string, page []byte, charset string) (links, reqs []string) {
	s.ScanRequisites(pageURL, page, charset,
		func(u string) { links = append(links, u) },
		func(u string) { reqs = append(reqs, u) })
	return links, reqs
}

// twoPasses returns what s.ScanCharset and Requisites find in page, each
// reading it.
func twoPasses(s pagescan.CharsetScanner, pageURL string, page []byte, charset string) (links, reqs []string) {
	s.ScanCharset(pageURL, page, charset, func(u string) { links = append(links, u) })
	pagescan.Requisites(pageURL, page, charset, func(u string) { reqs = append(reqs, u) })
	return links, reqs
}

// checkOnePass checks that one reading of page with the scanner made by
// mk finds what two do, with a new scanner and with reused, which has
// read other pages, the one way and the other.
func checkOnePass(t *testing.T, mk func() pagescan.RequisiteScanner, reused pagescan.RequisiteScanner, pageURL string, page []byte, charset string) {
	t.Helper()
	wantLinks, wantReqs := twoPasses(mk(), pageURL, page, charset)
	for i, s := range []pagescan.RequisiteScanner{mk(), reused} {
		links, reqs := onePass(s, pageURL, page, charset)
		if !slices.Equal(links, wantLinks) || !slices.Equal(reqs, wantReqs) {
			t.Fatalf("ScanRequisites(%q, %q, %q) with scanner %d of %T = %q and %q, but ScanCharset finds %q and Requisites %q",
				pageURL, page, charset, i, s, links, reqs, wantLinks, wantReqs)
		}
	}
	// And a scanner that has read requisites reads links alone as a new one.
	var links []string
	reused.ScanCharset(pageURL, page, charset, func(u string) { links = append(links, u) })
	if !slices.Equal(links, wantLinks) {
		t.Fatalf("ScanCharset(%q, %q, %q) after ScanRequisites with %T = %q, want %q", pageURL, page, charset, reused, links, wantLinks)
	}
}

// onePassScanners make the scanners that read links and requisites in one
// pass: html mode, whole and within regions of each kind, and a region of
// the reference scanner.
var onePassScanners = []struct {
	name string
	mk   func() pagescan.RequisiteScanner
}{
	{"html", func() pagescan.RequisiteScanner { return new(pagescan.HTML) }},
	{"html in <body>…</p>", func() pagescan.RequisiteScanner {
		return &pagescan.Region{From: []byte("<body>"), Until: []byte("</p>"), Scanner: new(pagescan.HTML)}
	}},
	{"html from <a", func() pagescan.RequisiteScanner {
		return &pagescan.Region{From: []byte("<a"), Scanner: new(pagescan.HTML)}
	}},
	{"reference until </a>", func() pagescan.RequisiteScanner {
		return &pagescan.Region{Until: []byte("</a>"), Scanner: new(pagescan.Reference)}
	}},
}

// TestScanRequisites checks the one pass against the two on the tests'
// pages, in two encodings, and on the playground's.
func TestScanRequisites(t *testing.T) {
	t.Parallel()
	var pages []string
	for _, tt := range scannerTests {
		pages = append(pages, tt.html)
	}
	for _, tt := range requisiteTests {
		pages = append(pages, tt.html)
	}
	pages = append(pages, fuzzSeeds...)
	for _, s := range onePassScanners {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			reused := s.mk()
			for _, page := range pages {
				for _, charset := range []string{"", "windows-1252"} {
					checkOnePass(t, s.mk, reused, index, []byte(page), charset)
				}
			}
			site := playgroundtest.Site(t)
			for _, u := range playgroundPages {
				body, err := playgroundtest.Body(site, u)
				if err != nil {
					t.Fatalf("%s: %v", u, err)
				}
				checkOnePass(t, s.mk, reused, u, body, "")
			}
		})
	}
}

// FuzzScanRequisites checks that one reading of any page finds what two
// do, with each one-pass scanner, the reused one having read the page
// before in the other order.
func FuzzScanRequisites(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	for i, tt := range requisiteTests {
		f.Add(uint8(i), []byte(tt.html))
	}
	f.Fuzz(func(t *testing.T, which uint8, page []byte) {
		pageURL := fuzzPages[int(which)%len(fuzzPages)]
		charset := fuzzCharsets[int(which)/len(fuzzPages)%len(fuzzCharsets)]
		for _, s := range onePassScanners {
			reused := s.mk()
			onePass(reused, pageURL, page, charset)
			checkOnePass(t, s.mk, reused, pageURL, page, charset)
		}
	})
}
