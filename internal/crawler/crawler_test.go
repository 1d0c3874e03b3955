package crawler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
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
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/playground"
	"tse-crawler/internal/refurl"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/testbed/synthsite"
)

const site = "http://cs50tse.cs.dartmouth.edu/tse/t/"

// letters is a small site shaped like the playground's letters: a cycle,
// repeated links, an external link and a missing page.
var letters = fstest.MapFS{
	"tse/t/index.html": {Data: []byte(`<a href=A.html>A</a>`)},
	"tse/t/A.html":     {Data: []byte(`<a href=https://example.org/x.html>x</a> <a href=B.html>B</a> <a href=index.html>home</a>`)},
	"tse/t/B.html":     {Data: []byte(`<a href=C.html>C</a> <a href=D.html>D</a> <a href=C.html>C</a> <a href=Z.html>gone</a>`)},
	"tse/t/C.html":     {Data: []byte(`<a href=D.html>D</a> <a href=A.html>A</a>`)},
	"tse/t/D.html":     {Data: []byte(`<a href=E.html>E</a>`)},
	"tse/t/E.html":     {Data: []byte(`the end`)},
}

// A transport serves a site in memory, through the playground's handler,
// with no sockets: it works inside a synctest bubble. Each request may take
// some (fake) time, and the start and end of each is recorded.
type transport struct {
	h       http.Handler
	took    time.Duration
	latency func(url string) time.Duration // if set, how long each request takes instead

	mu    sync.Mutex
	spans [][2]time.Time
	urls  []string
}

func newTransport(fsys fs.FS) *transport {
	return &transport{h: playground.Handler(fsys)}
}

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	defer func() {
		t.mu.Lock()
		t.spans = append(t.spans, [2]time.Time{start, time.Now()})
		t.urls = append(t.urls, r.URL.String())
		t.mu.Unlock()
	}()
	took := t.took
	if t.latency != nil {
		took = t.latency(r.URL.String())
	}
	if took > 0 {
		// A request ends early if its context does, as a real one would.
		select {
		case <-time.After(took):
		case <-r.Context().Done():
			return nil, context.Cause(r.Context())
		}
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

type saved struct {
	id    int
	url   string
	depth int
	html  string
}

// htmlOnly makes a fake fetch that gives a page's HTML alone into a
// Web's FetchPage.
func htmlOnly(fetch func(context.Context, string) ([]byte, error)) func(context.Context, string) (*pagefetch.Page, error) {
	return func(ctx context.Context, u string) (*pagefetch.Page, error) {
		html, err := fetch(ctx, u)
		p := &pagefetch.Page{URL: u, Body: html}
		if re, ok := errors.AsType[*pagefetch.RedirectError](err); ok {
			p.Target = re.Location
		}
		return p, err
	}
}

// harness is a Crawler wired to an in-memory site, with its log, its
// errors and its saved pages captured.
type harness struct {
	c       *Crawler
	fetcher *pagefetch.Fetcher
	delay   time.Duration
	tr      *transport
	log     bytes.Buffer
	errs    bytes.Buffer
	pages   []saved
	saveFn  func(id int) error // if set, may fail a save
}

func newHarness(fsys fs.FS, maxDepth int, delay time.Duration) *harness {
	h := &harness{tr: newTransport(fsys), delay: delay}
	f := &pagefetch.Fetcher{
		Client: &http.Client{
			Transport: h.tr,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse // as pagefetch.NewClient's clients
			},
		},
		Scheduler: pagefetch.NewScheduler(delay, nil, 1),
		UserAgent: "test",
	}
	h.fetcher = f
	h.c = &Crawler{
		Web:       f,
		Scheduler: f.Scheduler,
		Sink: &funcSink{
			save: func(id int, url string, depth int, html []byte) error {
				if h.saveFn != nil {
					if err := h.saveFn(id); err != nil {
						return err
					}
				}
				h.pages = append(h.pages, saved{id, url, depth, string(html)})
				return nil
			},
		},
		Scanner: new(pagescan.Reference),
		Scope: &scopeFuncs{
			internal: scope.Default().Contains,
		},
		Bag:      new(bag.Stack),
		MaxDepth: maxDepth,
		Log:      &h.log,
		Errors:   &h.errs,
	}
	return h
}

