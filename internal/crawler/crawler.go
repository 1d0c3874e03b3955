// Package crawler runs the crawl loop: it takes a page from the bag,
// fetches it, saves it, and, unless the page is at the maximum depth,
// scans it for links and puts every new internal link in the bag.
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
	"io/fs"
	"net/url"
	"strings"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/journal"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/seen"
	"tse-crawler/internal/urlnorm"
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

// A Crawler holds the collaborators of one crawl. Fetch, Save, Scanner,
// Internal, Bag and Errors must be set.
type Crawler struct {
	// Fetch downloads a page, waiting as long as politeness requires. Its
	// errors decide what happens to the page: see [Crawler.Crawl].
	Fetch func(ctx context.Context, url string) ([]byte, error)
	// Save stores page id, a page fetched from url at the given depth.
	Save    func(id int, url string, depth int, html []byte) error
	Scanner pagescan.Scanner
	// Normalize turns a link, as the scanner reports it, or a redirect's
	// target into the crawl's key for the page, or reports false for a
	// link that names no page to crawl (logged IgnExtrn). The key is what
	// the seen-set holds, Internal judges, Fetch requests and Save
	// records. Nil means [urlnorm.Normalize], the reference crawler's
	// rules; html mode sets weburl.Normalize, the WHATWG URL Standard's.
	Normalize func(link string) (string, bool)
	// Internal reports whether a normalized URL belongs to the crawl.
	Internal func(url string) bool
	Bag      bag.Bag
	MaxDepth int
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

	// Journal, if set, is told what came of each page taken from the bag,
	// after it is saved, so that the crawl can be resumed.
	Journal func(journal.Entry) error
	// Replay, when resuming, holds the outcomes of the crawl so far. They
	// are applied in order, silently and without fetching, which rebuilds
	// the bag and the seen-set exactly; then the crawl goes on.
	Replay []journal.Entry
	// Load, when resuming, reads back a saved page: to replay it, and to
	// adopt a page that a killed crawl saved but did not journal. It must
	// wrap fs.ErrNotExist for a page that does not exist.
	Load func(id int) (url string, depth int, html []byte, err error)
	// Progress, if set, is told where the crawl stands before each fetch.
	Progress func(Progress)
	// Recycle, if set, is given back each page's HTML once it is saved and
	// scanned, for Fetch to reuse (see pagefetch.Fetcher.Recycle).
	Recycle func([]byte)
	// Reach, if set, asks whether a site ("http://host[:port]") answers at
	// all. When a host cannot be connected to, the crawler asks another
	// host that has answered: if it answers, the first host alone is dead,
	// and its pages fail; if not, or if Reach is nil, the crawl has lost
	// its network and stops with [ErrOutage].
	Reach func(ctx context.Context, origin string) error
}

// Progress is where a crawl stands.
type Progress struct {
	Saved   int    // pages saved
	Waiting int    // pages waiting in the bag
	Depth   int    // the depth of the page about to be fetched
	URL     string // the page about to be fetched
}

// Result sums up a crawl, or the part of it done before an error. Saved
// counts every page in the directory; the other counts are this run's, not
// those replayed from a journal.
//
// Every page whose outcome this run decided is Fetched, Failed, a redirect
// or Disallowed, so Fetched+Failed+Redirects counts the pages it tried to
// fetch.
type Result struct {
	Saved int // pages saved, and so the last docID
	// Fetched counts the pages this run logged "Fetched", with or without a
	// log (-q): those it fetched whole, to be saved, and those a killed run
	// had saved without journaling, which it adopts. It leaves out the
	// failures and redirects, which are tries, not pages fetched.
	Fetched    int
	Failed     int            // pages that could not be fetched
	FailedBy   map[string]int // failures by reason (see pagefetch.Reason)
	Redirects  int            // pages that redirected
	Disallowed int            // pages robots.txt did not allow
	Found      int            // links found on pages, and redirect targets
	Added      int            // of them, new internal URLs put in the bag
	External   int            // of them, not internal or not normalizable
	Duplicate  int            // of them, already seen
	Bytes      int64          // the HTML saved, in bytes
	Deepest    int            // the greatest depth of a page saved
	Replayed   int            // pages whose outcome came from the journal
	Last       string         // the URL of the last page saved
	Current    string         // the page being fetched when the crawl stopped early
	Pending    int            // pages left in the bag when the crawl stopped early
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
	kind   journal.Kind
	html   []byte // Saved
	onDisk bool   // Saved already, by an earlier run
	target string // Redirected
	err    error  // Failed, if known
	quiet  bool   // Failed, and its reason has been told already
}

