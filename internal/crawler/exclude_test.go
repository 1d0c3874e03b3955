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
	"testing/synctest"
	"time"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
)

// excludeSite has internal pages under /private/ on both test hosts,
// reached by links, by a link met three times, by a redirect, and from a
// page of the second host, which lanes fetch ahead; and an external page
// under /private/, which stays external.
var excludeSite = &fakeWeb{
	pages: map[string]string{
		"http://a.test/index.html": `<a href=http://b.test/1.html>b</a> <a href=ok.html>ok</a> <a href=private/x.html>x</a>
			<a href=r.html>r</a> <a href=private/x.html>x again</a> <a href=http://elsewhere.test/private/e.html>e</a>`,
		"http://a.test/ok.html":        `<a href=private/x.html>x once more</a> <a href=http://b.test/private/z.html>z</a>`,
		"http://b.test/1.html":         `<a href=http://a.test/private/w.html>w</a> <a href=2.html>2</a>`,
		"http://b.test/2.html":         `the end`,
		"http://a.test/private/x.html": `never served`,
		"http://a.test/private/y.html": `never served`,
		"http://a.test/private/w.html": `never served`,
		"http://b.test/private/z.html": `never served`,
	},
	redirects: map[string]string{"http://a.test/r.html": "http://a.test/private/y.html"},
}

// excludeCrawl crawls excludeSite from its index, excluding every URL
// under /private/, with pages and the journal so far for a resumed crawl.
// It must run in a synctest bubble.
func excludeCrawl(t *testing.T, parallel int, pages map[int]saved, replay []pagefetch.Page) (fakeRun, []string, map[int]saved) {
	t.Helper()
	sc, err := scope.Parse([]string{"http://a.test/", "http://b.test/"})
	if err != nil {
		t.Fatal(err)
	}
	w := &fakeWeb{pages: excludeSite.pages, redirects: excludeSite.redirects}
	pages = maps.Clone(pages)
	var log, errs bytes.Buffer
	var entries []pagefetch.Page
	c := &Crawler{
		Web: &webFuncs{
			fetch: htmlOnly(func(ctx context.Context, u string) ([]byte, error) {
				// b.test is slow, so that while the crawl waits for it, the
				// pages fetched ahead from a.test are read, and what their
				// links name is foreseen.
				if hostOf(u) == "b.test" {
					time.Sleep(time.Second)
				}
				return w.fetch(ctx, u)
			}),
			reach: w.reach,
		},
		Sink: &funcSink{
			save: func(id int, url string, depth int, html []byte) error {
				pages[id] = saved{id, url, depth, string(html)}
				return nil
			},
			journal: func(e pagefetch.Page) error { entries = append(entries, e); return nil },
		},
		History: &pastRuns{
			load: func(id int) (string, int, []byte, error) {
				p, ok := pages[id]
				if !ok {
					return "", 0, nil, fs.ErrNotExist
				}
				return p.url, p.depth, []byte(p.html), nil
			},
			recs: replay,
		},
		Scanner: new(pagescan.Reference),
		Scope: &scopeFuncs{
			internal: sc.Contains,
			excluded: func(u string) bool { return strings.Contains(u, "/private/") },
		},
		Bag:       new(bag.Queue),
		MaxDepth:  10,
		Log:       &log,
		Errors:    &errs,
		Scheduler: pagefetch.NewScheduler(0, nil, parallel),

		AheadMemory: 1 << 20,
	}
	res, err := c.Crawl(context.Background(), "http://a.test/index.html")
	if err != nil {
		t.Fatalf("Crawl: %v\n%s", err, &errs)
	}
	return fakeRun{res, log.String(), errs.String(), entries}, w.fetched, pages
}

