package crawler

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
)

// Fetching ahead. A crawl over several hosts spends most of its time in
// pauses, each host's own, which could run side by side; but the order in
// which pages are numbered, logged, scanned, saved and journaled must be
// the order a sequential crawl pops them in, on every run. So the crawl
// loop commits each page in that order, as it pops it from its frontier
// (frontier.go), while behind the frontier lanes fetch pages ahead of it,
// one host to a lane and one request to a host at a time. A lane only
// ever fetches a page the crawl is bound to fetch:
//
//   - every page in the bag, since each URL is put in the bag once and
//     nothing but a stop ends the crawl before the bag is empty; under
//     Crawler.MaxPages, which ends it once it has saved enough pages,
//     only the pages in the bag it is certain to take (see pageLimit),
//     and the page it waits for;
//   - every link of a page fetched ahead that the crawl is bound to save
//     and scan, and the target of such a page's redirect if the crawl will
//     follow it: when the crawl takes the page, it adds each such link, or
//     has already (see frontier.readAhead for when that is certain). The
//     crawl reads these links itself, while it waits for a page, since its
//     scanner, its seen-set and its hops are its own, and keeps them for
//     when it takes the page, so that no page is scanned twice. A link
//     found this way is foreseen: it is fetched ahead like a page in the
//     bag, but its depth is a guess until the crawl adds it. In a queue
//     the guess is a bound, so its own links may be read at once; in
//     other bags, only once the crawl adds it. Under Crawler.MaxPages,
//     the page a link is found on may be the last the crawl takes, so
//     nothing is foreseen.
//
// So fetching ahead changes when a page is requested, never whether, and
// every output is that of the sequential crawl. Two things end a crawl's
// pages early, and with them that promise: a stop (an interrupt, an outage,
// a failed write), after which the pages fetched ahead are dropped and a
// resumed crawl fetches them again; and a host found dead, whose pages
// fail without a request, so that those a lane had fetched, and the links
// read on them, were fetched for nothing.
//
// Each lane keeps its host's pages in a bag of the crawl's own kind, so
// that it takes first the page the crawl is likely to pop first: the
// newest in a stack, the oldest in a queue, the highest in a priority
// bag. The page the crawl waits for goes before any other. The lanes are
// a queue of the crawl's schedule (pagefetch.Schedule), whose workers take
// the host that may be asked soonest; the pages they fetch wait in memory,
// under a budget, until the crawl takes them.

// An ahead fetches pages ahead of the crawl. The crawl's goroutine calls
// its methods; the schedule's workers run its jobs, as a
// [pagefetch.Queue].
type ahead struct {
	fetch  func(ctx context.Context, url string) fetchedPage
	read   func(url string, p *aheadPage, charset string) // reads a page's links ahead, on the crawl's goroutine
	limit  *pageLimit                                     // which pages of the bag are certain to be taken; nil: all
	budget int64
	like   bag.Bag // an empty bag of the crawl's kind
	sched  *pagefetch.Schedule

	ctx    context.Context // ends what is fetched ahead, when the crawl stops
	cancel context.CancelFunc

	// mu guards everything below. It is never held while a page is
	// fetched or read: waiting is done on changed.
	mu      sync.Mutex
	changed chan struct{} // closed, and replaced, whenever anything below changes
	lanes   map[string]*lane
	pages   map[string]*aheadPage // pages foreseen, being fetched or fetched, until the crawl takes them
	// charsets holds what the scans of the pages fetched keep of their
	// Content-Types' charsets (see keptCharset), for the few that keep
	// any: an aheadPage has no room for it in its 80 bytes.
	charsets map[string]string
	gone     map[string]bool // pages the crawl took that are still in a lane's bag, below its top
	want     bag.Item        // the page the crawl waits for, while no lane has taken it
	held     int64           // bytes of the HTML and the links read of pages fetched and waiting for the crawl
	peak     int64           // the most memory ever used, as used counts it
	unread   []string        // pages fetched whose links the crawl may read ahead
	stopped  bool            // the crawl has stopped: nothing more is fetched ahead
}

// A lane holds one host's pages that no worker has taken yet.
type lane struct {
	host string
	bag  laneBag
	dead bool // the crawl found the host dead: its pages are dropped
}

// A laneBag is a bag of one of the kinds package bag makes, all of which
// can show their next item.
type laneBag interface {
	bag.Bag
	Peek() (bag.Item, bool)
}

// The states of an aheadPage.
const (
	foreseen = iota // in its lane's bag, found on a page fetched ahead
	fetching
	fetched
)

