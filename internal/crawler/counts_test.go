package crawler

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/stats"
)

// countsSite has a page of each outcome: saved, 404, a redirect, one
// robots.txt disallows, and two on a host that is down while a.test
// answers.
var countsSite = map[string]string{
	// The bag is a stack: b.test's pages come last, once a.test has
	// answered, so that there is a host to ask whether b.test alone is down.
	"http://a.test/index.html": `<a href=http://b.test/1.html>dead</a> <a href=http://b.test/2.html>dead</a>
		<a href=ok.html>ok</a> <a href=gone.html>404</a> <a href=r.html>redirect</a> <a href=secret.html>robots</a>`,
	"http://a.test/ok.html":  `<a href=ok2.html>ok2</a>`,
	"http://a.test/ok2.html": `the end`,
	"http://b.test/1.html":   `never served`,
	"http://b.test/2.html":   `never served`,
}

// A memRun is a crawl of a fake web whose saved pages are kept in
// memory, for a resumed crawl to load back, with its journal, log and
// errors.
type memRun struct {
	c     *Crawler
	log   bytes.Buffer
	errs  bytes.Buffer
	w     *fakeWeb
	pages map[int]saved
	journ []pagefetch.Page
}

// sink saves r's pages in r.pages and journals them in r.journ.
func (r *memRun) sink() Sink {
	return &funcSink{
		save: func(id int, url string, depth int, html []byte) error {
			r.pages[id] = saved{id, url, depth, string(html)}
			return nil
		},
		journal: func(e pagefetch.Page) error { r.journ = append(r.journ, e); return nil },
	}
}

// history loads back the pages in r.pages.
func (r *memRun) history() *pastRuns {
	return &pastRuns{
		load: func(id int) (string, int, []byte, error) {
			p, ok := r.pages[id]
			if !ok {
				return "", 0, nil, fs.ErrNotExist
			}
			return p.url, p.depth, []byte(p.html), nil
		},
	}
}

// newCountsRun returns a crawl of countsSite.
func newCountsRun(t *testing.T, pages map[int]saved) *memRun {
	t.Helper()
	sc, err := scope.Parse([]string{"http://a.test/", "http://b.test/"})
	if err != nil {
		t.Fatal(err)
	}
	r := &memRun{
		w:     &fakeWeb{pages: countsSite, redirects: map[string]string{"http://a.test/r.html": "http://a.test/ok2.html"}, down: []string{"b.test"}},
		pages: pages,
	}
	r.c = &Crawler{
		Scheduler: pagefetch.NewScheduler(0, nil, 1),
		Web: &webFuncs{
			fetch: htmlOnly(func(ctx context.Context, u string) ([]byte, error) {
				if strings.Contains(u, "secret") {
					return nil, fmt.Errorf("%s: %w", u, pagefetch.ErrDisallowed)
				}
				return r.w.fetch(ctx, u)
			}),
			reach: r.w.reach,
		},
		Sink:    r.sink(),
		History: r.history(),
		Scanner: new(pagescan.Reference),
		Scope: &scopeFuncs{
			internal: sc.Contains,
		},
		Bag:      new(bag.Stack),
		MaxDepth: 10,
		Log:      &r.log,
		Errors:   &r.errs,
	}
	return r
}

// checkCounts checks that each count of a Result is the number of lines
// the log has with its word.
func checkCounts(t *testing.T, res Result, log string) {
	t.Helper()
	for _, c := range []struct {
		word string
		n    int
	}{
		{"Fetched", res.Fetched},
		{"FAILED", res.Failed},
		{"Redirect", res.Redirects},
		{"IgnRobots", res.Disallowed},
	} {
		if got := strings.Count(log, " "+c.word+": "); got != c.n {
			t.Errorf("the log has %d %s lines, the Result counts %d\n%s", got, c.word, c.n, log)
		}
	}
	if tried := res.Fetched + res.Failed + res.Redirects; res.Tried != tried {
		t.Errorf("Result counts %d tried, want %d: fetched, failed and redirected", res.Tried, tried)
	}
}