// workers makes the crawl's Scheduler one of n workers.
func (h *harness) workers(n int) {
	h.fetcher.Scheduler = pagefetch.NewScheduler(h.delay, nil, n)
	h.c.Scheduler = h.fetcher.Scheduler
}

func (h *harness) order() []string {
	var got []string
	for _, p := range h.pages {
		got = append(got, fmt.Sprintf("%d %d %s", p.id, p.depth, strings.TrimPrefix(p.url, site)))
	}
	return got
}

func TestCrawl(t *testing.T) {
	tests := []struct {
		name     string
		maxDepth int
		order    bag.Bag
		want     []string // docID, depth, URL relative to the site
		failed   int
	}{
		{"depth 0", 0, new(bag.Stack), []string{"1 0 index.html"}, 0},
		{"depth 1", 1, new(bag.Stack), []string{"1 0 index.html", "2 1 A.html"}, 0},
		{
			// LIFO: the last link found is crawled first, and a page keeps
			// the depth at which it was first found (D at 3, not 4).
			"lifo", 10, new(bag.Stack),
			[]string{"1 0 index.html", "2 1 A.html", "3 2 B.html", "4 3 D.html", "5 4 E.html", "6 3 C.html"},
			1, // Z.html
		},
		{
			"bfs", 10, new(bag.Queue),
			[]string{"1 0 index.html", "2 1 A.html", "3 2 B.html", "4 3 C.html", "5 3 D.html", "6 4 E.html"},
			1,
		},
		{
			// At maxDepth a page is saved but not scanned, so E is never found.
			"lifo depth 3", 3, new(bag.Stack),
			[]string{"1 0 index.html", "2 1 A.html", "3 2 B.html", "4 3 D.html", "5 3 C.html"},
			1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(letters, tt.maxDepth, 0)
			h.c.Bag = tt.order
			res, err := h.c.Crawl(t.Context(), site+"index.html")
			if err != nil {
				t.Fatalf("Crawl: %v\nstderr:\n%s", err, &h.errs)
			}
			if got := h.order(); !slices.Equal(got, tt.want) {
				t.Errorf("saved pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if res.Saved != len(tt.want) || res.Failed != tt.failed {
				t.Errorf("Result = %+v, want Saved %d, Failed %d", res, len(tt.want), tt.failed)
			}
			for _, p := range h.pages {
				name := strings.TrimPrefix(p.url, "http://cs50tse.cs.dartmouth.edu/")
				if want := string(letters[name].Data); p.html != want {
					t.Errorf("page %d: html %q, want %q", p.id, p.html, want)
				}
			}
		})
	}
}

func TestCrawlLog(t *testing.T) {
	h := newHarness(letters, 10, 0)
	if _, err := h.c.Crawl(t.Context(), site+"index.html"); err != nil {
		t.Fatal(err)
	}
	// The start of the log, and the lines around the missing page.
	wantHead := ` 0   Fetched: http://cs50tse.cs.dartmouth.edu/tse/t/index.html
 0  Scanning: http://cs50tse.cs.dartmouth.edu/tse/t/index.html
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/A.html
 0     Added: http://cs50tse.cs.dartmouth.edu/tse/t/A.html
 1    Fetched: http://cs50tse.cs.dartmouth.edu/tse/t/A.html
 1   Scanning: http://cs50tse.cs.dartmouth.edu/tse/t/A.html
 1      Found: https://example.org/x.html
 1   IgnExtrn: https://example.org/x.html
 1      Found: http://cs50tse.cs.dartmouth.edu/tse/t/B.html
 1      Added: http://cs50tse.cs.dartmouth.edu/tse/t/B.html
 1      Found: http://cs50tse.cs.dartmouth.edu/tse/t/index.html
 1    IgnDupl: http://cs50tse.cs.dartmouth.edu/tse/t/index.html
 2     Fetched: http://cs50tse.cs.dartmouth.edu/tse/t/B.html
 2    Scanning: http://cs50tse.cs.dartmouth.edu/tse/t/B.html
 2       Found: http://cs50tse.cs.dartmouth.edu/tse/t/C.html
 2       Added: http://cs50tse.cs.dartmouth.edu/tse/t/C.html
 2       Found: http://cs50tse.cs.dartmouth.edu/tse/t/D.html
 2       Added: http://cs50tse.cs.dartmouth.edu/tse/t/D.html
 2       Found: http://cs50tse.cs.dartmouth.edu/tse/t/C.html
 2     IgnDupl: http://cs50tse.cs.dartmouth.edu/tse/t/C.html
 2       Found: http://cs50tse.cs.dartmouth.edu/tse/t/Z.html
 2       Added: http://cs50tse.cs.dartmouth.edu/tse/t/Z.html
 3       FAILED: http://cs50tse.cs.dartmouth.edu/tse/t/Z.html
 3      Fetched: http://cs50tse.cs.dartmouth.edu/tse/t/D.html
`
	if got := h.log.String(); !strings.HasPrefix(got, wantHead) {
		t.Errorf("log starts:\n%s\nwant:\n%s", got[:min(len(got), len(wantHead))], wantHead)
	}
	if got, want := h.errs.String(), "crawler: http://cs50tse.cs.dartmouth.edu/tse/t/Z.html: HTTP 404 Not Found\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestCrawlQuiet(t *testing.T) {
	h := newHarness(letters, 10, 0)
	h.c.Log = nil
	res, err := h.c.Crawl(t.Context(), site+"index.html")
	if err != nil || res.Saved != 6 {
		t.Fatalf("Crawl = %+v, %v; want 6 pages", res, err)
	}
}

