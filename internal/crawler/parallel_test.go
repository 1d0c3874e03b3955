package crawler

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/playground"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/testbed/linediff"
	"tse-crawler/internal/testbed/synthsite"
)

// multiSite is a university of four hosts, served one folder per host,
// whose pages link across hosts, to pages that are missing, to pages
// robots.txt disallows, and to pages that redirect to other hosts (see
// multiRedirects), so that a crawl of it meets every outcome on every host.
var multiSite = fstest.MapFS{
	"www.example.edu/robots.txt": {Data: []byte("User-agent: *\nDisallow: /private/\n")},
	"www.example.edu/index.html": {Data: []byte(`<a href=1.html>1</a> <a href=http://ir.example.edu/>ir</a>
		<a href=http://lib.example.edu/a.html>lib</a> <a href=private/x.html>private</a> <a href=docs>docs</a>`)},
	"www.example.edu/1.html":          {Data: []byte(`<a href=2.html>2</a> <a href=http://staff.example.edu/s1.html>s1</a> <a href=gone.html>gone</a> <a href=moved.html>moved</a>`)},
	"www.example.edu/2.html":          {Data: []byte(`<a href=3.html>3</a> <a href=http://ir.example.edu/p2.html>p2</a> <a href=http://elsewhere.org/>out</a>`)},
	"www.example.edu/3.html":          {Data: []byte(`<a href=index.html>home</a> <a href=http://lib.example.edu/b.html>b</a> <a href=http://staff.example.edu/s3.html>s3</a>`)},
	"www.example.edu/docs/index.html": {Data: []byte(`<a href=../1.html>1</a> <a href=http://lib.example.edu/c.html>c</a> <a href=d1.html>d1</a>`)},
	"www.example.edu/docs/d1.html":    {Data: []byte(`<a href=d2.html>d2</a> <a href=http://ir.example.edu/p9.html>p9</a>`)},
	"www.example.edu/docs/d2.html":    {Data: []byte(`<a href=d1.html>d1</a> <a href=http://staff.example.edu/private/m.html>m</a>`)},
	"www.example.edu/private/x.html":  {Data: []byte(`secret`)},
	"ir.example.edu/robots.txt":       {Data: []byte("User-agent: *\nDisallow: /p9\n")},
	"ir.example.edu/index.html":       {Data: []byte(`<a href=p1.html>p1</a> <a href=p2.html>p2</a> <a href=p9.html>p9</a> <a href=jump.html>jump</a>`)},
	"ir.example.edu/p1.html":          {Data: []byte(`<a href=p2.html>p2</a> <a href=http://www.example.edu/2.html>w2</a> <a href=p3.html>p3</a>`)},
	"ir.example.edu/p2.html":          {Data: []byte(`<a href=p4.html>p4</a> <a href=http://lib.example.edu/a.html>a</a> <a href=missing.html>missing</a>`)},
	"ir.example.edu/p3.html":          {Data: []byte(`<a href=p5.html>p5</a>`)},
	"ir.example.edu/p4.html":          {Data: []byte(`<a href=http://staff.example.edu/s2.html>s2</a> <a href=p5.html>p5</a>`)},
	"ir.example.edu/p5.html":          {Data: []byte(`<a href=http://www.example.edu/docs/>docs</a> <a href=p6.html>p6</a>`)},
	"ir.example.edu/p6.html":          {Data: []byte(`the end of ir`)},
	"lib.example.edu/a.html":          {Data: []byte(`<a href=b.html>b</a> <a href=c.html>c</a> <a href=http://ir.example.edu/p3.html>p3</a> <a href=old.html>old</a>`)},
	"lib.example.edu/b.html":          {Data: []byte(`<a href=c.html>c</a> <a href=e.html>e</a> <a href=http://www.example.edu/3.html>w3</a>`)},
	"lib.example.edu/c.html":          {Data: []byte(`<a href=d.html>d</a> <a href=http://staff.example.edu/s4.html>s4</a>`)},
	"lib.example.edu/d.html":          {Data: []byte(`<a href=a.html>a</a> <a href=f.html>f</a>`)},
	"lib.example.edu/f.html":          {Data: []byte(`<a href=http://ir.example.edu/p6.html>p6</a>`)},
	"staff.example.edu/robots.txt":    {Data: []byte("User-agent: *\nDisallow: /private/\n")},
	"staff.example.edu/s1.html":       {Data: []byte(`<a href=s2.html>s2</a> <a href=s5.html>s5</a> <a href=http://lib.example.edu/d.html>d</a>`)},
	"staff.example.edu/s2.html":       {Data: []byte(`<a href=s3.html>s3</a> <a href=private/n.html>n</a>`)},
	"staff.example.edu/s3.html":       {Data: []byte(`<a href=s4.html>s4</a> <a href=http://www.example.edu/docs/d2.html>d2</a>`)},
	"staff.example.edu/s4.html":       {Data: []byte(`<a href=s1.html>s1</a> <a href=http://lib.example.edu/f.html>f</a>`)},
	"staff.example.edu/s5.html":       {Data: []byte(`the end of staff`)},
}