// TestCountsAgreeWithLog: the Result counts a page as fetched when, and
// only when, the log says Fetched, in a fresh crawl, without a log, and
// in a resumed crawl, whose replayed pages are not logged.
func TestCountsAgreeWithLog(t *testing.T) {
	r := newCountsRun(t, map[int]saved{})
	res, err := r.c.Crawl(t.Context(), "http://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, res, r.log.String())
	want := stats.Pages{Saved: 3, Fetched: 3, Failed: 3, Redirects: 1, Tried: 7, FailedBy: res.FailedBy}
	if !reflect.DeepEqual(res.Pages, want) || res.Disallowed != 1 {
		t.Errorf("Result %+v, want %+v and 1 disallowed", res, want)
	}
	if res.FailedBy["HTTP 404"] != 1 || res.FailedBy["host unreachable"] != 2 {
		t.Errorf("FailedBy = %v, want 1 HTTP 404 and 2 host unreachable", res.FailedBy)
	}

	t.Run("no log", func(t *testing.T) {
		q := newCountsRun(t, map[int]saved{})
		q.c.Log = nil
		got, err := q.c.Crawl(t.Context(), "http://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		if got.Fetched != res.Fetched || got.Failed != res.Failed || got.Redirects != res.Redirects || got.Disallowed != res.Disallowed {
			t.Errorf("without a log: %+v, want the counts of %+v", got, res)
		}
	})

	// Resumed after each entry of the journal, with the pages saved by
	// then, and with one more page saved that the journal does not have
	// yet, as a killed crawl can leave: that one is adopted and logged
	// Fetched.
	for n := range len(r.journ) + 1 {
		for _, killed := range []bool{false, true} {
			// A killed crawl leaves a page unjournaled only where the next
			// entry saves one.
			if killed && (n == len(r.journ) || r.journ[n].Kind != pagefetch.Saved) {
				continue
			}
			t.Run(fmt.Sprintf("resumed after %d entries, killed %t", n, killed), func(t *testing.T) {
				pages := map[int]saved{}
				for _, e := range r.journ[:n] {
					if e.Kind == pagefetch.Saved {
						pages[e.DocID] = r.pages[e.DocID]
					}
				}
				if killed {
					pages[r.journ[n].DocID] = r.pages[r.journ[n].DocID]
				}
				before := maps.Clone(pages)
				q := newCountsRun(t, pages)
				q.c.History.(*pastRuns).recs = r.journ[:n]
				got, err := q.c.Crawl(t.Context(), "http://a.test/index.html")
				if err != nil {
					t.Fatal(err)
				}
				checkCounts(t, got, q.log.String())
				if got.Saved != res.Saved || got.Recalled != n {
					t.Errorf("Saved %d, Replayed %d, want %d and %d", got.Saved, got.Recalled, res.Saved, n)
				}
				// Resumed with lanes fetching ahead from both hosts, it
				// goes on the same way: they start once the replay and the
				// adoption are done, and fetch no page either gave.
				p := newCountsRun(t, before)
				p.c.History.(*pastRuns).recs, p.c.Scheduler, p.c.AheadMemory = r.journ[:n], pagefetch.NewScheduler(0, nil, 4), 1<<20
				onDisk := slices.Collect(maps.Values(before))
				par, err := p.c.Crawl(t.Context(), "http://a.test/index.html")
				if err != nil {
					t.Fatal(err)
				}
				par.AheadPeak = 0
				if p.log.String() != q.log.String() || !reflect.DeepEqual(p.journ, q.journ) || !maps.Equal(p.pages, q.pages) ||
					fmt.Sprint(par) != fmt.Sprint(got) {
					t.Errorf("resumed with -parallel 4:\n%+v\n%s\nwant\n%+v\n%s", par, &p.log, got, &q.log)
				}
				for _, page := range onDisk {
					if slices.Contains(p.w.fetched, page.url) {
						t.Errorf("-parallel 4 fetched %s again, which page %d holds", page.url, page.id)
					}
				}
			})
		}
	}
}

// TestQuietFailures: with QuietFailures, the pages that fail are counted
// but not told one by one; that a host is dead still is.
func TestQuietFailures(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprintf("quiet %t", quiet), func(t *testing.T) {
			r := newCountsRun(t, map[int]saved{})
			r.c.QuietFailures = quiet
			res, err := r.c.Crawl(t.Context(), "http://a.test/index.html")
			if err != nil {
				t.Fatal(err)
			}
			errs := r.errs.String()
			if res.Failed != 3 || !strings.Contains(r.log.String(), "FAILED: http://a.test/gone.html\n") {
				t.Errorf("Result %+v; log:\n%s\nwant 3 failures logged", res, &r.log)
			}
			if strings.Count(errs, "b.test") != 1 || !strings.Contains(errs, "so that host alone is down") {
				t.Errorf("stderr does not tell once that b.test is down:\n%s", errs)
			}
			if told := strings.Contains(errs, "crawler: http://a.test/gone.html: "); told == quiet {
				t.Errorf("stderr tells of the page that failed: %t, want %t:\n%s", told, !quiet, errs)
			}
		})
	}
}