func TestCrawlSeedFails(t *testing.T) {
	h := newHarness(letters, 10, 0)
	res, err := h.c.Crawl(t.Context(), site+"missing.html")
	if !errors.Is(err, ErrSeedFailed) {
		t.Fatalf("Crawl error = %v, want ErrSeedFailed", err)
	}
	if !strings.Contains(err.Error(), "404") {
		t.Errorf("error %q does not give the reason", err)
	}
	if res.Saved != 0 || len(h.pages) != 0 {
		t.Errorf("saved %d pages, want none", len(h.pages))
	}
	if got, want := h.log.String(), " 0    FAILED: "+site+"missing.html\n"; got != want {
		t.Errorf("log = %q, want %q", got, want)
	}
}

// A settledBag is a bag whose Pop first waits, inside a synctest bubble,
// until every other goroutine is blocked: so the scribe has written all it
// could before the crawl takes the next page, and when the loop notices a
// failed write does not depend on how goroutines happen to be scheduled.
type settledBag struct{ bag.Bag }

func (b settledBag) Pop() (bag.Item, bool) {
	synctest.Wait()
	return b.Bag.Pop()
}

// TestCrawlSaveFails: a page that cannot be saved stops the crawl, with
// the pages before it saved, and after as few requests as the scribe's
// pace allows. The scribe writes one page while another waits for it, so
// the crawl runs at most two pages ahead of the disk.
func TestCrawlSaveFails(t *testing.T) {
	tests := []struct {
		name    string
		took    time.Duration // to fail to save page 3
		fetched int
	}{
		// The scribe has failed by the time the crawl takes the next
		// page, so it makes no request after page 3's.
		{"at once", 0, 3},
		// Z.html (a 404) is queued for the scribe, and D.html fetched,
		// before the crawl must wait for the scribe to take Z.html and
		// so learns of the failure: it stops before E.html.
		{"slowly", time.Hour, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(letters, 10, 0)
				h.c.Bag = settledBag{new(bag.Stack)}
				full := errors.New("no space left on device")
				h.saveFn = func(id int) error {
					if id == 3 {
						time.Sleep(tt.took)
						return full
					}
					return nil
				}
				res, err := h.c.Crawl(t.Context(), site+"index.html")
				if !errors.Is(err, full) {
					t.Fatalf("Crawl error = %v, want %v", err, full)
				}
				if got, want := h.order(), []string{"1 0 index.html", "2 1 A.html"}; res.Saved != 2 || !slices.Equal(got, want) {
					t.Errorf("Saved %d, pages %q; want 2, %q", res.Saved, got, want)
				}
				if n := len(h.tr.urls); n != tt.fetched {
					t.Errorf("%d fetches, want %d: %q", n, tt.fetched, h.tr.urls)
				}
			})
		})
	}
}

