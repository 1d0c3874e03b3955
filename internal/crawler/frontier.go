package crawler

import (
	"context"
	"errors"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
)

// A frontier holds the pages the crawl has found and not yet taken, in the
// crawl's bag, and has each page fetched as the crawl takes it. The crawl
// sees a bag: it pushes pages, pops the next, and gets what came of
// fetching the page it popped, which the Scheduler's workers fetch from
// its pageQueue (pages.go). With more than one worker, once the crawl has
// met a second host, the queue's lanes fetch pages ahead of the crawl,
// and the frontier reads them while the crawl waits, to give the lanes
// more pages to fetch; until then, and for a bag the lanes cannot sort,
// each page is fetched when the crawl asks for it, one at a time, exactly
// as a crawl of one page at a time does.
//
// A frontier is not safe for concurrent use: the crawl's goroutine calls
// its methods, and the workers run behind them.
type frontier struct {
	c     *Crawler
	bag   bag.Bag
	read  *reader
	pages *pageQueue
	reqs  *requisites // nil unless the crawl fetches its pages' requisites
	// What reading ahead asks of the crawl, which owns them: the URLs it
	// has met, and the redirects that led to each page in the bag that a
	// redirect put there.
	urls urlSet
	hops map[string]int

	limit *pageLimit // nil without Crawler.MaxPages

	// The lanes start the first time the crawl needs a page from the web
	// after it has met a second host, with more than one worker: a replay
	// and an adoption, which fetch nothing, are over by then.
	mayLanes  bool   // the crawl has workers enough to fetch ahead, and the lanes have not started
	firstHost string // the only host met so far, while there are no lanes
	manyHosts bool   // a second host has been met

	// In a queue, the links of a page that is foreseen, not yet added by
	// the crawl, may be read ahead too (see readAhead), which takes a
	// bound on the depths pushed so far.
	queue    bool
	deepest  int  // the greatest depth pushed
	unsorted bool // a page was pushed at a depth below one pushed before it
}

// newFrontier returns a frontier of c's bag that reads pages with read,
// and asks urls and hops, the crawl's, what the crawl has met; its pages
// are fetched by c's Scheduler, which must be started, until ctx ends.
func newFrontier(ctx context.Context, c *Crawler, read *reader, reqs *requisites, urls urlSet, hops map[string]int) *frontier {
	_, queue := c.Bag.(*bag.Queue)
	limit := newPageLimit(c.MaxPages, c.Bag)
	return &frontier{c: c, bag: c.Bag, read: read, reqs: reqs, urls: urls, hops: hops, queue: queue, limit: limit,
		pages: newPageQueue(ctx, c, limit, read), mayLanes: c.Scheduler.Workers() > 1}
}

// push puts a page in the bag. The lanes are told of it; until there are
// any, it watches for a second host.
func (f *frontier) push(it bag.Item) {
	f.bag.Push(it)
	f.limit.pushed(it.URL) // before the lanes hear of it
	f.unsorted = f.unsorted || it.Depth < f.deepest
	f.deepest = max(f.deepest, it.Depth)
	if f.mayLanes && !f.manyHosts {
		if host := hostOf(it.URL); f.firstHost == "" {
			f.firstHost = host
		} else if host != f.firstHost {
			f.manyHosts = true
		}
	}
	f.pages.pushed(it)
}

// pop takes the next page from the bag. saved is how many pages the
// crawl has saved, which under Crawler.MaxPages tells the lanes which
// pages it is certain to take.
func (f *frontier) pop(saved int) (bag.Item, bool) {
	it, ok := f.bag.Pop()
	if ok {
		f.limit.popped(it.URL, saved)
		f.pages.popped(it)
	}
	return it, ok
}

// len returns how many pages are in the bag.
func (f *frontier) len() int { return f.bag.Len() }

