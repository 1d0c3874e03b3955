// Package crawler runs the crawl loop: it takes a page from its frontier,
// which has the Scheduler's workers fetch it, saves it, and, unless the
// page is at the maximum depth, reads it for links and puts every new
// internal link in the frontier. A crawl of several hosts fetches pages
// ahead of their turn (frontier.go, pages.go), which changes when a page
// is requested, never what the crawl does with it. A crawl that keeps a
// WARC file also fetches, behind it, what each page it saves needs to
// render (requisites.go), which changes nothing of the pages either.
//
// Every request goes through the crawl's [pagefetch.Scheduler], from one
// of its workers: the crawl's goroutine never sends one itself.
//
// Its progress log is the reference crawler's, line for line, so that a
// grader can compare the two.
//
// A crawl may have more seeds than one (Crawler.Seeds, such as the pages
// a sitemap lists): each is crawled at depth 0, after the seed, in the
// order given, and only once the bag is empty, so that the crawl from the
// seed is the crawl without them, in any bag order and under
// Crawler.MaxPages, and each later seed's crawl follows the one before.
// A seed the crawl has met by then, as a link or listed before, is
// skipped. The crawl takes them in the same order on every run, so a
// resumed crawl rebuilds its bag exactly, provided it is given the same
// list: the caller journals it (package pagedir keeps it with the journal).
package crawler

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/linkgraph"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/progress"
	"tse-crawler/internal/stats"
)

// ErrSeedFailed is returned, wrapped with the reason, when the crawl saves
// no page at all: the seed could not be fetched, robots.txt disallows it,
// or it redirects out of the crawl.
var ErrSeedFailed = errors.New("cannot fetch the seed page")

// ErrOutage is returned, wrapped with a [*pagefetch.UnreachableError], when
// the crawl stops because it can no longer reach the web: a host it needs
// cannot be connected to, and no other host it has crawled answers either
// (or there is none to ask). The page that met it is neither logged nor
// journaled, so a resumed crawl fetches it again.
var ErrOutage = errors.New("lost the connection to the web")

// errTooManyRedirects fails a page at the end of a chain of more than
// maxRedirects redirects.
var errTooManyRedirects = errors.New("too many redirects")

// maxRedirects is how many redirects in a row are followed from a page
// taken from the bag. Browsers follow about twenty and wget twenty; a crawl
// has less reason to: a chain this long is a trap or a broken site.
const maxRedirects = 10

// ErrDiverged is returned, wrapped, when a resumed crawl does not go the way
// its journal or its saved pages say it went: they belong to another crawl.
var ErrDiverged = errors.New("the saved crawl does not match this one")