func TestCrawlCanceled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(letters, 10, time.Second)
		stop := errors.New("stop")
		ctx, cancel := context.WithCancelCause(t.Context())
		// Cancel during the pause before the third request.
		start := time.Now()
		time.AfterFunc(1500*time.Millisecond, func() { cancel(stop) })
		res, err := h.c.Crawl(ctx, site+"index.html")
		if !errors.Is(err, stop) {
			t.Fatalf("Crawl error = %v, want the cause %v", err, stop)
		}
		if res.Saved != 2 || len(h.tr.urls) != 2 {
			t.Errorf("saved %d pages after %d fetches, want 2 after 2", res.Saved, len(h.tr.urls))
		}
		if took := time.Since(start); took != 1500*time.Millisecond {
			t.Errorf("Crawl returned after %v, want as soon as it was canceled, after 1.5s", took)
		}
	})
}

// chain returns a site of n pages, each linking to the next.
func chain(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := range n {
		fsys[fmt.Sprintf("tse/t/%d.html", i)] = &fstest.MapFile{
			Data: fmt.Appendf(nil, "page %d <a href=%d.html>next</a>", i, i+1),
		}
	}
	return fsys
}

// TestPacing checks politeness in fake time: each request starts the
// pause after the previous one ended, and the pause is the only cost, so
// n pages take n request times plus n-1 pauses, to the nanosecond.
func TestPacing(t *testing.T) {
	tests := []struct {
		pages       int
		delay, took time.Duration
	}{
		{pages: 1, delay: time.Second},
		{pages: 9, delay: time.Second},
		{pages: 9, delay: time.Second, took: 300 * time.Millisecond},
		{pages: 50, delay: 2 * time.Second, took: 10 * time.Millisecond},
		{pages: 5, delay: 100 * time.Millisecond, took: 2 * time.Second}, // a slow server: requests outlast the pause
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d pages delay %v took %v", tt.pages, tt.delay, tt.took), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(chain(tt.pages), 100, tt.delay)
				h.tr.took = tt.took
				start := time.Now()
				res, err := h.c.Crawl(t.Context(), site+"0.html")
				if err != nil {
					t.Fatal(err)
				}
				elapsed := time.Since(start)
				// The last page links to one more, which is missing: it is
				// fetched too, and fails.
				n := tt.pages + 1
				if res.Saved != tt.pages || len(h.tr.spans) != n {
					t.Fatalf("saved %d pages in %d requests, want %d in %d", res.Saved, len(h.tr.spans), tt.pages, n)
				}
				for i := 1; i < n; i++ {
					if gap := h.tr.spans[i][0].Sub(h.tr.spans[i-1][1]); gap != tt.delay {
						t.Errorf("request %d started %v after request %d ended, want %v", i+1, gap, i, tt.delay)
					}
				}
				if want := time.Duration(n)*tt.took + time.Duration(n-1)*tt.delay; elapsed != want {
					t.Errorf("crawl took %v, want exactly %v", elapsed, want)
				}
			})
		})
	}
}

func TestLogLine(t *testing.T) {
	words := []string{"Fetched", "Scanning", "Found", "IgnExtrn", "IgnDupl", "Added", "FAILED", "LongerThanNine"}
	for depth := range 12 {
		for _, word := range words {
			url := "http://cs50tse.cs.dartmouth.edu/tse/letters/A.html"
			// Go's fmt reads %*s as C's printf does.
			want := fmt.Sprintf("%2d %*s%9s: %s\n", depth, depth, "", word, url)
			if got := string(appendLine(nil, depth, word, url)); got != want {
				t.Errorf("appendLine(%d, %q) = %q, want %q", depth, word, got, want)
			}
		}
	}
}

// redirects wraps a site with redirects: path to Location.
type redirects struct {
	to map[string]string
	h  http.Handler
}

func (rd redirects) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if loc, ok := rd.to[r.URL.Path]; ok {
		http.Redirect(w, r, loc, http.StatusFound)
		return
	}
	rd.h.ServeHTTP(w, r)
}