// An aheadPage is a page the lanes know of: foreseen, being fetched, or
// fetched and waiting for the crawl, with its links once they are read.
// The default budget holds 131,072 of them at pageCost each, so their
// fields are laid out to take 80 bytes, an allocator's size class.
type aheadPage struct {
	html   []byte
	rec    *pagefetch.Recording
	err    error
	links  *pageLinks // once read
	depth  int
	bound  int // if foreseen, a bound on the depth of every page the crawl adds up to this one
	state  uint8
	known  bool // the crawl has added the page, so depth is its own
	handed bool // handed to be read since it was fetched, or since the crawl added it
}

// size returns the memory p's HTML and links take.
func (p *aheadPage) size() int64 {
	n := int64(cap(p.html))
	if p.links != nil {
		n += p.links.size
	}
	return n
}

// newAhead has sched fetch ahead the pages of b, which it sorts by host,
// with fetch, and reports false, starting nothing, for a kind of bag it
// cannot sort. Only the pages of b that limit says the crawl is certain to
// take are fetched ahead. read is given, as the crawl waits, each page
// fetched whose links it may read.
func newAhead(ctx context.Context, c *Crawler, sched *pagefetch.Schedule, b bag.Bag, limit *pageLimit, fetch func(ctx context.Context, url string) fetchedPage, read func(url string, p *aheadPage, charset string)) (*ahead, bool) {
	like, ok := bag.Like(b)
	if !ok {
		return nil, false
	}
	parts, _ := bag.Split(b, func(it bag.Item) string { return hostOf(it.URL) })
	a := &ahead{
		fetch:    fetch,
		read:     read,
		sched:    sched,
		limit:    limit,
		budget:   c.AheadMemory,
		like:     like,
		changed:  make(chan struct{}),
		lanes:    make(map[string]*lane),
		pages:    make(map[string]*aheadPage),
		charsets: make(map[string]string),
		gone:     make(map[string]bool),
	}
	a.ctx, a.cancel = context.WithCancel(ctx)
	// In the order of their names, so that the workers' choices, and the
	// timing of a crawl in fake time, are the same on every run.
	for _, host := range slices.Sorted(maps.Keys(parts)) {
		a.lane(host).bag = parts[host].(laneBag)
	}
	sched.Add(a)
	return a, true
}

// lane returns the lane of host, making it if need be, and the schedule
// meets the host. a.mu is held, or the schedule has not been given a.
func (a *ahead) lane(host string) *lane {
	l := a.lanes[host]
	if l == nil {
		b, _ := bag.Like(a.like)
		l = &lane{host: host, bag: b.(laneBag)}
		a.lanes[host] = l
		a.sched.Meet(host)
	}
	return l
}

// pageCost is what the lanes' knowing of a page costs in memory, beyond
// its HTML and its links, as measured: its entry and its error if it
// failed. A page that fails without a request, as every page robots.txt
// disallows does, costs nothing else, and a crawl of a million of them
// once held them all.
const pageCost = 512

// used returns the memory the pages the lanes know of take: the HTML and
// the links read of those fetched, and pageCost for each. a.mu is held.
func (a *ahead) used() int64 {
	return a.held + int64(len(a.pages))*pageCost
}

// full reports whether the pages the lanes know of take the whole budget.
func (a *ahead) full() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.used() >= a.budget
}

// kept counts the links of p, which the crawl has read ahead.
func (a *ahead) kept(p *aheadPage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.held += p.links.size
	a.peak = max(a.peak, a.used())
}

// signal wakes whoever waits for a change: the crawl, and the schedule's
// workers. a.mu is held.
func (a *ahead) signal() {
	close(a.changed)
	a.changed = make(chan struct{})
	a.sched.Signal()
}