// crawl runs the crawl with a scribe that saves and journals behind it, and
// waits for the scribe before it returns. A failure to write is the crawl's
// error, whatever else happened.
func (c *Crawler) crawl(ctx context.Context, seed string, log *logWriter) (Result, error) {
	sc := startScribe(c)
	res, onDisk, err := c.loop(ctx, seed, log, sc)
	saved, serr := sc.finish()
	if serr != nil {
		// Pages after the one that failed were never written.
		res.Saved = max(saved, onDisk)
		return res, serr
	}
	return res, err
}

// loop is the crawl itself. It also returns how many pages were on disk
// before it began writing: the pages of a replayed journal.
func (c *Crawler) loop(ctx context.Context, seed string, log *logWriter, sc *scribe) (Result, int, error) {
	var res Result
	onDisk := 0
	var urls seen.Set
	urls.Add(seed)
	c.Bag.Push(bag.Item{URL: seed, Depth: 0})
	// Why the last page that failed did; if no page is ever saved, it says
	// why the seed (or the page it redirects to) gave nothing.
	var seedFailure string
	replay := c.Replay
	adopt := c.Load != nil // a killed crawl may have saved a page it never journaled
	// hops counts the redirects that led to each page in the bag, for
	// those reached by a redirect.
	hops := make(map[string]int)
	var hosts hostWatch

	// count counts an event of this run: a replay repeats what an earlier
	// run counted.
	count := func(n *int) {
		if !log.muted {
			*n++
		}
	}
	normalize := c.Normalize
	if normalize == nil {
		normalize = urlnorm.Normalize
	}
	// consider logs a link found on a page at depth, or a redirect's target,
	// and puts it in the bag at pushDepth if it is internal and new. It
	// returns the URL it put in the bag, or "".
	consider := func(depth, pushDepth int, link string) (added string) {
		log.line(depth, "Found", link)
		count(&res.Found)
		norm, ok := normalize(link)
		switch {
		case !ok:
			log.line(depth, "IgnExtrn", link)
			count(&res.External)
		case !c.Internal(norm):
			log.line(depth, "IgnExtrn", norm)
			count(&res.External)
		case !urls.Add(norm):
			log.line(depth, "IgnDupl", norm)
			count(&res.Duplicate)
		default:
			c.Bag.Push(bag.Item{URL: norm, Depth: pushDepth})
			log.line(depth, "Added", norm)
			count(&res.Added)
			return norm
		}
		return ""
	}

	for {
		page, ok := c.Bag.Pop()
		if !ok {
			break
		}
		var out outcome
		var err error
		hop := hops[page.URL]
		delete(hops, page.URL)
		log.muted = len(replay) > 0
		if cause := context.Cause(ctx); cause != nil {
			// Checked here too, for a long replay, which fetches nothing.
			res.Current, res.Pending = page.URL, c.Bag.Len()+1
			return res, onDisk, cause
		}
		switch {
		case len(replay) > 0:
			out, err = c.replayed(replay[0], page, res.Saved+1)
			replay = replay[1:]
			res.Replayed++
			if out.kind == journal.Saved || out.kind == journal.Redirected {
				hosts.answered(page.URL)
			}
		default:
			if adopt {
				out, adopt, err = c.adopted(page, res.Saved+1)
				if err != nil || adopt {
					break // the page is on disk already, or the crawl stops
				}
			}
			// A page that failed to be written stops the crawl before
			// another request, not only at the next page handed over.
			if err := sc.failure(); err != nil {
				return res, onDisk, err
			}
			if c.Progress != nil {
				c.Progress(Progress{Saved: res.Saved, Waiting: c.Bag.Len(), Depth: page.Depth, URL: page.URL})
			}
			out, err = c.fetch(ctx, page, log, &hosts)
			if err == nil && out.kind == journal.Redirected && hop >= maxRedirects {
				out = outcome{kind: journal.Failed, err: fmt.Errorf("%w: %d in a row, the last to %s", errTooManyRedirects, hop+1, out.target)}
			}
		}
		if err != nil {
			res.Current, res.Pending = page.URL, c.Bag.Len()+1
			return res, onDisk, err
		}

		switch out.kind {
		case journal.Saved:
			log.line(page.Depth, "Fetched", page.URL)
			count(&res.Fetched)
			if log.muted {
				onDisk++
			}
			res.Saved++
			res.Last = page.URL
			res.Deepest = max(res.Deepest, page.Depth)
			if !log.muted {
				res.Bytes += int64(len(out.html))
			}
		case journal.Redirected:
			count(&res.Redirects)
			log.line(page.Depth, "Redirect", page.URL)
			if next := consider(page.Depth, page.Depth, out.target); next != "" {
				hops[next] = hop + 1
			} else {
				seedFailure = fmt.Sprintf("%s redirects to %s, which is outside the crawl or already seen", page.URL, out.target)
			}
		case journal.Disallowed:
			count(&res.Disallowed)
			log.line(page.Depth, "IgnRobots", page.URL)
			seedFailure = page.URL + ": robots.txt does not allow it"
		case journal.Failed:
			count(&res.Failed)
			log.line(page.Depth, "FAILED", page.URL)
			seedFailure = page.URL + ": could not be fetched"
			if out.err != nil {
				if res.FailedBy == nil {
					res.FailedBy = make(map[string]int)
				}
				res.FailedBy[reason(out.err)]++
				seedFailure = fmt.Sprintf("%s: %v", page.URL, out.err)
				// The seed's reason is Crawl's error.
				if res.Saved > 0 && !out.quiet && !c.QuietFailures {
					if err := log.flush(); err != nil {
						return res, onDisk, fmt.Errorf("writing the log: %w", err)
					}
					fmt.Fprintf(c.Errors, "crawler: %s\n", seedFailure)
				}
			}
		}
		if out.kind == journal.Saved && page.Depth < c.MaxDepth {
			log.line(page.Depth, "Scanning", page.URL)
			c.Scanner.Scan(page.URL, out.html, func(link string) {
				consider(page.Depth, page.Depth+1, link)
			})
		}
		if !log.muted { // a replayed outcome is on disk and in the journal already
			job := scribeJob{entry: journal.Entry{Kind: out.kind, URL: page.URL, Target: out.target}, depth: page.Depth}
			if out.kind == journal.Saved {
				job.entry.DocID = res.Saved
				if !out.onDisk {
					job.html = out.html // the scribe saves it, then recycles it
				}
			}
			if err := sc.put(job); err != nil {
				return res, onDisk, err
			}
		}
	}
	if len(replay) > 0 {
		return res, onDisk, fmt.Errorf("%w: the journal goes on after the crawl ends, at %s", ErrDiverged, replay[0].URL)
	}
	if res.Saved == 0 {
		return res, onDisk, fmt.Errorf("%w: %s", ErrSeedFailed, seedFailure)
	}
	return res, onDisk, nil
}

