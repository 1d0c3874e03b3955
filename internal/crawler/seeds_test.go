package crawler

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
)

// seedsSite has pages the seed links to, and pages only more seeds name,
// on two hosts, so that lanes fetch ahead with more than one worker.
var seedsSite = map[string]string{
	"http://a.test/index.html":   `<a href=1.html>1</a> <a href=2.html>2</a>`,
	"http://a.test/1.html":       `<a href=http://b.test/x.html>x</a>`,
	"http://a.test/2.html":       `two`,
	"http://a.test/orphan.html":  `<a href=orphan2.html>o2</a> <a href=1.html>1</a>`,
	"http://a.test/orphan2.html": `o2`,
	"http://b.test/x.html":       `x`,
	"http://b.test/lone.html":    `lone`,
}

// seedsList are the more seeds of the tests: one the seed's crawl meets,
// one met through an earlier one, one listed twice, and one missing.
var seedsList = []string{
	"http://a.test/2.html", "http://b.test/lone.html", "http://a.test/orphan.html",
	"http://a.test/orphan2.html", "http://a.test/missing.html", "http://b.test/lone.html",
}

// newSeedsRun returns a crawl of seedsSite with seedsList.
func newSeedsRun(t *testing.T, b bag.Bag, workers int, pages map[int]saved) *memRun {
	t.Helper()
	sc, err := scope.Parse([]string{"http://a.test/", "http://b.test/"})
	if err != nil {
		t.Fatal(err)
	}
	r := &memRun{w: &fakeWeb{pages: seedsSite}, pages: pages}
	r.c = &Crawler{
		Scheduler:   pagefetch.NewScheduler(0, nil, workers),
		Web:         &webFuncs{fetch: htmlOnly(r.w.fetch), reach: r.w.reach},
		Sink:        r.sink(),
		History:     r.history(),
		Scanner:     new(pagescan.Reference),
		Scope:       &scopeFuncs{internal: sc.Contains},
		Bag:         b,
		MaxDepth:    10,
		Seeds:       seedsList,
		Log:         &r.log,
		Errors:      &r.errs,
		AheadMemory: 1 << 20,
	}
	return r
}

// order lists the pages saved, as docID, depth and URL.
func (r *memRun) order() []string {
	var got []string
	for _, id := range slices.Sorted(maps.Keys(r.pages)) {
		p := r.pages[id]
		got = append(got, fmt.Sprintf("%d %d %s", p.id, p.depth, strings.TrimPrefix(p.url, "http://")))
	}
	return got
}

// TestCrawlSeeds: more seeds are crawled after the seed's crawl, each at
// depth 0 in the order listed, but for those met by then, in every bag
// order, with one worker or several; under MaxPages the crawl is the
// first pages of that.
func TestCrawlSeeds(t *testing.T) {
	after := []string{"b.test/lone.html 0", "a.test/orphan.html 0", "a.test/orphan2.html 1"}
	tests := []struct {
		name     string
		bag      func() bag.Bag
		maxPages int
		want     []string // depth and URL of each page saved, in order
		pending  int
	}{
		{"lifo", func() bag.Bag { return new(bag.Stack) }, 0,
			append([]string{"a.test/index.html 0", "a.test/2.html 1", "a.test/1.html 1", "b.test/x.html 2"}, after...), 0},
		{"bfs", func() bag.Bag { return new(bag.Queue) }, 0,
			append([]string{"a.test/index.html 0", "a.test/1.html 1", "a.test/2.html 1", "b.test/x.html 2"}, after...), 0},
		{"priority", func() bag.Bag { return new(bag.Priority) }, 0,
			append([]string{"a.test/index.html 0", "a.test/2.html 1", "a.test/1.html 1", "b.test/x.html 2"}, after...), 0},
		// Stopped at the first of the more seeds: the rest are pending,
		// but for those met already.
		{"max pages", func() bag.Bag { return new(bag.Queue) }, 5,
			[]string{"a.test/index.html 0", "a.test/1.html 1", "a.test/2.html 1", "b.test/x.html 2", "b.test/lone.html 0"}, 3},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s, %d workers", tt.name, workers), func(t *testing.T) {
				r := newSeedsRun(t, tt.bag(), workers, map[int]saved{})
				r.c.MaxPages = tt.maxPages
				res, err := r.c.Crawl(t.Context(), "http://a.test/index.html")
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, p := range r.order() {
					_, rest, _ := strings.Cut(p, " ")
					depth, url, _ := strings.Cut(rest, " ")
					got = append(got, url+" "+depth)
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("saved:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
				if tt.maxPages > 0 {
					if !res.MaxPagesReached || res.Pending != tt.pending {
						t.Errorf("Result %+v, want MaxPagesReached with %d pending", res, tt.pending)
					}
					return
				}
				if res.Failed != 1 || !strings.Contains(r.errs.String(), "missing.html: HTTP 404") {
					t.Errorf("Result %+v, stderr %q: want missing.html failed and told", res, &r.errs)
				}
				if n := strings.Count(r.log.String(), "Fetched: http://b.test/lone.html"); n != 1 {
					t.Errorf("lone.html, listed twice, fetched %d times:\n%s", n, &r.log)
				}
			})
		}
	}
}