// wait releases a.mu until something changes, or ctx ends, and takes it
// again. a.mu is held.
func (a *ahead) wait(ctx context.Context) {
	ch := a.changed
	a.mu.Unlock()
	defer a.mu.Lock()
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// stop stops fetching ahead, cancelling what is being fetched. The pages
// fetched are dropped; a fetch under way ends in the schedule's time.
func (a *ahead) stop() {
	a.mu.Lock()
	a.stopped = true
	a.mu.Unlock()
	a.cancel()
}

// pushed tells the lanes that the crawl has put it in its bag. A page
// foreseen is in its lane already: its depth is now known, and its links,
// unless they were read, may be read now.
func (a *ahead) pushed(it bag.Item) {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.lane(hostOf(it.URL))
	if l.dead {
		return
	}
	p := a.pages[it.URL] // the crawl adds a page once: a page known already was foreseen
	if p == nil {
		l.bag.Push(it)
		a.signal()
		return
	}
	p.depth, p.known = it.Depth, true
	if p.state == fetched && p.links == nil && readable(p.err) {
		p.handed = false
		a.unread = append(a.unread, it.URL)
		a.signal()
	}
}

// foresee tells the lanes of pages the crawl will add, links read ahead,
// with bound on the depth of every page the crawl adds up to them, as far
// as the budget allows. A page foreseen already is told once.
func (a *ahead) foresee(items []bag.Item, bound int) {
	if a.limit != nil {
		return // the crawl may stop before it adds them
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, it := range items {
		if a.used() >= a.budget {
			break // the crawl adds the others when it takes the page, and they are fetched then
		}
		l := a.lane(hostOf(it.URL))
		if l.dead || a.pages[it.URL] != nil {
			continue
		}
		l.bag.Push(it)
		a.pages[it.URL] = &aheadPage{state: foreseen, depth: it.Depth, bound: bound}
	}
	a.peak = max(a.peak, a.used())
	a.signal()
}

// popped tells the lanes that the crawl has taken it from its bag. Unless
// a worker has taken it too, it leaves its lane's bag: at once if it is on
// top, as it is unless links read ahead went in after it, else when a
// worker comes to it.
func (a *ahead) popped(it bag.Item) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.limit != nil {
		a.signal() // the crawl has decided another page: more of the bag may be certain
	}
	l := a.lanes[hostOf(it.URL)]
	if l == nil || l.dead {
		return
	}
	p := a.pages[it.URL]
	if p != nil && p.state != foreseen {
		return
	}
	delete(a.pages, it.URL)
	if top, ok := l.bag.Peek(); ok && top.URL == it.URL {
		l.bag.Pop()
	} else {
		a.gone[it.URL] = true
	}
}

// take returns what came of fetching page, which the crawl has popped: at
// once if a worker has fetched it, else once one has. While it waits, it
// hands each page fetched ahead whose links may be read to a.read. If ctx
// ends first, it returns the context's cause as the fetch's error.
func (a *ahead) take(ctx context.Context, page bag.Item) fetchedPage {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pages[page.URL] == nil {
		// No worker has it: it goes before any other page.
		a.lane(hostOf(page.URL))
		a.want = page
		a.signal()
	}
	for {
		if p := a.pages[page.URL]; p != nil && p.state == fetched {
			charset := a.charsets[page.URL]
			delete(a.pages, page.URL)
			delete(a.charsets, page.URL)
			a.held -= p.size()
			a.compactUnread()
			a.signal()
			return fetchedPage{html: p.html, charset: charset, rec: p.rec, err: p.err, links: p.links}
		}
		if cause := context.Cause(ctx); cause != nil {
			a.want = bag.Item{}
			return fetchedPage{err: cause}
		}
		if url, p := a.nextUnread(); p != nil {
			// Read unlocked, as the workers go on: only the crawl's
			// goroutine touches a page fetched.
			p.handed = true
			charset := a.charsets[url]
			a.mu.Unlock()
			a.read(url, p, charset)
			a.mu.Lock()
			continue
		}
		a.wait(ctx)
	}
}

// nextUnread returns a page fetched ahead whose links may be read now, or
// nil. a.mu is held.
func (a *ahead) nextUnread() (string, *aheadPage) {
	for len(a.unread) > 0 {
		url := a.unread[0]
		a.unread = a.unread[1:]
		if p := a.pages[url]; p != nil && p.state == fetched && !p.handed {
			return url, p
		}
	}
	return "", nil
}

// compactUnread drops from a.unread the pages the crawl has taken, once
// they are most of it: a crawl that never waits never reads ahead, and the
// list would otherwise grow with every page. a.mu is held.
func (a *ahead) compactUnread() {
	if len(a.unread) < 64 || len(a.unread) < 2*len(a.pages) {
		return
	}
	a.unread = slices.DeleteFunc(a.unread, func(url string) bool {
		p := a.pages[url]
		return p == nil || p.handed
	})
}

// kill drops host's pages, fetched or not, and fetches none of them again:
// the crawl has found it dead, and fails its pages without a request.
func (a *ahead) kill(host string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.lane(host)
	l.dead = true
	for l.bag.Len() > 0 {
		it, _ := l.bag.Pop()
		delete(a.gone, it.URL)
	}
	for url, p := range a.pages {
		if hostOf(url) == host && p.state != fetching {
			a.drop(url, p)
		}
	}
	a.signal()
}

// drop forgets a page. a.mu is held.
func (a *ahead) drop(url string, p *aheadPage) {
	delete(a.pages, url)
	delete(a.charsets, url)
	if p.state == fetched {
		a.held -= p.size()
	}
}

// Urgent implements [pagefetch.Queue]: the host of the page the crawl
// waits for, while no worker has taken it.
func (a *ahead) Urgent() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.want.URL == "" || a.stopped {
		return ""
	}
	return hostOf(a.want.URL)
}

