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

// The crawl's pages are fetched by the Scheduler's workers, from the
// pages' queue: the page the crawl waits for, as the Scheduler's urgent
// job, and, once the crawl has met a second host and has more than one
// worker, pages ahead of their turn.
//
// Fetching ahead. A crawl over several hosts spends most of its time in
// pauses, each host's own, which could run side by side; but the order in
// which pages are numbered, logged, read, saved and journaled must be the
// order a sequential crawl pops them in, on every run. So the crawl loop
// commits each page in that order, as it pops it from its frontier
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
//     crawl reads these pages itself, while it waits for a page, since
//     its scanner, its seen-set and its hops are its own, and keeps what
//     it read with the page, so that no page is read twice. A link found
//     this way is foreseen: it is fetched ahead like a page in the bag,
//     but its depth is a guess until the crawl adds it. In a queue the
//     guess is a bound, so it may be read at once; in other bags, only
//     once the crawl adds it. Under Crawler.MaxPages, the page a link is
//     found on may be the last the crawl takes, so nothing is foreseen.
//
// So fetching ahead changes when a page is requested, never whether, and
// every output is that of the sequential crawl. Two things end a crawl's
// pages early, and with them that promise: a stop (an interrupt, an outage,
// a failed write), after which the pages fetched ahead are dropped and a
// resumed crawl fetches them again; and a host found dead, whose pages
// fail without a request, so that those a lane had fetched, and what was
// read of them, were fetched for nothing.
//
// Each lane keeps its host's pages in a bag of the crawl's own kind, so
// that it takes first the page the crawl is likely to pop first: the
// newest in a stack, the oldest in a queue, the highest in a priority
// bag. The page the crawl waits for goes before any other. The pages
// fetched ahead wait in memory, under a budget, until the crawl takes
// them.

// A pageQueue fetches the crawl's pages, as a [pagefetch.Queue] of its
// Scheduler: the page the crawl waits for, and pages ahead. The crawl's
// goroutine calls its methods but Urgent, Ready and Run, which the
// Scheduler's workers call.
type pageQueue struct {
	c      *Crawler
	limit  *pageLimit // which pages of the bag are certain to be taken; nil: all
	budget int64
	read   *reader // for what fetching a page keeps of its charset

	ctx    context.Context // ends what is fetched, when the crawl stops
	cancel context.CancelFunc

	// mu guards everything below. It is never held while a page is
	// fetched or read: waiting is done on changed.
	mu      sync.Mutex
	changed chan struct{} // closed, and replaced, whenever anything below changes
	want    bag.Item      // the page the crawl waits for, while no worker has taken it
	slots   map[string]*slot
	// lanes are the hosts' pages still to fetch ahead, once the crawl
	// has met a second host (ahead); like is an empty bag of the crawl's
	// kind.
	ahead   bool
	like    bag.Bag
	lanes   map[string]*lane
	gone    map[string]bool // pages the crawl took that are still in a lane's bag, below its top
	held    int64           // bytes of the pages fetched and what was read of them, waiting for the crawl
	peak    int64           // the most memory ever used, as used counts it
	unread  []string        // pages fetched whose links the crawl may read ahead
	stopped bool            // the crawl has stopped: nothing more is fetched
}

// A lane holds one host's pages that no worker has taken yet.
type lane struct {
	host string
	bag  laneBag
}

// A laneBag is a bag of one of the kinds package bag makes, all of which
// can show their next item.
type laneBag interface {
	bag.Bag
	Peek() (bag.Item, bool)
}

// The states of a slot.
const (
	foreseen = iota // in its lane's bag, found on a page fetched ahead
	fetching
	fetched
)

// A slot is a page the queue knows of: foreseen, being fetched, or
// fetched and waiting for the crawl, with what was read of it. The
// default budget holds 131,072 of them at pageCost each, so it is small,
// and the Page is made only once fetched.
type slot struct {
	p      *pagefetch.Page // once fetched
	depth  int
	bound  int // if foreseen, a bound on the depth of every page the crawl adds up to this one
	state  uint8
	known  bool // the crawl has added the page, so depth is its own
	handed bool // handed to be read since it was fetched, or since the crawl added it
	// forgotten says that the crawl took the page while a worker fetched
	// it, and failed it without waiting, its host given up.
	forgotten bool
}

// size returns the memory s's page and what was read of it take.
func (s *slot) size() int64 {
	if s.p == nil {
		return 0
	}
	n := int64(cap(s.p.Body))
	if s.p.Read != nil {
		n += readingSize(s.p.Read)
	}
	return n
}