// A Crawler holds the collaborators of one crawl. Web, Scheduler, Sink,
// Scanner, Scope, Bag and Errors must be set.
type Crawler struct {
	// Web is where pages and requisites come from. When a host cannot be
	// connected to, the crawler asks another host that has answered
	// (Web.Reach): if it answers, the first host alone is dead, and the
	// Scheduler gives it up; if not, the crawl has lost its network and
	// stops with [ErrOutage].
	Web Web
	// Scheduler sends every request of the crawl, from its workers, and
	// knows each host: its pause, its turn, whether it was given up. Its
	// workers bound the hosts asked at once: with one, pages are fetched
	// one at a time, as they are taken from the bag; with more, once the
	// crawl has met a second host, pages are fetched ahead of the crawl,
	// from every host at once, but everything else happens in the order
	// of a crawl of one page at a time, so that every output is the same.
	// Only a [bag.Stack], [bag.Queue] or [bag.Priority] can be fetched
	// ahead. The crawl starts it, and stops it when it ends.
	Scheduler *pagefetch.Scheduler
	// Sink stores what came of each page taken from the bag, in the
	// order the crawl takes them: a page saved, with its docID, unless it
	// is on disk already, and every outcome, for the outputs that keep
	// them; and each requisite fetched.
	Sink     Sink
	Scanner  pagescan.Scanner
	Scope    Scope
	Bag      bag.Bag
	MaxDepth int
	// Seeds are more seeds, normalized and internal, crawled at depth 0
	// after the seed (see the package doc): once the bag is empty, the
	// first of them the crawl has not met goes in it.
	Seeds []string
	// MaxPages, if above 0, ends the crawl once it has saved that many
	// pages, the pages an earlier run saved included: the first MaxPages
	// pages of the crawl without it, however many workers there are.
	MaxPages int
	// Log receives the progress log, or nothing if it is nil.
	Log io.Writer
	// Errors receives what goes wrong without stopping the crawl: a host
	// found dead, and the reason for each page that could not be fetched,
	// one line each, unless QuietFailures is set.
	Errors io.Writer
	// QuietFailures keeps the reasons for pages that could not be fetched
	// off Errors, for a caller that sums them up from [Result.FailedBy]
	// once the crawl ends (-q, where a line per page is too many).
	QuietFailures bool

	// History, if set, is what earlier runs of this crawl decided. It is
	// applied page by page, without fetching, which rebuilds the bag and
	// the seen-set exactly; outcomes those runs told are not told again
	// (and not counted in Result). Then the crawl goes on from the web.
	History History
	// Progress, if set, is told where the crawl stands before each fetch:
	// everything but the pause, which is the fetcher's to tell.
	Progress interface{ Set(progress.Status) }

	// AheadMemory is how much memory the pages fetched ahead may take
	// while they wait for the crawl, their HTML and a few hundred bytes
	// each, and what reading them ahead found. Past it, only the page the
	// crawl waits for is fetched, and no more pages are read ahead, so it
	// is exceeded by at most one page for each of the workers' fetches
	// under way when it is reached.
	AheadMemory int64

	// Requisites makes the crawl fetch the requisites of the pages it
	// saves, the resources a page needs to render, for the WARC file (see
	// requisites.go): once each, what it finds on every page the crawl
	// saves (the pages an earlier run saved included), and in every
	// stylesheet and document among them, maxNest deep; the Sink gets
	// each, whatever the answer (a Page of Kind pagefetch.Requisite).
	// They are no pages: nothing of them goes in the bag, the seen-set,
	// the log, the page directory or the pages' figures.
	Requisites bool
	// MaxRequisites, if above 0, caps the requisites fetched for one
	// page: of the distinct URLs it names, in scope, in document order,
	// those past the first MaxRequisites are skipped; and so for what each
	// stylesheet names, apart from its page's. 0 is no cap.
	MaxRequisites int
	// Refs makes the crawl read, on each page it saves, where each link
	// and requisite is and the ids it holds, in the reading that finds its
	// links (Page.Read), for a Sink that checks links.
	Refs bool

	// Graph, if set, is told every link of every page saved and every
	// redirect followed, and what came of each URL they name (see
	// graph.go). A page at maxDepth, which the crawl does not scan, is
	// read for it alone. It is the crawl's seen-set too.
	Graph *linkgraph.Graph
}

// Result sums up a crawl, or the part of it done before an error: the
// figures of its pages and links, which -stats formats as they are, and
// where the crawl stopped.
type Result struct {
	stats.Pages
	stats.URLs
	Bytes   int64  // the HTML saved by this run, in bytes
	Deepest int    // the greatest depth of a page saved
	Last    string // the URL of the last page saved
	Current string // the page being crawled when the crawl stopped early
	Pending int    // pages left in the bag when the crawl stopped early or at MaxPages, Current's and Crawler.Seeds not met included
	// MaxPagesReached is whether the crawl ended at Crawler.MaxPages,
	// with Pending pages left in the bag.
	MaxPagesReached bool
	// AheadPeak is the most memory the pages fetched ahead took at once,
	// as Crawler.AheadMemory counts it.
	AheadPeak int64
	// Requisites are the figures of the pages' requisites, if the crawl
	// fetches them.
	Requisites stats.Requisites
}

// Crawl crawls from seed, which must be normalized and internal.
//
// What a failed fetch means depends on its error: a
// [*pagefetch.RedirectError] puts the target in the bag at the same depth,
// as if it were a link ("Redirect"); [pagefetch.ErrDisallowed] skips the
// page ("IgnRobots"); any other error fails the page ("FAILED", and the
// reason on Errors unless QuietFailures) and the crawl goes on.
//
// Crawl stops at the first error it cannot crawl past: a page cannot be
// saved or journaled, the fetcher refuses to connect
// ([pagefetch.ErrNotLoopback]), a resumed crawl diverges from its journal
// ([ErrDiverged]), or ctx ends (the context's cause). A crawl that saves
// nothing at all fails with [ErrSeedFailed]. Every page saved before an
// error is whole, and journaled.
func (c *Crawler) Crawl(ctx context.Context, seed string) (Result, error) {
	w := &logWriter{off: c.Log == nil}
	if c.Log != nil {
		w.w = bufio.NewWriterSize(c.Log, 16<<10)
	}
	res, err := c.crawl(ctx, seed, w)
	if ferr := w.flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing the log: %w", ferr)
	}
	return res, err
}

// A source is where the outcome of a page comes from. It decides whether
// this run tells the outcome (logs and counts it) and has the scribe
// record it.
type source int

