package weburl

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"tse-crawler/internal/playgroundtest"
	"tse-crawler/internal/urlnorm"
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

// BenchmarkResolveNormalize is html mode's cost per link: resolve against
// the page, then take the crawl's key.
func BenchmarkResolveNormalize(b *testing.B) {
	links := benchLinks(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range links {
			if s, ok := Resolve(l.base, l.href); ok {
				Normalize(s)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(links)), "ns/link")
}

// BenchmarkParserOnly is BenchmarkResolveNormalize without the shortcuts
// of plain.go: the parser's cost for every link.
func BenchmarkParserOnly(b *testing.B) {
	links := benchLinks(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range links {
			if s, ok := resolve(l.base, l.href); ok {
				serialize(s)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(links)), "ns/link")
}

// BenchmarkRFC3986 is what html mode cost per link before this package:
// urlnorm's byte-wise RFC 3986 resolution, then the reference normalizer.
func BenchmarkRFC3986(b *testing.B) {
	links := benchLinks(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range links {
			urlnorm.Normalize(urlnorm.Resolve(l.base, l.href))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(links)), "ns/link")
}