// fetch fetches a page and says what came of it. Its error is one that
// stops the crawl.
func (c *Crawler) fetch(ctx context.Context, page bag.Item, log *logWriter, hosts *hostWatch) (outcome, error) {
	// Show the log so far before a fetch that may wait.
	if err := log.flush(); err != nil {
		return outcome{}, fmt.Errorf("writing the log: %w", err)
	}
	if dead := hosts.dead[hostOf(page.URL)]; dead != nil {
		return outcome{kind: journal.Failed, err: dead, quiet: true}, nil
	}
	html, err := c.Fetch(ctx, page.URL)
	if err == nil {
		hosts.answered(page.URL)
		return outcome{kind: journal.Saved, html: html}, nil
	}
	if cause := context.Cause(ctx); cause != nil {
		return outcome{}, cause
	}
	if errors.Is(err, pagefetch.ErrNotLoopback) {
		return outcome{}, err
	}
	var unreachable *pagefetch.UnreachableError
	if errors.As(err, &unreachable) {
		return c.unreachable(ctx, unreachable, log, hosts)
	}
	hosts.answered(page.URL)
	var redirect *pagefetch.RedirectError
	switch {
	case errors.As(err, &redirect):
		return outcome{kind: journal.Redirected, target: redirect.Location}, nil
	case errors.Is(err, pagefetch.ErrDisallowed):
		return outcome{kind: journal.Disallowed}, nil
	}
	return outcome{kind: journal.Failed, err: err}, nil
}