func TestCrawlRedirects(t *testing.T) {
	fsys := fstest.MapFS{
		"tse/t/index.html":     {Data: []byte(`<a href=sub>sub</a> <a href=away.html>away</a> <a href=port.html>port</a> <a href=tls.html>tls</a> <a href=loop1.html>loop</a>`)},
		"tse/t/sub/index.html": {Data: []byte(`the sub-directory`)},
	}
	h := newHarness(fsys, 5, 0)
	h.tr.h = redirects{map[string]string{
		"/tse/t/away.html":  "http://elsewhere.example/tse/t/x.html",
		"/tse/t/port.html":  "http://cs50tse.cs.dartmouth.edu:8080/tse/t/x.html",
		"/tse/t/tls.html":   "https://cs50tse.cs.dartmouth.edu/tse/t/x.html",
		"/tse/t/loop1.html": "loop2.html",
		"/tse/t/loop2.html": "/tse/t/loop1.html",
	}, playground.Handler(fsys)}
	res, err := h.c.Crawl(t.Context(), site+"index.html")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.order(), []string{"1 0 index.html", "2 1 sub/"}; !slices.Equal(got, want) {
		t.Errorf("saved %q, want %q", got, want)
	}
	if res.Redirects != 6 || res.Failed != 0 {
		t.Errorf("Result = %+v, want 6 redirects and no failures", res)
	}
	for _, u := range h.tr.urls {
		if !strings.HasPrefix(u, site) {
			t.Errorf("requested %s, outside the crawl", u)
		}
	}
	for _, want := range []string{
		logLine(1, "Redirect", site+"sub") + logLine(1, "Found", site+"sub/") + logLine(1, "Added", site+"sub/"),
		logLine(1, "Redirect", site+"away.html") + logLine(1, "Found", "http://elsewhere.example/tse/t/x.html") +
			logLine(1, "IgnExtrn", "http://elsewhere.example/tse/t/x.html"),
		logLine(1, "IgnExtrn", "http://cs50tse.cs.dartmouth.edu:8080/tse/t/x.html"),
		logLine(1, "IgnExtrn", "https://cs50tse.cs.dartmouth.edu/tse/t/x.html"),
		logLine(1, "Redirect", site+"loop2.html") + logLine(1, "Found", site+"loop1.html") + logLine(1, "IgnDupl", site+"loop1.html"),
	} {
		if !strings.Contains(h.log.String(), want) {
			t.Errorf("log lacks\n%s", want)
		}
	}
}

// logLine is a line of the log, as the reference's printf writes it.
func logLine(depth int, word, url string) string {
	return fmt.Sprintf("%2d %*s%9s: %s\n", depth, depth, "", word, url)
}

func TestCrawlSeedRedirectsAway(t *testing.T) {
	h := newHarness(letters, 2, 0)
	h.tr.h = redirects{map[string]string{"/tse/t/index.html": "https://example.org/"}, h.tr.h}
	_, err := h.c.Crawl(t.Context(), site+"index.html")
	if !errors.Is(err, ErrSeedFailed) || !strings.Contains(err.Error(), "https://example.org/") {
		t.Errorf("Crawl error = %v, want ErrSeedFailed naming the target", err)
	}
}

func TestCrawlRobots(t *testing.T) {
	fsys := fstest.MapFS{
		"robots.txt":        {Data: []byte("User-agent: *\nDisallow: /tse/t/secret\n")},
		"tse/t/index.html":  {Data: []byte(`<a href=secret.html>s</a> <a href=open.html>o</a>`)},
		"tse/t/open.html":   {Data: []byte(`open`)},
		"tse/t/secret.html": {Data: []byte(`secret`)},
	}
	t.Run("a page", func(t *testing.T) {
		h := newHarness(fsys, 2, 0)
		h.fetcher.Robots = true
		res, err := h.c.Crawl(t.Context(), site+"index.html")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := h.order(), []string{"1 0 index.html", "2 1 open.html"}; !slices.Equal(got, want) {
			t.Errorf("saved %q, want %q", got, want)
		}
		if res.Disallowed != 1 || !strings.Contains(h.log.String(), logLine(1, "IgnRobots", site+"secret.html")) {
			t.Errorf("Result %+v; log:\n%s\nwant the secret page counted and logged IgnRobots", res, &h.log)
		}
		if slices.Contains(h.tr.urls, site+"secret.html") {
			t.Errorf("the disallowed page was requested")
		}
	})
	t.Run("the seed", func(t *testing.T) {
		h := newHarness(fsys, 2, 0)
		h.fetcher.Robots = true
		_, err := h.c.Crawl(t.Context(), site+"secret.html")
		if !errors.Is(err, ErrSeedFailed) || !strings.Contains(err.Error(), "robots.txt") {
			t.Errorf("Crawl error = %v, want ErrSeedFailed because of robots.txt", err)
		}
	})
}