// TestCrawlSeedsResume: a crawl with more seeds resumed after any entry of
// its journal, with or without a page saved but not journaled, goes on as
// the crawl that never stopped, with one worker or several.
func TestCrawlSeedsResume(t *testing.T) {
	for _, order := range []string{"lifo", "bfs"} {
		newBag := func() bag.Bag { b, _ := bag.New(order); return b }
		full := newSeedsRun(t, newBag(), 1, map[int]saved{})
		want, err := full.c.Crawl(t.Context(), "http://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(full.journ) + 1 {
			for _, killed := range []bool{false, true} {
				if killed && (n == len(full.journ) || full.journ[n].Kind != pagefetch.Saved) {
					continue
				}
				for _, workers := range []int{1, 4} {
					t.Run(fmt.Sprintf("%s after %d, killed %t, %d workers", order, n, killed, workers), func(t *testing.T) {
						pages := map[int]saved{}
						for _, e := range full.journ[:n] {
							if e.Kind == pagefetch.Saved {
								pages[e.DocID] = full.pages[e.DocID]
							}
						}
						if killed {
							pages[full.journ[n].DocID] = full.pages[full.journ[n].DocID]
						}
						r := newSeedsRun(t, newBag(), workers, pages)
						r.c.History.(*pastRuns).recs = full.journ[:n]
						got, err := r.c.Crawl(t.Context(), "http://a.test/index.html")
						if err != nil {
							t.Fatal(err)
						}
						if got.Saved != want.Saved || got.Recalled != n {
							t.Errorf("Saved %d, Recalled %d, want %d and %d", got.Saved, got.Recalled, want.Saved, n)
						}
						if fmt.Sprint(r.journ) != fmt.Sprint(full.journ[n:]) || !maps.Equal(r.pages, full.pages) {
							t.Errorf("resumed: journal %v\npages %v\nwant %v\n%v", r.journ, r.order(), full.journ[n:], full.order())
						}
					})
				}
			}
		}
	}
}

// TestCrawlSeedFailsOthersSave: when the seed fails, the crawl goes on
// with the more seeds, tells why the seed failed, and succeeds if one of
// them saves a page.
func TestCrawlSeedFailsOthersSave(t *testing.T) {
	r := newSeedsRun(t, new(bag.Stack), 1, map[int]saved{})
	r.c.Seeds = []string{"http://a.test/2.html"}
	res, err := r.c.Crawl(context.Background(), "http://a.test/gone.html")
	if err != nil || res.Saved != 1 {
		t.Fatalf("Crawl = %+v, %v; want 1 page saved", res, err)
	}
	if !strings.Contains(r.errs.String(), "gone.html: HTTP 404") {
		t.Errorf("stderr %q does not say why the seed failed", &r.errs)
	}
}
