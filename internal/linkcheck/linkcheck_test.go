package linkcheck_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/linkcheck"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
)

// An answer is what a fakeWeb answers a check with.
type answer struct {
	Code        int
	Status      string
	ContentType string
	Body        []byte
	Location    string
}

// page returns a as the fetcher's Page.
func (a answer) page(u string) *pagefetch.Page {
	p := &pagefetch.Page{URL: u, Code: a.Code, Status: a.Status, Body: a.Body, Target: a.Location, Header: http.Header{}}
	if a.ContentType != "" {
		p.Header.Set("Content-Type", a.ContentType)
	}
	return p
}

// A fakeWeb answers checks from a table, by URL, and counts them.
type fakeWeb struct {
	mu      sync.Mutex
	answers map[string]answer // a URL missing is a 404
	down    map[string]bool   // hosts that cannot be reached
	// limited are hosts that ask for a wait longer than a check keeps,
	// and the wait.
	limited map[string]time.Duration
	asked   map[string]int
}

func (w *fakeWeb) Check(_ context.Context, u string, body bool) (*pagefetch.Page, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.asked == nil {
		w.asked = make(map[string]int)
	}
	w.asked[u]++
	for h := range w.down {
		if strings.HasPrefix(u, h) {
			return nil, &pagefetch.UnreachableError{Host: h, Err: fmt.Errorf("connection refused")}
		}
	}
	for h, wait := range w.limited {
		if strings.HasPrefix(u, h) {
			return nil, &pagefetch.RateLimitedError{Host: h, Code: 429, Wait: wait}
		}
	}
	a, ok := w.answers[u]
	if !ok {
		return answer{Code: 404, Status: "404 Not Found"}.page(u), nil
	}
	if !body {
		a.Body = nil
	}
	return a.page(u), nil
}

// scope takes in http://site/ alone; a URL is its own key.
type scope struct{}

func (scope) Key(link string) (string, bool) {
	return link, strings.HasPrefix(link, "http://")
}
func (scope) Internal(link string) bool { return strings.HasPrefix(link, "http://site/") }
func (scope) Excluded(link string) bool { return strings.Contains(link, "/private/") }

func html(s string) answer {
	return answer{Code: 200, ContentType: "text/html", Body: []byte(s)}
}

func TestChecker(t *testing.T) {
	web := &fakeWeb{
		answers: map[string]answer{
			"http://site/file.pdf":  {Code: 200, ContentType: "application/pdf"},
			"http://site/s.css":     {Code: 200, ContentType: "text/css", Body: []byte("a {\n  background: url(gone.png) }\n@import 'ok.css';")},
			"http://site/ok.css":    {Code: 200, ContentType: "text/css"},
			"http://site/deep.html": html(`<p id=there>`),
			"http://site/moved":     {Code: 301, Location: "http://site/gone.html"},
			"http://other/ok":       {Code: 200},
		},
		down: map[string]bool{"http://dead/": true},
	}
	c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, 2), Scope: scope{}, External: true}
	c.Saved("http://site/", read("http://site/", `<link rel=stylesheet href=s.css>
<a href=a.html>a</a> <a href=file.pdf>pdf</a> <a href=missing.pdf>x</a>
<a href="a.html#here">h</a> <a href="a.html#nowhere">n</a> <a href="#top">t</a>
<a href="deep.html#there">d</a> <a href="deep.html#not">d</a>
<a href=moved>m</a> <a href=http://other/ok>o</a> <a href=http://other/gone>g</a>
<a href=http://dead/1>1</a> <a href=http://dead/2>2</a> <a href=mailto:x@y>m</a>
<a href=private/p.html>p</a> <a href=failed.html>f</a> <a href=robots.html>r</a>
<a href=http://other/private/x>x</a>`, ""))
	c.Saved("http://site/a.html", read("http://site/a.html", `<h1 id=here>A</h1><a href=/failed.html>f</a>`, ""))
	c.Failed("http://site/failed.html", "404")
	c.Disallowed("http://site/robots.html")
	r, err := c.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	r.WriteText(&got)
	want := `http://dead: host-unreachable (external, 2 links)
  http://site/:6:1 -> http://dead/1
  http://site/:6:29 -> http://dead/2
http://site/failed.html: 404 (page, 2 links)
  http://site/:7:30
  http://site/a.html:1:19
http://site/a.html#nowhere: missing-fragment (fragment, 1 link)
  http://site/:3:29
http://site/missing.pdf: 404 (page, 1 link)
  http://site/:2:47
http://site/deep.html#not: missing-fragment (fragment, 1 link)
  http://site/:4:33
http://site/moved: 404 (page, 1 link)
  http://site/:5:1
http://other/gone: 404 (external, 1 link)
  http://site/:5:51
http://site/gone.png: 404 (requisite, 1 link)
  http://site/s.css:2:15

Not checked, as robots.txt disallows them:
http://site/robots.html: robots (page, 1 link)
  http://site/:7:56

2 pages checked, 17 links checked: 10 broken links to 8 targets; 1 link not checked (robots.txt)
`
	if got.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", got.String(), want)
	}
	for u, n := range web.asked {
		if strings.HasPrefix(u, "http://dead/") && u != "http://dead/1" {
			t.Errorf("asked %s %d times: a host down is asked once", u, n)
		}
		if strings.Contains(u, "private") || strings.HasPrefix(u, "mailto:") || u == "http://site/a.html" {
			t.Errorf("asked %s, which the crawl decided, or must not be asked", u)
		}
	}

	t.Run("no external links", func(t *testing.T) {
		web := &fakeWeb{}
		c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, 1), Scope: scope{}}
		c.Saved("http://site/", read("http://site/", `<a href=http://other/x>x</a><a href=y.html>y</a>`, ""))
		r, err := c.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Broken) != 1 || r.Broken[0].URL != "http://site/y.html" || web.asked["http://other/x"] != 0 {
			t.Errorf("broken %+v, asked %v", r.Broken, web.asked)
		}
	})
}

