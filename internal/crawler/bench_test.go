package crawler

import (
	"context"
	"io"
	"io/fs"
	"testing"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/testbed/synthsite"
)

// benchPages is the size of the benchmarks' synthetic site: large enough
// that the loop, not the setup, is measured.
const benchPages = 2000

// benchSite returns the pages of a synthetic site by URL, made once, so
// that the benchmarks time the crawl loop, its log and its scribe, and
// not the making of pages or HTTP.
func benchSite(b *testing.B) map[string][]byte {
	b.Helper()
	site := synthsite.Site{Pages: benchPages, Seed: 1}
	pages := make(map[string][]byte, benchPages)
	for n := range benchPages {
		pages["http://cs50tse.cs.dartmouth.edu"+synthsite.Path(n)] = site.Page(n)
	}
	return pages
}

// benchCrawler is a crawler of pages that saves and journals nothing.
func benchCrawler(pages map[string][]byte, log io.Writer) *Crawler {
	return &Crawler{
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		Web: &webFuncs{
			fetch: htmlOnly(func(_ context.Context, u string) ([]byte, error) {
				if html, ok := pages[u]; ok {
					return html, nil
				}
				return nil, &pagefetch.StatusError{Code: 404, Status: "404 Not Found"}
			}),
		},
		Sink: &funcSink{
			save:    func(int, string, int, []byte) error { return nil },
			journal: func(pagefetch.Page) error { return nil },
		},
		Scanner: new(pagescan.Reference),
		Scope: &scopeFuncs{
			internal: scope.Default().Contains,
		},
		Bag:      new(bag.Queue), // breadth-first reaches every page
		MaxDepth: 10,
		Log:      log,
		Errors:   io.Discard,
	}
}

const benchSeed = "http://cs50tse.cs.dartmouth.edu/tse/synth/0.html"

// BenchmarkCrawl crawls the whole site live, with the log formatted and
// thrown away, and without a log (-q).
func BenchmarkCrawl(b *testing.B) {
	pages := benchSite(b)
	for _, tt := range []struct {
		name string
		log  io.Writer
	}{{"log", io.Discard}, {"quiet", nil}} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := benchCrawler(pages, tt.log).Crawl(b.Context(), benchSeed)
				if err != nil || res.Saved != benchPages {
					b.Fatalf("Crawl = %d pages, %v; want %d", res.Saved, err, benchPages)
				}
			}
		})
	}
}

// BenchmarkReplay resumes a finished crawl of the site from its whole
// journal: every page is read back and scanned, and none is fetched.
func BenchmarkReplay(b *testing.B) {
	pages := benchSite(b)
	c := benchCrawler(pages, io.Discard)
	var entries []pagefetch.Page
	c.Sink.(*funcSink).journal = func(e pagefetch.Page) error { entries = append(entries, e); return nil }
	saved := make(map[int]bag.Item)
	c.Sink.(*funcSink).save = func(id int, url string, depth int, _ []byte) error {
		saved[id] = bag.Item{URL: url, Depth: depth}
		return nil
	}
	if _, err := c.Crawl(b.Context(), benchSeed); err != nil {
		b.Fatal(err)
	}
	load := func(id int) (string, int, []byte, error) {
		p, ok := saved[id]
		if !ok {
			return "", 0, nil, fs.ErrNotExist
		}
		return p.URL, p.Depth, pages[p.URL], nil
	}
	b.ReportAllocs()
	for b.Loop() {
		c := benchCrawler(pages, io.Discard)
		c.Web.(*webFuncs).fetch = htmlOnly(func(_ context.Context, u string) ([]byte, error) {
			b.Fatalf("replay fetched %s", u)
			return nil, nil
		})
		c.History = &pastRuns{recs: entries, load: load}
		res, err := c.Crawl(b.Context(), benchSeed)
		if err != nil || res.Recalled != len(entries) {
			b.Fatalf("Crawl = %d replayed, %v; want %d", res.Recalled, err, len(entries))
		}
	}
	b.ReportMetric(float64(len(entries)), "entries")
}
