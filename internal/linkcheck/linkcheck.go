// Package linkcheck checks every URL the pages of a crawl refer to, as a
// link checker in a CI job does: the links and the requisites of every page
// saved, where each is in its page, whether its target answers, and
// whether the fragment it names is in the page it names.
//
// The crawl tells a [Checker] what came of each page it took (Saved,
// Failed, Redirected, Disallowed), and the Checker scans each page saved
// for what it refers to. Once the crawl ends, [Checker.Run] decides each
// target: a page the crawl took is what the crawl made of it, and any
// other target (outside the scope, a requisite, a file that is no page, a
// page past maxDepth) is asked once, through the crawl's fetcher, so that
// its pauses and robots.txt hold. A stylesheet is read for what it
// imports in turn, and a page a link names a fragment of, in the scope or
// out, for its ids and <a name>s, unless it is larger than the fetcher's
// MaxSize: then its fragments are not checked.
//
// With a Cache, a target outside the scope that the cache found fine
// lately is taken as fine without a request, and what came of each such
// target asked is put in the cache, as soon as it is known, so that a
// check stopped half way keeps what it learned. It keeps a status, and a
// stylesheet's imports, but no page's ids: a target a link names a
// fragment of is asked again. A target whose redirects lead into the
// scope is never put in the cache: the scope is always checked.
package linkcheck

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"tse-crawler/internal/linkcache"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
)

// A Web checks one URL: the crawl's fetcher. Its Page is the answer to
// the last request the check sent, whatever its status.
type Web interface {
	Check(ctx context.Context, rawURL string, body bool) (*pagefetch.Page, error)
}

// A Scope says what belongs to the crawl, as the crawl's own scope does.
type Scope interface {
	// Key returns the crawl's key for the page a URL names, or false for
	// a URL that names no page the crawl could take.
	Key(link string) (string, bool)
	// Internal says whether a URL, resolved, is in the scope, whatever
	// it names: a file that is no page too.
	Internal(link string) bool
	// Excluded says whether a URL, in the scope or not, is never to be
	// asked for (-exclude).
	Excluded(link string) bool
}

// The kinds of a broken link.
const (
	KindPage      = "page"      // a link to a page in the scope
	KindRequisite = "requisite" // something a page needs to render
	KindExternal  = "external"  // a link outside the scope
	KindFragment  = "fragment"  // a link to a page that has no element by its fragment's name
)

// tooLarge is the crawl's status of a page over -max-size: there, but
// not read.
const tooLarge = "too-large"

// Reasons a target is broken that are no HTTP status.
const (
	MissingFragment = "missing-fragment"
	HostUnreachable = "host-unreachable"
	Robots          = "robots"
	// RateLimited is a target whose host asked, with Retry-After, for a
	// longer wait than a check keeps, which is not waited for. Not known
	// to be fine, it is reported with the broken ones, with the wait
	// asked for, to be checked again once that has passed.
	RateLimited = "rate-limited"
)

// maxRedirects is how many redirects in a row a target's check follows,
// as the crawl does.
const maxRedirects = 10

// A Checker gathers what a crawl's pages refer to, then checks it. Its
// methods but Run are called from one goroutine, as the crawl decides.
type Checker struct {
	Web   Web
	Scope Scope
	// Scheduler sends the checks, from its workers, the crawl's: each
	// host one request at a time, after its pause, as many hosts at once
	// as it has workers. Run starts it, and stops it when done.
	Scheduler *pagefetch.Scheduler
	// External is whether links outside the scope are checked.
	External bool
	// Cache, if not nil, keeps the outcomes of targets outside the scope
	// between checks.
	Cache *linkcache.Cache

	pages map[string]*page // by the crawl's key
	refs  []ref
	saved int
}

// What the crawl made of a page it took.
type page struct {
	status string // "200" for a page saved, else its status or why it failed
	target string // a redirect's target, as the crawl's key
	ids    map[string]bool
}

// A ref is one URL that a page, or a stylesheet, refers to.
type ref struct {
	from         string
	line, column int
	url          string // resolved, without its fragment
	fragment     string // "" for none, or an empty one
	requisite    bool
}

func (c *Checker) page(key string) *page {
	if c.pages == nil {
		c.pages = make(map[string]*page)
	}
	p := c.pages[key]
	if p == nil {
		p = new(page)
		c.pages[key] = p
	}
	return p
}

// Saved notes a page saved, and what it refers to and the fragments it
// holds, as the crawl's reading of it found them (pagescan.What's Refs).
func (c *Checker) Saved(key string, rd *pagescan.Reading) {
	p := c.page(key)
	p.status = "200"
	p.ids = make(map[string]bool)
	c.saved++
	for _, r := range rd.Refs {
		if r.Frame {
			continue // checked as the link it is too
		}
		c.refs = append(c.refs, ref{from: key, line: r.Line, column: r.Column, url: r.URL,
			fragment: r.Fragment, requisite: r.Requisite})
	}
	for _, id := range rd.IDs {
		p.ids[id] = true
	}
}