// multiRedirects are the redirects of multiSite, across hosts.
var multiRedirects = map[string]string{
	"www.example.edu/moved.html": "http://lib.example.edu/e.html",
	"ir.example.edu/jump.html":   "http://staff.example.edu/s5.html",
	"lib.example.edu/e.html":     "http://ir.example.edu/p4.html", // a second hop
	"lib.example.edu/old.html":   "http://www.example.edu/private/x.html",
}

// multiHandler serves multiSite with its redirects.
func multiHandler() http.Handler {
	h := playground.VirtualHosts(multiSite)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to, ok := multiRedirects[r.URL.Host+r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusMovedPermanently)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// A crawlCase is one crawl to compare at several -parallel values.
type crawlCase struct {
	name     string
	handler  func() http.Handler
	seed     string
	scope    []string
	maxDepth int
	region   bool // only the content regions of testdata/vhosts
	paced    bool // robots.txt asks for pauses, which the real clock would wait
	// In fake time, how long each request takes: took, or what latency
	// says, or, if neither is set, what the function latency says.
	took    time.Duration
	latency func(url string) time.Duration
}

var parallelCases = []crawlCase{
	{"multi", multiHandler, "http://www.example.edu/index.html", []string{"http://*.example.edu/"}, 10, false, false, 0, nil},
	{"multi depth 2", multiHandler, "http://www.example.edu/index.html", []string{"http://*.example.edu/"}, 2, false, false, 0, nil},
	{"vhosts", func() http.Handler {
		return playground.VirtualHosts(os.DirFS(filepath.Join("..", "..", "testdata", "vhosts")))
	}, "http://www.example.edu/index.html", []string{"http://*.example.edu/"}, 10, true, true, 0, nil},
	{"synthetic", func() http.Handler { return synthsite.Site{Pages: 300, Seed: 5, Hosts: 5} },
		"http://h0.synth.test/tse/synth/0.html", []string{"http://*.synth.test/"}, 4, false, false, 0, nil},
}

// A crawlRecord is everything a crawl leaves that must not depend on
// -parallel: the page directory, the log, the journal, the figures but the
// times, and the requests, by host.
type crawlRecord struct {
	pages, log, errs, journal string
	res                       Result
	requests                  map[string]int64
}

// latency makes each request take its own time, from 0 to 90ms, the same
// on every run, so that pages fetched at once come back in another order
// than they were asked for.
func latency(u string) time.Duration {
	h := fnv.New32a()
	h.Write([]byte(u))
	return time.Duration(h.Sum32()%10) * 10 * time.Millisecond
}

// crawlParallel crawls tc with the given bag, scanner and -parallel, each
// host paced by delay.
func crawlParallel(t *testing.T, tc crawlCase, order, links string, parallel int, delay time.Duration, budget int64) crawlRecord {
	t.Helper()
	rec, _ := crawlParallelWith(t, tc, order, links, parallel, delay, budget, nil)
	return rec
}

// crawlParallelWith is crawlParallel, with set, if given, called on the
// harness before the crawl; it also returns the harness.
func crawlParallelWith(t *testing.T, tc crawlCase, order, links string, parallel int, delay time.Duration, budget int64, set func(*harness)) (crawlRecord, *harness) {
	t.Helper()
	h := newHarness(nil, tc.maxDepth, delay)
	h.tr.h = tc.handler()
	switch {
	case delay == 0: // on the real clock
	case tc.took > 0:
		h.tr.took = tc.took
	case tc.latency != nil:
		h.tr.latency = tc.latency
	default:
		h.tr.latency = latency
	}
	h.fetcher.Robots = true
	sc, err := scope.Parse(tc.scope)
	if err != nil {
		t.Fatal(err)
	}
	h.c.Scope.(*scopeFuncs).internal = sc.Contains
	h.c.Bag, _ = bag.New(order)
	h.c.Scanner, _ = pagescan.New(links)
	if links == "html" {
		h.c.Scope.(*scopeFuncs).key = browserurl.Normalize
		h.fetcher.WHATWG = true
	}
	if tc.region {
		h.c.Scanner = &pagescan.Region{From: []byte("<!-- CONTENT -->"), Until: []byte("<!-- /CONTENT -->"), Scanner: h.c.Scanner}
	}
	scans := &countingScanner{Scanner: h.c.Scanner, scans: make(map[string]int)}
	h.c.Scanner = scans
	h.workers(parallel)
	h.c.AheadMemory = budget
	var journ strings.Builder
	h.c.Sink.(*funcSink).journal = func(e pagefetch.Page) error {
		fmt.Fprintf(&journ, "%+v\n", e)
		return nil
	}
	if set != nil {
		set(h)
	}
	res, err := h.c.Crawl(t.Context(), tc.seed)
	if err != nil {
		t.Fatalf("Crawl: %v\n%s", err, &h.errs)
	}
	scans.check(t, h.log.String())
	var pages strings.Builder
	for _, p := range h.pages {
		fmt.Fprintf(&pages, "%d\n%s\n%d\n%s\n", p.id, p.url, p.depth, p.html)
	}
	return crawlRecord{pages.String(), h.log.String(), h.errs.String(), journ.String(), res, h.fetcher.Scheduler.HostRequests()}, h
}

// A countingScanner counts how many times each page is scanned.
type countingScanner struct {
	pagescan.Scanner
	mu    sync.Mutex
	scans map[string]int
}

func (s *countingScanner) Scan(pageURL string, page []byte, found func(link string)) {
	s.mu.Lock()
	s.scans[pageURL]++
	s.mu.Unlock()
	s.Scanner.Scan(pageURL, page, found)
}

// check checks that the crawl whose log is log scanned each page it logs
// Scanning once, and no other: a page whose links were read ahead is not
// scanned again when the crawl takes it.
func (s *countingScanner) check(t *testing.T, log string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	scanned := 0
	for line := range strings.Lines(log) {
		if _, url, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "Scanning: "); ok {
			scanned++
			if n := s.scans[url]; n != 1 {
				t.Errorf("%s was scanned %d times, want once", url, n)
			}
		}
	}
	total := 0
	for _, n := range s.scans {
		total += n
	}
	if total != scanned {
		t.Errorf("%d scans, want %d, one for each page the log says is scanned", total, scanned)
	}
}