// TestOtherSitePauses crawls the second playground in fake time, where
// requests take no time, so the pauses robots.txt asks for are exact: a
// Request-rate of 5/1 on www (200ms) and a Crawl-delay of 0.1 on ir.
func TestOtherSitePauses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		site := os.DirFS(filepath.Join("..", "..", "testdata", "vhosts"))
		h := newHarness(nil, 10, 0)
		h.tr.h = playground.VirtualHosts(site)
		h.fetcher.Robots = true
		sc, err := scope.Parse([]string{"http://*.example.edu/"})
		if err != nil {
			t.Fatal(err)
		}
		h.c.Scope.(*scopeFuncs).internal = sc.Contains
		h.c.Bag = new(bag.Priority)
		h.c.Scanner = &pagescan.Region{From: []byte("<!-- CONTENT -->"), Until: []byte("<!-- /CONTENT -->"), Scanner: new(pagescan.Reference)}
		start := time.Now()
		res, err := h.c.Crawl(t.Context(), "http://www.example.edu/index.html")
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took != 1600*time.Millisecond {
			t.Errorf("crawl took %v, want 1.6s: www's 8 pauses of 200ms", took)
		}
		if res.Saved != 14 || res.Disallowed != 1 || res.Found != 21 || res.Added != 14 || res.External != 3 || res.Duplicate != 4 || res.Deepest != 4 {
			t.Errorf("Result = %+v", res)
		}
		// Per host, from the end of one request to the start of the next:
		// www 8 × 200ms; ir 2 × 100ms; staff 0, 100ms (it waited for ir's
		// turn), 1.2s (the www pages between), 0.
		p := h.fetcher.Scheduler.Pauses()
		if p.Count != 14 || p.Total != 3100*time.Millisecond || p.Shortest != 0 {
			t.Errorf("pauses %+v, want 14 totalling 3.1s, the shortest 0", p)
		}
	})
}

// TestPacingLargeSite shows on a 200-page site, in fake time, that
// politeness costs the pauses and nothing else: the crawl takes exactly
// its requests' time plus one pause between each two of them, with the
// pages saved and scanned inside the pauses.
func TestPacingLargeSite(t *testing.T) {
	for _, order := range []bag.Bag{new(bag.Stack), new(bag.Queue)} {
		t.Run(fmt.Sprintf("%T", order), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(nil, 10, time.Second)
				h.tr.h = synthsite.Site{Pages: 200, Seed: 3}
				h.tr.took = 7 * time.Millisecond
				h.fetcher.Robots = true // robots.txt is a request like any other
				h.c.Bag = order
				start := time.Now()
				res, err := h.c.Crawl(t.Context(), "http://cs50tse.cs.dartmouth.edu/tse/synth/0.html")
				if err != nil {
					t.Fatal(err)
				}
				requests := len(h.tr.spans)
				// Every page is within six links of the seed, so both orders
				// find them all by depth 10.
				if res.Saved != 200 || requests != res.Saved+1 {
					t.Fatalf("saved %d pages in %d requests, want 200, and one request more for robots.txt", res.Saved, requests)
				}
				want := time.Duration(requests)*h.tr.took + time.Duration(requests-1)*time.Second
				if took := time.Since(start); took != want {
					t.Errorf("crawl took %v, want exactly %v", took, want)
				}
				for i := 1; i < requests; i++ {
					if gap := h.tr.spans[i][0].Sub(h.tr.spans[i-1][1]); gap != time.Second {
						t.Fatalf("request %d started %v after the one before ended, want 1s", i+1, gap)
					}
				}
			})
		})
	}
}

// A funcSink is a Sink of the functions a test keeps: save, for each
// page to save, then journal, for every record, as a journal line keeps
// it; either may be nil.
type funcSink struct {
	save    func(id int, url string, depth int, html []byte) error
	journal func(pagefetch.Page) error
}

func (s *funcSink) Record(p *pagefetch.Page) error {
	defer p.Close()
	if p.Kind == pagefetch.Saved && p.Body != nil && s.save != nil {
		if err := s.save(p.DocID, p.URL, p.Depth, p.Body); err != nil {
			return err
		}
	}
	if s.journal != nil {
		return s.journal(journaled(p))
	}
	return nil
}

// journaled returns what a journal line keeps of p.
func journaled(p *pagefetch.Page) pagefetch.Page {
	return pagefetch.Page{Kind: p.Kind, URL: p.URL, DocID: p.DocID, Target: p.Target, Charset: p.Charset,
		Status: p.Status, Needs: p.Needs, Nest: p.Nest}
}

