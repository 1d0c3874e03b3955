package crawler

import (
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/linkgraph"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/playground"
	"tse-crawler/internal/scope"
)

// reqSite is a site of three pages on www.example.edu whose requisites
// are on it and on static.example.edu: a stylesheet that imports another,
// which imports one on the second host, images, one that robots.txt
// disallows on each host, one that is missing, one that redirects, and a
// stylesheet and an image that two pages share.
var reqSite = fstest.MapFS{
	"www.example.edu/robots.txt": {Data: []byte("User-agent: *\nDisallow: /private/\n")},
	"www.example.edu/index.html": {Data: []byte(`<a href=a.html>a</a> <a href=b.html>b</a>
		<link rel=stylesheet href="css/site.css"> <img src="img/logo.png"> <img src="private/p.png"> <img src="missing.png">
		<img src="old.png#top"> <script src="http://static.example.edu/lib.js"></script>`)},
	"www.example.edu/a.html":        {Data: []byte(`<a href=index.html>home</a> <link rel=stylesheet href="css/site.css"> <img src="img/a.png"> <img src="mailto:x@example.edu">`)},
	"www.example.edu/b.html":        {Data: []byte(`<a href=a.html>a</a> <img src="http://static.example.edu/b.png"> <img src="img/a.png">`)},
	"www.example.edu/css/site.css":  {Data: []byte(`@import "base.css"; body { background: url(../img/bg.png) } p { background: url(../img/bg.png) }`)},
	"www.example.edu/css/base.css":  {Data: []byte(`@import url(http://static.example.edu/fonts.css); div { background: url(/img/p.png) }`)},
	"www.example.edu/img/logo.png":  {Data: []byte("logo")},
	"www.example.edu/img/new.png":   {Data: []byte("new")},
	"www.example.edu/img/a.png":     {Data: []byte("a")},
	"www.example.edu/img/bg.png":    {Data: []byte("bg")},
	"www.example.edu/img/p.png":     {Data: []byte("p")},
	"static.example.edu/robots.txt": {Data: []byte("User-agent: *\nDisallow: /blocked/\n")},
	"static.example.edu/fonts.css":  {Data: []byte(`@font-face { font-family: f; src: url(f.woff2) } p { background: url(blocked/x.png) }`)},
	"static.example.edu/f.woff2":    {Data: []byte("font")},
	"static.example.edu/lib.js":     {Data: []byte("js")},
	"static.example.edu/b.png":      {Data: []byte("b")},
}

const reqSeed = "http://www.example.edu/index.html"

// reqWanted are the requests for reqSite's requisites, each once: all but
// the two that robots.txt disallows, the redirect's target included.
var reqWanted = []string{
	"http://static.example.edu/b.png", "http://static.example.edu/f.woff2", "http://static.example.edu/fonts.css",
	"http://static.example.edu/lib.js",
	"http://www.example.edu/css/base.css", "http://www.example.edu/css/site.css", "http://www.example.edu/img/a.png",
	"http://www.example.edu/img/bg.png", "http://www.example.edu/img/logo.png", "http://www.example.edu/img/new.png",
	"http://www.example.edu/img/p.png", "http://www.example.edu/missing.png", "http://www.example.edu/old.png",
}

// reqRecorded are the requisites journaled: every one requested, and the
// two disallowed.
var reqRecorded = append(slices.Clone(reqWanted), "http://www.example.edu/private/p.png", "http://static.example.edu/blocked/x.png")

// A countingReader counts each reading of a page, with the scanner it
// reads as.
type countingReader struct {
	pagescan.Scanner
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingReader) Read(pageURL string, page []byte, charset string, what pagescan.What) *pagescan.Reading {
	c.mu.Lock()
	c.reads[pageURL]++
	c.mu.Unlock()
	return pagescan.Read(c.Scanner, pageURL, page, charset, what)
}