// diff says how two crawls differ, or "".
func (a crawlRecord) diff(b crawlRecord) string {
	var d []string
	for _, f := range []struct{ name, a, b string }{
		{"page directory", a.pages, b.pages}, {"log", a.log, b.log}, {"stderr", a.errs, b.errs}, {"journal", a.journal, b.journal},
	} {
		if f.a != f.b {
			d = append(d, fmt.Sprintf("the %s differs:\n%s", f.name, linediff.First(f.a, f.b)))
		}
	}
	ra, rb := a.res, b.res
	ra.AheadPeak, rb.AheadPeak = 0, 0 // as timing has it
	if fmt.Sprintf("%+v", ra) != fmt.Sprintf("%+v", rb) {
		d = append(d, fmt.Sprintf("Result %+v, want %+v", rb, ra))
	}
	if !maps.Equal(a.requests, b.requests) {
		d = append(d, fmt.Sprintf("requests by host %v, want %v", b.requests, a.requests))
	}
	return strings.Join(d, "\n")
}

// TestParallelSameCrawl: fetching ahead on several hosts at once changes
// nothing a crawl leaves, whatever the order, the scanner and -parallel.
// Each crawl runs twice: in fake time with a pause and requests of
// varied lengths, so that pages arrive in many orders; and on the real
// clock with no pause, so that the race detector sees the lanes race
// (but for a site whose robots.txt asks for pauses, which would be real).
func TestParallelSameCrawl(t *testing.T) {
	for _, tc := range parallelCases {
		for _, order := range []string{"lifo", "bfs", "priority"} {
			for _, links := range []string{"reference", "html"} {
				t.Run(fmt.Sprintf("%s %s %s", tc.name, order, links), func(t *testing.T) {
					t.Parallel()
					var want crawlRecord
					synctest.Test(t, func(t *testing.T) {
						want = crawlParallel(t, tc, order, links, 1, 100*time.Millisecond, 64<<20)
					})
					if want.res.Saved < 10 {
						t.Fatalf("the crawl saved %d pages: too few to tell anything", want.res.Saved)
					}
					for _, n := range []int{2, 4, 8} {
						synctest.Test(t, func(t *testing.T) {
							if d := want.diff(crawlParallel(t, tc, order, links, n, 100*time.Millisecond, 64<<20)); d != "" {
								t.Errorf("-parallel %d, in fake time:\n%s", n, d)
							}
						})
						if tc.paced {
							continue
						}
						if d := want.diff(crawlParallel(t, tc, order, links, n, 0, 64<<20)); d != "" {
							t.Errorf("-parallel %d, on the real clock:\n%s", n, d)
						}
					}
				})
			}
		}
	}
}