// newPageQueue returns the queue of c's pages, under limit, and gives it
// to c's Scheduler.
func newPageQueue(ctx context.Context, c *Crawler, limit *pageLimit, read *reader) *pageQueue {
	q := &pageQueue{
		c:       c,
		limit:   limit,
		budget:  c.AheadMemory,
		read:    read,
		changed: make(chan struct{}),
		slots:   make(map[string]*slot),
		lanes:   make(map[string]*lane),
		gone:    make(map[string]bool),
	}
	q.ctx, q.cancel = context.WithCancel(ctx)
	c.Scheduler.Add(q)
	return q
}

// startLanes has the workers fetch ahead the pages of b, which it sorts
// by host, and reports false, starting nothing, for a kind of bag it
// cannot sort.
func (q *pageQueue) startLanes(b bag.Bag) bool {
	like, ok := bag.Like(b)
	if !ok {
		return false
	}
	parts, _ := bag.Split(b, func(it bag.Item) string { return hostOf(it.URL) })
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ahead, q.like = true, like
	// In the order of their names, so that the workers' choices, and the
	// timing of a crawl in fake time, are the same on every run.
	for _, host := range slices.Sorted(maps.Keys(parts)) {
		q.lane(host).bag = parts[host].(laneBag)
	}
	q.signal()
	return true
}

// lane returns the lane of host, making it if need be, and the Scheduler
// meets the host. q.mu is held, and lanes have started.
func (q *pageQueue) lane(host string) *lane {
	l := q.lanes[host]
	if l == nil {
		b, _ := bag.Like(q.like)
		l = &lane{host: host, bag: b.(laneBag)}
		q.lanes[host] = l
		q.c.Scheduler.Meet(host)
	}
	return l
}

// pageCost is what the queue's knowing of a page costs in memory, beyond
// its HTML and what was read of it, as measured: its entry and its error
// if it failed. A page that fails without a request, as every page
// robots.txt disallows does, costs nothing else, and a crawl of a million
// of them once held them all.
const pageCost = 512

// used returns the memory the pages the queue knows of take: the HTML
// and what was read of those fetched, and pageCost for each. q.mu is held.
func (q *pageQueue) used() int64 {
	return q.held + int64(len(q.slots))*pageCost
}

// full reports whether the pages the queue knows of take the whole
// budget.
func (q *pageQueue) full() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.used() >= q.budget
}

// kept counts n more bytes of what was read of a page fetched ahead.
func (q *pageQueue) kept(n int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.held += n
	q.peak = max(q.peak, q.used())
}

// signal wakes whoever waits for a change: the crawl, and the Scheduler's
// workers. q.mu is held.
func (q *pageQueue) signal() {
	q.wake()
	q.c.Scheduler.Signal()
}

// wake wakes the crawl, if it waits for a page. q.mu is held.
func (q *pageQueue) wake() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// wait releases q.mu until something changes, or ctx ends, and takes it
// again. q.mu is held.
func (q *pageQueue) wait(ctx context.Context) {
	ch := q.changed
	q.mu.Unlock()
	defer q.mu.Lock()
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// stop stops fetching, cancelling what is being fetched. The pages
// fetched are dropped; a fetch under way ends in the Scheduler's time.
func (q *pageQueue) stop() {
	q.mu.Lock()
	q.stopped = true
	for _, s := range q.slots {
		s.p.Close()
	}
	q.mu.Unlock()
	q.cancel()
}

// dead reports whether the crawl has given host up. q.mu is held.
func (q *pageQueue) dead(host string) bool { return q.c.Scheduler.Down(host) != nil }

// pushed tells the lanes that the crawl has put it in its bag. A page
// foreseen is in its lane already: its depth is now known, and it may be
// read now, unless it was.
func (q *pageQueue) pushed(it bag.Item) {
	q.mu.Lock()
	defer q.mu.Unlock()
	host := hostOf(it.URL)
	if !q.ahead || q.dead(host) {
		return
	}
	s := q.slots[it.URL] // the crawl adds a page once: a page known already was foreseen
	if s == nil {
		q.lane(host).bag.Push(it)
		q.signal()
		return
	}
	s.depth, s.known = it.Depth, true
	if s.state == fetched && s.p.Read == nil && readable(s.p.Err) {
		s.handed = false
		q.unread = append(q.unread, it.URL)
		q.wake()
	}
}

// foresee tells the lanes of pages the crawl will add, links read ahead,
// with bound on the depth of every page the crawl adds up to them, as far
// as the budget allows. A page foreseen already is told once.
func (q *pageQueue) foresee(items []bag.Item, bound int) {
	if q.limit != nil {
		return // the crawl may stop before it adds them
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, it := range items {
		if q.used() >= q.budget {
			break // the crawl adds the others when it takes the page, and they are fetched then
		}
		host := hostOf(it.URL)
		if q.dead(host) || q.slots[it.URL] != nil {
			continue
		}
		q.lane(host).bag.Push(it)
		q.slots[it.URL] = &slot{state: foreseen, depth: it.Depth, bound: bound}
	}
	q.peak = max(q.peak, q.used())
	q.signal()
}

// popped tells the lanes that the crawl has taken it from its bag. Unless
// a worker has taken it too, it leaves its lane's bag: at once if it is on
// top, as it is unless links read ahead went in after it, else when a
// worker comes to it.
func (q *pageQueue) popped(it bag.Item) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.ahead {
		return
	}
	if q.limit != nil {
		q.signal() // the crawl has decided another page: more of the bag may be certain
	}
	l := q.lanes[hostOf(it.URL)]
	if l == nil {
		return
	}
	if s := q.slots[it.URL]; s != nil && s.state != foreseen {
		return
	}
	delete(q.slots, it.URL)
	if top, ok := l.bag.Peek(); ok && top.URL == it.URL {
		l.bag.Pop()
	} else {
		q.gone[it.URL] = true
	}
}

// wantPage asks the workers for page, which the crawl has popped, unless one
// has it already: it goes before any other page.
func (q *pageQueue) wantPage(page bag.Item) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.slots[page.URL] != nil {
		return
	}
	if q.ahead {
		q.lane(hostOf(page.URL))
	} else {
		q.c.Scheduler.Meet(hostOf(page.URL))
	}
	q.want = page
	q.signal()
}