// fetch gets what came of fetching page, which the crawl has popped, from
// a worker, reading the pages fetched ahead meanwhile. A page of a host
// given up fails without a request. If ctx ends first, the Page's Err is
// the context's cause.
func (f *frontier) fetch(ctx context.Context, page bag.Item) *pagefetch.Page {
	if err := f.c.Scheduler.Down(hostOf(page.URL)); err != nil {
		f.pages.forget(page.URL)
		return &pagefetch.Page{URL: page.URL, Kind: pagefetch.Failed, Err: err}
	}
	if p := f.c.Web.Refused(page.URL); p != nil {
		// What a worker would have found, without a request; a worker
		// that fetched it ahead drops it. As from a worker, the error
		// names no URL: the crawl's message names the page.
		f.pages.forget(page.URL)
		if errors.Is(p.Err, pagefetch.ErrDisallowed) {
			p.Err = pagefetch.ErrDisallowed
		}
		return p
	}
	if f.mayLanes && f.manyHosts {
		// Once: a bag the lanes cannot sort stays one page at a time.
		f.mayLanes = false
		f.pages.startLanes(f.bag)
	}
	f.pages.wantPage(page)
	for {
		p, ahead := f.pages.take(ctx, page)
		if p != nil {
			return p
		}
		// Read as the workers go on.
		f.readAhead(ahead)
	}
}

// down records that the crawl has found host dead: the Scheduler gives it
// up, so that its pages fail from now on without a request, and the lanes
// drop those they hold.
func (f *frontier) down(host string, err error) {
	f.c.Scheduler.MarkDown(host, err)
	f.pages.kill(host)
}

// lanes returns how many pages may be fetched at once, and from how many
// hosts they are being fetched, or zeros while there are no lanes.
func (f *frontier) lanes() (n, busy int) {
	if !f.pages.ahead {
		return 0, 0
	}
	return f.c.Scheduler.Workers(), f.c.Scheduler.Busy()
}

// stop stops fetching, dropping what was fetched ahead.
func (f *frontier) stop() { f.pages.stop() }

// peak returns the most memory the pages fetched ahead took, once the
// Scheduler has stopped.
func (f *frontier) peak() int64 {
	f.pages.mu.Lock()
	defer f.pages.mu.Unlock()
	return f.pages.peak
}

// readAhead reads a page fetched ahead, s, as the crawl will when it
// takes it, if the crawl is bound to, keeps what it read with the page,
// queues its requisites, and tells the lanes of the pages the crawl will
// add for it: each is
// added when the crawl takes the page, or has been already, so the lanes
// may fetch it. The crawl reads a page, and adds what it found there, if
// the page is saved and below maxDepth; and follows a redirect unless the
// hops before it are maxRedirects. Past the memory budget, it reads
// nothing: the crawl reads the page when it takes it.
//
// A page the crawl has added has its own depth and hops. A page foreseen,
// not yet added, has neither. In a stack or a priority bag, where a page
// added later may be taken first, its depth can be anything up to
// maxDepth, so it is read only once the crawl adds it. In a queue, the
// page that adds it is taken no later than the page it was found on, so
// it was added no later either: the page's depth is at most one more
// than the deepest page added up to the one it was found on. Carried from
// page to page, that bound lets it be read at once when it is below
// maxDepth. Its redirect still waits for its hops.
func (f *frontier) readAhead(s *slot) {
	if f.pages.full() {
		return
	}
	p := s.p
	switch {
	case p.Err == nil:
		bound, scans := f.scans(s)
		if !scans {
			return
		}
		f.pages.kept(f.read.read(p, true))
		f.reqs.readAhead(p)
		var items []bag.Item
		for _, found := range p.Read.Links {
			items = f.foreseen(items, f.read.link(found), s.depth+1)
		}
		f.foresee(items, bound+1)
	case p.Target != "" && s.known && f.hops[p.URL] < maxRedirects:
		f.foresee(f.foreseen(nil, f.read.link(p.Target), s.depth), f.bound(s.depth)+1)
	}
}

// scans reports whether the crawl is bound to scan a page fetched ahead,
// which it will save, and returns a bound on the depth of every page
// added up to it, that page's included.
func (f *frontier) scans(s *slot) (bound int, ok bool) {
	if s.known {
		return f.bound(s.depth), s.depth < f.c.MaxDepth
	}
	return s.bound, f.queue && s.bound < f.c.MaxDepth
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

// foreseen appends to items the page l names at depth, if the crawl will
// add it: if it is inside the crawl, not excluded, and one the crawl has
// not met.
func (f *frontier) foreseen(items []bag.Item, l link, depth int) []bag.Item {
	if l.internal && !l.excluded && !f.urls.has(l.url) {
		items = append(items, bag.Item{URL: l.url, Depth: depth})
	}
	return items
}

// foresee tells the lanes of the pages items that the crawl will add,
// with bound on the depth of every page added up to them.
func (f *frontier) foresee(items []bag.Item, bound int) {
	if len(items) > 0 {
		f.pages.foresee(items, bound)
	}
}