// reqHandler serves reqSite, with its redirect; playground's handler
// gives each file its Content-Type, text/css for a stylesheet.
func reqHandler(fsys fs.FS) http.Handler {
	h := playground.VirtualHosts(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host == "www.example.edu" && r.URL.Path == "/old.png" {
			http.Redirect(w, r, "/img/new.png", http.StatusFound)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// A reqRun is what a crawl of reqSite left.
type reqRun struct {
	h       *harness
	entries []pagefetch.Page
	res     Result
	err     error
}

// requested returns the URLs the crawl requested, robots.txt files left
// out, each as many times as it was.
func (r *reqRun) requested() []string {
	r.h.tr.mu.Lock()
	defer r.h.tr.mu.Unlock()
	var urls []string
	for _, u := range r.h.tr.urls {
		if !strings.HasSuffix(u, "/robots.txt") {
			urls = append(urls, u)
		}
	}
	return urls
}

// recorded returns the URLs of the requisites the crawl journaled.
func (r *reqRun) recorded() []string {
	var urls []string
	for _, e := range r.entries {
		if e.Kind == pagefetch.Requisite {
			urls = append(urls, e.URL)
		}
	}
	return urls
}

// pageEntries returns the crawl's journal, its requisites left out.
func (r *reqRun) pageEntries() []pagefetch.Page {
	return slices.DeleteFunc(slices.Clone(r.entries), func(e pagefetch.Page) bool { return e.Kind == pagefetch.Requisite })
}

// crawlReqSite crawls fsys, served as reqHandler serves it, from seed in
// pages of scope, with the requisites of mode "all", "scope" or "none",
// parallel pages at once, each host paced by delay; set, if not nil,
// changes the harness before the crawl starts.
func crawlReqSite(t *testing.T, fsys fs.FS, seed string, prefixes []string, mode string, parallel int, delay time.Duration, set func(*harness)) *reqRun {
	t.Helper()
	h := newHarness(nil, 10, delay)
	h.tr.h = reqHandler(fsys)
	h.fetcher.Robots, h.fetcher.WHATWG = true, true
	sc, err := scope.Parse(prefixes)
	if err != nil {
		t.Fatal(err)
	}
	h.c.Scope, h.c.Bag = &scopeFuncs{internal: sc.Contains, key: browserurl.Normalize}, new(bag.Queue)
	h.c.AheadMemory = 64 << 20
	h.workers(parallel)
	h.c.Requisites = mode != "none"
	if mode == "scope" {
		h.c.Scope.(*scopeFuncs).requisite = sc.Contains
	}
	run := &reqRun{h: h}
	var mu sync.Mutex
	h.c.Sink.(*funcSink).journal = func(e pagefetch.Page) error {
		mu.Lock()
		run.entries = append(run.entries, e)
		mu.Unlock()
		return nil
	}
	if set != nil {
		set(h)
	}
	run.res, run.err = h.c.Crawl(t.Context(), seed)
	return run
}

// TestRequisites: a crawl fetches each requisite of its pages once, to any
// depth of stylesheets and on any host, and journals each, a failure as
// it was answered; never one robots.txt disallows. Its pages, its log and
// its pages' journal lines are those of the crawl without requisites, one
// page at a time or four hosts at once.
func TestRequisites(t *testing.T) {
	without := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "none", 1, 0, nil)
	if without.err != nil || without.res.Saved != 3 {
		t.Fatalf("the crawl without requisites: %v, %d pages saved", without.err, without.res.Saved)
	}
	for _, parallel := range []int{1, 4} {
		t.Run(fmt.Sprint("parallel ", parallel), func(t *testing.T) {
			run := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, nil)
			if run.err != nil {
				t.Fatal(run.err)
			}
			requested := run.requested()
			pages := without.requested()
			reqs := slices.DeleteFunc(slices.Clone(requested), func(u string) bool { return slices.Contains(pages, u) })
			if slices.Sort(reqs); !slices.Equal(reqs, reqWanted) {
				t.Errorf("requested, besides the pages:\n%s\nwant each once:\n%s", strings.Join(reqs, "\n"), strings.Join(reqWanted, "\n"))
			}
			recorded := run.recorded()
			if slices.Sort(recorded); !slices.Equal(recorded, slices.Sorted(slices.Values(reqRecorded))) {
				t.Errorf("journaled requisites:\n%s\nwant:\n%s", strings.Join(recorded, "\n"), strings.Join(slices.Sorted(slices.Values(reqRecorded)), "\n"))
			}
			if d := sameCrawl(without, run); d != "" {
				t.Error(d)
			}
			got := run.res.Requisites
			if got.Fetched != 11 || got.Failed != 1 || got.FailedBy["HTTP 404"] != 1 || got.Redirects != 1 || got.Disallowed != 2 || got.Hosts != 2 || got.Bytes == 0 {
				t.Errorf("figures %+v, want 11 fetched, 1 failed (HTTP 404), 1 redirected, 2 disallowed, from 2 hosts", got)
			}
			for _, e := range run.entries {
				if e.URL == "http://www.example.edu/css/base.css" && !slices.Equal(e.Needs, []string{"http://static.example.edu/fonts.css", "http://www.example.edu/img/p.png"}) ||
					e.URL == "http://www.example.edu/old.png" && e.Target != "http://www.example.edu/img/new.png" {
					t.Errorf("journal entry %+v", e)
				}
			}
		})
	}
}

// sameCrawl says how the pages of two crawls differ, or "": their page
// directories, logs, stderr, pages' journal lines and pages' figures.
func sameCrawl(a, b *reqRun) string {
	var d []string
	if !slices.Equal(a.h.order(), b.h.order()) || fmt.Sprint(a.h.pages) != fmt.Sprint(b.h.pages) {
		d = append(d, fmt.Sprintf("pages %v, want %v", b.h.order(), a.h.order()))
	}
	if a.h.log.String() != b.h.log.String() || a.h.errs.String() != b.h.errs.String() {
		d = append(d, fmt.Sprintf("log:\n%s%s\nwant:\n%s%s", &b.h.log, &b.h.errs, &a.h.log, &a.h.errs))
	}
	ea, eb := a.pageEntries(), b.pageEntries()
	for _, es := range [][]pagefetch.Page{ea, eb} {
		for i := range es {
			es[i].Charset = "" // a crawl with requisites keeps every charset
		}
	}
	if fmt.Sprint(ea) != fmt.Sprint(eb) {
		d = append(d, fmt.Sprintf("pages' journal lines %v, want %v", eb, ea))
	}
	ra, rb := a.res, b.res
	ra.Requisites, ra.AheadPeak, rb.AheadPeak = rb.Requisites, 0, 0
	if fmt.Sprintf("%+v", ra) != fmt.Sprintf("%+v", rb) {
		d = append(d, fmt.Sprintf("Result %+v, want %+v", rb, ra))
	}
	return strings.Join(d, "\n")
}

// TestRequisitesScope: with a scope, only the requisites inside it are
// fetched; with none, nothing more than the pages.
func TestRequisitesScope(t *testing.T) {
	run := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "scope", 4, 0, nil)
	if run.err != nil {
		t.Fatal(run.err)
	}
	for _, u := range run.requested() {
		if strings.Contains(u, "static.example.edu") {
			t.Errorf("%s, outside the scope, was requested", u)
		}
	}
	if got := run.recorded(); !slices.Contains(got, "http://www.example.edu/css/base.css") || slices.Contains(got, "http://static.example.edu/fonts.css") {
		t.Errorf("journaled %v", got)
	}
	none := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "none", 4, 0, nil)
	if got := none.requested(); len(got) != 3 || len(none.recorded()) != 0 {
		t.Errorf("without requisites, requested %v and journaled %v", got, none.recorded())
	}
}

