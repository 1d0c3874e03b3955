package crawler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
)

// A fakeWeb answers fetches from a table, without HTTP: a page's HTML, a
// redirect, or a host that cannot be connected to. It records every fetch
// and every Reach. It is safe for concurrent use, as lanes need.
type fakeWeb struct {
	pages     map[string]string // URL -> HTML
	redirects map[string]string // URL -> target
	down      []string          // hosts that cannot be connected to ...
	downAt    int               // ... once this many fetches have been made

	mu      sync.Mutex
	fetched []string
	reached []string
}

func (w *fakeWeb) isDown(host string) bool {
	return len(w.fetched) > w.downAt && slices.Contains(w.down, host)
}

func refused(host string) error {
	return &pagefetch.UnreachableError{Host: host, Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
}

func (w *fakeWeb) fetch(ctx context.Context, u string) ([]byte, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fetched = append(w.fetched, u)
	if host := hostOf(u); w.isDown(host) {
		return nil, refused(host)
	}
	if t, ok := w.redirects[u]; ok {
		return nil, &pagefetch.RedirectError{Code: 302, Location: t}
	}
	if html, ok := w.pages[u]; ok {
		return []byte(html), nil
	}
	return nil, &pagefetch.StatusError{Code: 404, Status: "404 Not Found"}
}

func (w *fakeWeb) reach(ctx context.Context, origin string) (pagefetch.Recording, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reached = append(w.reached, origin)
	if host := hostOf(origin); w.isDown(host) {
		return pagefetch.Recording{}, refused(host)
	}
	return pagefetch.Recording{}, nil
}

// A fakeRun is what a crawl of a fakeWeb gave.
type fakeRun struct {
	res       Result
	log, errs string
	entries   []pagefetch.Page // the journal
}

// fakeCrawl crawls w from seed with both test hosts in scope, fetching
// parallel pages at once.
func fakeCrawl(t *testing.T, w *fakeWeb, seed string, parallel int, replay []pagefetch.Page, load func(int) (string, int, []byte, error)) (fakeRun, error) {
	t.Helper()
	return fakeCrawlFrom(t, w.fetch, w.reach, seed, parallel, replay, load)
}

// fakeCrawlFrom crawls from seed with fetch and reach.
func fakeCrawlFrom(t *testing.T, fetch func(context.Context, string) ([]byte, error), reach func(context.Context, string) (pagefetch.Recording, error),
	seed string, parallel int, replay []pagefetch.Page, load func(int) (string, int, []byte, error)) (fakeRun, error) {
	t.Helper()
	sc, err := scope.Parse([]string{"http://a.test/", "http://b.test/"})
	if err != nil {
		t.Fatal(err)
	}
	var log, errs bytes.Buffer
	var entries []pagefetch.Page
	c := &Crawler{
		Web: &webFuncs{
			fetch: htmlOnly(fetch),
			reach: reach,
		},
		Sink: &funcSink{
			save:    func(int, string, int, []byte) error { return nil },
			journal: func(e pagefetch.Page) error { entries = append(entries, e); return nil },
		},
		Scanner: new(pagescan.Reference),
		Scope: &scopeFuncs{
			internal: sc.Contains,
		},
		Bag:      new(bag.Stack),
		MaxDepth: 10,
		Log:      &log,
		Errors:   &errs,
		History: &pastRuns{
			load: load,
			recs: replay,
		},
		Scheduler: pagefetch.NewScheduler(0, nil, parallel),

		AheadMemory: 1 << 20,
	}
	res, err := c.Crawl(t.Context(), seed)
	return fakeRun{res, log.String(), errs.String(), entries}, err
}

func TestRedirectHops(t *testing.T) {
	tests := []struct {
		name  string
		chain int // redirects before the page
		saved bool
	}{
		{"ten redirects are followed", maxRedirects, true},
		{"the eleventh fails the page", maxRedirects + 1, false},
		{"an endless chain ends", 1000, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &fakeWeb{pages: map[string]string{"http://a.test/index.html": `<a href=r0.html>r</a>`}, redirects: map[string]string{}}
			for i := range tt.chain {
				w.redirects[fmt.Sprintf("http://a.test/r%d.html", i)] = fmt.Sprintf("http://a.test/r%d.html", i+1)
			}
			end := fmt.Sprintf("http://a.test/r%d.html", tt.chain)
			w.pages[end] = "the end"
			run, err := fakeCrawl(t, w, "http://a.test/index.html", 1, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, log, errs, entries := run.res, run.log, run.errs, run.entries
			if tt.saved {
				if res.Saved != 2 || res.Failed != 0 || !strings.Contains(log, "Fetched: "+end) {
					t.Errorf("Result %+v, log:\n%s\nwant %s saved", res, log, end)
				}
				return
			}
			// The page reached by ten redirects is fetched, redirects once
			// more, and fails: 1 seed + 11 pages of the chain.
			if len(w.fetched) != 2+maxRedirects {
				t.Errorf("%d fetches, want %d", len(w.fetched), 2+maxRedirects)
			}
			last := fmt.Sprintf("http://a.test/r%d.html", maxRedirects)
			if !strings.Contains(log, "FAILED: "+last+"\n") || strings.Contains(log, "Redirect: "+last) {
				t.Errorf("log does not fail %s:\n%s", last, log)
			}
			if !strings.Contains(errs, "too many redirects: 11 in a row") {
				t.Errorf("stderr = %q, want the reason", errs)
			}
			if res.Failed != 1 || res.FailedBy["too many redirects"] != 1 || res.Redirects != maxRedirects {
				t.Errorf("Result = %+v", res)
			}
			if e := entries[len(entries)-1]; e.Kind != pagefetch.Failed || e.URL != last {
				t.Errorf("last journal entry %+v, want the failed page", e)
			}

			// Replaying the journal gives the same crawl, and fetches
			// nothing more.
			w.fetched = nil
			load := func(id int) (string, int, []byte, error) {
				if id == 1 {
					return "http://a.test/index.html", 0, []byte(w.pages["http://a.test/index.html"]), nil
				}
				return "", 0, nil, fs.ErrNotExist
			}
			run, err = fakeCrawl(t, w, "http://a.test/index.html", 1, entries, load)
			if err != nil || len(w.fetched) != 0 || run.res.Recalled != len(entries) {
				t.Errorf("replay: %v, %d fetches, %+v", err, len(w.fetched), run.res)
			}
		})
	}
}

func TestOutage(t *testing.T) {
	const (
		seedA = "http://a.test/index.html"
		seedB = "http://b.test/index.html"
	)
	site := map[string]string{
		seedA:                    `<a href=http://b.test/1.html>1</a> <a href=http://b.test/2.html>2</a> <a href=x.html>x</a>`,
		"http://a.test/x.html":   `<a href=y.html>y</a>`,
		"http://a.test/y.html":   `the end`,
		seedB:                    `<a href=http://a.test/x.html>x</a>`,
		"http://b.test/1.html":   `one`,
		"http://b.test/2.html":   `two`,
		"http://b.test/3.html":   `three`,
		"http://b.test/gone.txt": `not a page`,
	}
	tests := []struct {
		name    string
		seed    string
		down    []string // hosts that cannot be connected to ...
		downAt  int      // ... once this many fetches have been made
		outage  bool
		fetched []string
		reached []string
		failed  int
	}{
		{
			name: "a dead host among hosts that answer fails its pages, told once",
			seed: seedA, down: []string{"b.test"},
			fetched: []string{seedA, "http://a.test/x.html", "http://a.test/y.html", "http://b.test/2.html"},
			reached: []string{"http://a.test"},
			failed:  2,
		},
		{
			name: "the seed's host cannot be reached: no witness, an outage",
			seed: seedA, down: []string{"a.test"}, outage: true,
			fetched: []string{seedA},
		},
		{
			name: "the only host goes down mid-crawl: an outage",
			seed: seedA, down: []string{"a.test", "b.test"}, downAt: 1, outage: true,
			fetched: []string{seedA, "http://a.test/x.html"},
		},
		{
			name: "a host goes down, and the witness does not answer: an outage",
			seed: seedB, down: []string{"a.test", "b.test"}, downAt: 1, outage: true,
			fetched: []string{seedB, "http://a.test/x.html"},
			reached: []string{"http://b.test"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &fakeWeb{pages: site, down: tt.down, downAt: tt.downAt}
			run, err := fakeCrawl(t, w, tt.seed, 1, nil, nil)
			// Fetching ahead from both hosts decides the same, at the same
			// pages: what it fetched ahead that the crawl one page at a
			// time did not is never told, and the requests it saves are
			// those the crawl would not have made either.
			t.Run("parallel", func(t *testing.T) {
				w4 := &fakeWeb{pages: site, down: tt.down, downAt: tt.downAt}
				run4, err4 := fakeCrawl(t, w4, tt.seed, 4, nil, nil)
				if fmt.Sprint(err4) != fmt.Sprint(err) || run4.log != run.log || run4.errs != run.errs ||
					!reflect.DeepEqual(run4.entries, run.entries) || run4.res.Current != run.res.Current || run4.res.Failed != run.res.Failed {
					t.Errorf("-parallel 4 gives %v\n%+v\nwant %v\n%+v", err4, run4, err, run)
				}
				for _, u := range w.fetched {
					if !slices.Contains(w4.fetched, u) {
						t.Errorf("-parallel 4 did not fetch %s, fetched %q", u, w4.fetched)
					}
				}
				if !slices.Equal(w4.reached, w.reached) {
					t.Errorf("-parallel 4 asked %q whether they answer, want %q", w4.reached, w.reached)
				}
			})
			res, log, errs, entries := run.res, run.log, run.errs, run.entries
			if got := errors.Is(err, ErrOutage); got != tt.outage {
				t.Fatalf("Crawl error %v, want an outage: %v", err, tt.outage)
			}
			if !slices.Equal(w.fetched, tt.fetched) {
				t.Errorf("fetched %q, want %q", w.fetched, tt.fetched)
			}
			if !slices.Equal(w.reached, tt.reached) {
				t.Errorf("asked %q whether they answer, want %q", w.reached, tt.reached)
			}
			if res.Failed != tt.failed {
				t.Errorf("%d pages failed, want %d\n%s", res.Failed, tt.failed, log)
			}
			if tt.outage {
				// Nothing about the page that met the outage is logged or
				// journaled: a resumed crawl fetches it again.
				last := w.fetched[len(w.fetched)-1]
				if strings.Contains(log, last) && !strings.Contains(log, "Added: "+last) || strings.Contains(log, "FAILED") {
					t.Errorf("the log tells of %s:\n%s", last, log)
				}
				for _, e := range entries {
					if e.URL == last {
						t.Errorf("journal has %+v", e)
					}
				}
				var ue *pagefetch.UnreachableError
				if !errors.As(err, &ue) || res.Current != last {
					t.Errorf("error %v does not say which host, or Current %q is not %s", err, res.Current, last)
				}
				return
			}
			if got := strings.Count(errs, "b.test"); got != 1 {
				t.Errorf("stderr names the dead host %d times, want once:\n%s", got, errs)
			}
			if res.FailedBy["host unreachable"] != tt.failed || strings.Count(log, "FAILED: http://b.test/") != tt.failed {
				t.Errorf("Result %+v, log:\n%s", res, log)
			}
		})
	}
}

// TestNotLoopbackAhead: a lane that meets the loopback rule on a host it
// fetches ahead stops the crawl only when the crawl comes to that page, as
// a crawl of one page at a time would, with the same log and journal
// before it.
func TestNotLoopbackAhead(t *testing.T) {
	site := map[string]string{
		"http://a.test/index.html": `<a href=http://b.test/1.html>b</a> <a href=x.html>x</a> <a href=y.html>y</a>`,
		"http://a.test/x.html":     `<a href=z.html>z</a>`,
		"http://a.test/y.html":     `y`,
		"http://a.test/z.html":     `z`,
	}
	var runs [2]fakeRun
	for i, n := range []int{1, 4} {
		w := &fakeWeb{pages: site}
		fetch := func(ctx context.Context, u string) ([]byte, error) {
			if hostOf(u) == "b.test" {
				return nil, fmt.Errorf("dial tcp 192.0.2.1:80: %w", pagefetch.ErrNotLoopback)
			}
			return w.fetch(ctx, u)
		}
		run, err := fakeCrawlFrom(t, fetch, w.reach, "http://a.test/index.html", n, nil, nil)
		if !errors.Is(err, pagefetch.ErrNotLoopback) || run.res.Current != "http://b.test/1.html" {
			t.Fatalf("-parallel %d: Crawl error %v at %s, want ErrNotLoopback at b.test/1.html", n, err, run.res.Current)
		}
		runs[i] = run
	}
	if runs[1].log != runs[0].log || !reflect.DeepEqual(runs[1].entries, runs[0].entries) || runs[1].res.Saved != 4 {
		t.Errorf("-parallel 4 gives\n%+v\nwant\n%+v", runs[1], runs[0])
	}
}