const (
	// fromEarlier is an outcome an earlier run told: the page, if saved,
	// is on disk, and the outcome recorded.
	fromEarlier source = iota
	// fromDisk is a page that an earlier run saved, but was killed before
	// it could record it: this run tells it and records it, but does not
	// save it again.
	fromDisk
	// fromWeb fetches the page: this run tells it, saves it and records
	// it.
	fromWeb
)

// A run is one run of a crawl, which, if the crawl has a history, begins
// with what the runs before it decided: the crawl's state beside the
// frontier, and the figures of this run.
type run struct {
	c      *Crawler
	log    *logWriter
	scribe *scribe
	read   *reader
	front  *frontier   // the bag, and the pages fetched from it
	reqs   *requisites // nil unless the crawl fetches its pages' requisites
	hosts  *witnesses

	res  Result
	urls urlSet
	hops map[string]int // for each page in the bag that a redirect put there, the redirects that led to it

	history History  // nil once it has nothing more to say
	seeds   []string // Crawler.Seeds not yet put in the bag
	onDisk  int      // the pages that earlier runs saved and told
	// seedFailure says why the last page that failed did; if no page is
	// ever saved, it says why the seed (or the page it redirects to) gave
	// nothing.
	seedFailure error
}

// crawl runs the crawl with a scribe that saves and journals behind it, and
// waits for the scribe before it returns. A failure to write is the crawl's
// error, whatever else happened.
func (c *Crawler) crawl(ctx context.Context, seed string, log *logWriter) (Result, error) {
	// Ended by the crawl's own requisites too, at an error that stops it.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	r := &run{
		c:       c,
		log:     log,
		scribe:  startScribe(c),
		read:    &reader{scanner: c.Scanner, scope: c.Scope, what: c.what()},
		hops:    make(map[string]int),
		urls:    make(seen),
		hosts:   new(witnesses),
		history: c.History,
		seeds:   c.Seeds,
	}
	if c.Graph != nil {
		r.urls = graphSet{c.Graph}
	}
	c.Scheduler.Start(ctx)
	// The requisites' queue before the pages': on a host, the page the
	// crawl waits for goes first, then requisites, then pages ahead.
	r.reqs = newRequisites(c, r.scribe, r.hosts, r.urls, stop)
	r.front = newFrontier(ctx, c, r.read, r.reqs, r.urls, r.hops)
	err := r.loop(ctx, seed)
	r.front.stop()
	err = r.reqs.finish(ctx, err)
	c.Scheduler.Stop()
	r.res.AheadPeak = r.front.peak()
	r.res.Requisites = r.reqs.figures()
	saved, serr := r.scribe.finish()
	if serr != nil {
		// Pages after the one that failed were never written.
		r.res.Saved = max(saved, r.onDisk)
		return r.res, serr
	}
	return r.res, err
}

// what returns what the crawl reads each page it saves for besides its
// links: its requisites, for the WARC file, or for the link graph, which
// has a row for each in html mode; and where each link is, for a link
// check.
func (c *Crawler) what() pagescan.What {
	_, html := c.Scanner.(pagescan.Reader)
	graphRows := c.Graph != nil && c.Graph.KeepsRows() && html
	return pagescan.What{Requisites: c.Requisites || graphRows, Refs: c.Refs}
}

// loop takes pages from the bag, from the seed on, until the bag is empty
// and no seed is left, MaxPages pages are saved, or a page cannot be
// crawled past.
func (r *run) loop(ctx context.Context, seed string) error {
	r.urls.add(seed)
	r.front.push(bag.Item{URL: seed, Depth: 0})
	for {
		if r.c.MaxPages > 0 && r.res.Saved >= r.c.MaxPages && (r.front.len() > 0 || r.nextSeed(false)) {
			r.res.MaxPagesReached, r.res.Pending = true, r.front.len()+r.seedsLeft()
			return r.end()
		}
		if r.front.len() == 0 {
			r.nextSeed(true)
		}
		page, ok := r.front.pop(r.res.Saved)
		if !ok {
			return r.end()
		}
		if err := r.take(ctx, page); err != nil {
			r.res.Current, r.res.Pending = page.URL, r.front.len()+1+r.seedsLeft()
			return err
		}
		if err := r.reqs.settle(ctx); err != nil {
			r.res.Pending = r.front.len() + r.seedsLeft()
			return err
		}
	}
}

