package crawler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/journal"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/stats"
)

// Requisites. A crawl that keeps a WARC file fetches, beside its pages,
// what each page it saves needs to render: its stylesheets, scripts,
// images and fonts, and what each stylesheet needs in turn, so that the
// archive replays the site as it looked. They are no pages. Nothing of
// them goes in the bag, the seen-set, the log, the page directory or the
// pages' figures, so a crawl with them saves and logs what it would
// without; they only take turns with the pages at each host, through the
// same fetcher, and so its pauses, robots.txt, retries and loopback rule.
//
// Each requisite URL (browserurl.Key's) is fetched once per crawl. A
// page's requisites are read as it is fetched, or replayed: with its
// links, in the same pass (Crawler.ScanRequisites), when the crawl fetches
// it itself and will read them; alone when a lane fetches it ahead, since
// the crawl's scanner is the crawl's, which reads its links later.
// Whoever fetches a stylesheet reads its requisites. With Crawler.Parallel
// above one, workers fetch them behind the crawl, each from the host that
// may be asked soonest that no other worker is at, so that a page's
// requisites on other hosts are fetched while its own host pauses; else
// the crawl fetches a page's requisites itself, once it has taken the page,
// before the next.
//
// The scribe records each requisite it is given, then journals it, with
// what a stylesheet needs and a redirect's target. A resumed crawl knows
// from the journal which were recorded, and fetches what the pages it
// replays need and what the recorded requisites need, that is not
// recorded. A requisite whose host takes no connection is not journaled:
// as for a page, that is no verdict on it.

// requisites fetches the requisites of a crawl's pages. Its methods may be
// called on a nil *requisites, for a crawl that fetches none, and then do
// nothing.
type requisites struct {
	c      *Crawler
	scribe *scribe
	// stop stops the crawl, from a worker, with the error that ends it:
	// the loopback rule broken, an outage, a failed write.
	stop   context.CancelCauseFunc
	cancel context.CancelFunc // stops the workers
	done   sync.WaitGroup

	// mu guards everything below. It is never held while a requisite is
	// fetched or read.
	mu      sync.Mutex
	changed chan struct{}            // closed, and replaced, whenever a requisite is queued or done
	seen    map[string]bool          // every requisite queued, fetched or recorded, by key
	lanes   map[string]*requisiteBag // by host
	order   []*requisiteBag          // the lanes in the order their hosts were met
	pending int                      // requisites queued or being fetched
	dead    map[string]bool          // hosts that take no connection, by host[:port]
	watch   hostWatch                // for a witness, when a host takes no connection
	res     stats.Requisites
	hosts   map[string]bool // hosts that answered
	err     error           // what stopped a worker, and so the crawl
}

// A requisiteBag holds one host's requisites that are still to fetch, in
// the order they were found.
type requisiteBag struct {
	host  string
	queue []requisite
	busy  bool // a worker is fetching from it
}

// A requisite is one to fetch: its key, and how many redirects led to it.
type requisite struct {
	url string
	hop int
}

// newRequisites returns what fetches the requisites of c's pages, having
// the scribe s record them, or nil if c fetches none. stop stops the
// crawl.
func newRequisites(c *Crawler, s *scribe, stop context.CancelCauseFunc) *requisites {
	if !c.fetchesRequisites() {
		return nil
	}
	q := &requisites{
		c:       c,
		scribe:  s,
		stop:    stop,
		changed: make(chan struct{}),
		seen:    make(map[string]bool),
		lanes:   make(map[string]*requisiteBag),
		dead:    make(map[string]bool),
		hosts:   make(map[string]bool),
	}
	q.resume(c.Recorded)
	return q
}

// resume takes up the requisites the runs before recorded: none is
// fetched again, and what they need, and the targets of their redirects,
// are queued unless they are recorded too.
func (q *requisites) resume(recorded []journal.Entry) {
	hops := make(map[string]int)
	for _, e := range recorded {
		q.seen[e.URL] = true
		if _, ok := hops[e.Target]; e.Target != "" && !ok {
			hops[e.Target] = hops[e.URL] + 1
		}
	}
	for _, e := range recorded {
		if e.Target != "" {
			q.add(e.Target, hops[e.Target])
		}
		for _, u := range e.Needs {
			q.add(u, 0)
		}
	}
}