// Listed notes a link to url, a page in the scope, from outside any page:
// from, such as a sitemap, at line and column, which the report names as
// the link's referrer.
func (c *Checker) Listed(from string, line, column int, url string) {
	c.refs = append(c.refs, ref{from: from, line: line, column: column, url: url})
}

// Failed notes a page that could not be fetched, with the status the
// link graph gives it: its HTTP status, or a word such as "timeout".
func (c *Checker) Failed(key, status string) { c.page(key).status = status }

// Redirected notes a page that redirected to target, a key.
func (c *Checker) Redirected(key, target, status string) {
	p := c.page(key)
	p.status, p.target = status, target
}

// Disallowed notes a page that robots.txt kept the crawl from.
func (c *Checker) Disallowed(key string) { c.page(key).status = Robots }

// A target is a URL that refs name, and what came of it.
type target struct {
	url      string
	key      string // the crawl's key, or ""
	internal bool
	status   string // "" while unknown; ok says whether it is fine
	ok       bool
	wait     time.Duration // for RateLimited, the wait its host asked for
	skip     bool          // neither checked nor reported
	body     bool          // read it, for its fragments or its imports
	ids      map[string]bool
	css      []pagescan.Ref
	refs     []int // into Checker.refs
	// For the Cache: cached is a target it answered; local one whose
	// redirects led into the scope, which it does not keep; stylesheet
	// one that answered a stylesheet, and read whether that was read for
	// its imports, css.
	cached, local, stylesheet, read bool
}

// A BrokenLink is a target that is broken, and every link to it.
type BrokenLink struct {
	URL    string // a missing fragment keeps its #fragment
	Status string // an HTTP status, such as "404", or a reason, such as "timeout"
	Kind   string
	From   []Referrer
	// RetryAfter is, for a link RateLimited, the wait its host asked for
	// (by Retry-After); 0 for any other.
	RetryAfter time.Duration
}

// A Referrer is where a link is: the page (or stylesheet) that holds it,
// and its line and column there.
type Referrer struct {
	Page         string
	Line, Column int
	// URL is the link's target where the entry is a host's, which holds
	// the links to any of its URLs (HostUnreachable); "" for any other.
	URL string
}

// A Report is what a check found.
type Report struct {
	Pages  int // pages checked: saved, and read for their links
	Links  int // links checked: those of targets asked, or decided by the crawl
	Broken []BrokenLink
	// NotChecked are the targets robots.txt kept the check from asking,
	// in the form of Broken: not known to be broken, and nothing a fix
	// of the pages would mend, so apart. They are not in Links.
	NotChecked []BrokenLink
	// Unread are the pages in the scope too large to read for their
	// links, and so not checked through, sorted.
	Unread []string
	// Cached is how many of Links the Checker's Cache answered, and
	// WithCache whether it had one.
	Cached    int
	WithCache bool
}

// BrokenLinks is how many links are broken: the referrers of every broken
// target.
func (r *Report) BrokenLinks() int { return links(r.Broken) }

func links(bs []BrokenLink) int {
	n := 0
	for _, b := range bs {
		n += len(b.From)
	}
	return n
}

// Run decides every target the pages refer to, asking the web for those
// the crawl did not take, on the Scheduler's workers, which it starts and
// stops, and returns the broken ones, most linked first.
func (c *Checker) Run(ctx context.Context) (*Report, error) {
	c.Scheduler.Start(ctx)
	defer c.Scheduler.Stop()
	targets := make(map[string]*target)
	var order []*target
	add := func(from int) {
		for i := from; i < len(c.refs); i++ {
			r := c.refs[i]
			t := targets[r.url]
			if t == nil {
				t = c.newTarget(r.url)
				targets[r.url] = t
				order = append(order, t)
			}
			t.refs = append(t.refs, i)
		}
	}
	add(0)
	for checked := 0; checked < len(order); {
		round := order[checked:]
		checked = len(order)
		for _, t := range round {
			c.decide(t)
		}
		if err := c.checkAll(ctx, round); err != nil {
			return nil, err
		}
		// A stylesheet's imports and url()s are targets in turn.
		n := len(c.refs)
		for _, t := range round {
			for _, r := range t.css {
				c.refs = append(c.refs, ref{from: t.url, line: r.Line, column: r.Column, url: r.URL, requisite: true})
			}
			t.css = nil
		}
		add(n)
	}
	return c.report(order), nil
}