// TestRequisitesOnePass: a crawl reads each page it saves once, for its
// links and its requisites, and for the link graph's rows too, below
// maxDepth or not, one page at a time or four hosts at once; and does all
// that the crawl does when nothing counts its readings: the same pages,
// log, journal, requisites and graph. So does a resumed crawl, for the
// pages it replays.
func TestRequisitesOnePass(t *testing.T) {
	whole := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", 1, 0, nil)
	if whole.err != nil {
		t.Fatal(whole.err)
	}
	for _, tt := range []struct {
		maxDepth int
		graph    bool
		cut      int // journal lines replayed
		workers  int
	}{{10, false, 0, 1}, {1, false, 0, 1}, {1, true, 0, 1}, {10, false, 6, 1}, {1, true, 6, 1}, {10, true, 0, 4}} {
		t.Run(fmt.Sprintf("maxDepth %d graph %v replaying %d workers %d", tt.maxDepth, tt.graph, tt.cut, tt.workers), func(t *testing.T) {
			var replay, recorded []pagefetch.Page
			for _, e := range whole.entries[:tt.cut] {
				if e.Kind == pagefetch.Requisite {
					recorded = append(recorded, e)
				} else {
					replay = append(replay, e)
				}
			}
			var graphs []*linkgraph.Graph
			reads := make(map[string]int)
			set := func(counted bool) func(h *harness) {
				return func(h *harness) {
					h.c.MaxDepth, h.c.Scanner = tt.maxDepth, new(pagescan.HTML)
					h.c.History = &pastRuns{recs: replay, reqs: recorded, load: func(id int) (string, int, []byte, error) {
						if id > len(replay) {
							return "", 0, nil, fmt.Errorf("page %d: %w", id, fs.ErrNotExist)
						}
						p := whole.h.pages[id-1]
						return p.url, p.depth, []byte(p.html), nil
					}}
					if tt.graph {
						h.c.Graph = linkgraph.New(true)
						graphs = append(graphs, h.c.Graph)
					}
					if counted {
						h.c.Scanner = &countingReader{Scanner: h.c.Scanner, reads: reads}
					}
				}
			}
			plain := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", tt.workers, 0, set(false))
			counted := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", tt.workers, 0, set(true))
			if plain.err != nil || counted.err != nil {
				t.Fatalf("crawls: %v and %v", plain.err, counted.err)
			}
			if d := sameCrawl(plain, counted); d != "" {
				t.Error(d)
			}
			got, want := counted.requested(), plain.requested()
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("requested:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if tt.workers == 1 {
				if got, want := fmt.Sprint(counted.entries), fmt.Sprint(plain.entries); got != want {
					t.Errorf("journal:\n%s\nwant:\n%s", got, want)
				}
			}
			if tt.graph {
				var csv [2]strings.Builder
				for i, g := range graphs {
					if err := g.WriteCSV(&csv[i]); err != nil {
						t.Fatal(err)
					}
				}
				if csv[0].String() != csv[1].String() || csv[0].Len() == 0 {
					t.Errorf("link graph:\n%s\nwant:\n%s", &csv[1], &csv[0])
				}
			}
			for _, p := range whole.h.pages {
				if n := reads[p.url]; n != 1 {
					t.Errorf("%s was read %d times, want once", p.url, n)
				}
			}
		})
	}
}