// clusters returns a university's site: hosts h0.example.edu, h1, … with
// pages pages each: an index that links to every page of its host (and,
// on h0, the front page, to every other host's index), and pages that link
// to the next page of their host, to their index, and to a page of another
// host. A crawl one page at a time goes through it host by host, so that
// its pauses add up.
func clusters(hosts, pages int) fstest.MapFS {
	fsys := fstest.MapFS{}
	host := func(k int) string { return fmt.Sprintf("h%d.example.edu", k%hosts) }
	for k := range hosts {
		var index strings.Builder
		for i := 1; i < pages; i++ {
			fmt.Fprintf(&index, "<a href=p%d.html>%d</a>\n", i, i)
			page := fmt.Sprintf("<a href=p%d.html>next</a> <a href=index.html>index</a> <a href=http://%s/p%d.html>there</a>\n",
				i+1, host(k+i), i)
			fsys[host(k)+fmt.Sprintf("/p%d.html", i)] = &fstest.MapFile{Data: []byte(page)}
		}
		if k == 0 {
			for j := 1; j < hosts; j++ {
				fmt.Fprintf(&index, "<a href=http://%s/index.html>host %d</a>\n", host(j), j)
			}
		}
		fsys[host(k)+"/index.html"] = &fstest.MapFile{Data: []byte(index.String())}
	}
	return fsys
}

// TestParallelSpeed: four hosts of 25 pages each, with a pause of a second
// each and links across hosts, crawled four at a time, take little more
// than the busiest host's own floor, its requests one pause apart. One at
// a time, the crawl goes mostly host by host, and takes two to three times
// as long.
func TestParallelSpeed(t *testing.T) {
	const pause, took = time.Second, 50 * time.Millisecond
	for _, order := range []string{"lifo", "bfs", "priority"} {
		t.Run(order, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var ratios [2]float64
				for i, n := range []int{1, 4} {
					h := newHarness(nil, 10, pause)
					h.tr.h = playground.VirtualHosts(clusters(4, 25))
					h.tr.took = took
					h.fetcher.Robots = true
					sc, _ := scope.Parse([]string{"http://*.example.edu/"})
					h.c.Scope.(*scopeFuncs).internal = sc.Contains
					h.c.Bag, _ = bag.New(order)
					h.c.AheadMemory = 64 << 20
					h.workers(n)
					start := time.Now()
					res, err := h.c.Crawl(t.Context(), "http://h0.example.edu/index.html")
					if err != nil {
						t.Fatal(err)
					}
					elapsed := time.Since(start)
					if res.Saved != 100 {
						t.Fatalf("saved %d pages, want 100", res.Saved)
					}
					busiest := slices.Max(slices.Collect(maps.Values(h.fetcher.Scheduler.HostRequests())))
					floor := time.Duration(busiest-1)*pause + time.Duration(busiest)*took
					ratios[i] = float64(elapsed) / float64(floor)
					t.Logf("-parallel %d: %v, %.3f times the busiest host's floor of %v (%d requests)", n, elapsed, ratios[i], floor, busiest)
				}
				if ratios[1] > 1.15 {
					t.Errorf("-parallel 4 took %.3f times the busiest host's floor, want at most 1.15", ratios[1])
				}
				if ratios[0] < 2 {
					t.Errorf("-parallel 1 took %.3f times the busiest host's floor, want at least twice: the site does not show what lanes are for", ratios[0])
				}
			})
		})
	}
}

