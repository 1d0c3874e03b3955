package crawler

import (
	"context"
	"errors"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
)

// A frontier holds the pages the crawl has found and not yet taken, in the
// crawl's bag, and fetches each page as the crawl takes it. The crawl sees
// a bag: it pushes pages, pops the next, and gets what came of fetching
// the page it popped. Behind that, with Crawler.Parallel above one and
// once the crawl has met a second host, lanes fetch pages ahead of the
// crawl (see ahead.go), and the frontier reads their links while the
// crawl waits, to give the lanes more pages to fetch; until then, and for
// a bag the lanes cannot sort, each page is fetched when the crawl asks
// for it, one at a time, exactly as a crawl of one page at a time does.
//
// A frontier is not safe for concurrent use: the crawl's goroutine calls
// its methods, and the lanes run behind them.
type frontier struct {
	c    *Crawler
	bag  bag.Bag
	read *reader
	// fetchPage fetches a page, by itself or in a lane: Crawler.fetch,
	// or that and queue the requisites of a page fetched (see
	// requisites.fetching), and, if links, which only a page the crawl
	// fetches by itself asks for, read its links in the same pass.
	fetchPage func(ctx context.Context, url string, links bool) fetchedPage
	// What reading ahead asks of the crawl, which owns them: the URLs it
	// has met, and the redirects that led to each page in the bag that a
	// redirect put there.
	urls urlSet
	hops map[string]int

	sched *pagefetch.Schedule // nil unless pages may be fetched ahead

	limit *pageLimit // nil without Crawler.MaxPages

	firstHost string // the only host met so far, while there are no lanes
	manyHosts bool   // a second host has been met: the lanes may start
	ahead     *ahead // the lanes, once they have started

	// In a queue, the links of a page that is foreseen, not yet added by
	// the crawl, may be read ahead too (see readAhead), which takes a
	// bound on the depths pushed so far.
	queue    bool
	deepest  int  // the greatest depth pushed
	unsorted bool // a page was pushed at a depth below one pushed before it
}

// A fetchedPage is what came of fetching a page: its HTML and what its
// scan keeps of its Content-Type's charset, or the error that kept it,
// and what was sent and received for the WARC file; and its links, if
// they were read ahead.
type fetchedPage struct {
	html    []byte
	charset string // see keptCharset
	rec     *pagefetch.Recording
	err     error
	down    bool       // not fetched: the crawl has found its host dead, and err is why
	links   *pageLinks // nil unless they were read with its requisites or ahead
}

// newFrontier returns a frontier of c's bag that reads links with read,
// and asks urls and hops, the crawl's, what the crawl has met. With
// Crawler.Parallel above one, sched fetches pages ahead.
func newFrontier(c *Crawler, sched *pagefetch.Schedule, read *reader, urls urlSet, hops map[string]int) *frontier {
	_, queue := c.Bag.(*bag.Queue)
	fetch := func(ctx context.Context, url string, _ bool) fetchedPage { return c.fetch(ctx, url) }
	f := &frontier{c: c, bag: c.Bag, read: read, fetchPage: fetch, urls: urls, hops: hops, queue: queue,
		limit: newPageLimit(c.MaxPages, c.Bag)}
	if c.Parallel > 1 {
		f.sched = sched
	}
	return f
}

// push puts a page in the bag. The lanes are told of it; until there are
// any, it watches for a second host.
func (f *frontier) push(it bag.Item) {
	f.bag.Push(it)
	f.limit.pushed(it.URL) // before the lanes hear of it
	f.unsorted = f.unsorted || it.Depth < f.deepest
	f.deepest = max(f.deepest, it.Depth)
	switch {
	case f.ahead != nil:
		f.ahead.pushed(it)
	case f.sched != nil && !f.manyHosts:
		if host := hostOf(it.URL); f.firstHost == "" {
			f.firstHost = host
		} else if host != f.firstHost {
			f.manyHosts = true
		}
	}
}

// pop takes the next page from the bag. saved is how many pages the
// crawl has saved, which under Crawler.MaxPages tells the lanes which
// pages it is certain to take.
func (f *frontier) pop(saved int) (bag.Item, bool) {
	it, ok := f.bag.Pop()
	if ok {
		f.limit.popped(it.URL, saved)
	}
	if ok && f.ahead != nil {
		f.ahead.popped(it)
	}
	return it, ok
}

// len returns how many pages are in the bag.
func (f *frontier) len() int { return f.bag.Len() }

// fetch gets what came of fetching page, which the crawl has popped: by
// itself, or, once the crawl has met a second host, from the lanes, which
// it starts then. A page of a host found dead fails without a request. If
// ctx ends first, the error is the context's cause.
func (f *frontier) fetch(ctx context.Context, page bag.Item) fetchedPage {
	if err := f.c.Web.Down(hostOf(page.URL)); err != nil {
		return fetchedPage{err: err, down: true}
	}
	if f.ahead == nil && f.manyHosts {
		f.manyHosts = false // tried once: a bag the lanes cannot sort stays sequential
		// A lane's page has its links read on the crawl's goroutine,
		// when it is read ahead or taken.
		fetch := func(ctx context.Context, url string) fetchedPage { return f.fetchPage(ctx, url, false) }
		if a, ok := newAhead(ctx, f.c, f.sched, f.bag, f.limit, fetch, f.readAhead); ok {
			f.ahead = a
		}
	}
	if f.ahead == nil {
		return f.fetchPage(ctx, page.URL, f.c.reads(page))
	}
	return f.ahead.take(ctx, page)
}

