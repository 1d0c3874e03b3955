package linkcheck_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tse-crawler/internal/linkcache"
	"tse-crawler/internal/linkcheck"
	"tse-crawler/internal/pagefetch"
)

// cachedWeb answers as the web of TestCheckerCache does.
func cachedWeb() *fakeWeb {
	return &fakeWeb{answers: map[string]answer{
		"http://other/ok":      {Code: 200, ContentType: "text/html"},
		"http://other/moved":   {Code: 301, Location: "http://other/ok"},
		"http://other/to-site": {Code: 301, Location: "http://site/in.pdf"},
		"http://site/in.pdf":   {Code: 200, ContentType: "application/pdf"},
		"http://cdn/s.css":     {Code: 200, ContentType: "text/css", Body: []byte("@import 'i.css';\nb { background: url(gone.png) }")},
		"http://cdn/i.css":     {Code: 200, ContentType: "text/css", Body: []byte("i { background: url(ok.png) }")},
		"http://cdn/ok.png":    {Code: 200, ContentType: "image/png"},
	}}
}

// cachedCount is the part of a report's last line that says how many
// links the cache answered.
var cachedCount = regexp.MustCompile(` \(\d+ from the cache\)`)

// TestCheckerCache checks a page twice with one cache: the second check
// asks again what was broken, what is inside the scope, a target whose
// redirects led into it, and what the cache's age let pass, but no
// target outside the scope that was fine, and reports what the first did
// but for how many links the cache answered.
func TestCheckerCache(t *testing.T) {
	tests := []struct {
		name         string
		first, again string        // the page, in each check
		later        time.Duration // how long after the first check the second runs
		asked        map[string]int
		cached       int // links the cache answers the second time
	}{
		{
			name:  "fine outside the scope",
			first: `<a href=http://other/ok>o</a> <a href=http://other/ok>o</a>`,
			asked: map[string]int{"http://other/ok": 0}, cached: 2,
		},
		{
			name:  "fine once redirected",
			first: `<a href=http://other/moved>o</a>`,
			asked: map[string]int{"http://other/moved": 0, "http://other/ok": 0}, cached: 1,
		},
		{
			name:  "broken outside the scope",
			first: `<a href=http://other/gone>g</a>`,
			asked: map[string]int{"http://other/gone": 1},
		},
		{
			name:  "inside the scope",
			first: `<a href=in.pdf>p</a>`,
			asked: map[string]int{"http://site/in.pdf": 1},
		},
		{
			name:  "redirected into the scope",
			first: `<a href=http://other/to-site>s</a>`,
			asked: map[string]int{"http://other/to-site": 1},
		},
		{
			name:  "too old",
			first: `<a href=http://other/ok>o</a>`, later: 25 * time.Hour,
			asked: map[string]int{"http://other/ok": 1},
		},
		{
			name:  "stylesheet and its imports",
			first: `<link rel=stylesheet href=http://cdn/s.css>`,
			// what it imports comes from the cache too, and a broken
			// one is asked again, and found broken where it is
			asked: map[string]int{"http://cdn/s.css": 0, "http://cdn/i.css": 0, "http://cdn/ok.png": 0, "http://cdn/gone.png": 1}, cached: 3,
		},
		{
			name:  "fine, then a fragment of it linked",
			first: `<a href=http://other/ok>o</a>`, again: `<a href=http://other/ok#gone>o</a>`,
			// the cache keeps no ids: it is asked, and read for them
			asked: map[string]int{"http://other/ok": 1},
		},
		{
			name:  "stylesheet linked, then needed",
			first: `<a href=http://cdn/s.css>s</a>`, again: `<link rel=stylesheet href=http://cdn/s.css>`,
			// the cache knows it fine, but not what it imports: each is
			// asked, then read, as in a check without a cache
			asked: map[string]int{"http://cdn/s.css": 2, "http://cdn/i.css": 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "links.json")
			now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
			check := func(page string) (*linkcheck.Report, string, *fakeWeb) {
				t.Helper()
				cache, err := linkcache.New(path, 24*time.Hour, func() time.Time { return now }, func(msg string) { t.Errorf("warning: %s", msg) })
				if err != nil {
					t.Fatal(err)
				}
				if err := cache.Load(t.Context()); err != nil {
					t.Fatal(err)
				}
				web := cachedWeb()
				c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, 2), Scope: scope{}, External: true, Cache: cache}
				c.Saved("http://site/", read("http://site/", page, ""))
				r, err := c.Run(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if err := cache.Flush(t.Context()); err != nil {
					t.Fatal(err)
				}
				var text strings.Builder
				r.WriteText(&text)
				return r, text.String(), web
			}
			r1, text1, _ := check(tt.first)
			if r1.Cached != 0 || !strings.Contains(text1, " (0 from the cache)") {
				t.Errorf("the first check: %d links from the cache:\n%s", r1.Cached, text1)
			}
			now = now.Add(tt.later)
			again := tt.again
			if again == "" {
				again = tt.first
			}
			r2, text2, web := check(again)
			for u, want := range tt.asked {
				if got := web.asked[u]; got != want {
					t.Errorf("the second check asked %s %d times, want %d", u, got, want)
				}
			}
			if r2.Cached != tt.cached {
				t.Errorf("the second check took %d links from the cache, want %d:\n%s", r2.Cached, tt.cached, text2)
			}
			if tt.again == "" && cachedCount.ReplaceAllString(text1, "") != cachedCount.ReplaceAllString(text2, "") {
				t.Errorf("the second check reports\n%s\nthe first\n%s", text2, text1)
			}
		})
	}
}

// TestCheckerCacheStopped: a check stopped while it asks keeps in the
// cache what it learned before, and nothing of the target it was asking.
func TestCheckerCacheStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	now := func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) }
	cache, err := linkcache.New(path, 24*time.Hour, now, func(msg string) { t.Errorf("warning: %s", msg) })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	web := &stoppingWeb{fakeWeb: cachedWeb(), stopAt: "http://other/gone", stop: cancel}
	c := &linkcheck.Checker{Web: web, Scheduler: pagefetch.NewScheduler(0, nil, 1), Scope: scope{}, External: true, Cache: cache}
	c.Saved("http://site/", read("http://site/", `<a href=http://other/ok>o</a> <a href=http://other/gone>g</a>`, ""))
	if _, err := c.Run(ctx); err == nil {
		t.Fatal("the check ran to its end, though stopped")
	}
	later, err := linkcache.New(path, 24*time.Hour, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := later.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, ok := later.Fine("http://other/ok"); !ok {
		t.Error("what the check learned before it was stopped is not in the cache")
	}
	if data := readFile(t, path); strings.Contains(data, "http://other/gone") {
		t.Errorf("the target asked as the check stopped is in the cache:\n%s", data)
	}
}

// A stoppingWeb is a fakeWeb that stops the check as it asks stopAt.
type stoppingWeb struct {
	*fakeWeb
	stopAt string
	stop   func()
}

func (w *stoppingWeb) Check(ctx context.Context, u string, body bool) (*pagefetch.Page, error) {
	if u == w.stopAt {
		w.stop()
		return nil, ctx.Err()
	}
	return w.fakeWeb.Check(ctx, u, body)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