// take returns what came of fetching page, which the crawl wants, once a
// worker has fetched it; else, as soon as there is one, a page fetched
// ahead that the crawl may read while it waits, which only the crawl's
// goroutine touches from then on. If ctx ends first, the Page's Err is
// the context's cause.
func (q *pageQueue) take(ctx context.Context, page bag.Item) (*pagefetch.Page, *slot) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if s := q.slots[page.URL]; s != nil && s.state == fetched {
			delete(q.slots, page.URL)
			q.held -= s.size()
			q.compactUnread()
			if q.ahead {
				q.c.Scheduler.Signal() // the budget has room for another page
			}
			return s.p, nil
		}
		if cause := context.Cause(ctx); cause != nil {
			q.want = bag.Item{}
			return &pagefetch.Page{URL: page.URL, Err: cause}, nil
		}
		if s := q.nextUnread(); s != nil {
			s.handed = true
			return nil, s
		}
		q.wait(ctx)
	}
}

// nextUnread returns a page fetched ahead that may be read now, or nil.
// q.mu is held.
func (q *pageQueue) nextUnread() *slot {
	for len(q.unread) > 0 {
		url := q.unread[0]
		q.unread = q.unread[1:]
		if s := q.slots[url]; s != nil && s.state == fetched && !s.handed {
			return s
		}
	}
	return nil
}

// compactUnread drops from q.unread the pages the crawl has taken, once
// they are most of it: a crawl that never waits never reads ahead, and the
// list would otherwise grow with every page. q.mu is held.
func (q *pageQueue) compactUnread() {
	if len(q.unread) < 64 || len(q.unread) < 2*len(q.slots) {
		return
	}
	q.unread = slices.DeleteFunc(q.unread, func(url string) bool {
		s := q.slots[url]
		return s == nil || s.handed
	})
}

// kill drops host's pages, fetched or not, and fetches none of them
// ahead: the crawl has given it up, and fails its pages without a
// request.
func (q *pageQueue) kill(host string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if l := q.lanes[host]; l != nil {
		for l.bag.Len() > 0 {
			it, _ := l.bag.Pop()
			delete(q.gone, it.URL)
		}
	}
	for url, s := range q.slots {
		if hostOf(url) == host && s.state != fetching {
			q.drop(url, s)
		}
	}
	q.wake()
}

// forget forgets page, which the crawl has taken and fails without a
// request, its host given up, if a worker fetched it ahead meanwhile.
func (q *pageQueue) forget(url string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch s := q.slots[url]; {
	case s == nil:
	case s.state == fetching:
		s.forgotten = true
	default:
		q.drop(url, s)
	}
}

// drop forgets a page. q.mu is held.
func (q *pageQueue) drop(url string, s *slot) {
	delete(q.slots, url)
	if s.state == fetched {
		q.held -= s.size()
		s.p.Close()
	}
}

// Urgent implements [pagefetch.Queue]: the host of the page the crawl
// waits for, while no worker has taken it.
func (q *pageQueue) Urgent() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.want.URL == "" || q.stopped {
		return ""
	}
	return hostOf(q.want.URL)
}

// Ready implements [pagefetch.Queue]: host has the page the crawl waits
// for, if urgent; else, unless it is parked or the budget is spent, a
// page the crawl is bound to take.
func (q *pageQueue) Ready(host string, urgent, parked bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.runnable(host, urgent, parked)
}

