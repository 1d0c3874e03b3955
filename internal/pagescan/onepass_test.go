package pagescan_test

import (
	"slices"
	"testing"

	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/testbed/playgroundtest"
)

var (
	_ pagescan.Reader = new(pagescan.HTML)
	_ pagescan.Reader = new(pagescan.Region)
)

// onePass returns what one reading of page with s finds, all there is
// to ask.
func onePass(s pagescan.Reader, pageURL string, page []byte, charset string) *pagescan.Reading {
	return s.Read(pageURL, page, charset, pagescan.What{Links: true, Requisites: true, Refs: true})
}

// apart returns what s.ScanCharset, Requisites and HTML.Refs find in page,
// each reading it, as a Reading.
func apart(s pagescan.CharsetScanner, pageURL string, page []byte, charset string) *pagescan.Reading {
	rd := new(pagescan.Reading)
	s.ScanCharset(pageURL, page, charset, func(u string) { rd.Links = append(rd.Links, u) })
	rd.Skipped = pagescan.Requisites(pageURL, page, charset, func(u string) { rd.Requisites = append(rd.Requisites, u) })
	new(pagescan.HTML).Refs(pageURL, page, charset, func(r pagescan.Ref) {
		rd.Refs = append(rd.Refs, r)
		if r.Requisite {
			rd.Frames = append(rd.Frames, r.Frame)
		}
	}, func(id string) { rd.IDs = append(rd.IDs, id) })
	return rd
}

// sameReading says whether two readings found the same.
func sameReading(a, b *pagescan.Reading) bool {
	return slices.Equal(a.Links, b.Links) && slices.Equal(a.Requisites, b.Requisites) && slices.Equal(a.Frames, b.Frames) &&
		a.Skipped == b.Skipped && slices.Equal(a.Refs, b.Refs) && slices.Equal(a.IDs, b.IDs)
}

// checkOnePass checks that one reading of page with the scanner made by
// mk finds what three do, with a new scanner and with reused, which has
// read other pages, the one way and the other.
func checkOnePass(t *testing.T, mk func() pagescan.Reader, reused pagescan.Reader, pageURL string, page []byte, charset string) {
	t.Helper()
	want := apart(mk().(pagescan.CharsetScanner), pageURL, page, charset)
	for i, s := range []pagescan.Reader{mk(), reused} {
		if got := onePass(s, pageURL, page, charset); !sameReading(got, want) {
			t.Fatalf("Read(%q, %q, %q) with scanner %d of %T = %+v, but apart they find %+v",
				pageURL, page, charset, i, s, got, want)
		}
	}
	// Links alone, and links and requisites, are what the whole reading
	// has of them.
	for _, what := range []pagescan.What{{Links: true}, {Links: true, Requisites: true}} {
		got := reused.Read(pageURL, page, charset, what)
		if !slices.Equal(got.Links, want.Links) || what.Requisites && (!slices.Equal(got.Requisites, want.Requisites) || got.Skipped != want.Skipped) {
			t.Fatalf("Read(%q, %q, %q, %+v) with %T = %+v, want the links %q and requisites %q", pageURL, page, charset, what, reused, got, want.Links, want.Requisites)
		}
	}
	// Requisites alone, for a page whose links the crawl does not follow.
	if got := reused.Read(pageURL, page, charset, pagescan.What{Requisites: true}); got.Links != nil || !slices.Equal(got.Requisites, want.Requisites) {
		t.Fatalf("Read(%q, %q, %q) of requisites alone with %T = %+v, want no links and requisites %q", pageURL, page, charset, reused, got, want.Requisites)
	}
	// And a scanner that has read requisites reads links alone as a new one.
	var links []string
	reused.(pagescan.CharsetScanner).ScanCharset(pageURL, page, charset, func(u string) { links = append(links, u) })
	if !slices.Equal(links, want.Links) {
		t.Fatalf("ScanCharset(%q, %q, %q) after Read with %T = %q, want %q", pageURL, page, charset, reused, links, want.Links)
	}
}

// onePassScanners make the scanners that read links and requisites in one
// pass: html mode, whole and within regions of each kind, and a region of
// the reference scanner.
var onePassScanners = []struct {
	name string
	mk   func() pagescan.Reader
}{
	{"html", func() pagescan.Reader { return new(pagescan.HTML) }},
	{"html in <body>…</p>", func() pagescan.Reader {
		return &pagescan.Region{From: []byte("<body>"), Until: []byte("</p>"), Scanner: new(pagescan.HTML)}
	}},
	{"html from <a", func() pagescan.Reader {
		return &pagescan.Region{From: []byte("<a"), Scanner: new(pagescan.HTML)}
	}},
	{"reference until </a>", func() pagescan.Reader {
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

// FuzzScanRequisites checks that one reading of any page finds what
// three do, with each one-pass scanner, the reused one having read the page
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
