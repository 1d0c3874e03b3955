package crawler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"tse-crawler/internal/browserurl"
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
// links, in the same pass (OnePassReader), when the crawl fetches
// it itself and will read them; alone when a lane fetches it ahead, since
// the crawl's scanner is the crawl's, which reads its links later.
// Whoever fetches a stylesheet reads its requisites. They are a queue of
// the crawl's schedule (pagefetch.Schedule), whose workers take each from
// the host that may be asked soonest, so that a page's requisites on other
// hosts are fetched while its own host pauses. With Crawler.Parallel above
// one, they are fetched behind the crawl; else the crawl waits, once it
// has taken a page, until the requisites it has met are fetched, before
// the next page.
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
	sched  *pagefetch.Schedule
	// stop stops the crawl, from a worker, with the error that ends it:
	// the loopback rule broken, an outage, a failed write.
	stop context.CancelCauseFunc

	// mu guards everything below. It is never held while a requisite is
	// fetched or read.
	mu      sync.Mutex
	changed chan struct{}            // closed, and replaced, whenever a requisite is queued or done
	seen    map[string]bool          // every requisite queued, fetched or recorded, by key
	lanes   map[string]*requisiteBag // by host
	pending int                      // requisites queued or being fetched
	open    bool                     // they may be fetched: always with Crawler.Parallel above one, else while the crawl waits for them
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

// A requisite is one to fetch: its key, how many redirects led to it, and
// how deep it is nested below the page that needs it: 1 for what a page
// names, 2 for what that names in turn, if it is a stylesheet or a
// document, and so on.
type requisite struct {
	url  string
	hop  int
	nest int
}

// maxNest is the deepest a requisite is read for what it needs in turn:
// a stylesheet's imports, or a frame's document's own frames. A browser
// nests frames no deeper (Firefox stops at 10), and a server that makes
// up a new frame, or a new @import, in each answer would otherwise be
// fetched without end.
const maxNest = 10

// newRequisites returns what fetches the requisites of c's pages through
// sched, having the scribe s record them, or nil if c fetches none. stop
// stops the crawl.
func newRequisites(c *Crawler, sched *pagefetch.Schedule, s *scribe, stop context.CancelCauseFunc) *requisites {
	if !c.fetchesRequisites() {
		return nil
	}
	q := &requisites{
		c:       c,
		sched:   sched,
		scribe:  s,
		stop:    stop,
		open:    c.Parallel > 1,
		changed: make(chan struct{}),
		seen:    make(map[string]bool),
		lanes:   make(map[string]*requisiteBag),
		hosts:   make(map[string]bool),
	}
	if c.History != nil {
		q.recall(c.History.Requisites())
	}
	sched.Add(q)
	return q
}