// fetchesRequisites reports whether c fetches its pages' requisites.
func (c *Crawler) fetchesRequisites() bool {
	return c.FetchRequisite != nil && c.Requisites != nil && c.StyleRequisites != nil
}

// start starts the workers, with Crawler.Parallel above one.
func (q *requisites) start(ctx context.Context) {
	if q == nil || q.c.Parallel <= 1 {
		return
	}
	ctx, q.cancel = context.WithCancel(ctx)
	for range q.c.Parallel {
		q.done.Add(1)
		go q.work(ctx)
	}
}

// fetching returns fetch, which fetches a page, with the page's
// requisites queued once it is fetched, by the crawl or ahead of it: then
// the crawl is bound to save it. Only the crawl's goroutine may ask for
// links: see read.
func (q *requisites) fetching(fetch func(ctx context.Context, url string) fetchedPage, rd *reader) func(ctx context.Context, url string, links bool) fetchedPage {
	return func(ctx context.Context, url string, links bool) fetchedPage {
		fp := fetch(ctx, url)
		if fp.err == nil {
			fp.links = q.read(rd, url, fp.html, fp.charset, links)
		}
		return fp
	}
}

// read queues the requisites of a page the crawl saves, html fetched from
// pageURL whose journal line keeps charset: as it is fetched, or, if an
// earlier run saved it, as the crawl replays or adopts it. If links, and
// Crawler.ScanRequisites can, it reads the page's links with rd in the
// same pass and returns them, for the crawl to take with the page; else
// nil, and the crawl reads them when it needs them. Links are asked for
// on the crawl's goroutine only, whose scanner ScanRequisites uses.
func (q *requisites) read(rd *reader, pageURL string, html []byte, charset string, links bool) *pageLinks {
	if q == nil {
		return nil
	}
	if links && q.c.ScanRequisites != nil {
		return rd.keepRequisites(pageURL, html, charset, q.c.ScanRequisites, func(u string) { q.add(u, 0) })
	}
	q.c.Requisites(pageURL, html, charset, func(u string) { q.add(u, 0) })
	return nil
}

