package browserurl

import (
	"strings"
	"testing"
	"unicode/utf8"

	"tse-crawler/internal/refurl"
	"tse-crawler/internal/testbed/playgroundtest"
)

// benchPages are playground pages whose links the benchmarks resolve: a
// wikipedia article (many relative and external links, fragments), a
// toscrape catalogue page (../ links and queries) and letters.
var benchPages = []string{
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html",
	"http://cs50tse.cs.dartmouth.edu/tse/toscrape/catalogue/page-2.html",
	"http://cs50tse.cs.dartmouth.edu/tse/letters/A.html",
}

// benchLinks returns the links on the benchmark pages, at their URLs on
// the site and on loopback, and those of the links on loopback that are
// ASCII, as all the links of a site such as the OpenJDK's API
// documentation are.
func benchLinks(b *testing.B) (site, loopback, ascii []link) {
	fsys := playgroundtest.Site(b)
	for _, page := range benchPages {
		body, err := playgroundtest.Body(fsys, page)
		if err != nil {
			b.Fatalf("%s: %v", page, err)
		}
		site = pageLinks(site, page, body)
	}
	if len(site) < 100 {
		b.Fatalf("only %d links on the benchmark pages", len(site))
	}
	for _, l := range site {
		loopback = append(loopback, link{onLoopback(l.base), l.href})
		if !strings.ContainsFunc(l.href, func(r rune) bool { return r >= utf8.RuneSelf }) {
			ascii = append(ascii, loopback[len(loopback)-1])
		}
	}
	return site, loopback, ascii
}

// BenchmarkPerLink is the cost per link of taking a link's key on a page,
// served at its own URL and on loopback (at 127.0.0.1:8080), and of the
// ASCII links alone on loopback: html mode as it is (Resolve, then
// Normalize), the parser alone, without the shortcuts of plain.go and
// relative.go, and the reference mode's (refurl's byte-wise RFC 3986
// resolution, then the reference normalizer).
func BenchmarkPerLink(b *testing.B) {
	ways := []struct {
		name string
		key  func(base, href string)
	}{
		{"ResolveNormalize", func(base, href string) {
			if s, ok := Resolve(base, href); ok {
				Normalize(s)
			}
		}},
		{"ParserOnly", func(base, href string) {
			if s, ok := resolve(base, href); ok {
				serialize(s)
			}
		}},
		{"RFC3986", func(base, href string) { refurl.Normalize(refurl.Resolve(base, href)) }},
	}
	site, loopback, ascii := benchLinks(b)
	for _, pages := range []struct {
		name  string
		links []link
	}{{"site", site}, {"loopback", loopback}, {"ascii", ascii}} {
		for _, w := range ways {
			b.Run(pages.name+"/"+w.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, l := range pages.links {
						w.key(l.base, l.href)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pages.links)), "ns/link")
			})
		}
	}
}