// recall takes up the requisites the runs before recorded: none is
// fetched again, and what they need, and the targets of their redirects,
// are queued unless they are recorded too, as deep as they were found.
func (q *requisites) recall(recorded []Record) {
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

// fetchesRequisites reports whether c fetches its pages' requisites.
func (c *Crawler) fetchesRequisites() bool {
	return c.Requisites != nil
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
// the Crawler's RequisiteReader reads links too ([OnePassReader]), it
// reads the page's links with rd in the same pass and returns them, for
// the crawl to take with the page; else nil, and the crawl reads them when
// it needs them. Links are asked for on the crawl's goroutine only, whose
// scanner the one pass stands for.
func (q *requisites) read(rd *reader, pageURL string, html []byte, charset string, links bool) *pageLinks {
	if q == nil {
		return nil
	}
	capped := q.capped()
	var pl *pageLinks
	var skipped int
	if op, ok := q.c.Requisites.(OnePassReader); links && ok {
		pl, skipped = rd.keepRequisites(pageURL, html, charset, op.ScanRequisites, capped.add)
	} else {
		skipped = q.c.Requisites.Requisites(pageURL, html, charset, capped.add)
	}
	q.skipped(pageURL, skipped, capped.over)
	return pl
}

// A cappedAdder queues what one page or stylesheet names, in order, up
// to Crawler.MaxRequisites distinct URLs in scope, and counts the others.
type cappedAdder struct {
	q    *requisites
	seen map[string]bool
	over int // distinct URLs past the cap
}

// capped returns what queues the requisites of one page or stylesheet.
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

// A RequisiteReader finds what a page or a stylesheet needs to render:
// package pagescan's Requisites and StyleRequisites.
type RequisiteReader interface {
	// Requisites calls found with each URL a page needs, resolved, and
	// returns how many more it names that a browser would not load.
	Requisites(pageURL string, page []byte, charset string, found func(url string)) (skipped int)
	// StyleRequisites calls found with each URL a stylesheet needs, and
	// returns as Requisites does.
	StyleRequisites(sheetURL string, sheet []byte, charset string, found func(url string)) (skipped int)
}

// A OnePassReader is a RequisiteReader that also reads a page's links, as
// the crawl's Scanner does, with its requisites in one reading of the page
// (pagescan.RequisiteScanner). The crawl reads so a page whose links it
// reads when it reads its requisites: one it fetches itself, not ahead,
// or replays.
type OnePassReader interface {
	RequisiteReader
	ScanRequisites(pageURL string, page []byte, charset string, found, requisite func(url string)) (skipped int)
}

// add queues the requisite at raw, found nest deep on a page or a
// stylesheet or as a redirect's target after hop redirects, unless it is
// no http or https URL, outside the scope, met before, or at the end of a
// chain too long.
func (q *requisites) add(raw string, hop, nest int) {
	key, ok := browserurl.Key(raw)
	if !ok || hop > maxRedirects || !q.c.Scope.Requisite(key) {
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
		q.sched.Meet(host)
	}
	l.queue = append(l.queue, requisite{key, hop, nest})
	q.pending++
	q.signal()
}

// signal wakes whoever waits for a change: the crawl, and the schedule's
// workers. q.mu is held.
func (q *requisites) signal() {
	close(q.changed)
	q.changed = make(chan struct{})
	q.sched.Signal()
}

// Urgent implements [pagefetch.Queue]: the crawl never waits for one
// requisite.
func (q *requisites) Urgent() string { return "" }

// Ready implements [pagefetch.Queue]: host has a requisite to fetch, and
// no other is being fetched from it.
func (q *requisites) Ready(host string, _, _ bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.runnable(host) != nil
}

// runnable returns host's lane if a requisite may be fetched from it now.
// q.mu is held.
func (q *requisites) runnable(host string) *requisiteBag {
	l := q.lanes[host]
	if !q.open || l == nil || l.busy || len(l.queue) == 0 {
		return nil
	}
	return l
}

// Run implements [pagefetch.Queue]: it fetches host's next requisite.
// What stops a fetch stops the crawl.
func (q *requisites) Run(ctx context.Context, host string, _, _ bool) bool {
	q.mu.Lock()
	l := q.runnable(host)
	if l == nil {
		q.mu.Unlock()
		return false
	}
	it := l.queue[0]
	l.queue = l.queue[1:]
	if len(l.queue) == 0 {
		l.queue = nil // for the memory of the array
	}
	l.busy = true
	q.mu.Unlock()
	err := q.fetch(ctx, it)
	if err != nil {
		// Before the requisite is released, so that finish, which
		// waits for none to be pending, sees why it was not done.
		q.fail(err)
	}
	q.release(l)
	return true
}

// release gives l back once a requisite taken from it is done.
func (q *requisites) release(l *requisiteBag) {
	q.mu.Lock()
	l.busy = false
	q.pending--
	q.signal()
	q.mu.Unlock()
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

// settle waits, in a crawl of one page at a time, until the requisites
// queued so far, and what they need, are fetched: those of the page the
// crawl has just taken. With Crawler.Parallel above one, they are fetched
// behind the crawl, which does not wait. Its error is one that stops the
// crawl.
func (q *requisites) settle(ctx context.Context) error {
	if q == nil || q.c.Parallel > 1 {
		return nil
	}
	q.mu.Lock()
	q.open = true
	q.signal()
	q.mu.Unlock()
	err := q.wait(ctx)
	q.mu.Lock()
	q.open = false
	q.mu.Unlock()
	return err
}

// finish ends the requisites of a crawl that ended with err: if err is
// nil, once every requisite queued, and what each needs, is fetched and
// handed to the scribe. It returns err, or what stopped the crawl while
// they were fetched.
func (q *requisites) finish(ctx context.Context, err error) error {
	if q == nil || err != nil {
		return err
	}
	q.mu.Lock()
	q.open = true
	q.signal()
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
	if q.c.Web.Down(hostOf(it.url)) != nil {
		q.failed("host unreachable") // and not journaled, as it is no answer
		return nil
	}
	r, err := q.c.Web.FetchRequisite(ctx, it.url)
	if errors.Is(err, pagefetch.ErrHostDown) {
		q.failed("host unreachable")
		return nil
	}
	// What is no answer about the requisite: the crawl was stopped, the
	// loopback rule broken, or no connection made to its host.
	cause := context.Cause(ctx)
	ue, unreachable := errors.AsType[*pagefetch.UnreachableError](err)
	if cause != nil || unreachable || errors.Is(err, pagefetch.ErrNotLoopback) {
		discard(&r.Recording)
		switch {
		case cause != nil:
			return cause
		case unreachable:
			return q.unreachable(ctx, ue)
		}
		return fmt.Errorf("%w (for %s, a page's requisite)", err, it.url)
	}
	rec := Record{Kind: Requisite, URL: it.url, Nest: it.nest, Recording: recorded(r.Recording)}
	target, needs := q.judge(it, r, err)
	rec.Target, rec.Needs = target, needs
	if err := q.scribe.put(rec); err != nil {
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

// judge counts what came of a requisite, answered r or failed with err,
// and returns the target of its redirect, if it is to be followed, and
// what it needs, if it is a stylesheet or a document no deeper than
// maxNest: each key once, in the order found.
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
		switch {
		case it.nest >= maxNest:
		case stylesheet(it.url, r.ContentType):
			needs = q.sheet(it.url, r)
		case document(r.ContentType):
			needs = q.document(it.url, r)
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
// needs, each once, in the order found, at most Crawler.MaxRequisites in
// scope, and counts what it skips.
func (q *requisites) sheet(sheetURL string, r pagefetch.Requisite) []string {
	var needs []string
	found := make(map[string]bool)
	inScope, over := 0, 0
	skipped := q.c.Requisites.StyleRequisites(sheetURL, r.Body, r.Charset, func(u string) {
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
// from docURL (an SVG image, or what an <object> or <embed> shows) needs,
// each once, in the order found: its images, stylesheets, and other
// requisites, read as a page's are.
func (q *requisites) document(docURL string, r pagefetch.Requisite) []string {
	var needs []string
	found := make(map[string]bool)
	q.c.Requisites.Requisites(docURL, r.Body, r.Charset, func(u string) {
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
// the crawl has lost its network and stops with [ErrOutage].
func (q *requisites) unreachable(ctx context.Context, ue *pagefetch.UnreachableError) error {
	q.mu.Lock()
	witness := q.watch.witness(ue.Host)
	q.mu.Unlock()
	if witness == "" {
		return fmt.Errorf("%w: %w", ErrOutage, ue)
	}
	// A witness's answer is no requisite's: it is not recorded.
	reached, err := q.c.Web.Reach(ctx, witness)
	discard(&reached)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return fmt.Errorf("%w: %w; %s does not answer either", ErrOutage, ue, witness)
	}
	q.c.Web.MarkDown(ue.Host, ue)
	q.failed(pagefetch.Reason(ue))
	return nil
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

// figures returns the figures of the requisites, once the crawl is done.
func (q *requisites) figures() stats.Requisites {
	if q == nil {
		return stats.Requisites{}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.res
}