// TestRequisitesResume: a crawl stopped after any line of its journal,
// and perhaps after the next page was saved without its line, then
// resumed, fetches every requisite the stopped run did not journal, and
// none that it did: between them, each is journaled once. The resumed
// crawl saves and logs what the same resume without requisites does.
func TestRequisitesResume(t *testing.T) {
	for _, parallel := range []int{1, 4} {
		whole := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, nil)
		if whole.err != nil {
			t.Fatal(whole.err)
		}
		for cut := range len(whole.entries) + 1 {
			for _, adopt := range []bool{false, true} {
				t.Run(fmt.Sprintf("parallel %d cut %d adopt %v", parallel, cut, adopt), func(t *testing.T) {
					resumeReqSite(t, whole, cut, adopt, parallel)
				})
			}
		}
	}
}

// resumeReqSite resumes the crawl whole after the first cut lines of its
// journal, with the next page on disk if adopt, and checks it.
func resumeReqSite(t *testing.T, whole *reqRun, cut int, adopt bool, parallel int) {
	before := whole.entries[:cut]
	var replay, recorded []pagefetch.Page
	saved := 0
	for _, e := range before {
		switch e.Kind {
		case pagefetch.Requisite:
			recorded = append(recorded, e)
		case pagefetch.Saved:
			saved = e.DocID
			replay = append(replay, e)
		default:
			replay = append(replay, e)
		}
	}
	onDisk := saved
	if adopt && saved < len(whole.h.pages) {
		onDisk++
	}
	resume := func(h *harness) {
		h.c.History = &pastRuns{recs: replay, reqs: recorded, load: func(id int) (string, int, []byte, error) {
			if id > onDisk {
				return "", 0, nil, fmt.Errorf("page %d: %w", id, fs.ErrNotExist)
			}
			p := whole.h.pages[id-1]
			return p.url, p.depth, []byte(p.html), nil
		}}
	}
	run := crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, resume)
	if run.err != nil {
		t.Fatal(run.err)
	}
	// The same resume of the crawl without requisites saves and logs the
	// same.
	if d := sameCrawl(crawlReqSite(t, reqSite, reqSeed, []string{"http://www.example.edu/"}, "none", parallel, 0, resume), run); d != "" {
		t.Error(d)
	}
	var all []string
	for _, e := range recorded {
		all = append(all, e.URL)
	}
	all = append(all, run.recorded()...)
	counts := make(map[string]int)
	for _, u := range all {
		counts[u]++
	}
	if got, want := slices.Sorted(maps.Keys(counts)), slices.Sorted(slices.Values(reqRecorded)); !slices.Equal(got, want) {
		t.Errorf("journaled between the two runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for u, n := range counts {
		if n > 1 {
			t.Errorf("%s journaled %d times", u, n)
		}
	}
	for _, u := range run.requested() {
		if slices.Contains(reqWanted, u) && counts[u] == 1 && !slices.Contains(run.recorded(), u) {
			t.Errorf("%s, journaled by the stopped run, was requested again", u)
		}
	}
	if got := run.h.pages; len(got)+onDisk != len(whole.h.pages) {
		t.Errorf("the resumed crawl saved %d pages, with %d on disk, of %d", len(got), onDisk, len(whole.h.pages))
	}
}

