package crawler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/stats"
)

// Requisites. A crawl that keeps a WARC file fetches, beside its pages,
// what each page it saves needs to render: its stylesheets, scripts,
// images and fonts, and what each stylesheet needs in turn, so that the
// archive replays the site as it looked. They are no pages. Nothing of
// them goes in the bag, the seen-set, the log, the page directory or the
// pages' figures, so a crawl with them saves and logs what it would
// without; they only take turns with the pages at each host, through the
// same Scheduler, and so its pauses, robots.txt, retries and loopback
// rule.
//
// Each URL is fetched once per crawl, whatever its roles. A page's
// requisites are found in the reading that finds its links, once the crawl
// takes the page, and queued then. One that may be a page of the crawl
// (its URL names a page inside the scope, as the frame of a page within
// maxDepth does, or a page's own URL) waits until the crawl ends: if the
// crawl saved it as a page, its record is the page's, and it is not
// fetched again; if not (it failed as a page, or the crawl never took it),
// it is fetched then. Whoever fetches a stylesheet or a document reads
// what it needs, maxNest deep. They are a queue of the crawl's Scheduler,
// whose workers take each from the host that may be asked soonest, so
// that a page's requisites on other hosts are fetched while its own host
// pauses. With more than one worker, they are fetched behind the crawl;
// with one, the crawl waits, once it has taken a page, until the
// requisites it has met are fetched, before the next page.
//
// The Sink records each requisite it is given, then journals it, with
// what it needs and a redirect's target. A resumed crawl knows from the
// journal which were recorded, and fetches what the pages it replays need
// and what the recorded requisites need, that is not recorded. A
// requisite whose host takes no connection is not journaled: as for a
// page, that is no verdict on it.

// requisites fetches the requisites of a crawl's pages. Its methods may be
// called on a nil *requisites, for a crawl that fetches none, and then do
// nothing.
type requisites struct {
	c      *Crawler
	scribe *scribe
	hosts  *witnesses
	urls   urlSet // the crawl's, which only its goroutine reads
	// stop stops the crawl, from a worker, with the error that ends it:
	// the loopback rule broken, an outage, a failed write.
	stop context.CancelCauseFunc

	// mu guards everything below. It is never held while a requisite is
	// fetched or read.
	mu      sync.Mutex
	changed chan struct{}          // closed, and replaced, whenever a requisite is queued or done
	seen    map[string]bool        // every requisite queued, waiting, fetched or recorded, by key
	lanes   map[string][]requisite // by host, in the order found
	pages   []requisite            // those that may be pages of the crawl, waiting for its end
	pending int                    // requisites queued or being fetched
	open    bool                   // they may be fetched: always with more than one worker, else while the crawl waits for them
	ended   bool                   // the crawl has ended: one that may be a page is queued at once
	ahead   map[string]int         // pages whose requisites were queued as they were read ahead, and how many went past the cap
	res     stats.Requisites
	answers map[string]bool // hosts that answered
	err     error           // what stopped a worker, and so the crawl
}

// A requisite is one to fetch: its key, how many redirects led to it, how
// deep it is nested below the page that needs it (1 for what a page
// names, 2 for what that names in turn, if it is a stylesheet or a
// document, and so on), and, if it may be a page of the crawl, that
// page's key.
type requisite struct {
	url  string
	hop  int
	nest int
	page string
}

// maxNest is the deepest a requisite is read for what it needs in turn:
// a stylesheet's imports, or a frame's document's own frames. A browser
// nests frames no deeper (Firefox stops at 10), and a server that makes
// up a new frame, or a new @import, in each answer would otherwise be
// fetched without end.
const maxNest = 10

// newRequisites returns what fetches the requisites of c's pages through
// its Scheduler, which must be started, having the scribe s record them,
// or nil if c fetches none. hosts are who answered; urls, the crawl's
// seen-set, says which pages the crawl saved; stop stops the crawl.
func newRequisites(c *Crawler, s *scribe, hosts *witnesses, urls urlSet, stop context.CancelCauseFunc) *requisites {
	if !c.Requisites {
		return nil
	}
	q := &requisites{
		c:       c,
		scribe:  s,
		hosts:   hosts,
		urls:    urls,
		stop:    stop,
		open:    c.Scheduler.Workers() > 1,
		changed: make(chan struct{}),
		seen:    make(map[string]bool),
		lanes:   make(map[string][]requisite),
		ahead:   make(map[string]int),
		answers: make(map[string]bool),
	}
	if c.History != nil {
		q.recall(c.History.Requisites())
	}
	c.Scheduler.Add(q)
	return q
}