// TestExclude: an internal URL that Exclude matches is logged IgnExcld
// and counted each time it is met, as a link or a redirect's target, and
// is never requested, whether pages are fetched one at a time or ahead
// from both hosts; an external one stays IgnExtrn.
func TestExclude(t *testing.T) {
	tests := []struct {
		name  string
		lines []string // in the log, each as many times as it is here
	}{
		{"a link met three times, twice on one page", []string{
			logLine(0, "IgnExcld", "http://a.test/private/x.html"),
			logLine(0, "IgnExcld", "http://a.test/private/x.html"),
			logLine(1, "IgnExcld", "http://a.test/private/x.html"),
		}},
		{"a redirect's target", []string{
			logLine(1, "Redirect", "http://a.test/r.html"),
			logLine(1, "Found", "http://a.test/private/y.html"),
			logLine(1, "IgnExcld", "http://a.test/private/y.html"),
		}},
		{"a link on the other host's page", []string{logLine(1, "IgnExcld", "http://a.test/private/w.html")}},
		{"a link to the other host", []string{logLine(1, "IgnExcld", "http://b.test/private/z.html")}},
		{"an external link", []string{logLine(0, "IgnExtrn", "http://elsewhere.test/private/e.html")}},
	}
	for _, parallel := range []int{1, 4} {
		var run fakeRun
		var fetched []string
		synctest.Test(t, func(t *testing.T) {
			run, fetched, _ = excludeCrawl(t, parallel, map[int]saved{}, nil)
		})
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s, parallel %d", tt.name, parallel), func(t *testing.T) {
				for _, line := range tt.lines {
					if got, want := strings.Count(run.log, line), strings.Count(strings.Join(tt.lines, ""), line); got != want {
						t.Errorf("the log has %q %d times, want %d:\n%s", line, got, want, run.log)
					}
				}
			})
		}
		t.Run(fmt.Sprintf("never requested, parallel %d", parallel), func(t *testing.T) {
			want := []string{"http://a.test/index.html", "http://a.test/ok.html", "http://a.test/r.html", "http://b.test/1.html", "http://b.test/2.html"}
			if got := slices.Sorted(slices.Values(fetched)); !slices.Equal(got, want) {
				t.Errorf("requested %q, want %q", got, want)
			}
		})
		t.Run(fmt.Sprintf("counted, parallel %d", parallel), func(t *testing.T) {
			u := run.res.URLs
			if n := strings.Count(run.log, " IgnExcld: "); u.Excluded != 6 || n != u.Excluded {
				t.Errorf("Result counts %d excluded and the log %d, want 6", u.Excluded, n)
			}
			if u.Found != u.Added+u.External+u.Duplicate+u.Excluded {
				t.Errorf("Result %+v: found is not added, external, duplicate and excluded", u)
			}
		})
	}
}

// TestExcludeResumed: a crawl resumed after each entry of its journal,
// with lanes, goes on as the whole crawl did, and requests no excluded
// URL.
func TestExcludeResumed(t *testing.T) {
	var whole fakeRun
	var all map[int]saved
	synctest.Test(t, func(t *testing.T) {
		whole, _, all = excludeCrawl(t, 1, map[int]saved{}, nil)
	})
	for n := range len(whole.entries) + 1 {
		t.Run(fmt.Sprintf("after %d entries", n), func(t *testing.T) {
			pages := map[int]saved{}
			for _, e := range whole.entries[:n] {
				if e.Kind == pagefetch.Saved {
					pages[e.DocID] = all[e.DocID]
				}
			}
			var resumed fakeRun
			var fetched []string
			synctest.Test(t, func(t *testing.T) {
				resumed, fetched, _ = excludeCrawl(t, 4, pages, whole.entries[:n])
			})
			if want := whole.entries[n:]; len(want) > 0 && !reflect.DeepEqual(resumed.entries, want) || len(want) == 0 && len(resumed.entries) > 0 {
				t.Errorf("journaled %v, want %v", resumed.entries, whole.entries[n:])
			}
			for _, u := range fetched {
				if strings.Contains(u, "/private/") {
					t.Errorf("requested %s, which is excluded", u)
				}
			}
		})
	}
}