// clustersWithRequisites is clusters(hosts, pages) with requisites: each
// page needs an image on one of as many other hosts, cdn0.example.test
// and so on, which are no part of the crawl; and, if own, an image of its
// own and a stylesheet its host's pages share, both on its host, which
// then serves about twice its pages' requests.
func clustersWithRequisites(hosts, pages int, own bool) fstest.MapFS {
	fsys := clusters(hosts, pages)
	for name, f := range maps.Clone(fsys) {
		host, page, _ := strings.Cut(name, "/")
		img := strings.TrimSuffix(page, ".html") + ".png"
		n, _ := strconv.Atoi(strings.Trim(page, "pindex.html"))
		cdn := fmt.Sprintf("cdn%d.example.test", n%hosts)
		data := fmt.Appendf(slices.Clone(f.Data), ` <img src="http://%s/%s/%s">`, cdn, host, img)
		fsys[cdn+"/"+host+"/"+img] = &fstest.MapFile{Data: []byte("png")}
		if own {
			data = fmt.Appendf(data, ` <link rel=stylesheet href="/style.css"> <img src="/img/%s">`, img)
			fsys[host+"/style.css"] = &fstest.MapFile{Data: []byte("body {}")}
			fsys[host+"/img/"+img] = &fstest.MapFile{Data: []byte("png")}
		}
		fsys[name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// TestRequisitesSpeed: four hosts of 25 pages each, with a pause of a
// second each, whose pages need an image each on four other hosts, and
// perhaps as many requisites again on their own hosts: four at a time,
// the crawl with requisites takes little more than its busiest host's
// floor, its requests one pause apart, as the crawl without them does.
// A page's requisites on other hosts are fetched while its own host
// pauses, so with none on their own hosts the requisites cost only what
// makes a host of them busier than the pages' hosts. Fetching them changes
// nothing of the pages.
func TestRequisitesSpeed(t *testing.T) {
	for _, order := range []string{"lifo", "bfs"} {
		for _, own := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s own %v", order, own), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { requisitesSpeed(t, order, own) })
			})
		}
	}
}