// TestParallelMemory: pages fetched ahead wait in memory within the
// budget, which a page fetched already may overrun, as may one fetch for
// each other lane under way; a budget too small for any page still gives
// the same crawl, fetched one page at a time once the budget is full.
func TestParallelMemory(t *testing.T) {
	tc := parallelCases[3] // synthetic: pages of 1 to 20 KiB
	largest := 0
	site := synthsite.Site{Pages: 300, Seed: 5, Hosts: 5}
	for n := range site.Pages {
		largest = max(largest, len(site.Page(n)))
	}
	var want crawlRecord
	synctest.Test(t, func(t *testing.T) {
		want = crawlParallel(t, tc, "lifo", "reference", 1, 100*time.Millisecond, 64<<20)
	})
	for _, budget := range []int64{0, 1, 16 << 10, 100 << 10, 64 << 20} {
		for _, n := range []int{2, 8} {
			t.Run(fmt.Sprintf("budget %d parallel %d", budget, n), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					got := crawlParallel(t, tc, "lifo", "reference", n, 100*time.Millisecond, budget)
					if d := want.diff(got); d != "" {
						t.Fatal(d)
					}
					// Bodies are read into buffers a little larger than the
					// pages they hold.
					limit := budget + int64(n)*int64(2*largest)
					if got.res.AheadPeak > limit {
						t.Errorf("%d bytes waited in memory at once, want at most %d", got.res.AheadPeak, limit)
					}
					if budget == 0 && got.res.AheadPeak > int64(2*largest) {
						t.Errorf("with no budget, %d bytes waited in memory, want one page at most", got.res.AheadPeak)
					}
					t.Logf("peak %d bytes", got.res.AheadPeak)
				})
			})
		}
	}
}

// TestParallelCanceled: cancelling a crawl that fetches from several hosts
// at once stops every lane at once, with its request, and Crawl returns
// then, with every page it saved whole and journaled.
func TestParallelCanceled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(nil, 10, time.Second)
		h.tr.h = playground.VirtualHosts(clusters(4, 25))
		h.tr.took = 300 * time.Millisecond
		sc, _ := scope.Parse([]string{"http://*.example.edu/"})
		h.c.Scope.(*scopeFuncs).internal = sc.Contains
		h.c.AheadMemory = 64 << 20
		h.workers(4)
		var journaled int
		h.c.Sink.(*funcSink).journal = func(pagefetch.Page) error { journaled++; return nil }
		stop := errors.New("interrupt")
		ctx, cancel := context.WithCancelCause(t.Context())
		start := time.Now()
		// Each host is asked every 1.3s; h1, h2 and h3 from 4.2s to 4.5s.
		const at = 4*time.Second + 350*time.Millisecond
		time.AfterFunc(at, func() { cancel(stop) })
		res, err := h.c.Crawl(ctx, "http://h0.example.edu/index.html")
		if !errors.Is(err, stop) {
			t.Fatalf("Crawl error = %v, want %v", err, stop)
		}
		if took := time.Since(start); took != at {
			t.Errorf("Crawl returned after %v, want at once, %v", took, at)
		}
		inFlight := 0
		for _, span := range h.tr.spans {
			if span[1].Sub(start) > at {
				t.Errorf("a request ran on after the crawl was cancelled: %v to %v", span[0].Sub(start), span[1].Sub(start))
			}
			if span[1].Sub(start) == at {
				inFlight++
			}
		}
		if inFlight != 3 {
			t.Errorf("%d requests were in flight when the crawl was cancelled, want 3", inFlight)
		}
		if res.Saved != len(h.pages) || journaled != res.Saved+res.Failed+res.Redirects+res.Disallowed {
			t.Errorf("saved %d pages, Result %+v, %d journaled", len(h.pages), res, journaled)
		}
	})
}