// recall takes up the requisites the runs before recorded: none is
// fetched again, and what they need, and the targets of their redirects,
// are queued unless they are recorded too, as deep as they were found.
func (q *requisites) recall(recorded []*pagefetch.Page) {
	hops := make(map[string]int)
	for _, e := range recorded {
		q.seen[e.URL] = true
		if _, ok := hops[e.Target]; e.Target != "" && !ok {
			hops[e.Target] = hops[e.URL] + 1
		}
	}
	for _, e := range recorded {
		nest := max(e.Nest, 1) // a journal written before nesting was has none
		if e.Target != "" {
			q.add(e.Target, hops[e.Target], nest)
		}
		for _, u := range e.Needs {
			q.add(u, 0, nest+1)
		}
	}
}

// page queues the requisites of a page the crawl saves, p, as its
// reading found them, unless they were queued as it was read ahead: as
// the crawl takes it, or, if an earlier run saved it, as the crawl
// replays or adopts it. Those past Crawler.MaxRequisites, and srcset
// candidates a browser would not load, are counted and named, in the
// order the crawl takes the pages.
func (q *requisites) page(p *pagefetch.Page) {
	if q == nil {
		return
	}
	q.mu.Lock()
	over, ahead := q.ahead[p.URL]
	delete(q.ahead, p.URL)
	q.mu.Unlock()
	if !ahead {
		over = q.queuePage(p)
	}
	q.skipped(p.URL, p.Read.Skipped, over)
}

// readAhead queues the requisites of a page fetched and read ahead of the
// crawl, which the crawl is bound to save: so that they are fetched while
// it waits for its turn. The crawl names what it skipped when it takes
// it.
func (q *requisites) readAhead(p *pagefetch.Page) {
	if q == nil {
		return
	}
	over := q.queuePage(p)
	q.mu.Lock()
	q.ahead[p.URL] = over
	q.mu.Unlock()
}

// queuePage queues the requisites of p, and returns how many went past
// the cap.
func (q *requisites) queuePage(p *pagefetch.Page) int {
	capped := q.capped()
	for _, u := range p.Read.Requisites {
		capped.add(u)
	}
	return capped.over
}

// A cappedAdder queues what one page names, in order, up to
// Crawler.MaxRequisites distinct URLs in scope, and counts the others.
type cappedAdder struct {
	q    *requisites
	seen map[string]bool
	over int // distinct URLs past the cap
}

// capped returns what queues the requisites of one page.
func (q *requisites) capped() *cappedAdder {
	return &cappedAdder{q: q, seen: make(map[string]bool)}
}

// add queues the requisite at raw, found on the page, unless it is past
// the cap.
func (a *cappedAdder) add(raw string) {
	limit := a.q.c.MaxRequisites
	if limit <= 0 {
		a.q.add(raw, 0, 1)
		return
	}
	key, ok := browserurl.Key(raw)
	if !ok || a.seen[key] || !a.q.c.Scope.Requisite(key) {
		return
	}
	a.seen[key] = true
	if len(a.seen) > limit {
		a.over++
		return
	}
	a.q.add(key, 0, 1)
}

// skipped counts what a page or a stylesheet at url named that is not
// fetched: srcset and image-set() candidates a browser would not load,
// and requisites past the cap; and names them on Errors, unless
// Crawler.QuietFailures, in a line, if there are any.
func (q *requisites) skipped(url string, candidates, over int) {
	if candidates+over == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.res.Skipped += candidates + over
	if q.c.QuietFailures {
		return
	}
	var why []string
	if candidates > 0 {
		why = append(why, "image candidates a browser would not load")
	}
	if over > 0 {
		why = append(why, fmt.Sprintf("%d past -max-requisites %d", over, q.c.MaxRequisites))
	}
	fmt.Fprintf(q.c.Errors, "crawler: %s: %d requisites skipped (%s)\n", url, candidates+over, strings.Join(why, ", "))
}