// requisitesSpeed crawls clustersWithRequisites(4, 25, own) in order,
// one page at a time and four hosts at once, with requisites and without,
// and checks the times and the crawls.
func requisitesSpeed(t *testing.T, order string, own bool) {
	const pause, took = time.Second, 50 * time.Millisecond
	var runs [2][2]*reqRun
	for i, n := range []int{1, 4} {
		for j, mode := range []string{"none", "all"} {
			start := time.Now()
			run := crawlReqSite(t, clustersWithRequisites(4, 25, own), "http://h0.example.edu/index.html", []string{"http://*.example.edu/"}, mode, n, pause, func(h *harness) {
				h.c.Bag, _ = bag.New(order)
				h.c.Scope.(*scopeFuncs).key, h.fetcher.WHATWG = nil, false
				h.tr.took = took
			})
			elapsed := time.Since(start)
			if run.err != nil || run.res.Saved != 100 {
				t.Fatalf("-parallel %d, requisites %s: %v, %d pages saved", n, mode, run.err, run.res.Saved)
			}
			busiest := slices.Max(slices.Collect(maps.Values(run.h.fetcher.Scheduler.HostRequests())))
			floor := time.Duration(busiest-1)*pause + time.Duration(busiest)*took
			ratio := float64(elapsed) / float64(floor)
			t.Logf("-parallel %d, requisites %s: %v, %d requests, %.3f times the busiest host's floor of %v (%d requests)",
				n, mode, elapsed, run.h.fetcher.Scheduler.Requests(), ratio, floor, busiest)
			if n == 4 && ratio > 1.15 {
				t.Errorf("-parallel 4, requisites %s, took %.3f times the busiest host's floor, want at most 1.15", mode, ratio)
			}
			runs[i][j] = run
		}
	}
	want := 100 + 4 // an image each, and the robots.txt of each other host
	if own {
		want += 100 + 4 // and an image each, and a stylesheet a host
	}
	for i := range runs {
		if d := sameCrawl(runs[i][0], runs[i][1]); d != "" {
			t.Errorf("-parallel %d: the requisites changed the crawl:\n%s", []int{1, 4}[i], d)
		}
		got := runs[i][1].res.Requisites
		if fetched := runs[i][1].h.fetcher.Scheduler.Requests() - runs[i][0].h.fetcher.Scheduler.Requests(); fetched != int64(want) || got.Failed != 0 || got.Hosts != 8-4*(1-btoi(own)) {
			t.Errorf("-parallel %d: %d more requests, requisites %+v; want %d more, none failed", []int{1, 4}[i], fetched, got, want)
		}
	}
}

// btoi is 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestRequisiteRedirects: a requisite's redirects are followed as a
// page's are, at most ten in a row, each target fetched once.
func TestRequisiteRedirects(t *testing.T) {
	site := fstest.MapFS{
		"www.example.edu/index.html": {Data: []byte(`<img src="r0.png"> <img src="s0.png"> <img src="s1.png">`)},
		"www.example.edu/s2.png":     {Data: []byte("png")},
	}
	for _, parallel := range []int{1, 4} {
		run := crawlReqSite(t, site, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, func(h *harness) {
			files := h.tr.h
			h.tr.h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var n int
				if _, err := fmt.Sscanf(r.URL.Path, "/r%d.png", &n); err == nil {
					http.Redirect(w, r, fmt.Sprintf("/r%d.png", n+1), http.StatusFound) // without end
					return
				}
				if r.URL.Path == "/s0.png" || r.URL.Path == "/s1.png" {
					http.Redirect(w, r, "/s2.png", http.StatusMovedPermanently) // two to one target
					return
				}
				files.ServeHTTP(w, r)
			})
		})
		if run.err != nil {
			t.Fatal(run.err)
		}
		var chain []string
		for i := range 11 {
			chain = append(chain, fmt.Sprintf("http://www.example.edu/r%d.png", i))
		}
		want := append(chain, "http://www.example.edu/s0.png", "http://www.example.edu/s1.png", "http://www.example.edu/s2.png")
		got := slices.DeleteFunc(run.requested(), func(u string) bool { return u == reqSeed })
		if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
			t.Errorf("-parallel %d requested %v, want %v", parallel, got, want)
		}
		if q := run.res.Requisites; q.Redirects != 12 || q.FailedBy["too many redirects"] != 1 || q.Fetched != 1 {
			t.Errorf("-parallel %d: figures %+v, want 12 redirected, 1 failed after too many, 1 fetched", parallel, q)
		}
	}
}

