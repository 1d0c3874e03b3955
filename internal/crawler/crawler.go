// Package crawler runs the crawl loop: it takes a page from its frontier,
// which fetches it, saves it, and, unless the page is at the maximum
// depth, scans it for links and puts every new internal link in the
// frontier. Behind the frontier, a crawl of several hosts fetches pages
// ahead of their turn (frontier.go, ahead.go), which changes when a page
// is requested, never what the crawl does with it. A crawl that keeps a
// WARC file also fetches, behind it, what each page it saves needs to
// render (requisites.go), which changes nothing of the pages either.
//
// Its progress log is the reference crawler's, line for line, so that a
// grader can compare the two.
package crawler

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

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

// A Crawler holds the collaborators of one crawl. Web, Sink, Scanner,
// Scope, Bag and Errors must be set.
type Crawler struct {
	// Web is where pages and requisites come from. When a host cannot be
	// connected to, the crawler asks another host that has answered
	// (Web.Reach): if it answers, the first host alone is dead, and the
	// Web gives it up; if not, the crawl has lost its network and stops
	// with [ErrOutage].
	Web Web
	// Sink stores what came of each page taken from the bag, in the
	// order the crawl takes them: a page saved, with its docID, unless it
	// is on disk already, and every outcome, for the outputs that keep
	// them; and each requisite fetched.
	Sink     Sink
	Scanner  pagescan.Scanner
	Scope    Scope
	Bag      bag.Bag
	MaxDepth int
	// MaxPages, if above 0, ends the crawl once it has saved that many
	// pages, the pages an earlier run saved included: the first MaxPages
	// pages of the crawl without it, whatever Parallel is.
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

	// Parallel is how many pages may be fetched at once, each from
	// another host. Up to 1, and while the crawl has met one host only,
	// pages are fetched one at a time as they are taken from the bag.
	// Beyond that, pages are fetched ahead of the crawl, from every host at once,
	// but everything else happens in the order of a crawl of one page at a
	// time, so that every output is the same. Only a [bag.Stack],
	// [bag.Queue] or [bag.Priority] can be fetched ahead.
	Parallel int
	// AheadMemory is how much memory the pages fetched ahead may take
	// while they wait for the crawl, their HTML and a few hundred bytes
	// each, and the links read ahead on them. Past it, only the page the
	// crawl waits for is fetched, and no more links are read ahead, so it
	// is exceeded by at most one page for each of the Parallel fetches
	// under way when it is reached.
	AheadMemory int64

	// Requisites, if set, makes the crawl fetch the requisites of the
	// pages it saves, the resources a page needs to render, for the WARC
	// file (see requisites.go): once each, what it finds on every page the
	// crawl saves (the pages an earlier run saved included), and in every
	// stylesheet among them, to any depth; the scribe records each,
	// whatever the answer (a [Requisite] record). They are no pages:
	// nothing of them goes in the bag, the seen-set, the log, the page
	// directory or the pages' figures. With Parallel above 1, it must be
	// safe for concurrent use.
	Requisites RequisiteReader
	// MaxRequisites, if above 0, caps the requisites fetched for one
	// page: of the distinct URLs it names, in scope, in document order,
	// those past the first MaxRequisites are skipped; and so for what each
	// stylesheet names, apart from its page's. 0 is no cap.
	MaxRequisites int

	// Graph, if set, is told every link of every page saved and every
	// redirect followed, and what came of each URL they name (see
	// graph.go). A page at maxDepth, which the crawl does not scan, is
	// scanned for it alone. It is the crawl's seen-set too.
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
	Pending int    // pages left in the bag when the crawl stopped early or at MaxPages, Current's included
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

// An outcome is what came of one page.
type outcome struct {
	kind    Kind
	html    []byte               // Saved
	charset string               // Saved: what its scan keeps of its Content-Type (pagescan.CharsetScanner)
	links   *pageLinks           // Saved: the page's links, if they were read with its requisites or ahead
	target  string               // Redirected
	status  string               // Redirected, and Failed once err is gone: what the link graph says of it (see statusOf)
	err     error                // Failed, if known: a replayed failure has no reason
	quiet   bool                 // Failed, and its reason has been told already
	rec     *pagefetch.Recording // what fetching it sent and received, or nil
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

	res   Result
	urls  urlSet
	hops  map[string]int // for each page in the bag that a redirect put there, the redirects that led to it
	hosts hostWatch

	history History // nil once it has nothing more to say
	onDisk  int     // the pages that earlier runs saved and told
	// seedFailure says why the last page that failed did; if no page is
	// ever saved, it says why the seed (or the page it redirects to) gave
	// nothing.
	seedFailure error
	// graphReqs are the requisites of the page being applied, read with
	// its links, if graphRead: for the link graph's rows.
	graphReqs []string
	graphRead bool
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
		read:    &reader{scanner: c.Scanner, scope: c.Scope},
		hops:    make(map[string]int),
		urls:    make(seen),
		history: c.History,
	}
	if c.Graph != nil {
		r.urls = graphSet{c.Graph}
	}
	// One schedule for every request made beside the crawl's own: the
	// pages fetched ahead, and the requisites.
	var sched *pagefetch.Schedule
	if c.Parallel > 1 || c.fetchesRequisites() {
		sched = pagefetch.NewSchedule(ctx, c.Web.Next, max(c.Parallel, 1))
	}
	r.front = newFrontier(c, sched, r.read, r.urls, r.hops)
	if r.reqs = newRequisites(c, sched, r.scribe, stop); r.reqs != nil {
		r.front.fetchPage = r.reqs.fetching(c.fetch, r.read)
	}
	err := r.loop(ctx, seed)
	r.front.stop()
	err = r.reqs.finish(ctx, err)
	if sched != nil {
		sched.Stop()
	}
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

// loop takes pages from the bag, from the seed on, until the bag is empty,
// MaxPages pages are saved, or a page cannot be crawled past.
func (r *run) loop(ctx context.Context, seed string) error {
	r.urls.add(seed)
	r.front.push(bag.Item{URL: seed, Depth: 0})
	for {
		if r.c.MaxPages > 0 && r.res.Saved >= r.c.MaxPages && r.front.len() > 0 {
			r.res.MaxPagesReached, r.res.Pending = true, r.front.len()
			return r.end()
		}
		page, ok := r.front.pop(r.res.Saved)
		if !ok {
			return r.end()
		}
		if err := r.take(ctx, page); err != nil {
			r.res.Current, r.res.Pending = page.URL, r.front.len()+1
			return err
		}
		if err := r.reqs.settle(ctx); err != nil {
			r.res.Pending = r.front.len()
			return err
		}
	}
}

// take crawls one page taken from the bag: it gets what came of the page,
// tells it unless an earlier run did, applies it to the crawl (a saved
// page's links and a redirect's target go in the bag), and has the scribe
// record it unless it is recorded already.
func (r *run) take(ctx context.Context, page bag.Item) error {
	hop := r.hops[page.URL]
	delete(r.hops, page.URL)
	// Checked here too, for a long replay, which fetches nothing.
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	src, out, err := r.outcome(ctx, page, hop)
	if err != nil {
		return err
	}
	if src != fromEarlier {
		if err := r.tell(page, out); err != nil {
			return err
		}
	}
	if out.kind == Saved && src != fromWeb {
		// Its requisites, and its links in the same pass if they are read;
		// of a page fetched, they were queued when it was.
		out.links = r.reqs.read(r.read, page.URL, out.html, out.charset, r.c.reads(page))
	}
	r.apply(src, page, hop, out)
	if src == fromEarlier {
		return nil
	}
	return r.record(src, page, out)
}

// outcome gets what came of page, and where from: from the crawl's
// history while it has something to say, then from the web. Its error is
// one that stops the crawl.
func (r *run) outcome(ctx context.Context, page bag.Item, hop int) (source, outcome, error) {
	if r.history != nil {
		rec, told, ok, err := r.history.Recall(page, r.res.Saved)
		if err != nil {
			return 0, outcome{}, err
		}
		if ok {
			out := outcome{kind: rec.Kind, html: rec.HTML, target: rec.Target, charset: rec.Charset, status: rec.Status}
			if !told {
				return fromDisk, out, nil
			}
			r.res.Recalled++
			if rec.Kind == Saved || rec.Kind == Redirected {
				r.answered(page.URL) // as it did when the outcome was decided
			}
			return fromEarlier, out, nil
		}
		r.history = nil
	}
	out, err := r.fetched(ctx, page, hop)
	return fromWeb, out, err
}

// tell logs an outcome that this run decided, and counts it; for a page
// that failed, it also tells why on Errors, unless that is to wait for the
// end (QuietFailures) or has been told.
func (r *run) tell(page bag.Item, out outcome) error {
	switch out.kind {
	case Saved:
		r.log.line(page.Depth, "Fetched", page.URL)
		r.res.Fetched++
		r.res.Tried++
		r.res.Bytes += int64(len(out.html))
		if r.scans(page) {
			r.log.line(page.Depth, "Scanning", page.URL)
		}
	case Redirected:
		r.log.line(page.Depth, "Redirect", page.URL)
		r.res.Redirects++
		r.res.Tried++
	case Disallowed:
		r.log.line(page.Depth, "IgnRobots", page.URL)
		r.res.Disallowed++
	case Failed:
		r.log.line(page.Depth, "FAILED", page.URL)
		r.res.Failed++
		r.res.Tried++
		if out.err == nil {
			break
		}
		if r.res.FailedBy == nil {
			r.res.FailedBy = make(map[string]int)
		}
		r.res.FailedBy[reason(out.err)]++
		// The seed's reason is Crawl's error.
		if r.res.Saved > 0 && !out.quiet && !r.c.QuietFailures {
			if err := r.log.flush(); err != nil {
				return fmt.Errorf("writing the log: %w", err)
			}
			fmt.Fprintf(r.c.Errors, "crawler: %s: %v\n", page.URL, out.err)
		}
	}
	return nil
}

// apply makes an outcome's changes to the crawl: a saved page takes the
// next docID and, unless it is at maxDepth, puts its links in the bag at
// the next depth; a redirect puts its target in the bag at the page's own.
// A replayed outcome changes the bag and the seen-set as it did the first
// time, so that a resumed crawl rebuilds them exactly, but is not told
// again.
func (r *run) apply(src source, page bag.Item, hop int, out outcome) {
	switch out.kind {
	case Saved:
		r.res.Saved++
		r.res.Last = page.URL
		r.res.Deepest = max(r.res.Deepest, page.Depth)
		if src == fromEarlier {
			r.onDisk++
		}
		r.graphSaved(page, out)
		if r.scans(page) {
			r.considerLinks(src, page, out)
		}
		r.graphRequisites(page, out)
	case Redirected:
		r.graphDecided(page, out)
		if next := r.consider(src, page.URL, page.Depth, page.Depth, r.read.link(out.target)); next != "" {
			r.hops[next] = hop + 1
		} else {
			r.seedFailure = fmt.Errorf("%s redirects to %s, which is outside the crawl, excluded or already seen", page.URL, out.target)
		}
	case Disallowed:
		r.graphDecided(page, out)
		r.seedFailure = errors.New(page.URL + ": robots.txt does not allow it")
	case Failed:
		r.graphDecided(page, out)
		r.seedFailure = errors.New(page.URL + ": could not be fetched")
		if out.err != nil {
			r.seedFailure = fmt.Errorf("%s: %w", page.URL, out.err)
		}
	}
}

// scans reports whether a saved page is scanned for links: whether it is
// shallower than maxDepth.
func (r *run) scans(page bag.Item) bool { return page.Depth < r.c.MaxDepth }

// reads reports whether the links of a saved page are read: for the crawl,
// or for the link graph, which reads those of the pages at maxDepth too.
func (c *Crawler) reads(page bag.Item) bool { return page.Depth < c.MaxDepth || c.Graph != nil }

// considerLinks considers each link of a saved page, in document order:
// the links read with its requisites or ahead, if they were, else those
// it scans now.
func (r *run) considerLinks(src source, page bag.Item, out outcome) {
	if out.links != nil {
		for _, l := range out.links.all {
			r.consider(src, page.URL, page.Depth, page.Depth+1, l)
		}
		return
	}
	found := func(found string) {
		r.consider(src, page.URL, page.Depth, page.Depth+1, r.read.link(found))
	}
	if !r.graphScan(page.URL, out, found) {
		r.read.scan(page.URL, out.html, out.charset, found)
	}
}

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

// record has the scribe hand an outcome to the sink behind the crawl.
func (r *run) record(src source, page bag.Item, out outcome) error {
	rec := Record{Kind: out.kind, URL: page.URL, Depth: page.Depth, Target: out.target, Status: out.statusOf(), Recording: out.rec}
	if out.kind == Saved {
		rec.DocID = r.res.Saved
		// What a replay needs to scan it alike, for its links, its
		// requisites, or the link graph, which scans every page.
		rec.Charset = out.charset
		if src == fromWeb {
			rec.HTML = out.html // the sink saves it
		}
	}
	return r.scribe.put(rec)
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

// fetched gets the outcome of page from the web. A page reached by
// maxRedirects redirects in a row that redirects once more fails.
func (r *run) fetched(ctx context.Context, page bag.Item, hop int) (outcome, error) {
	// A page that failed to be written stops the crawl before another
	// request, not only at the next page handed over.
	if err := r.scribe.failure(); err != nil {
		return outcome{}, err
	}
	if r.c.Progress != nil {
		s := progress.Status{Saved: r.res.Saved, Waiting: r.front.len(), Depth: page.Depth, URL: page.URL}
		s.Lanes, s.Busy = r.front.lanes()
		r.c.Progress.Set(s)
	}
	out, err := r.fetch(ctx, page)
	if err == nil && out.kind == Redirected && hop >= maxRedirects {
		out = outcome{kind: Failed, err: fmt.Errorf("%w: %d in a row, the last to %s", errTooManyRedirects, hop+1, out.target)}
	}
	return out, err
}

// fetch fetches a page and says what came of it. Its error is one that
// stops the crawl.
func (r *run) fetch(ctx context.Context, page bag.Item) (outcome, error) {
	// Show the log so far before a fetch that may wait.
	if err := r.log.flush(); err != nil {
		return outcome{}, fmt.Errorf("writing the log: %w", err)
	}
	fp := r.front.fetch(ctx, page)
	if fp.down {
		return outcome{kind: Failed, err: fp.err, quiet: true}, nil
	}
	if fp.err == nil {
		r.answered(page.URL)
		return outcome{kind: Saved, html: fp.html, charset: fp.charset, links: fp.links, rec: fp.rec}, nil
	}
	err, rec := fp.err, fp.rec
	if cause := context.Cause(ctx); cause != nil {
		return outcome{}, cause
	}
	if errors.Is(err, pagefetch.ErrNotLoopback) {
		return outcome{}, err
	}
	if errors.Is(err, pagefetch.ErrHostDown) {
		// Given up while the page was on its way: told once already.
		return outcome{kind: Failed, err: err, quiet: true, rec: rec}, nil
	}
	var unreachable *pagefetch.UnreachableError
	if errors.As(err, &unreachable) {
		out, err := r.unreachable(ctx, unreachable)
		if rec != nil && out.rec != nil {
			rec.Exchanges = append(rec.Exchanges, out.rec.Exchanges...)
		} else if rec == nil {
			rec = out.rec
		}
		out.rec = rec
		return out, err
	}
	r.answered(page.URL)
	var redirect *pagefetch.RedirectError
	switch {
	case errors.As(err, &redirect):
		return outcome{kind: Redirected, target: redirect.Location, status: strconv.Itoa(redirect.Code), rec: rec}, nil
	case errors.Is(err, pagefetch.ErrDisallowed):
		return outcome{kind: Disallowed, rec: rec}, nil
	}
	return outcome{kind: Failed, err: err, rec: rec}, nil
}

// unreachable decides what it means that a host could not be connected to,
// even after the fetcher's retries. If another host that has answered
// still answers, the first is dead: it is told once, and its pages fail
// from now on without a request. Otherwise the crawl has lost its network
// (or its proxy), which is no verdict on any page: it stops with
// [ErrOutage], to be resumed once the network is back.
func (r *run) unreachable(ctx context.Context, ue *pagefetch.UnreachableError) (outcome, error) {
	witness := r.hosts.witness(ue.Host)
	if witness == "" {
		return outcome{}, fmt.Errorf("%w: %w", ErrOutage, ue)
	}
	reached, err := r.c.Web.Reach(ctx, witness)
	if err != nil {
		discard(&reached)
		if cause := context.Cause(ctx); cause != nil {
			return outcome{}, cause
		}
		return outcome{}, fmt.Errorf("%w: %w; %s does not answer either", ErrOutage, ue, witness)
	}
	r.front.down(ue.Host, ue)
	if err := r.log.flush(); err != nil {
		return outcome{}, fmt.Errorf("writing the log: %w", err)
	}
	fmt.Fprintf(r.c.Errors, "crawler: %v; %s answers, so that host alone is down: its pages fail from now on, with no more requests\n", ue, witness)
	return outcome{kind: Failed, err: ue, quiet: true, rec: recorded(pagefetch.Recording{Exchanges: reached.Exchanges})}, nil
}

// answered notes that the host of pageURL gave an HTTP response, for a
// witness when another host cannot be connected to.
func (r *run) answered(pageURL string) {
	r.hosts.answered(pageURL)
	r.reqs.answered(pageURL)
}

// reason sums up why a page failed, for the statistics.
func reason(err error) string {
	if errors.Is(err, errTooManyRedirects) {
		return "too many redirects"
	}
	return pagefetch.Reason(err)
}

// A hostWatch remembers the last two hosts that answered, so that there is
// a witness to ask when another cannot be reached.
type hostWatch struct {
	recent [2]string // origins of distinct hosts, the latest first
}

// answered notes that the host of pageURL gave an HTTP response.
func (w *hostWatch) answered(pageURL string) {
	if origin := originOf(pageURL); origin != w.recent[0] {
		w.recent[0], w.recent[1] = origin, w.recent[0]
	}
}

// witness returns the origin of a host other than host that has answered,
// or "".
func (w *hostWatch) witness(host string) string {
	for _, origin := range w.recent {
		if origin != "" && hostOf(origin) != host {
			return origin
		}
	}
	return ""
}

// originOf returns the scheme and host of an absolute URL,
// "http://host[:port]", without any user-info.
func originOf(rawURL string) string {
	u := siteOf(rawURL)
	if u == nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// hostOf returns the host of an absolute URL as its requests name it,
// host[:port].
func hostOf(rawURL string) string {
	// The lanes ask this several times for each page; an authority of
	// plain letters, digits, dots, hyphens and a port, as nearly every
	// one is, is its own host, with no parsing and no allocation.
	if _, rest, ok := strings.Cut(rawURL, "://"); ok {
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		if authority := rest[:end]; authority != "" && plainHost(authority) {
			return authority
		}
	}
	u := siteOf(rawURL)
	if u == nil {
		return ""
	}
	return u.Host
}

// plainHost reports whether an authority is a host of lower-case
// letters, digits, dots and hyphens, with perhaps a port: one that
// net/url takes as it is.
func plainHost(authority string) bool {
	host, port, hasPort := strings.Cut(authority, ":")
	if host == "" || hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return false
	}
	for i := range len(host) {
		if c := host[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// siteOf parses the scheme and authority of an absolute URL, and nothing
// after them: a key that net/url cannot parse whole, such as html mode's
// "http://host/%zz.html" (a browser sends that '%' as it is), still has a
// host. The authority ends where net/url ends it, at the first '/', '?'
// or '#', so the host is the one the request names.
func siteOf(rawURL string) *url.URL {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return nil
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	u, err := url.Parse(scheme + "://" + rest)
	if err != nil {
		return nil
	}
	return u
}