// hostChain returns a site of hosts h0.example.edu, h1, … found one from
// another: each host has pages pages in a binary tree (index.html links to
// p1 and p2, p1 to p3 and p4, and so on), and each page links last to the
// page of the same name on the next host, so that a host's pages are known
// only once pages of the host before it have been scanned.
func hostChain(hosts, pages int) fstest.MapFS {
	name := func(j int) string {
		if j == 0 {
			return "index.html"
		}
		return fmt.Sprintf("p%d.html", j)
	}
	fsys := fstest.MapFS{}
	for k := range hosts {
		for j := range pages {
			var b strings.Builder
			fmt.Fprintf(&b, "page %d of host %d\n", j, k)
			for _, child := range []int{2*j + 1, 2*j + 2} {
				if child < pages {
					fmt.Fprintf(&b, "<a href=%s>%d</a>\n", name(child), child)
				}
			}
			if k+1 < hosts {
				fmt.Fprintf(&b, "<a href=http://h%d.example.edu/%s>on</a>\n", k+1, name(j))
			}
			fsys[fmt.Sprintf("h%d.example.edu/%s", k, name(j))] = &fstest.MapFile{Data: []byte(b.String())}
		}
	}
	return fsys
}

// clusterChain returns a site like clusters, but for its hosts being found
// one from another: each index links to every page of its host and to the
// next host's index, and page i to the next page of its host, to its
// index and to page i of the next host.
func clusterChain(hosts, pages int) fstest.MapFS {
	fsys := fstest.MapFS{}
	host := func(k int) string { return fmt.Sprintf("h%d.example.edu", k) }
	for k := range hosts {
		var index strings.Builder
		for i := 1; i < pages; i++ {
			fmt.Fprintf(&index, "<a href=p%d.html>%d</a>\n", i, i)
			page := fmt.Sprintf("<a href=p%d.html>next</a> <a href=index.html>index</a>\n", i+1)
			if k+1 < hosts {
				page += fmt.Sprintf("<a href=http://%s/p%d.html>there</a>\n", host(k+1), i)
			}
			fsys[host(k)+fmt.Sprintf("/p%d.html", i)] = &fstest.MapFile{Data: []byte(page)}
		}
		if k+1 < hosts {
			fmt.Fprintf(&index, "<a href=http://%s/index.html>next host</a>\n", host(k+1))
		}
		fsys[host(k)+"/index.html"] = &fstest.MapFile{Data: []byte(index.String())}
	}
	return fsys
}