// TestRequisiteDocuments checks that a document fetched as a requisite, an
// SVG image or what an <object> shows, is read for its own requisites, to
// any depth, and anything else is not.
func TestRequisiteDocuments(t *testing.T) {
	site := fstest.MapFS{
		"www.example.edu/index.html": {Data: []byte(`<img src="pic.svg"> <iframe src="frame.html"></iframe> <object data="data.txt"></object>`)},
		"www.example.edu/pic.svg":    {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><image href="in-svg.png"/></svg>`)},
		"www.example.edu/frame.html": {Data: []byte(`<p> <img src="inner.svg">`)},
		"www.example.edu/inner.svg":  {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><image href="deep.png"/></svg>`)},
		"www.example.edu/data.txt":   {Data: []byte(`<img src="no.png">`)},
	}
	for _, parallel := range []int{1, 4} {
		run := crawlReqSite(t, site, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, nil)
		if run.err != nil {
			t.Fatal(run.err)
		}
		got := slices.DeleteFunc(run.requested(), func(u string) bool { return u == reqSeed })
		want := []string{"http://www.example.edu/data.txt", "http://www.example.edu/deep.png", "http://www.example.edu/frame.html",
			"http://www.example.edu/in-svg.png", "http://www.example.edu/inner.svg", "http://www.example.edu/pic.svg"}
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("-parallel %d requested %v, want %v", parallel, got, want)
		}
	}
}

// TestRequisitesNestNoDeeper: a frame whose document names a new frame in
// every answer, and a stylesheet that imports a new one in every answer,
// are read to maxNest documents deep, as deep as a browser nests frames,
// and no further: the last is fetched and recorded, and not read. A
// resumed crawl reads them no deeper.
func TestRequisitesNestNoDeeper(t *testing.T) {
	site := fstest.MapFS{
		"www.example.edu/index.html": {Data: []byte(`<iframe src="f0.html"></iframe> <link rel=stylesheet href="s0.css">`)},
	}
	endless := func(h *harness) {
		files := h.tr.h
		h.tr.h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var n int
			if _, err := fmt.Sscanf(r.URL.Path, "/f%d.html", &n); err == nil {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprintf(w, `<p> <iframe src="f%d.html"></iframe>`, n+1)
				return
			}
			if _, err := fmt.Sscanf(r.URL.Path, "/s%d.css", &n); err == nil {
				w.Header().Set("Content-Type", "text/css")
				fmt.Fprintf(w, `@import "s%d.css";`, n+1)
				return
			}
			files.ServeHTTP(w, r)
		})
	}
	var want []string
	for i := range maxNest {
		want = append(want, fmt.Sprintf("http://www.example.edu/f%d.html", i), fmt.Sprintf("http://www.example.edu/s%d.css", i))
	}
	slices.Sort(want)
	for _, parallel := range []int{1, 4} {
		run := crawlReqSite(t, site, reqSeed, []string{"http://www.example.edu/"}, "all", parallel, 0, endless)
		if run.err != nil {
			t.Fatal(run.err)
		}
		got := slices.DeleteFunc(run.requested(), func(u string) bool { return u == reqSeed })
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("-parallel %d requested %d requisites:\n%s\nwant %d:\n%s", parallel, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
		}
		for _, e := range run.entries {
			if e.Kind != pagefetch.Requisite {
				continue
			}
			var n int
			if _, err := fmt.Sscanf(e.URL, "http://www.example.edu/f%d.html", &n); err != nil {
				fmt.Sscanf(e.URL, "http://www.example.edu/s%d.css", &n)
			}
			if e.Nest != n+1 || (len(e.Needs) == 0) != (n+1 == maxNest) {
				t.Errorf("-parallel %d: %s journaled %d deep, needing %q", parallel, e.URL, e.Nest, e.Needs)
			}
		}
	}

	// Resumed after the first three of each were recorded, the crawl
	// fetches the rest, as deep as before and no deeper.
	first := crawlReqSite(t, site, reqSeed, []string{"http://www.example.edu/"}, "all", 1, 0, endless)
	var pages, earlier []pagefetch.Page
	for _, e := range first.entries {
		var n int
		_, ferr := fmt.Sscanf(e.URL, "http://www.example.edu/f%d.html", &n)
		_, serr := fmt.Sscanf(e.URL, "http://www.example.edu/s%d.css", &n)
		switch {
		case e.Kind != pagefetch.Requisite:
			pages = append(pages, e)
		case (ferr == nil || serr == nil) && n < 3:
			earlier = append(earlier, e)
		}
	}
	resumed := crawlReqSite(t, site, reqSeed, []string{"http://www.example.edu/"}, "all", 1, 0, func(h *harness) {
		endless(h)
		h.c.History = &pastRuns{recs: pages, reqs: earlier, load: func(id int) (string, int, []byte, error) {
			p := first.h.pages[id-1]
			return p.url, p.depth, []byte(p.html), nil
		}}
	})
	if resumed.err != nil {
		t.Fatal(resumed.err)
	}
	var again []string
	for _, u := range want {
		var n int
		_, ferr := fmt.Sscanf(u, "http://www.example.edu/f%d.html", &n)
		_, serr := fmt.Sscanf(u, "http://www.example.edu/s%d.css", &n)
		if (ferr == nil || serr == nil) && n >= 3 {
			again = append(again, u)
		}
	}
	got := resumed.requested()
	if slices.Sort(got); !slices.Equal(got, again) {
		t.Errorf("resumed, requested:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(again, "\n"))
	}
}