// replayed turns a journal entry into the outcome of page, checking that
// the entry is about that page and, for a saved page, that the page file
// is the one expected under docID next.
func (c *Crawler) replayed(e journal.Entry, page bag.Item, next int) (outcome, error) {
	if e.URL != page.URL {
		return outcome{}, fmt.Errorf("%w: the journal has %s where this crawl has %s", ErrDiverged, e.URL, page.URL)
	}
	out := outcome{kind: e.Kind, target: e.Target}
	if e.Kind != journal.Saved {
		return out, nil
	}
	if e.DocID != next {
		return outcome{}, fmt.Errorf("%w: the journal saved %s as page %d, where this crawl is at page %d", ErrDiverged, e.URL, e.DocID, next)
	}
	url, depth, html, err := c.Load(next)
	if err != nil {
		return outcome{}, fmt.Errorf("%w: reading page %d: %v", ErrDiverged, next, err)
	}
	if url != page.URL || depth != page.Depth {
		return outcome{}, fmt.Errorf("%w: page %d is depth %d %s, where this crawl has depth %d %s", ErrDiverged, next, depth, url, page.Depth, page.URL)
	}
	out.html, out.onDisk = html, true
	return out, nil
}

// adopted looks for page next, saved by a crawl that was killed before it
// could journal it. It reports false once there is no such page.
func (c *Crawler) adopted(page bag.Item, next int) (outcome, bool, error) {
	url, depth, html, err := c.Load(next)
	if errors.Is(err, fs.ErrNotExist) {
		return outcome{}, false, nil
	}
	if err != nil {
		return outcome{}, false, err
	}
	if url != page.URL || depth != page.Depth {
		return outcome{}, false, fmt.Errorf("%w: page %d is depth %d %s, where this crawl has depth %d %s", ErrDiverged, next, depth, url, page.Depth, page.URL)
	}
	return outcome{kind: journal.Saved, html: html, onDisk: true}, true, nil
}

// unreachable decides what it means that a host could not be connected to,
// even after the fetcher's retries. If another host that has answered
// still answers, the first is dead: it is told once, and its pages fail
// from now on without a request. Otherwise the crawl has lost its network
// (or its proxy), which is no verdict on any page: it stops with
// [ErrOutage], to be resumed once the network is back.
func (c *Crawler) unreachable(ctx context.Context, ue *pagefetch.UnreachableError, log *logWriter, hosts *hostWatch) (outcome, error) {
	witness := hosts.witness(ue.Host)
	if witness == "" || c.Reach == nil {
		return outcome{}, fmt.Errorf("%w: %w", ErrOutage, ue)
	}
	if err := c.Reach(ctx, witness); err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return outcome{}, cause
		}
		return outcome{}, fmt.Errorf("%w: %w; %s does not answer either", ErrOutage, ue, witness)
	}
	if hosts.dead == nil {
		hosts.dead = make(map[string]error)
	}
	hosts.dead[ue.Host] = ue
	if err := log.flush(); err != nil {
		return outcome{}, fmt.Errorf("writing the log: %w", err)
	}
	fmt.Fprintf(c.Errors, "crawler: %v; %s answers, so that host alone is down: its pages fail from now on, with no more requests\n", ue, witness)
	return outcome{kind: journal.Failed, err: ue, quiet: true}, nil
}

// reason sums up why a page failed, for the statistics.
func reason(err error) string {
	if errors.Is(err, errTooManyRedirects) {
		return "too many redirects"
	}
	return pagefetch.Reason(err)
}

// A hostWatch remembers the last two hosts that answered, so that there is
// a witness to ask when another cannot be reached, and the hosts found
// dead.
type hostWatch struct {
	recent [2]string        // origins of distinct hosts, the latest first
	dead   map[string]error // by host[:port]
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
	u := siteOf(rawURL)
	if u == nil {
		return ""
	}
	return u.Host
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
