package crawler

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/playground"
)

// TestPageLimit: in a queue, a page is certain to be taken while the
// pages before it that the crawl has not decided could not all be saved
// before it; in a stack or a priority bag, no page in the bag is.
func TestPageLimit(t *testing.T) {
	// Each step pushes pages, then, if pop, pops one, with saved the pages
	// saved before it.
	type step struct {
		push  int
		pop   bool
		saved int
	}
	tests := []struct {
		name    string
		order   string
		most    int
		steps   []step
		certain []bool // for each page pushed, from the seed, once the steps are done
	}{
		{"queue, seed taken", "bfs", 3, []step{{1, true, 0}, {4, false, 0}}, []bool{false, true, true, false, false}},
		{"queue, seed saved, next taken", "bfs", 3, []step{{1, true, 0}, {4, true, 1}}, []bool{false, false, true, false, false}},
		{"queue, seed failed, next taken", "bfs", 3, []step{{1, true, 0}, {4, true, 0}}, []bool{false, false, true, true, false}},
		{"queue, one page", "bfs", 1, []step{{1, true, 0}, {3, false, 0}}, []bool{false, false, false, false}},
		{"queue, the last to save taken", "bfs", 2, []step{{1, true, 0}, {3, true, 1}}, []bool{false, false, false, false}},
		{"queue, three failed", "bfs", 2, []step{{1, true, 0}, {5, true, 0}, {0, true, 0}, {0, true, 0}}, []bool{false, false, false, false, true, false}},
		{"stack", "lifo", 100, []step{{1, true, 0}, {4, false, 0}}, []bool{false, false, false, false, false}},
		{"priority", "priority", 100, []step{{1, true, 0}, {4, false, 0}}, []bool{false, false, false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := bag.New(tt.order)
			l := newPageLimit(tt.most, b)
			pushed := 0
			for _, s := range tt.steps {
				for range s.push {
					url := fmt.Sprint(pushed)
					b.Push(bag.Item{URL: url})
					l.pushed(url)
					pushed++
				}
				if s.pop {
					it, _ := b.Pop()
					l.popped(it.URL, s.saved)
				}
			}
			var got []bool
			for i := range pushed {
				got = append(got, l.certain(fmt.Sprint(i)))
			}
			if !slices.Equal(got, tt.certain) {
				t.Errorf("certain = %v, want %v", got, tt.certain)
			}
		})
	}
	if l := newPageLimit(0, new(bag.Queue)); l != nil || !l.certain("any") {
		t.Errorf("no limit: %v, want nil, under which every page is certain", l)
	}
}

// cappedPrefix returns what a crawl that stops once it has saved most
// pages must leave, given what the whole crawl left: the beginning of the
// log up to the first page taken after the most-th saved, and as many
// lines of the journal as pages it took; and whether it stops at its
// limit, with how many pages left in the bag.
func cappedPrefix(whole crawlRecord, most int) (log, journ string, reached bool, waiting int) {
	saved, taken, added := 0, 0, 1 // the seed goes in the bag unlogged
	for line := range strings.Lines(whole.log) {
		word := strings.Fields(line)[1]
		switch word {
		case "Fetched:", "FAILED:", "Redirect:", "IgnRobots:":
			if saved == most {
				reached = true
			} else {
				taken++
			}
		case "Added:":
			added++
		}
		if reached {
			break
		}
		if word == "Fetched:" {
			saved++
		}
		log += line
	}
	lines := slices.Collect(strings.Lines(whole.journal))
	return log, strings.Join(lines[:taken], ""), reached, added - taken
}

// requested returns the URLs a crawl requested, robots.txt included,
// each once.
func requested(h *harness) []string {
	h.tr.mu.Lock()
	defer h.tr.mu.Unlock()
	urls := slices.Clone(h.tr.urls)
	slices.Sort(urls)
	return slices.Compact(urls)
}

// TestMaxPages: a crawl with Crawler.MaxPages saves the first pages of the
// crawl without it, logs and journals what it did up to the last of them,
// and stops there, whatever the order and Parallel: and fetching ahead
// requests no page that the crawl of one page at a time does not, so a
// page it may never take is never requested.
func TestMaxPages(t *testing.T) {
	for _, tc := range []crawlCase{parallelCases[0], parallelCases[3]} {
		for _, order := range []string{"lifo", "bfs", "priority"} {
			t.Run(tc.name+" "+order, func(t *testing.T) {
				t.Parallel()
				var whole crawlRecord
				var wholePages []saved
				synctest.Test(t, func(t *testing.T) {
					var h *harness
					whole, h = crawlParallelWith(t, tc, order, "reference", 1, 100*time.Millisecond, 64<<20, nil)
					wholePages = h.pages
				})
				total := whole.res.Saved
				for _, most := range []int{1, 2, total / 2, total - 1, total, total + 1} {
					t.Run(fmt.Sprintf("max %d of %d", most, total), func(t *testing.T) {
						checkMaxPages(t, tc, order, most, whole, wholePages)
					})
				}
			})
		}
	}
}