// A pastRuns is a History for the tests: the records a test's sink kept,
// then a page it saved but did not record, if load finds one, as package
// pagedir's History gives them back, checked against the crawl's pages.
type pastRuns struct {
	recs []pagefetch.Page
	reqs []pagefetch.Page
	load func(id int) (url string, depth int, html []byte, err error)
	done bool // no page to adopt
}

func (h *pastRuns) Recall(page bag.Item, saved int) (*pagefetch.Page, bool, bool, error) {
	if len(h.recs) > 0 {
		rec := h.recs[0] // a copy, which the crawl may change
		h.recs = h.recs[1:]
		if rec.URL != page.URL || rec.Kind == pagefetch.Saved && rec.DocID != saved+1 {
			return &rec, false, false, fmt.Errorf("%w: the journal has %s where this crawl has %s", ErrDiverged, rec.URL, page.URL)
		}
		if rec.Kind == pagefetch.Saved {
			html, err := h.page(page, saved+1)
			if err != nil {
				return &rec, false, false, fmt.Errorf("%w: %v", ErrDiverged, err)
			}
			rec.Body = html
		}
		return &rec, true, true, nil
	}
	if h.done || h.load == nil {
		return nil, false, false, nil
	}
	html, err := h.page(page, saved+1)
	if errors.Is(err, fs.ErrNotExist) {
		h.done = true
		return nil, false, false, nil
	}
	if err != nil {
		return nil, false, false, fmt.Errorf("%w: %v", ErrDiverged, err)
	}
	return &pagefetch.Page{Kind: pagefetch.Saved, URL: page.URL, Depth: page.Depth, DocID: saved + 1, Body: html}, false, true, nil
}

// page loads page id, which must be page.
func (h *pastRuns) page(page bag.Item, id int) ([]byte, error) {
	if h.load == nil {
		return nil, fmt.Errorf("page %d: %w", id, fs.ErrNotExist)
	}
	url, depth, html, err := h.load(id)
	if err == nil && (url != page.URL || depth != page.Depth) {
		err = fmt.Errorf("page %d is depth %d %s, where this crawl has depth %d %s", id, depth, url, page.Depth, page.URL)
	}
	return html, err
}

func (h *pastRuns) Rest() error {
	if len(h.recs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the records go on after the crawl ends, at %s", ErrDiverged, h.recs[0].URL)
}

func (h *pastRuns) Requisites() []*pagefetch.Page {
	var reqs []*pagefetch.Page
	for _, r := range h.reqs {
		reqs = append(reqs, &r)
	}
	return reqs
}

// A webFuncs is a Web of the functions a test keeps; fetch must be set,
// and reach and fetchRequisite may be nil.
type webFuncs struct {
	fetch          func(context.Context, string) (*pagefetch.Page, error)
	fetchRequisite func(context.Context, string) (*pagefetch.Page, error)
	reach          func(context.Context, string) (pagefetch.Recording, error)
}

func (w *webFuncs) FetchPage(ctx context.Context, url string) (*pagefetch.Page, error) {
	return w.fetch(ctx, url)
}

func (w *webFuncs) FetchRequisite(ctx context.Context, url string) (*pagefetch.Page, error) {
	return w.fetchRequisite(ctx, url)
}

// Refused refuses nothing: each page is asked of fetch.
func (w *webFuncs) Refused(string) *pagefetch.Page { return nil }

func (w *webFuncs) Reach(ctx context.Context, origin string) (pagefetch.Recording, error) {
	if w.reach == nil {
		return pagefetch.Recording{}, errors.New("this test has no way to ask")
	}
	return w.reach(ctx, origin)
}

// A scopeFuncs is a Scope of the functions a test keeps: internal must be
// set; key is refurl.Normalize if nil, and nil excluded and requisite
// exclude nothing.
type scopeFuncs struct {
	key       func(string) (string, bool)
	internal  func(string) bool
	excluded  func(string) bool
	requisite func(string) bool
}

func (s *scopeFuncs) Key(link string) (string, bool) {
	if s.key == nil {
		return refurl.Normalize(link)
	}
	return s.key(link)
}

func (s *scopeFuncs) Internal(key string) bool { return s.internal(key) }
func (s *scopeFuncs) Excluded(key string) bool { return s.excluded != nil && s.excluded(key) }
func (s *scopeFuncs) Requisite(key string) bool {
	return s.requisite == nil || s.requisite(key)
}