// TestRequisiteOnceAsPage: a URL that is both a page of the crawl and a
// requisite, a frame within maxDepth, a page's own URL in an <iframe> or
// an SVG <use>, is fetched once, as the page, and recorded once; one the
// crawl does not save as a page, a frame past maxDepth or a frame whose
// URL may name a page but that is no HTML, is fetched as a requisite once
// the crawl ends; one whose URL names no page, a .txt, as a requisite
// alone.
func TestRequisiteOnceAsPage(t *testing.T) {
	site := fstest.MapFS{
		"www.example.edu/index.html": {Data: []byte(`<a href=b.html>b</a> <iframe src="frame.html"></iframe>
			<iframe src="index.html"></iframe> <svg><use href="index.html#icon"/></svg> <iframe src="doc"></iframe> <iframe src="notes.txt"></iframe>`)},
		"www.example.edu/frame.html": {Data: []byte(`<p>framed <img src="f.png">`)},
		"www.example.edu/b.html":     {Data: []byte(`<iframe src="deep.html"></iframe>`)},
		"www.example.edu/deep.html":  {Data: []byte(`<p>past maxDepth`)},
		"www.example.edu/doc":        {Data: []byte(`no page, though its URL may be one`)},
		"www.example.edu/notes.txt":  {Data: []byte(`no page`)},
		"www.example.edu/f.png":      {Data: []byte(`png`)},
	}
	for _, workers := range []int{1, 4} {
		run := crawlReqSite(t, site, reqSeed, []string{"http://www.example.edu/"}, "all", workers, 0, func(h *harness) {
			h.c.Scanner, h.c.MaxDepth = new(pagescan.HTML), 1
		})
		if run.err != nil {
			t.Fatal(run.err)
		}
		counts := make(map[string]int)
		for _, u := range run.requested() {
			counts[u]++
		}
		want := map[string]int{reqSeed: 1, "http://www.example.edu/frame.html": 1, "http://www.example.edu/b.html": 1,
			"http://www.example.edu/doc":       2, // as a page, which it is not, then as the frame's document
			"http://www.example.edu/notes.txt": 1, "http://www.example.edu/deep.html": 1, "http://www.example.edu/f.png": 1}
		if !maps.Equal(counts, want) {
			t.Errorf("%d workers: requested %v, want %v", workers, counts, want)
		}
		var recorded []string
		for _, e := range run.entries {
			if e.Kind == pagefetch.Requisite {
				recorded = append(recorded, e.URL)
			}
		}
		slices.Sort(recorded)
		if want := []string{"http://www.example.edu/deep.html", "http://www.example.edu/doc", "http://www.example.edu/f.png", "http://www.example.edu/notes.txt"}; !slices.Equal(recorded, want) {
			t.Errorf("%d workers: journaled requisites %q, want %q", workers, recorded, want)
		}
	}
}