// checkMaxPages crawls tc with MaxPages most, one page at a time and
// several at once, and checks each crawl against whole, the crawl without
// a limit, which saved wholePages.
func checkMaxPages(t *testing.T, tc crawlCase, order string, most int, whole crawlRecord, wholePages []saved) {
	log, journ, reached, waiting := cappedPrefix(whole, most)
	var first crawlRecord
	var firstURLs []string
	for _, parallel := range []int{1, 2, 4} {
		clocks := []time.Duration{100 * time.Millisecond}
		if parallel == 4 {
			clocks = append(clocks, 0) // and on the real clock, for the race detector
		}
		for _, delay := range clocks {
			var got crawlRecord
			var h *harness
			crawl := func(t *testing.T) {
				got, h = crawlParallelWith(t, tc, order, "reference", parallel, delay, 64<<20, func(h *harness) { h.c.MaxPages = most })
			}
			if delay > 0 {
				synctest.Test(t, crawl)
			} else {
				crawl(t)
			}
			urls := requested(h)
			if parallel == 1 {
				first, firstURLs = got, urls
				checkCappedCrawl(t, got, h, most, whole, wholePages, log, journ, reached, waiting)
				continue
			}
			if d := first.diff(got); d != "" {
				t.Errorf("-parallel %d, delay %v:\n%s", parallel, delay, d)
			}
			if !slices.Equal(urls, firstURLs) {
				t.Errorf("-parallel %d, delay %v requested\n%q\nwhere one page at a time requests\n%q", parallel, delay, urls, firstURLs)
			}
		}
	}
}

// checkCappedCrawl checks a crawl one page at a time with MaxPages most,
// which left got and h, against what the whole crawl and cappedPrefix
// say it must leave.
func checkCappedCrawl(t *testing.T, got crawlRecord, h *harness, most int, whole crawlRecord, wholePages []saved, log, journ string, reached bool, waiting int) {
	t.Helper()
	wantPages := wholePages[:min(most, len(wholePages))]
	if !slices.Equal(h.pages, wantPages) {
		t.Errorf("saved %d pages, not the first %d of the crawl without a limit", len(h.pages), len(wantPages))
	}
	if got.log != log {
		t.Errorf("the log is not the beginning of the crawl's without a limit, up to its page %d:\n%s", most, got.log)
	}
	if got.journal != journ {
		t.Errorf("the journal is not the beginning of the crawl's without a limit:\n%s", got.journal)
	}
	if !strings.HasPrefix(whole.errs, got.errs) {
		t.Errorf("stderr %q is not the beginning of the crawl's without a limit, %q", got.errs, whole.errs)
	}
	if got.res.MaxPagesReached != reached || reached && got.res.Pending != waiting || !reached && got.res.Pending != 0 {
		t.Errorf("MaxPagesReached %v, Pending %d; want %v, %d", got.res.MaxPagesReached, got.res.Pending, reached, waiting)
	}
	for host, n := range got.requests {
		if n > whole.requests[host] {
			t.Errorf("%d requests to %s, more than the crawl without a limit's %d", n, host, whole.requests[host])
		}
	}
}

// TestMaxPagesAhead: under a limit, a crawl in a queue still fetches
// ahead the pages it is certain to take, from several hosts at once, so
// four hosts take little more than half as long as one page at a time
// (not a quarter: no page is foreseen, so each host's pages wait for the
// crawl to add them). In a stack or a priority bag, where no page in the
// bag is certain, it fetches only the page it waits for, and takes as
// long as one page at a time.
func TestMaxPagesAhead(t *testing.T) {
	const pause, took, most = time.Second, 50 * time.Millisecond, 90
	tc := crawlCase{
		handler:  func() http.Handler { return playground.VirtualHosts(clusters(4, 25)) },
		seed:     "http://h0.example.edu/index.html",
		scope:    []string{"http://*.example.edu/"},
		maxDepth: 10,
		took:     took,
	}
	for _, order := range []string{"lifo", "bfs", "priority"} {
		t.Run(order, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var elapsed [2]time.Duration
				for i, n := range []int{1, 4} {
					start := time.Now()
					got, _ := crawlParallelWith(t, tc, order, "reference", n, pause, 64<<20, func(h *harness) { h.c.MaxPages = most })
					elapsed[i] = time.Since(start)
					if got.res.Saved != most || !got.res.MaxPagesReached {
						t.Fatalf("-parallel %d: saved %d pages, MaxPagesReached %v; want %d, true", n, got.res.Saved, got.res.MaxPagesReached, most)
					}
				}
				ratio := float64(elapsed[1]) / float64(elapsed[0])
				t.Logf("-parallel 1: %v; -parallel 4: %v, %.3f times as long", elapsed[0], elapsed[1], ratio)
				if order == "bfs" && ratio > 0.6 {
					t.Errorf("-parallel 4 took %.3f times as long as -parallel 1, want at most 0.6", ratio)
				}
				if order != "bfs" && elapsed[1] != elapsed[0] {
					t.Errorf("-parallel 4 took %v, want %v, as long as one page at a time", elapsed[1], elapsed[0])
				}
			})
		})
	}
}