// add queues the requisite at raw, found on a page or a stylesheet or as
// a redirect's target after hop redirects, unless it is no http or https
// URL, outside the scope, met before, or at the end of a chain too long.
func (q *requisites) add(raw string, hop int) {
	key, ok := browserurl.Key(raw)
	if !ok || hop > maxRedirects || q.c.RequisiteScope != nil && !q.c.RequisiteScope(key) {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seen[key] {
		return
	}
	q.seen[key] = true
	host := hostOf(key)
	l := q.lanes[host]
	if l == nil {
		l = &requisiteBag{host: host}
		q.lanes[host] = l
		q.order = append(q.order, l)
	}
	l.queue = append(l.queue, requisite{key, hop})
	q.pending++
	q.signal()
}

// signal wakes whoever waits for a change. q.mu is held.
func (q *requisites) signal() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// take takes the next requisite to fetch, from the host that may be asked
// soonest of those no worker is at, or reports false if there is none.
// Hosts that may be asked as soon go in the order they were met. q.mu is
// held.
func (q *requisites) take() (*requisiteBag, requisite, bool) {
	var best *requisiteBag
	var bestAt time.Time
	for _, l := range q.order {
		if l.busy || len(l.queue) == 0 {
			continue
		}
		var at time.Time
		if q.c.Next != nil {
			at = q.c.Next(l.host)
		}
		if best == nil || at.Before(bestAt) {
			best, bestAt = l, at
		}
	}
	if best == nil {
		return nil, requisite{}, false
	}
	it := best.queue[0]
	best.queue = best.queue[1:]
	if len(best.queue) == 0 {
		best.queue = nil // for the memory of the array
	}
	best.busy = true
	return best, it, true
}

// release gives l back once a requisite taken from it is done.
func (q *requisites) release(l *requisiteBag) {
	q.mu.Lock()
	l.busy = false
	q.pending--
	q.signal()
	q.mu.Unlock()
}

// work fetches requisites until ctx ends, or one stops the crawl.
func (q *requisites) work(ctx context.Context) {
	defer q.done.Done()
	for ctx.Err() == nil {
		q.mu.Lock()
		l, it, ok := q.take()
		changed := q.changed
		q.mu.Unlock()
		if !ok {
			select {
			case <-changed:
			case <-ctx.Done():
			}
			continue
		}
		err := q.fetch(ctx, it)
		if err != nil {
			// Before the requisite is released, so that finish, which
			// waits for none to be pending, sees why it was not done.
			q.fail(err)
		}
		q.release(l)
		if err != nil {
			return
		}
	}
}

// fail stops the crawl with err, which stopped a worker, unless another
// did first.
func (q *requisites) fail(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.mu.Unlock()
	q.stop(err)
}

// settle fetches, in a crawl of one page at a time, the requisites queued
// so far, and what they need, one at a time: those of the page the crawl
// has just taken. With workers, they fetch them. Its error is one that
// stops the crawl.
func (q *requisites) settle(ctx context.Context) error {
	if q == nil || q.c.Parallel > 1 {
		return nil
	}
	for {
		q.mu.Lock()
		l, it, ok := q.take()
		q.mu.Unlock()
		if !ok {
			return nil
		}
		err := q.fetch(ctx, it)
		q.release(l)
		if err != nil {
			return err
		}
	}
}

// finish ends the requisites of a crawl that ended with err: if err is
// nil, once every requisite queued, and what each needs, is fetched and
// handed to the scribe. It stops the workers, and returns err, or what
// stopped the crawl while they finished.
func (q *requisites) finish(ctx context.Context, err error) error {
	if q == nil {
		return err
	}
	if err == nil {
		err = q.settle(ctx)
	}
	for err == nil {
		q.mu.Lock()
		pending, changed := q.pending, q.changed
		err = q.err
		q.mu.Unlock()
		if pending == 0 || err != nil {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			err = context.Cause(ctx)
		}
	}
	if q.cancel != nil {
		q.cancel()
		q.done.Wait()
	}
	return err
}

// fetch fetches one requisite, hands it to the scribe with what it needs,
// and queues that. Its error is one that stops the crawl.
func (q *requisites) fetch(ctx context.Context, it requisite) error {
	host := hostOf(it.url)
	q.mu.Lock()
	dead := q.dead[host]
	q.mu.Unlock()
	if dead {
		q.failed("host unreachable")
		return nil
	}
	r, err := q.c.FetchRequisite(ctx, it.url)
	// What is no answer about the requisite: the crawl was stopped, the
	// loopback rule broken, or no connection made to its host.
	cause := context.Cause(ctx)
	ue, unreachable := errors.AsType[*pagefetch.UnreachableError](err)
	if cause != nil || unreachable || errors.Is(err, pagefetch.ErrNotLoopback) {
		q.give(r.Body)
		closeAll(r.Recording.Exchanges)
		switch {
		case cause != nil:
			return cause
		case unreachable:
			return q.unreachable(ctx, ue)
		}
		return fmt.Errorf("%w (for %s, a page's requisite)", err, it.url)
	}
	job := scribeJob{entry: journal.Entry{Kind: journal.Requisite, URL: it.url}}
	job.rec = recorded(r.Recording)
	target, needs := q.judge(it, r, err)
	job.entry.Target, job.entry.Needs = target, needs
	q.give(r.Body)
	if err := q.scribe.put(job); err != nil {
		return err
	}
	// Queued once the requisite is handed over, so that the scribe
	// records it before them: a redirect's line before its target's.
	if target != "" {
		q.add(target, it.hop+1)
	}
	for _, u := range needs {
		q.add(u, 0)
	}
	return nil
}

// judge counts what came of a requisite, answered r or failed with err,
// and returns the target of its redirect, if it is to be followed, and
// what it needs, if it is a stylesheet: each key once, in the order found.
func (q *requisites) judge(it requisite, r pagefetch.Requisite, err error) (target string, needs []string) {
	switch {
	case errors.Is(err, pagefetch.ErrDisallowed):
		q.count(func(res *stats.Requisites) { res.Disallowed++ })
		return "", nil
	case err != nil:
		q.failed(pagefetch.Reason(err))
		return "", nil
	}
	q.mu.Lock()
	q.hosts[hostOf(it.url)] = true
	q.watch.answered(it.url)
	q.res.Hosts = len(q.hosts)
	q.mu.Unlock()
	switch {
	case r.Code >= 200 && r.Code < 300:
		q.count(func(res *stats.Requisites) { res.Fetched++; res.Bytes += int64(len(r.Body)) })
		if stylesheet(it.url, r.ContentType) {
			needs = q.sheet(it.url, r)
		}
	case r.Location != "" && it.hop >= maxRedirects:
		q.failed("too many redirects")
	case r.Location != "":
		q.count(func(res *stats.Requisites) { res.Redirects++ })
		target, _ = browserurl.Key(r.Location)
	default:
		q.failed(fmt.Sprintf("HTTP %d", r.Code))
	}
	return target, needs
}

// sheet returns the keys of what the stylesheet fetched from sheetURL
// needs, each once, in the order found.
func (q *requisites) sheet(sheetURL string, r pagefetch.Requisite) []string {
	var needs []string
	found := make(map[string]bool)
	q.c.StyleRequisites(sheetURL, r.Body, r.Charset, func(u string) {
		if key, ok := browserurl.Key(u); ok && !found[key] {
			found[key] = true
			needs = append(needs, key)
		}
	})
	return needs
}

// stylesheet reports whether a requisite is a stylesheet, to be read for
// what it needs in turn: by its Content-Type, or, with none, by a path
// that ends in ".css", as browsers read a stylesheet only if it is
// text/css. Which element or rule asked for it is not known here.
func stylesheet(url, contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	if mt = strings.ToLower(strings.TrimSpace(mt)); mt != "" {
		return mt == "text/css"
	}
	path, _, _ := strings.Cut(url, "?")
	return strings.HasSuffix(strings.ToLower(path), ".css")
}

// unreachable decides what it means that a requisite's host could not be
// connected to, as the crawl does for a page's: if another host that has
// answered still answers, the first is dead, and its requisites fail
// from now on without a request and without a journal line; otherwise
// the crawl has lost its network and stops with [ErrOutage].
func (q *requisites) unreachable(ctx context.Context, ue *pagefetch.UnreachableError) error {
	q.mu.Lock()
	witness := q.watch.witness(ue.Host)
	q.mu.Unlock()
	if witness == "" || q.c.Reach == nil {
		return fmt.Errorf("%w: %w", ErrOutage, ue)
	}
	// A witness's answer is no requisite's: it is not recorded.
	reached, err := q.c.Reach(ctx, witness)
	closeAll(reached.Exchanges)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return fmt.Errorf("%w: %w; %s does not answer either", ErrOutage, ue, witness)
	}
	q.down(ue.Host)
	q.failed(pagefetch.Reason(ue))
	return nil
}