// TestParallelChain: five hosts found one from another, crawled four at a
// time, leave what a crawl of one page at a time leaves, and take little
// more than the busiest host's floor where the pages the crawl is bound to
// fetch can be known ahead. In a queue, a page foreseen has its own links
// read at once, so they can. In a stack or a priority bag, they can on
// clusters, whose indexes list every page of their host, but not on
// trees: there a page found early may be added late, at a depth past
// which its links are not followed, so a host's deeper pages are known
// only as the crawl reaches them, host after host.
func TestParallelChain(t *testing.T) {
	const pause, took = time.Second, 50 * time.Millisecond
	sites := []struct {
		name  string
		fsys  fstest.MapFS
		pages int
		fast  []string // the orders that take at most 1.3 times the floor
	}{
		{"trees", hostChain(5, 31), 5 * 31, []string{"bfs"}},
		{"clusters", clusterChain(5, 25), 5 * 25, []string{"lifo", "bfs", "priority"}},
	}
	for _, site := range sites {
		tc := crawlCase{
			name:     site.name,
			handler:  func() http.Handler { return playground.VirtualHosts(site.fsys) },
			seed:     "http://h0.example.edu/index.html",
			scope:    []string{"http://*.example.edu/"},
			maxDepth: 10,
			took:     took,
		}
		for _, order := range []string{"lifo", "bfs", "priority"} {
			t.Run(site.name+" "+order, func(t *testing.T) {
				t.Parallel()
				var want crawlRecord
				for _, n := range []int{1, 4} {
					synctest.Test(t, func(t *testing.T) {
						start := time.Now()
						got := crawlParallel(t, tc, order, "reference", n, pause, 64<<20)
						elapsed := time.Since(start)
						busiest := slices.Max(slices.Collect(maps.Values(got.requests)))
						floor := time.Duration(busiest-1)*pause + time.Duration(busiest)*took
						ratio := float64(elapsed) / float64(floor)
						t.Logf("-parallel %d: %v, %.3f times the busiest host's floor of %v (%d requests)", n, elapsed, ratio, floor, busiest)
						if n == 1 {
							want = got
							if got.res.Saved != site.pages {
								t.Fatalf("saved %d pages, want %d", got.res.Saved, site.pages)
							}
							return
						}
						if d := want.diff(got); d != "" {
							t.Errorf("-parallel %d:\n%s", n, d)
						}
						if slices.Contains(site.fast, order) && ratio > 1.3 {
							t.Errorf("-parallel %d took %.3f times the busiest host's floor, want at most 1.3", n, ratio)
						}
					})
				}
			})
		}
	}
}

// TestForesightBound: in a queue, a redirect's target goes in after pages
// deeper than it, so a page found on the target can be added deeper than
// the target's depth says, there by maxDepth, where its links are not
// followed. Reading ahead must not follow them either: a crawl of four
// pages at once requests what a crawl of one page at a time requests.
func TestForesightBound(t *testing.T) {
	site := fstest.MapFS{
		"a.example.edu/index.html": {Data: []byte(`<a href=A.html>A</a> <a href=http://c.example.edu/C.html>C</a>`)},
		"a.example.edu/A.html":     {Data: []byte(`<a href=http://b.example.edu/B.html>B</a>`)},
		"b.example.edu/B.html":     {Data: []byte(`<a href=http://f.example.edu/F.html>F</a>`)},
		"c.example.edu/C2.html":    {Data: []byte(`<a href=http://f.example.edu/F.html>F</a>`)},
		"f.example.edu/F.html":     {Data: []byte(`<a href=http://g.example.edu/G.html>G</a>`)},
		"g.example.edu/G.html":     {Data: []byte(`never requested`)},
	}
	// B, at depth 2, adds F at 3, the maxDepth, before C2, at depth 1
	// but added after B, comes to it. B takes long, so that the lanes
	// read C2, fetched late, while the crawl waits for B.
	slow := map[string]time.Duration{"http://b.example.edu/B.html": 10 * time.Second, "http://c.example.edu/C2.html": time.Second}
	var runs [2]crawlRecord
	for i, n := range []int{1, 4} {
		synctest.Test(t, func(t *testing.T) {
			tc := crawlCase{
				handler: func() http.Handler {
					return redirects{map[string]string{"/C.html": "http://c.example.edu/C2.html"}, playground.VirtualHosts(site)}
				},
				seed:     "http://a.example.edu/index.html",
				scope:    []string{"http://*.example.edu/"},
				maxDepth: 3,
				latency:  func(u string) time.Duration { return slow[u] + 10*time.Millisecond },
			}
			runs[i] = crawlParallel(t, tc, "bfs", "reference", n, time.Second, 64<<20)
		})
	}
	if d := runs[0].diff(runs[1]); d != "" {
		t.Errorf("-parallel 4:\n%s", d)
	}
	if runs[0].requests["g.example.edu"] != 0 || runs[0].res.Saved != 5 {
		t.Errorf("the crawl of one page at a time saved %d pages, requested %v; want 5 pages, and nothing of g.example.edu", runs[0].res.Saved, runs[0].requests)
	}
}