// TestCheckerRateLimited: a link whose host asks for a longer wait than
// a check keeps is reported rate-limited, with the wait asked for; the
// host's other links too, each where it is, and other hosts' links as
// ever.
func TestCheckerRateLimited(t *testing.T) {
	web := &fakeWeb{
		answers: map[string]answer{"http://other/ok": {Code: 200}},
		limited: map[string]time.Duration{"http://busy/": 90 * time.Minute},
	}
	c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, 1), Scope: scope{}, External: true}
	c.Saved("http://site/", read("http://site/", "<a href=http://busy/a>a</a>\n<a href=http://other/ok>o</a> <a href=http://busy/b>b</a>", ""))
	r, err := c.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	r.WriteText(&got)
	want := `http://busy/a: rate-limited, Retry-After 1h30m0s (external, 1 link)
  http://site/:1:1
http://busy/b: rate-limited, Retry-After 1h30m0s (external, 1 link)
  http://site/:2:31

1 page checked, 3 links checked: 2 broken links to 2 targets
`
	if got.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", got.String(), want)
	}
	if b := r.Broken[0]; b.Status != linkcheck.RateLimited || b.RetryAfter != 90*time.Minute {
		t.Errorf("broken link %+v, want it %s with RetryAfter 1h30m", b, linkcheck.RateLimited)
	}
}

// read reads a page as a crawl that checks links reads it.
func read(pageURL, html, charset string) *pagescan.Reading {
	return new(pagescan.HTML).Read(pageURL, []byte(html), charset, pagescan.What{Links: true, Requisites: true, Refs: true})
}

// A slowWeb answers every check with a 200, after a second, and counts
// the checks in flight, in all and by host.
type slowWeb struct {
	mu             sync.Mutex
	now, most      int
	byHost         map[string]int
	mostOne, asked int
}

func (w *slowWeb) Check(_ context.Context, u string, _ bool) (*pagefetch.Page, error) {
	host := strings.Split(u, "/")[2]
	w.mu.Lock()
	w.now++
	w.byHost[host]++
	w.most, w.mostOne = max(w.most, w.now), max(w.mostOne, w.byHost[host])
	w.asked++
	w.mu.Unlock()
	time.Sleep(time.Second) // the request, in the bubble's time
	w.mu.Lock()
	w.now--
	w.byHost[host]--
	w.mu.Unlock()
	return answer{Code: 200}.page(u), nil
}

// TestCheckerWorkers: the checks go through the Scheduler's workers, one
// request at a time with one worker, and no host ever has two in flight.
func TestCheckerWorkers(t *testing.T) {
	var page strings.Builder
	for h := range 4 {
		for i := range 3 {
			fmt.Fprintf(&page, "<a href=http://h%d.test/%d>x</a>\n", h, i)
		}
	}
	for _, workers := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				web := &slowWeb{byHost: make(map[string]int)}
				c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, workers), Scope: scope{}, External: true}
				c.Saved("http://site/", read("http://site/", page.String(), ""))
				start := time.Now()
				if _, err := c.Run(t.Context()); err != nil {
					t.Fatal(err)
				}
				if web.asked != 12 || web.most != workers || web.mostOne != 1 {
					t.Errorf("%d checks, %d at once at most, %d to one host; want 12, %d, 1", web.asked, web.most, web.mostOne, workers)
				}
				if took, want := time.Since(start), time.Duration(12/workers)*time.Second; took != want {
					t.Errorf("took %v, want %v", took, want)
				}
			})
		})
	}
}

// TestCheckerExternalFragments: a fragment of a page outside the scope
// is checked against that page's ids and <a name>s, as inside it, the
// page read once for all the links to it; a fragment of a file that is no
// HTML page is taken as it is.
func TestCheckerExternalFragments(t *testing.T) {
	web := &fakeWeb{answers: map[string]answer{
		"http://other/doc": html(`<h2 id=there>T</h2><a name=old>O</a>`),
		"http://other/pdf": {Code: 200, ContentType: "application/pdf", Body: []byte("%PDF")},
	}}
	c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, 1), Scope: scope{}, External: true}
	c.Saved("http://site/", read("http://site/", `<a href=http://other/doc#there>1</a> <a href=http://other/doc#old>2</a>
<a href=http://other/doc#gone>3</a> <a href=http://other/doc>4</a> <a href=http://other/doc#top>5</a>
<a href=http://other/pdf#page=2>6</a>`, ""))
	r, err := c.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	r.WriteText(&got)
	want := `http://other/doc#gone: missing-fragment (fragment, 1 link)
  http://site/:2:1

1 page checked, 6 links checked: 1 broken link to 1 target
`
	if got.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", got.String(), want)
	}
	if n := web.asked["http://other/doc"]; n != 1 {
		t.Errorf("asked http://other/doc %d times, want once", n)
	}
}