// down records that host takes no connection: its requisites fail from
// now on without a request.
func (q *requisites) down(host string) {
	if q == nil {
		return
	}
	q.mu.Lock()
	q.dead[host] = true
	q.mu.Unlock()
}

// answered notes that the host of a page, pageURL, answered: it may be
// asked, as a witness, whether the network is there.
func (q *requisites) answered(pageURL string) {
	if q == nil {
		return
	}
	q.mu.Lock()
	q.watch.answered(pageURL)
	q.mu.Unlock()
}

// count changes the figures.
func (q *requisites) count(change func(*stats.Requisites)) {
	q.mu.Lock()
	change(&q.res)
	q.mu.Unlock()
}

// failed counts a requisite that failed, for reason.
func (q *requisites) failed(reason string) {
	q.count(func(res *stats.Requisites) {
		res.Failed++
		if res.FailedBy == nil {
			res.FailedBy = make(map[string]int)
		}
		res.FailedBy[reason]++
	})
}

// give gives a requisite's body back for the fetcher to reuse.
func (q *requisites) give(body []byte) {
	if body != nil && q.c.Recycle != nil {
		q.c.Recycle(body)
	}
}

// figures returns the figures of the requisites, once the crawl is done.
func (q *requisites) figures() stats.Requisites {
	if q == nil {
		return stats.Requisites{}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.res
}