// newTarget makes the target of the URL u, and decides what the crawl
// knows of it.
func (c *Checker) newTarget(u string) *target {
	t := &target{url: u}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		t.skip = true // mailto:, data:, javascript:, or no URL at all: nothing to ask
		return t
	}
	if key, ok := c.Scope.Key(u); ok {
		t.key = key
	}
	t.internal = c.Scope.Internal(u)
	if c.Scope.Excluded(u) {
		t.skip = true // -exclude: never requested, in the scope or out
	}
	return t
}

// decide settles t from what the crawl made of it, if the crawl took it,
// or readies it to be asked.
func (c *Checker) decide(t *target) {
	if t.skip || t.status != "" {
		return
	}
	if t.key != "" {
		if status, ids, ok := c.outcome(t.key); ok {
			t.status, t.ids = status, ids
			t.ok = fine(status)
			return
		}
	}
	if !t.internal && !c.External {
		t.skip = true
		return
	}
	for _, i := range t.refs {
		if !topFragment(c.refs[i].fragment) {
			t.body = true
		}
	}
	// The Cache keeps a status, not the ids a fragment needs.
	if !t.internal && !t.body && c.fromCache(t) {
		return
	}
}

// fromCache settles t, a target outside the scope, as fine if the Cache
// says it is, with a stylesheet's imports, for a page that needs it.
func (c *Checker) fromCache(t *target) bool {
	if c.Cache == nil {
		return false
	}
	e, ok := c.Cache.Fine(t.url)
	need := c.isRequisite(t)
	if !ok || need && e.Stylesheet && e.Imports == nil {
		return false // asked, so that what a page needs is read
	}
	t.status, t.ok, t.cached = e.Status, true, true
	if need && e.Imports != nil {
		for _, im := range *e.Imports {
			t.css = append(t.css, pagescan.Ref{URL: im.URL, Line: im.Line, Column: im.Column})
		}
	}
	return true
}

// keep puts what came of t, just asked, in the Cache, if it is one the
// Cache keeps.
func (c *Checker) keep(ctx context.Context, t *target) {
	if c.Cache == nil || t.internal || t.local || t.status == "" {
		return
	}
	e := linkcache.Entry{URL: t.url, Status: t.status, Stylesheet: t.stylesheet}
	if t.read {
		imports := make([]linkcache.Import, len(t.css))
		for i, r := range t.css {
			imports[i] = linkcache.Import{URL: r.URL, Line: r.Line, Column: r.Column}
		}
		e.Imports = &imports
	}
	c.Cache.Put(ctx, e)
}

// outcome returns what the crawl made of the page key, following its
// redirects: its status and, if saved, its fragments; false if the crawl
// did not take it, or a redirect led off what it took.
func (c *Checker) outcome(key string) (string, map[string]bool, bool) {
	for range maxRedirects + 1 {
		p := c.pages[key]
		if p == nil {
			return "", nil, false
		}
		if p.target == "" {
			return p.status, p.ids, true
		}
		key = p.target
	}
	return "too-many-redirects", nil, true
}

// fine says whether a page the crawl took and did not save is there all
// the same: a file that is no page, or a page it would not save.
func fine(status string) bool {
	switch status {
	case "200", "not-html", "empty-body", tooLarge:
		return true
	}
	return false
}

// topFragment says whether a fragment names a place every page has: its
// top.
func topFragment(f string) bool {
	f = indicated(f)
	return f == "" || strings.EqualFold(f, "top")
}

// indicated returns the part of a fragment that names an element, as a
// browser looks for it: the fragment directive, from ":~:" on (a text
// fragment, #:~:text=...), is taken out first, and what it finds, if
// anything, the page's text decides.
func indicated(f string) string {
	f, _, _ = strings.Cut(f, ":~:")
	return f
}

// checkAll asks the web for every target of round not yet decided, on
// the Scheduler's workers, each host's targets one after another. A host
// found unreachable is given up, and its other targets are decided so
// without a request.
func (c *Checker) checkAll(ctx context.Context, round []*target) error {
	q := &checks{c: c, byHost: make(map[string][]*target), done: make(chan struct{})}
	for _, t := range round {
		if t.skip || t.status != "" {
			continue
		}
		h := hostOf(t.url)
		if q.byHost[h] == nil {
			c.Scheduler.Meet(h)
		}
		q.byHost[h] = append(q.byHost[h], t)
		q.pending++
	}
	if q.pending == 0 {
		return nil
	}
	c.Scheduler.Add(q)
	select {
	case <-q.done:
	case <-ctx.Done():
	}
	return context.Cause(ctx)
}

// checks are a round of targets to ask, by host: a queue of the
// Scheduler.
type checks struct {
	c       *Checker
	mu      sync.Mutex
	byHost  map[string][]*target
	pending int
	done    chan struct{} // closed once none is pending
}

// Urgent implements [pagefetch.Queue]: a check waits for no one target.
func (q *checks) Urgent() string { return "" }