// nextSeed drops the seeds of Crawler.Seeds the crawl has met, and
// reports whether one is left; with push, it puts that one in the bag.
func (r *run) nextSeed(push bool) bool {
	for len(r.seeds) > 0 && r.urls.has(r.seeds[0]) {
		r.seeds = r.seeds[1:]
	}
	if len(r.seeds) == 0 {
		return false
	}
	if push {
		r.urls.add(r.seeds[0])
		r.front.push(bag.Item{URL: r.seeds[0], Depth: 0})
		r.seeds = r.seeds[1:]
	}
	return true
}

// seedsLeft counts the seeds of Crawler.Seeds the crawl has not met.
func (r *run) seedsLeft() int {
	n := 0
	met := make(map[string]bool)
	for _, s := range r.seeds {
		if !r.urls.has(s) && !met[s] {
			met[s] = true
			n++
		}
	}
	return n
}

// take crawls one page taken from the bag: it gets what came of the page,
// tells it unless an earlier run did, reads a saved page, applies it to
// the crawl (a saved page's links and a redirect's target go in the bag),
// queues the page's requisites, and has the scribe record it unless it is
// recorded already.
func (r *run) take(ctx context.Context, item bag.Item) error {
	hop := r.hops[item.URL]
	delete(r.hops, item.URL)
	// Checked here too, for a long replay, which fetches nothing.
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	src, p, quiet, err := r.outcome(ctx, item, hop)
	if err != nil {
		return err
	}
	p.URL, p.Depth = item.URL, item.Depth
	if src != fromEarlier {
		if err := r.tell(item, p, quiet); err != nil {
			return err
		}
	}
	if p.Kind == pagefetch.Saved && (r.c.reads(item) || r.c.Requisites || r.c.Refs) {
		r.read.read(p, r.c.reads(item))
	}
	r.apply(src, item, hop, p)
	if p.Kind == pagefetch.Saved {
		r.reqs.page(p)
	}
	if src == fromEarlier {
		r.scribe.replayed(p)
		return nil
	}
	return r.record(src, p)
}

// outcome gets what came of page, and where from: from the crawl's
// history while it has something to say, then from the web; and whether
// the reason a page failed has been told already. Its error is one that
// stops the crawl.
func (r *run) outcome(ctx context.Context, page bag.Item, hop int) (source, *pagefetch.Page, bool, error) {
	if r.history != nil {
		p, told, ok, err := r.history.Recall(page, r.res.Saved)
		if err != nil {
			return 0, nil, false, err
		}
		if ok {
			if !told {
				return fromDisk, p, false, nil
			}
			r.res.Recalled++
			if p.Kind == pagefetch.Saved || p.Kind == pagefetch.Redirected {
				r.hosts.answered(page.URL) // as it did when the outcome was decided
			}
			return fromEarlier, p, false, nil
		}
		r.history = nil
	}
	p, quiet, err := r.fetched(ctx, page, hop)
	return fromWeb, p, quiet, err
}

// tell logs an outcome that this run decided, and counts it; for a page
// that failed, it also tells why on Errors, unless that is to wait for the
// end (QuietFailures) or has been told (quiet).
func (r *run) tell(item bag.Item, p *pagefetch.Page, quiet bool) error {
	switch p.Kind {
	case pagefetch.Saved:
		r.log.line(item.Depth, "Fetched", item.URL)
		r.res.Fetched++
		r.res.Tried++
		r.res.Bytes += int64(len(p.Body))
		if r.scans(item) {
			r.log.line(item.Depth, "Scanning", item.URL)
		}
	case pagefetch.Redirected:
		r.log.line(item.Depth, "Redirect", item.URL)
		r.res.Redirects++
		r.res.Tried++
	case pagefetch.Disallowed:
		r.log.line(item.Depth, "IgnRobots", item.URL)
		r.res.Disallowed++
	case pagefetch.Failed:
		r.log.line(item.Depth, "FAILED", item.URL)
		r.res.Failed++
		r.res.Tried++
		return r.tellFailure(item, p.Err, quiet)
	}
	return nil
}

// tellFailure counts why a page failed, err, if known, and tells it on
// Errors, unless it is the seed's, which is Crawl's error, or is to wait
// for the end (QuietFailures), or has been told (quiet).
func (r *run) tellFailure(item bag.Item, err error, quiet bool) error {
	if err == nil {
		return nil
	}
	if r.res.FailedBy == nil {
		r.res.FailedBy = make(map[string]int)
	}
	r.res.FailedBy[reason(err)]++
	// With more seeds, a later one may save a page: the crawl's error
	// would then never tell it.
	if r.res.Saved == 0 && len(r.c.Seeds) == 0 || quiet || r.c.QuietFailures {
		return nil
	}
	if err := r.log.flush(); err != nil {
		return fmt.Errorf("writing the log: %w", err)
	}
	fmt.Fprintf(r.c.Errors, "crawler: %s: %v\n", item.URL, err)
	return nil
}