// down records that the crawl has found host dead: the Web gives it up,
// so that its pages fail from now on without a request, and the lanes drop
// those they hold.
func (f *frontier) down(host string, err error) {
	f.c.Web.MarkDown(host, err)
	if f.ahead != nil {
		f.ahead.kill(host)
	}
}

// lanes returns how many pages may be fetched at once, and from how many
// hosts they are being fetched, or zeros while there are no lanes.
func (f *frontier) lanes() (n, busy int) {
	if f.ahead == nil {
		return 0, 0
	}
	return f.c.Parallel, f.sched.Busy()
}

// stop stops fetching ahead, if it has started, dropping what was
// fetched.
func (f *frontier) stop() {
	if f.ahead != nil {
		f.ahead.stop()
	}
}

// peak returns the most memory the pages fetched ahead took, once the
// schedule has stopped.
func (f *frontier) peak() int64 {
	if f.ahead == nil {
		return 0
	}
	f.ahead.mu.Lock()
	defer f.ahead.mu.Unlock()
	return f.ahead.peak
}

// fetch fetches a page from the Web: what came of it, what the fetch
// recorded, if anything, and what the page's scan keeps of its charset.
func (c *Crawler) fetch(ctx context.Context, url string) fetchedPage {
	var fp fetchedPage
	p, err := c.Web.FetchPage(ctx, url)
	fp.html, fp.err, fp.rec = p.HTML, err, recorded(p.Recording)
	if fp.err == nil {
		fp.charset = keptCharset(c.Scanner, p, c.fetchesRequisites())
	}
	return fp
}

// readAhead reads a page fetched ahead as the crawl will when it takes it,
// with charset, what its scan keeps of its Content-Type's,
// if the crawl is bound to, keeps its links for the crawl, and tells the
// lanes of the pages the crawl will add for them: each is added when the
// crawl takes the page, or has been already, so the lanes may fetch it.
// The crawl reads a page, and adds what it found there, if the page is
// saved and below maxDepth; and follows a redirect unless the hops before
// it are maxRedirects. Past the memory budget, it reads nothing: the crawl
// reads the page when it takes it.
//
// A page the crawl has added has its own depth and hops. A page foreseen,
// not yet added, has neither. In a stack or a priority bag, where a page
// added later may be taken first, its depth can be anything up to
// maxDepth, so its links are read only once the crawl adds it. In a
// queue, the page that adds it is taken no later than the page it was
// found on, so it was added no later either: the page's depth is at most
// one more than the deepest page added up to the one it was found on.
// Carried from page to page, that bound lets its links be read at once
// when it is below maxDepth. Its redirect still waits for its hops.
func (f *frontier) readAhead(url string, p *aheadPage, charset string) {
	if f.ahead.full() {
		return
	}
	var redirect *pagefetch.RedirectError
	switch {
	case p.err == nil:
		bound, scans := f.scans(p)
		if !scans {
			return
		}
		p.links = f.read.keep(url, p.html, charset)
		f.ahead.kept(p)
		f.foresee(p.links.all, p.depth+1, bound+1)
	case errors.As(p.err, &redirect) && p.known && f.hops[url] < maxRedirects:
		f.foresee([]link{f.read.link(redirect.Location)}, p.depth, f.bound(p.depth)+1)
	}
}

// scans reports whether the crawl is bound to scan a page fetched ahead,
// which it will save, and returns a bound on the depth of every page
// added up to it, that page's included.
func (f *frontier) scans(p *aheadPage) (bound int, ok bool) {
	if p.known {
		return f.bound(p.depth), p.depth < f.c.MaxDepth
	}
	return p.bound, f.queue && p.bound < f.c.MaxDepth
}

// bound returns a bound on the depth of every page added up to a page in
// the bag at depth: that depth, while pages have been added in order of
// depth, as they are in a queue but for a redirect's target, which keeps
// its page's depth; else the greatest depth added.
func (f *frontier) bound(depth int) int {
	if f.unsorted {
		return f.deepest
	}
	return depth
}

// foresee tells the lanes of the pages links name that the crawl will
// add, at depth, with bound on the depth of every page added up to them:
// those that are inside the crawl, not excluded, and that it has not met.
func (f *frontier) foresee(links []link, depth, bound int) {
	var items []bag.Item
	for _, l := range links {
		if l.internal && !l.excluded && !f.urls.has(l.url) {
			items = append(items, bag.Item{URL: l.url, Depth: depth})
		}
	}
	if len(items) > 0 {
		f.ahead.foresee(items, bound)
	}
}
