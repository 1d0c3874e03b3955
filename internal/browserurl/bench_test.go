package browserurl

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

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

// A link is an href and the page it is on.
type link struct{ base, href string }

// benchLinks returns the href of every <a> on the benchmark pages.
func benchLinks(b *testing.B) []link {
	site := playgroundtest.Site(b)
	var links []link
	for _, page := range benchPages {
		body, err := playgroundtest.Body(site, page)
		if err != nil {
			b.Fatalf("%s: %v", page, err)
		}
		z := html.NewTokenizer(bytes.NewReader(body))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tok := z.Token(); tok.Type == html.StartTagToken && tok.Data == "a" {
				for _, a := range tok.Attr {
					if a.Key == "href" {
						links = append(links, link{page, a.Val})
					}
				}
			}
		}
	}
	if len(links) < 100 {
		b.Fatalf("only %d links on the benchmark pages", len(links))
	}
	return links
}

// BenchmarkPerLink is the cost per link of taking a link's key on a page:
// html mode as it is (Resolve, then Normalize), the parser alone, without
// the shortcuts of plain.go, and what html mode cost before this package
// (refurl's byte-wise RFC 3986 resolution, then the reference
// normalizer).
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
	links := benchLinks(b)
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range links {
					w.key(l.base, l.href)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(links)), "ns/link")
		})
	}
}