// Ready implements [pagefetch.Queue]: host has the page the crawl waits
// for, if urgent; else, unless it is parked or the budget is spent, a
// page the crawl is bound to take.
func (a *ahead) Ready(host string, urgent, parked bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.runnable(host, urgent, parked)
	return ok
}

// runnable returns host's lane if it has a page to fetch now, as Ready
// says. a.mu is held.
func (a *ahead) runnable(host string, urgent, parked bool) (*lane, bool) {
	l := a.lanes[host]
	if l == nil || l.dead || a.stopped {
		return nil, false
	}
	if urgent && a.want.URL != "" && hostOf(a.want.URL) == host {
		return l, true
	}
	if parked || a.used() >= a.budget || !a.ready(l) {
		return nil, false
	}
	return l, true
}

// Run implements [pagefetch.Queue]: it fetches the page the crawl waits
// for, if it is host's, else the next page of host's lane, and keeps what
// came of it for the crawl.
func (a *ahead) Run(ctx context.Context, host string, urgent, parked bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	l, ok := a.runnable(host, urgent, parked)
	if !ok {
		return false
	}
	url, p := a.takeFrom(l)
	if p == nil {
		return false
	}
	// Ended by the schedule's end or by the crawl's stop, whichever comes
	// first.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(a.ctx, cancel)()
	a.mu.Unlock()
	fp := a.fetch(ctx, url)
	a.mu.Lock()
	a.fetched(ctx, l, url, p, fp)
	return true
}

// takeFrom takes the next page of l to fetch, and records that it is being
// fetched: the page the crawl waits for if it is l's, else the one on top
// of l's bag, if the crawl is certain to take it. It returns nil if l had
// nothing left but pages the crawl took already, or none it is certain to
// take. a.mu is held.
func (a *ahead) takeFrom(l *lane) (string, *aheadPage) {
	if a.want.URL != "" && hostOf(a.want.URL) == l.host {
		p := &aheadPage{state: fetching, depth: a.want.Depth, known: true}
		url := a.want.URL
		a.pages[url] = p
		a.want = bag.Item{}
		return url, p
	}
	it, ok := a.top(l)
	if !ok || !a.limit.certain(it.URL) {
		return "", nil
	}
	l.bag.Pop()
	p := a.pages[it.URL]
	if p == nil {
		p = &aheadPage{depth: it.Depth, known: true}
		a.pages[it.URL] = p
	}
	p.state = fetching
	return it.URL, p
}

// top returns the page on top of l's bag, once those the crawl has taken
// are dropped from it, or false if there is none. a.mu is held.
func (a *ahead) top(l *lane) (bag.Item, bool) {
	for {
		it, ok := l.bag.Peek()
		if !ok || !a.gone[it.URL] {
			return it, ok
		}
		l.bag.Pop()
		delete(a.gone, it.URL)
	}
}

// ready reports whether l has a page a worker may take: any, without a
// limit, even one the crawl took already, which takeFrom drops; under a
// limit, one the crawl is certain to take. a.mu is held.
func (a *ahead) ready(l *lane) bool {
	if a.limit == nil {
		return l.bag.Len() > 0
	}
	it, ok := a.top(l)
	return ok && a.limit.certain(it.URL)
}

// fetched records what came of fetching a page. A fetch that got no
// connection, or broke the loopback rule, parks its host in the schedule:
// the crawl will decide what that means when it takes the page (a dead
// host, an outage, a fatal error), and meanwhile no more is fetched ahead
// from that host, only the pages the crawl waits for. a.mu is held.
func (a *ahead) fetched(ctx context.Context, l *lane, url string, p *aheadPage, fp fetchedPage) {
	html, err := fp.html, fp.err
	if l.dead || ctx.Err() != nil {
		delete(a.pages, url)
		a.signal()
		return
	}
	if fp.charset != "" {
		a.charsets[url] = fp.charset
	}
	if errors.Is(err, pagefetch.ErrDisallowed) {
		// What the crawl makes of it; the URL in the message is the
		// page's own. A crawl of pages that robots.txt disallows fetches
		// them ahead by the thousand, without a request.
		err = pagefetch.ErrDisallowed
	}
	p.state, p.html, p.rec, p.err = fetched, html, fp.rec, err
	a.held += int64(cap(html))
	a.peak = max(a.peak, a.used())
	var ue *pagefetch.UnreachableError
	if errors.As(err, &ue) || errors.Is(err, pagefetch.ErrNotLoopback) {
		a.sched.Park(l.host)
	}
	if readable(err) {
		a.unread = append(a.unread, url)
	}
	a.signal()
}

// readable reports whether a fetch whose error is err may have links to
// read ahead: a page, or a redirect.
func readable(err error) bool {
	var re *pagefetch.RedirectError
	return err == nil || errors.As(err, &re)
}
