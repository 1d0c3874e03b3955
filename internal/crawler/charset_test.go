package crawler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
)

// charsetSite is a site of two hosts in html mode. a.test/sjis.html is in
// Shift_JIS, which only its Content-Type says, and links to 表.html?k=表
// (0x95 0x5C); read from its bytes alone, it would be windows-1252, and
// the link another. b.test/w.html says windows-1252 in its <meta> too, so
// its charset changes nothing.
var charsetSite = map[string]sitePage{
	"http://a.test/index.html":               {html: []byte(`<a href=sjis.html>s</a> <a href=http://b.test/w.html>w</a>`)},
	"http://a.test/sjis.html":                {html: []byte("<a href=\"\x95\x5c.html?k=\x95\x5c\">h</a>"), charset: "Shift_JIS"},
	"http://a.test/%E8%A1%A8.html?k=%95\\":   {html: []byte("the end"), charset: "Shift_JIS"},
	"http://b.test/w.html":                   {html: []byte("<meta charset=windows-1252><a href=\"caf\xe9.html?x=\xe9\">c</a>"), charset: "windows-1252"},
	"http://b.test/caf%C3%A9.html?x=%E9":     {html: []byte("the end too")},
	"http://a.test/%E2%80%A2/.html?k=%95%5C": {html: []byte("the link as windows-1252 reads it")},
}

// A sitePage is a page of a test's site, and the charset its Content-Type
// names, if any.
type sitePage struct {
	html    []byte
	charset string
}

// answer returns what fetching p gets.
func (p sitePage) answer(u string) *pagefetch.Page {
	ctype := "text/html"
	if p.charset != "" {
		ctype += "; charset=" + p.charset
	}
	return &pagefetch.Page{URL: u, Code: 200, Body: slices.Clone(p.html), Header: http.Header{"Content-Type": {ctype}}}
}

// A charsetRun is what a crawl of charsetSite did, in the order the
// scribe did it.
type charsetRun struct {
	log     string
	entries []pagefetch.Page
	pages   map[int][]byte
	fetched []string
}

// crawlCharsetSite crawls charsetSite in html mode, fetching parallel
// pages at once, and replaying replay with pages.
func crawlCharsetSite(t *testing.T, parallel int, replay []pagefetch.Page, pages map[int][]byte) (charsetRun, error) {
	t.Helper()
	sc, err := scope.Parse([]string{"http://a.test/", "http://b.test/"})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log bytes.Buffer
	run := charsetRun{pages: make(map[int][]byte)}
	c := &Crawler{
		Web: &webFuncs{
			fetch: func(_ context.Context, u string) (*pagefetch.Page, error) {
				mu.Lock()
				run.fetched = append(run.fetched, u)
				mu.Unlock()
				if p, ok := charsetSite[u]; ok {
					return p.answer(u), nil
				}
				return &pagefetch.Page{URL: u, Code: 404}, &pagefetch.StatusError{Code: 404, Status: "404 Not Found"}
			},
		},
		Sink: &funcSink{
			save: func(id int, url string, depth int, html []byte) error {
				run.pages[id] = slices.Clone(html)
				return nil
			},
			journal: func(e pagefetch.Page) error {
				run.entries = append(run.entries, e)
				return nil
			},
		},
		History: &pastRuns{
			load: func(id int) (string, int, []byte, error) {
				for _, e := range replay {
					if e.Kind == pagefetch.Saved && e.DocID == id {
						return e.URL, depthOf(e.URL), pages[id], nil
					}
				}
				return "", 0, nil, fmt.Errorf("page %d: %w", id, fs.ErrNotExist)
			},
			recs: replay,
		},
		Scanner: new(pagescan.HTML),
		Scope: &scopeFuncs{
			key:      browserurl.Normalize,
			internal: sc.Contains,
		},
		Bag:       new(bag.Queue),
		MaxDepth:  2,
		Log:       &log,
		Errors:    &log,
		Scheduler: pagefetch.NewScheduler(0, nil, parallel),

		AheadMemory: 1 << 20,
	}
	_, err = c.Crawl(t.Context(), "http://a.test/index.html")
	run.log = log.String()
	return run, err
}

// depthOf gives the depth of a page of charsetSite.
func depthOf(url string) int {
	switch {
	case strings.HasSuffix(url, "index.html"):
		return 0
	case strings.HasSuffix(url, "sjis.html"), strings.HasSuffix(url, "w.html"):
		return 1
	}
	return 2
}

// TestCharsetKept: in html mode, a page's Content-Type charset decides how
// it reads when its bytes do not say; its record keeps the charset, so
// that a replay, which has the page but not its response, reads it alike
// (package pagedir journals it before the page). A charset the page's <meta> says too
// is not kept. That of a page at maxDepth is, though the crawl never
// scans it, for the link graph, which does. Fetching ahead changes none of
// it.
func TestCharsetKept(t *testing.T) {
	want := []pagefetch.Page{
		{Kind: pagefetch.Saved, URL: "http://a.test/index.html", DocID: 1},
		{Kind: pagefetch.Saved, URL: "http://a.test/sjis.html", DocID: 2, Charset: "Shift_JIS"},
		{Kind: pagefetch.Saved, URL: "http://b.test/w.html", DocID: 3},
		{Kind: pagefetch.Saved, URL: "http://a.test/%E8%A1%A8.html?k=%95\\", DocID: 4, Charset: "Shift_JIS"}, // at maxDepth
		{Kind: pagefetch.Saved, URL: "http://b.test/caf%C3%A9.html?x=%E9", DocID: 5},
	}
	var first charsetRun
	for _, parallel := range []int{1, 4} {
		run, err := crawlCharsetSite(t, parallel, nil, nil)
		if err != nil {
			t.Fatalf("-parallel %d: %v", parallel, err)
		}
		if !reflect.DeepEqual(run.entries, want) {
			t.Fatalf("-parallel %d: the journal is\n%+v\nwant\n%+v\nlog:\n%s", parallel, run.entries, want, run.log)
		}
		if parallel == 1 {
			first = run
		} else if run.log != first.log {
			t.Errorf("-parallel %d: the log differs:\n%s\nwant\n%s", parallel, run.log, first.log)
		}
	}

	// A replay of the whole journal fetches nothing: every page reads as
	// it did, and leaves the bag as it was, empty.
	replay, err := crawlCharsetSite(t, 1, first.entries, first.pages)
	if err != nil || len(replay.fetched) != 0 {
		t.Errorf("replaying the journal: %v, and fetched %q, want nothing", err, replay.fetched)
	}

	// Without its charset, the Shift_JIS page reads as windows-1252,
	// which finds another page than the crawl did.
	stripped := slices.Clone(first.entries)
	stripped[1].Charset = ""
	replay, err = crawlCharsetSite(t, 1, stripped, first.pages)
	if !errors.Is(err, ErrDiverged) {
		t.Errorf("replaying the journal without the charset: %v, fetched %q; want ErrDiverged", err, replay.fetched)
	}
}