// TestMaxPagesWaits: under a limit, a lane does not fetch a page in the
// bag that the crawl may not take, even when it has nothing else to do:
// here the crawl waits long for a slow page on one host, while the pages
// after it, on another, would be fetched ahead without a limit.
func TestMaxPagesWaits(t *testing.T) {
	site := fstest.MapFS{
		"a.example.edu/index.html": {Data: []byte(`<a href=slow.html>slow</a> <a href=http://b.example.edu/1.html>1</a> <a href=http://b.example.edu/2.html>2</a> <a href=http://b.example.edu/3.html>3</a>`)},
		"a.example.edu/slow.html":  {Data: []byte(`slow`)},
		"b.example.edu/1.html":     {Data: []byte(`one`)},
		"b.example.edu/2.html":     {Data: []byte(`two`)},
		"b.example.edu/3.html":     {Data: []byte(`three`)},
	}
	tc := crawlCase{
		handler:  func() http.Handler { return playground.VirtualHosts(site) },
		seed:     "http://a.example.edu/index.html",
		scope:    []string{"http://*.example.edu/"},
		maxDepth: 1,
		latency: func(u string) time.Duration {
			if strings.HasSuffix(u, "/slow.html") {
				return time.Minute
			}
			return 10 * time.Millisecond
		},
	}
	// In a queue: index, slow, 1, 2, 3. With 3 pages, 1 is certain from
	// the start (index and slow may both be saved, not more); 2 and 3
	// never are, and are never requested.
	for _, tt := range []struct {
		order string
		want  []string
	}{
		{"bfs", []string{"/robots.txt", "/index.html", "/slow.html", "/1.html"}},
		{"lifo", []string{"/robots.txt", "/index.html", "/3.html", "/2.html"}},
	} {
		t.Run(tt.order, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, h := crawlParallelWith(t, tc, tt.order, "reference", 4, time.Second, 64<<20, func(h *harness) { h.c.MaxPages = 3 })
				var got []string
				for _, u := range requested(h) {
					if _, path, ok := strings.Cut(strings.TrimPrefix(u, "http://"), "/"); ok && !slices.Contains(got, "/"+path) {
						got = append(got, "/"+path)
					}
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(tt.want))
				if !slices.Equal(got, want) {
					t.Errorf("requested %q, want %q", got, want)
				}
			})
		})
	}
}

// TestMaxPagesRequisites: a crawl with MaxPages fetches the requisites of
// the pages it saves, all of them, and of no other page.
func TestMaxPagesRequisites(t *testing.T) {
	// reqSite's pages are index.html, a.html and b.html, in that order;
	// a.html needs img/a.png, and b.html static.example.edu/b.png too.
	notFor := map[int][]string{
		1: {"http://static.example.edu/b.png", "http://www.example.edu/img/a.png"},
		2: {"http://static.example.edu/b.png"},
		3: nil,
	}
	for _, parallel := range []int{1, 4} {
		for most := 1; most <= 3; most++ {
			t.Run(fmt.Sprintf("parallel %d max %d", parallel, most), func(t *testing.T) {
				run := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, func(h *harness) { h.c.MaxPages = most })
				if run.err != nil || run.res.Saved != most {
					t.Fatalf("%v, %d pages saved; want %d", run.err, run.res.Saved, most)
				}
				want := slices.DeleteFunc(slices.Clone(reqWanted), func(u string) bool { return slices.Contains(notFor[most], u) })
				var got []string
				for _, u := range run.requested() {
					if !strings.HasSuffix(u, ".html") {
						got = append(got, u)
					}
				}
				if slices.Sort(got); !slices.Equal(got, want) {
					t.Errorf("requisites requested:\n%s\nwant each once:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}