// Ready implements [pagefetch.Queue]: host has a target to ask, or to
// decide without a request, if it was given up.
func (q *checks) Ready(host string, _, _ bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.byHost[host]) > 0
}

// Run implements [pagefetch.Queue]: it asks host's next target.
func (q *checks) Run(ctx context.Context, host string, _, _ bool) bool {
	q.mu.Lock()
	ts := q.byHost[host]
	if len(ts) == 0 {
		q.mu.Unlock()
		return false
	}
	t := ts[0]
	q.byHost[host] = ts[1:]
	q.mu.Unlock()
	if q.c.Scheduler.Down(host) != nil {
		t.status = HostUnreachable // reported once for the host, and not asked again
	} else if err := q.c.check(ctx, t); t.status == HostUnreachable {
		q.c.Scheduler.MarkDown(host, err)
	}
	if ctx.Err() == nil { // else the outcome is the stop's, not the target's
		q.c.keep(ctx, t)
	}
	q.mu.Lock()
	if q.pending--; q.pending == 0 {
		close(q.done)
	}
	q.mu.Unlock()
	return true
}

// check asks the web for t, following redirects, and settles it. It
// returns the error of the request that failed, if one did.
func (c *Checker) check(ctx context.Context, t *target) error {
	u := t.url
	for range maxRedirects + 1 {
		a, err := c.Web.Check(ctx, u, t.body)
		if err != nil && t.body && pagefetch.Reason(err) == "too large" {
			// Too large to read for its ids: there all the same, and
			// its fragments unknown, as a file's that is no page.
			t.body = false
			a, err = c.Web.Check(ctx, u, false)
		}
		if err != nil {
			t.status = reason(err)
			if rl, ok := errors.AsType[*pagefetch.RateLimitedError](err); ok {
				t.wait = rl.Wait
			}
			return err
		}
		if a.Target != "" && a.Code >= 300 && a.Code < 400 {
			t.local = t.local || c.Scope.Internal(a.Target)
			if key, ok := c.Scope.Key(a.Target); ok {
				if status, ids, ok := c.outcome(key); ok {
					t.status, t.ids, t.ok = status, ids, fine(status)
					return nil
				}
			}
			u = a.Target
			continue
		}
		return c.answered(ctx, t, u, a)
	}
	t.status = "too-many-redirects"
	return nil
}

// answered settles t, whose check ended at u with the answer a, which is
// no redirect: by its status, the ids it holds if a fragment needs them,
// and a stylesheet's imports. It returns the error of a request that
// failed, if one did.
func (c *Checker) answered(ctx context.Context, t *target, u string, a *pagefetch.Page) error {
	t.status = strconv.Itoa(a.Code)
	t.ok = a.Code >= 200 && a.Code < 300
	if !t.ok {
		return nil
	}
	if t.body && isHTML(a.ContentType()) {
		t.ids = make(map[string]bool)
		for _, id := range new(pagescan.HTML).Read(u, a.Body, a.HeaderCharset(), pagescan.What{Refs: true}).IDs {
			t.ids[id] = true
		}
	}
	t.stylesheet = isCSS(a.ContentType())
	if t.stylesheet && c.isRequisite(t) {
		if a.Body == nil {
			var err error
			if a, err = c.Web.Check(ctx, u, true); err != nil || a.Code != 200 {
				return err
			}
		}
		pagescan.CSSRefs(u, a.Body, a.HeaderCharset(), func(r pagescan.Ref) { t.css = append(t.css, r) })
		t.read = true
	}
	return nil
}

// isRequisite says whether a page needs t to render, so that a stylesheet
// is read for its imports.
func (c *Checker) isRequisite(t *target) bool {
	for _, i := range t.refs {
		if c.refs[i].requisite {
			return true
		}
	}
	return false
}

func isHTML(ctype string) bool {
	m := mediaType(ctype)
	return m == "text/html" || m == "application/xhtml+xml"
}

func isCSS(ctype string) bool { return mediaType(ctype) == "text/css" }

func mediaType(ctype string) string {
	m, _, _ := strings.Cut(ctype, ";")
	return strings.ToLower(strings.TrimSpace(m))
}

// reason is the status of a target that got no answer.
func reason(err error) string {
	if errors.Is(err, pagefetch.ErrDisallowed) {
		return Robots
	}
	if _, ok := errors.AsType[*pagefetch.UnreachableError](err); ok {
		return HostUnreachable
	}
	if _, ok := errors.AsType[*pagefetch.RateLimitedError](err); ok {
		return RateLimited
	}
	return strings.ReplaceAll(strings.ToLower(pagefetch.Reason(err)), " ", "-")
}

// originOf returns the scheme and host of a URL, the origin, which is
// how a host that is down is reported.
func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Scheme + "://" + p.Host
}

// hostOf returns the host of a URL as its request names it, host[:port],
// which is how the Scheduler knows it.
func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Host
}