// runnable reports whether host has a page to fetch now, as Ready says.
// q.mu is held.
func (q *pageQueue) runnable(host string, urgent, parked bool) bool {
	if q.stopped {
		return false
	}
	if urgent && q.want.URL != "" && hostOf(q.want.URL) == host {
		return true
	}
	l := q.lanes[host]
	if l == nil || parked || q.used() >= q.budget {
		return false
	}
	return q.ready(l)
}

// Run implements [pagefetch.Queue]: it fetches the page the crawl waits
// for, if it is host's, else the next page of host's lane, and keeps what
// came of it for the crawl.
func (q *pageQueue) Run(ctx context.Context, host string, urgent, parked bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.runnable(host, urgent, parked) {
		return false
	}
	url, s := q.takeFrom(host)
	if s == nil {
		return false
	}
	// Ended by the Scheduler's stop or by the crawl's, whichever comes
	// first.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(q.ctx, cancel)()
	q.mu.Unlock()
	p := q.fetch(ctx, url)
	q.mu.Lock()
	q.fetched(ctx, host, url, s, p)
	return true
}

// fetch fetches the page at url from the Web, and notes what reading it
// keeps of its Content-Type's charset.
func (q *pageQueue) fetch(ctx context.Context, url string) *pagefetch.Page {
	p, err := q.c.Web.FetchPage(ctx, url)
	p.URL, p.Err = url, err
	if err == nil {
		p.Charset = keptCharset(q.read.scanner, q.read.what, p.Body, p.HeaderCharset())
	}
	return p
}

// takeFrom takes the next page of host to fetch, and records that it is
// being fetched: the page the crawl waits for if it is host's, else the
// one on top of its lane's bag, if the crawl is certain to take it. It
// returns nil if the lane had nothing left but pages the crawl took
// already, or none it is certain to take. q.mu is held.
func (q *pageQueue) takeFrom(host string) (string, *slot) {
	if q.want.URL != "" && hostOf(q.want.URL) == host {
		s := &slot{state: fetching, depth: q.want.Depth, known: true}
		url := q.want.URL
		q.slots[url] = s
		q.want = bag.Item{}
		return url, s
	}
	l := q.lanes[host]
	it, ok := q.top(l)
	if !ok || !q.limit.certain(it.URL) {
		return "", nil
	}
	l.bag.Pop()
	s := q.slots[it.URL]
	if s == nil {
		s = &slot{depth: it.Depth, known: true}
		q.slots[it.URL] = s
	}
	s.state = fetching
	return it.URL, s
}

// top returns the page on top of l's bag, once those the crawl has taken
// are dropped from it, or false if there is none. q.mu is held.
func (q *pageQueue) top(l *lane) (bag.Item, bool) {
	for {
		it, ok := l.bag.Peek()
		if !ok || !q.gone[it.URL] {
			return it, ok
		}
		l.bag.Pop()
		delete(q.gone, it.URL)
	}
}

// ready reports whether l has a page a worker may take: any, without a
// limit, even one the crawl took already, which takeFrom drops; under a
// limit, one the crawl is certain to take. q.mu is held.
func (q *pageQueue) ready(l *lane) bool {
	if q.limit == nil {
		return l.bag.Len() > 0
	}
	it, ok := q.top(l)
	return ok && q.limit.certain(it.URL)
}

// fetched records what came of fetching a page. A fetch that got no
// connection, or broke the loopback rule, parks its host: the crawl will
// decide what that means when it takes the page (a dead host, an outage,
// a fatal error), and meanwhile no more is fetched ahead from that host,
// only the pages the crawl waits for. q.mu is held.
func (q *pageQueue) fetched(ctx context.Context, host, url string, s *slot, p *pagefetch.Page) {
	if q.stopped || ctx.Err() != nil || s.forgotten {
		delete(q.slots, url)
		p.Close()
		q.wake()
		return
	}
	if errors.Is(p.Err, pagefetch.ErrDisallowed) {
		// What the crawl makes of it; the URL in the message is the
		// page's own. A crawl of pages that robots.txt disallows fetches
		// them ahead by the thousand, without a request.
		p.Err = pagefetch.ErrDisallowed
	}
	s.state, s.p = fetched, p
	q.held += int64(cap(p.Body))
	if q.ahead {
		// The page the crawl waits for, while there are no lanes, is
		// none fetched ahead.
		q.peak = max(q.peak, q.used())
	}
	if _, ok := errors.AsType[*pagefetch.UnreachableError](p.Err); ok || errors.Is(p.Err, pagefetch.ErrNotLoopback) {
		q.c.Scheduler.Park(host)
	}
	if q.ahead && readable(p.Err) {
		q.unread = append(q.unread, url)
	}
	q.wake() // the workers hear of the host released from the Scheduler
}

// readable reports whether a fetch whose error is err may be read ahead,
// or its redirect followed ahead: a page, or a redirect.
func readable(err error) bool {
	var re *pagefetch.RedirectError
	return err == nil || errors.As(err, &re)
}
