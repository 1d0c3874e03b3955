package crawler

import (
	"sync"

	"tse-crawler/internal/bag"
)

// A pageLimit knows, under Crawler.MaxPages, which pages in the bag the
// crawl is certain to take. The crawl stops once it has saved MaxPages
// pages, so a page in the bag may never be taken; the lanes, which fetch
// only pages the crawl is bound to fetch, may then fetch ahead only the
// pages it is certain to take, and the page it waits for.
//
// In a queue, the page pushed s-th (from 0, the seed) is the (s+1)-th
// popped: the s pages before it are taken first, and it is taken unless
// MaxPages of them are saved. When the crawl pops a page, it has decided
// every page popped before it, and saved some of them; at worst every
// page still undecided before s is saved. So s is certain to be taken if
// s - decided < MaxPages - saved. Each pop adds one to decided, and at
// most one to saved, so the bound never shrinks: a page once certain
// stays so. In a stack or a priority bag, any number of pages pushed
// after a page may be taken before it, so no page in the bag is certain.
//
// A nil *pageLimit is no limit: every page in the bag is certain. A
// pageLimit is safe for concurrent use: the crawl's goroutine tells it of
// pushes and pops, and the lanes' workers ask it.
type pageLimit struct {
	most int // MaxPages

	mu sync.Mutex
	// rank holds, in a queue, the push number of each page in the bag; in
	// other bags it is nil, and no page is certain.
	rank    map[string]int
	pushes  int
	decided int // the pages popped before the last one, all decided
	saved   int // how many of them were saved
}

// newPageLimit returns the limit of a crawl that saves at most most pages
// from b, or nil if most is 0, for no limit.
func newPageLimit(most int, b bag.Bag) *pageLimit {
	if most <= 0 {
		return nil
	}
	l := &pageLimit{most: most, decided: -1}
	if _, queue := b.(*bag.Queue); queue {
		l.rank = make(map[string]int)
	}
	return l
}

// pushed notes that url has gone in the bag.
func (l *pageLimit) pushed(url string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rank != nil {
		l.rank[url] = l.pushes
	}
	l.pushes++
}

// popped notes that url has come out of the bag, and that the crawl has
// saved saved pages: every page popped before url is decided.
func (l *pageLimit) popped(url string, saved int) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.rank, url)
	l.decided++
	l.saved = saved
}

// certain reports whether the crawl is certain to take url, a page in its
// bag, before it stops at its limit.
func (l *pageLimit) certain(url string) bool {
	if l == nil {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.rank[url]
	return ok && s-l.decided < l.most-l.saved
}