// add queues the requisite at raw, found nest deep on a page or a
// stylesheet or as a redirect's target after hop redirects, unless it is
// no http or https URL, outside the scope, met before, or at the end of a
// chain too long. One that may be a page of the crawl waits for its end.
func (q *requisites) add(raw string, hop, nest int) {
	key, ok := browserurl.Key(raw)
	if !ok || hop > maxRedirects || !q.c.Scope.Requisite(key) {
		return
	}
	it := requisite{url: key, hop: hop, nest: nest}
	if pk, ok := q.c.Scope.Key(key); ok && q.c.Scope.Internal(pk) && !q.c.Scope.Excluded(pk) {
		it.page = pk
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seen[key] {
		return
	}
	q.seen[key] = true
	if it.page != "" && !q.ended {
		q.pages = append(q.pages, it)
		return
	}
	q.queue(it)
}

// queue queues it, to be fetched. The workers are woken only when its
// host had none left to fetch: a worker at the host, or one that will
// come to it for the requisites it has, takes it in turn. q.mu is held.
func (q *requisites) queue(it requisite) {
	host := hostOf(it.url)
	if lane, ok := q.lanes[host]; len(lane) == 0 {
		if !ok {
			q.c.Scheduler.Meet(host)
		}
		q.c.Scheduler.Signal()
	}
	q.lanes[host] = append(q.lanes[host], it)
	q.pending++
}

// signal wakes whoever waits for a change: the crawl, and the Scheduler's
// workers. q.mu is held.
func (q *requisites) signal() {
	q.wake()
	q.c.Scheduler.Signal()
}

// wake wakes the crawl, if it waits for the requisites. q.mu is held.
func (q *requisites) wake() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// Urgent implements [pagefetch.Queue]: the crawl never waits for one
// requisite.
func (q *requisites) Urgent() string { return "" }

// Ready implements [pagefetch.Queue]: host has a requisite to fetch.
func (q *requisites) Ready(host string, _, _ bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.open && len(q.lanes[host]) > 0
}

// Run implements [pagefetch.Queue]: it fetches host's next requisite.
// What stops a fetch stops the crawl.
func (q *requisites) Run(ctx context.Context, host string, _, _ bool) bool {
	q.mu.Lock()
	queue := q.lanes[host]
	if !q.open || len(queue) == 0 {
		q.mu.Unlock()
		return false
	}
	it := queue[0]
	q.lanes[host] = queue[1:]
	if len(queue) == 1 {
		q.lanes[host] = nil // for the memory of the array; the host is met
	}
	q.mu.Unlock()
	err := q.fetch(ctx, it)
	if err != nil {
		// Before the requisite is done, so that finish, which waits for
		// none to be pending, sees why it was not done.
		q.fail(err)
	}
	q.mu.Lock()
	q.pending--
	q.wake() // the workers hear of a host released from the Scheduler
	q.mu.Unlock()
	return true
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

// settle waits, in a crawl of one worker, until the requisites queued so
// far, and what they need, are fetched: those of the page the crawl has
// just taken. With more workers, they are fetched behind the crawl, which
// does not wait. Its error is one that stops the crawl.
func (q *requisites) settle(ctx context.Context) error {
	if q == nil || q.c.Scheduler.Workers() > 1 {
		return nil
	}
	q.setOpen(true)
	err := q.wait(ctx)
	q.setOpen(false)
	return err
}

// setOpen lets the workers fetch requisites, or not.
func (q *requisites) setOpen(open bool) {
	q.mu.Lock()
	q.open = open
	q.signal()
	q.mu.Unlock()
}

// finish ends the requisites of a crawl that ended with err: if err is
// nil, once every requisite queued, and what each needs, is fetched and
// handed to the scribe, and every one that may be a page of the crawl is
// fetched unless the crawl saved it as a page. It returns err, or what
// stopped the crawl while they were fetched.
func (q *requisites) finish(ctx context.Context, err error) error {
	if q == nil || err != nil {
		return err
	}
	q.setOpen(true)
	if err := q.wait(ctx); err != nil {
		return err
	}
	q.mu.Lock()
	q.ended = true
	waiting := q.pages
	q.pages = nil
	for _, it := range waiting {
		// The crawl is over: its seen-set is read here alone.
		if !q.urls.isSaved(it.page) {
			q.queue(it)
		}
	}
	q.mu.Unlock()
	return q.wait(ctx)
}

// wait waits until no requisite is pending, or one stopped the crawl, or
// ctx ends, and returns why it stopped waiting, or nil.
func (q *requisites) wait(ctx context.Context) error {
	for {
		q.mu.Lock()
		pending, changed, err := q.pending, q.changed, q.err
		q.mu.Unlock()
		if err != nil {
			return err
		}
		if pending == 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// fetch fetches one requisite, hands it to the scribe with what it needs,
// and queues that. Its error is one that stops the crawl.
func (q *requisites) fetch(ctx context.Context, it requisite) error {
	if q.c.Scheduler.Down(hostOf(it.url)) != nil {
		q.failed("host unreachable") // and not journaled, as it is no answer
		return nil
	}
	p, err := q.c.Web.FetchRequisite(ctx, it.url)
	if errors.Is(err, pagefetch.ErrHostDown) {
		p.Close()
		q.failed("host unreachable")
		return nil
	}
	// What is no answer about the requisite: the crawl was stopped, the
	// loopback rule broken, or no connection made to its host.
	cause := context.Cause(ctx)
	ue, unreachable := errors.AsType[*pagefetch.UnreachableError](err)
	if cause != nil || unreachable || errors.Is(err, pagefetch.ErrNotLoopback) {
		p.Close()
		switch {
		case cause != nil:
			return cause
		case unreachable:
			return q.unreachable(ctx, ue)
		}
		return fmt.Errorf("%w (for %s, a page's requisite)", err, it.url)
	}
	p.URL, p.Kind, p.Nest = it.url, pagefetch.Requisite, it.nest
	target, needs := q.judge(it, p, err)
	p.Target, p.Needs, p.Body = target, needs, nil
	if err := q.scribe.put(p); err != nil {
		return err
	}
	// Queued once the requisite is handed over, so that the scribe
	// records it before them: a redirect's line before its target's.
	if target != "" {
		q.add(target, it.hop+1, it.nest)
	}
	for _, u := range needs {
		q.add(u, 0, it.nest+1)
	}
	return nil
}

// judge counts what came of a requisite, answered p or failed with err,
// and returns the target of its redirect, if it is to be followed, and
// what it needs, if it is a stylesheet or a document no deeper than
// maxNest: each key once, in the order found.
func (q *requisites) judge(it requisite, p *pagefetch.Page, err error) (target string, needs []string) {
	switch {
	case errors.Is(err, pagefetch.ErrDisallowed):
		q.count(func(res *stats.Requisites) { res.Disallowed++ })
		return "", nil
	case err != nil:
		q.failed(pagefetch.Reason(err))
		return "", nil
	}
	q.hosts.answered(it.url)
	q.mu.Lock()
	q.answers[hostOf(it.url)] = true
	q.res.Hosts = len(q.answers)
	q.mu.Unlock()
	switch {
	case p.Code >= 200 && p.Code < 300:
		q.count(func(res *stats.Requisites) { res.Fetched++; res.Bytes += int64(len(p.Body)) })
		switch {
		case it.nest >= maxNest:
		case stylesheet(it.url, p.ContentType()):
			needs = q.sheet(it.url, p)
		case document(p.ContentType()):
			needs = q.document(it.url, p)
		}
	case p.Target != "" && it.hop >= maxRedirects:
		q.failed("too many redirects")
	case p.Target != "":
		q.count(func(res *stats.Requisites) { res.Redirects++ })
		target = p.Target
	default:
		q.failed(fmt.Sprintf("HTTP %d", p.Code))
	}
	return target, needs
}

// sheet returns the keys of what the stylesheet fetched from sheetURL
// needs, each once, in the order found, at most Crawler.MaxRequisites in
// scope, and counts what it skips.
func (q *requisites) sheet(sheetURL string, p *pagefetch.Page) []string {
	var needs []string
	found := make(map[string]bool)
	inScope, over := 0, 0
	skipped := pagescan.StyleRequisites(sheetURL, p.Body, p.HeaderCharset(), func(u string) {
		key, ok := browserurl.Key(u)
		if !ok || found[key] {
			return
		}
		found[key] = true
		if q.c.MaxRequisites > 0 && q.c.Scope.Requisite(key) {
			if inScope++; inScope > q.c.MaxRequisites {
				over++
				return
			}
		}
		needs = append(needs, key)
	})
	q.skipped(sheetURL, skipped, over)
	return needs
}

// document returns the keys of what a document fetched as a requisite
// from docURL (an SVG image, a frame's document, or what an <object> or
// <embed> shows) needs, each once, in the order found: its images,
// stylesheets, frames and other requisites, read as a page's are.
func (q *requisites) document(docURL string, p *pagefetch.Page) []string {
	var needs []string
	found := make(map[string]bool)
	pagescan.Requisites(docURL, p.Body, p.HeaderCharset(), func(u string) {
		if key, ok := browserurl.Key(u); ok && !found[key] {
			found[key] = true
			needs = append(needs, key)
		}
	})
	return needs
}

// document reports whether a requisite is a document, HTML or SVG, to be
// read for what it needs in turn, by its Content-Type.
func document(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	switch strings.ToLower(strings.TrimSpace(mt)) {
	case "text/html", "application/xhtml+xml", "image/svg+xml":
		return true
	}
	return false
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
// the crawl has lost its network and stops with [ErrOutage]. The witness
// is asked by the worker that met the failure, which holds no other host.
func (q *requisites) unreachable(ctx context.Context, ue *pagefetch.UnreachableError) error {
	witness := q.hosts.witness(ue.Host)
	if witness == "" {
		return fmt.Errorf("%w: %w", ErrOutage, ue)
	}
	// A witness's answer is no requisite's: it is not recorded.
	rec, err := q.c.Web.Reach(ctx, witness)
	(&pagefetch.Page{Recording: &rec}).Close()
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return fmt.Errorf("%w: %w; %s does not answer either", ErrOutage, ue, witness)
	}
	q.c.Scheduler.MarkDown(ue.Host, ue)
	q.failed(pagefetch.Reason(ue))
	return nil
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

// figures returns the figures of the requisites, once the crawl is done.
func (q *requisites) figures() stats.Requisites {
	if q == nil {
		return stats.Requisites{}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.res
}