// apply makes an outcome's changes to the crawl: a saved page takes the
// next docID and, unless it is at maxDepth, puts its links in the bag at
// the next depth; a redirect puts its target in the bag at the page's own.
// A replayed outcome changes the bag and the seen-set as it did the first
// time, so that a resumed crawl rebuilds them exactly, but is not told
// again.
func (r *run) apply(src source, page bag.Item, hop int, p *pagefetch.Page) {
	switch p.Kind {
	case pagefetch.Saved:
		r.res.Saved++
		r.res.Last = page.URL
		r.res.Deepest = max(r.res.Deepest, page.Depth)
		if src == fromEarlier {
			r.onDisk++
		}
		r.urls.saved(page.URL)
		r.graphSaved(page, p)
		if r.scans(page) {
			for _, found := range p.Read.Links {
				r.consider(src, page.URL, page.Depth, page.Depth+1, r.read.link(found))
			}
		}
		r.graphRequisites(page, p)
	case pagefetch.Redirected:
		r.graphDecided(page, p)
		if next := r.consider(src, page.URL, page.Depth, page.Depth, r.read.link(p.Target)); next != "" {
			r.hops[next] = hop + 1
		} else {
			r.seedFailure = fmt.Errorf("%s redirects to %s, which is outside the crawl, excluded or already seen", page.URL, p.Target)
		}
	case pagefetch.Disallowed:
		r.graphDecided(page, p)
		r.seedFailure = errors.New(page.URL + ": robots.txt does not allow it")
	case pagefetch.Failed:
		r.graphDecided(page, p)
		r.seedFailure = errors.New(page.URL + ": could not be fetched")
		if p.Err != nil {
			r.seedFailure = fmt.Errorf("%s: %w", page.URL, p.Err)
		}
	}
}

// scans reports whether a saved page is scanned for links: whether it is
// shallower than maxDepth.
func (r *run) scans(page bag.Item) bool { return page.Depth < r.c.MaxDepth }

// reads reports whether the links of a saved page are read: for the crawl,
// or for the link graph, which reads those of the pages at maxDepth too.
func (c *Crawler) reads(page bag.Item) bool { return page.Depth < c.MaxDepth || c.Graph != nil }

// consider puts l, a link found on page from at depth or the target of its
// redirect, in the bag at pushDepth if it is internal, not excluded and
// new, and, unless the page's outcome is replayed, logs and counts what it
// made of it. It returns the URL it put in the bag, or "".
func (r *run) consider(src source, from string, depth, pushDepth int, l link) (added string) {
	word, shown, n := "IgnExtrn", l.found, &r.res.External
	if l.url != "" {
		shown = l.url
		switch {
		case !l.internal:
		case l.excluded:
			word, n = "IgnExcld", &r.res.Excluded
		case !r.urls.add(l.url):
			word, n = "IgnDupl", &r.res.Duplicate
		default:
			r.front.push(bag.Item{URL: l.url, Depth: pushDepth})
			word, n, added = "Added", &r.res.Added, l.url
		}
	}
	if src != fromEarlier {
		r.log.line(depth, "Found", l.found)
		r.log.line(depth, word, shown)
		r.res.Found++
		*n++
	}
	r.graphLink(from, shown, word)
	return added
}

// record has the scribe hand an outcome to the sink behind the crawl: a
// page saved with its docID, and its HTML if this run saves it; the
// status the link graph gives a page that failed or redirected.
func (r *run) record(src source, p *pagefetch.Page) error {
	p.Status = statusOf(p)
	if p.Kind == pagefetch.Saved {
		p.DocID = r.res.Saved
		if src != fromWeb {
			p.Body = nil // on disk already
		}
	} else {
		p.Body = nil
	}
	return r.scribe.put(p)
}

// end says how a crawl whose bag is empty ended.
func (r *run) end() error {
	if r.history != nil {
		if err := r.history.Rest(); err != nil {
			return err
		}
	}
	if r.res.Saved == 0 && r.seedFailure == nil {
		return ErrSeedFailed
	}
	if r.res.Saved == 0 {
		return fmt.Errorf("%w: %w", ErrSeedFailed, r.seedFailure)
	}
	return nil
}

// reason sums up why a page failed, for the statistics.
func reason(err error) string {
	if errors.Is(err, errTooManyRedirects) {
		return "too many redirects"
	}
	return pagefetch.Reason(err)
}
