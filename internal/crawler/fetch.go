package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/progress"
)

// fetched gets the outcome of page from the web, and whether the reason it
// failed, if it did, has been told already. A page reached by
// maxRedirects redirects in a row that redirects once more fails. Its
// error is one that stops the crawl.
func (r *run) fetched(ctx context.Context, page bag.Item, hop int) (*pagefetch.Page, bool, error) {
	// A page that failed to be written stops the crawl before another
	// request, not only at the next page handed over.
	if err := r.scribe.failure(); err != nil {
		return nil, false, err
	}
	if r.c.Progress != nil {
		s := progress.Status{Saved: r.res.Saved, Waiting: r.front.len(), Depth: page.Depth, URL: page.URL}
		s.Lanes, s.Busy = r.front.lanes()
		r.c.Progress.Set(s)
	}
	// Show the log so far before a fetch that may wait.
	if err := r.log.flush(); err != nil {
		return nil, false, fmt.Errorf("writing the log: %w", err)
	}
	p, quiet, err := r.judge(ctx, r.front.fetch(ctx, page))
	if err == nil && p.Kind == pagefetch.Redirected && hop >= maxRedirects {
		p.Kind, p.Err = pagefetch.Failed, fmt.Errorf("%w: %d in a row, the last to %s", errTooManyRedirects, hop+1, p.Target)
	}
	return p, quiet, err
}

// judge says what came of a page fetched, p, whose Err is why the fetch
// failed, if it did: its Kind, and whether the reason it failed has been
// told already. Its error is one that stops the crawl.
func (r *run) judge(ctx context.Context, p *pagefetch.Page) (*pagefetch.Page, bool, error) {
	err := p.Err
	switch {
	case err == nil:
		r.hosts.answered(p.URL)
		p.Kind = pagefetch.Saved
		return p, false, nil
	case errors.Is(err, pagefetch.ErrHostDown):
		// Given up before the page was asked for, or while it was on
		// its way: told once already.
		p.Kind = pagefetch.Failed
		return p, true, nil
	}
	if cause := context.Cause(ctx); cause != nil {
		p.Close()
		return nil, false, cause
	}
	if errors.Is(err, pagefetch.ErrNotLoopback) {
		p.Close()
		return nil, false, err
	}
	if ue, ok := errors.AsType[*pagefetch.UnreachableError](err); ok {
		return r.unreachable(ctx, p, ue)
	}
	r.hosts.answered(p.URL)
	if re, ok := errors.AsType[*pagefetch.RedirectError](err); ok {
		p.Kind, p.Target, p.Status, p.Err = pagefetch.Redirected, re.Location, strconv.Itoa(re.Code), nil
		return p, false, nil
	}
	if errors.Is(err, pagefetch.ErrDisallowed) {
		p.Kind, p.Err = pagefetch.Disallowed, nil
		return p, false, nil
	}
	p.Kind = pagefetch.Failed
	return p, false, nil
}

// unreachable decides what it means that a page's host could not be
// connected to, even after the fetcher's retries, ue. If another host
// that has answered still answers, the first is dead: it is told once,
// and its pages fail from now on without a request. Otherwise the crawl
// has lost its network (or its proxy), which is no verdict on any page:
// it stops with [ErrOutage], to be resumed once the network is back. The
// witness is asked from one of the Scheduler's workers, as every request
// is; its exchange is recorded with the page's.
func (r *run) unreachable(ctx context.Context, p *pagefetch.Page, ue *pagefetch.UnreachableError) (*pagefetch.Page, bool, error) {
	reached, err := r.hosts.ask(ctx, r.c, ue)
	if err != nil {
		p.Close()
		return nil, false, err
	}
	r.front.down(ue.Host, ue)
	if err := r.log.flush(); err != nil {
		p.Close()
		return nil, false, fmt.Errorf("writing the log: %w", err)
	}
	fmt.Fprintf(r.c.Errors, "crawler: %v; %s answers, so that host alone is down: its pages fail from now on, with no more requests\n", ue, reached.origin)
	if len(reached.rec.Exchanges) > 0 {
		if p.Recording == nil {
			p.Recording = new(pagefetch.Recording)
		}
		p.Recording.Exchanges = append(p.Recording.Exchanges, reached.rec.Exchanges...)
	}
	p.Kind = pagefetch.Failed
	return p, true, nil
}

// witnesses remember the last two hosts that answered, pages' or
// requisites', so that there is a witness to ask when another cannot be
// reached. They are safe for concurrent use.
type witnesses struct {
	mu     sync.Mutex
	recent [2]string // origins of distinct hosts, the latest first
}

// answered notes that the host of pageURL gave an HTTP response.
func (w *witnesses) answered(pageURL string) {
	origin := originOf(pageURL)
	w.mu.Lock()
	defer w.mu.Unlock()
	if origin != w.recent[0] {
		w.recent[0], w.recent[1] = origin, w.recent[0]
	}
}

// witness returns the origin of a host other than host that has answered,
// or "".
func (w *witnesses) witness(host string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, origin := range w.recent {
		if origin != "" && hostOf(origin) != host {
			return origin
		}
	}
	return ""
}

// A reached is a witness that answered, and what asking it recorded.
type reached struct {
	origin string
	rec    pagefetch.Recording
}

// ask asks a witness, on one of c's Scheduler's workers, whether the
// network is there, since ue's host takes no connection. It returns the
// witness that answered, or an error wrapping [ErrOutage] if none did, or
// the context's cause.
func (w *witnesses) ask(ctx context.Context, c *Crawler, ue *pagefetch.UnreachableError) (reached, error) {
	origin := w.witness(ue.Host)
	if origin == "" {
		return reached{}, fmt.Errorf("%w: %w", ErrOutage, ue)
	}
	var rec pagefetch.Recording
	var err error
	if derr := c.Scheduler.Do(ctx, hostOf(origin), func(ctx context.Context) { rec, err = c.Web.Reach(ctx, origin) }); derr != nil {
		return reached{}, derr
	}
	if err != nil {
		(&pagefetch.Page{Recording: &rec}).Close()
		if cause := context.Cause(ctx); cause != nil {
			return reached{}, cause
		}
		return reached{}, fmt.Errorf("%w: %w; %s does not answer either", ErrOutage, ue, origin)
	}
	return reached{origin, rec}, nil
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
