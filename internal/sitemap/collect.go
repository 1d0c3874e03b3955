package sitemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// A Web fetches for [Collect], as the crawl fetches: paced, and checked
// against robots.txt.
type Web interface {
	// Sitemap returns the body of the sitemap at url, after its
	// redirects, cut past MaxBytes or not, or why there is none.
	Sitemap(ctx context.Context, url string) ([]byte, error)
	// Robots returns the URLs of the Sitemap lines of origin's
	// robots.txt, and how many more lines it dropped, past a limit.
	Robots(ctx context.Context, origin string) ([]string, int, error)
}

// A Seed is a URL a sitemap lists, as the crawl names it, and where: the
// sitemap's URL, and the entry's line and column.
type Seed struct {
	URL, Sitemap string
	Line, Column int
}

// From returns where s is listed, as a link check names a referrer:
// "SITEMAP:LINE:COLUMN".
func (s Seed) From() string { return fmt.Sprintf("%s:%d:%d", s.Sitemap, s.Line, s.Column) }

// MaxSeeds is the most URLs Collect returns, from every sitemap: each is
// a page to crawl, and kept in memory, and in the crawl's journal.
const MaxSeeds = 1_000_000

// Collect reads the sitemaps that specs name, each "auto" or a URL, and
// returns the URLs they list that keep takes, as keep names them, in the
// order listed, each once. "auto" reads the sitemaps that the robots.txt
// of each of origins names, relative to it or not, or, if it names none,
// origin/sitemap.xml. A sitemap index is read for the sitemaps it lists,
// one level deep. Each sitemap is read once, and no more than
// MaxSitemaps in all. keep says whether a URL is in the crawl, and how
// the crawl names it; the others are ignored, never fetched.
//
// What Collect skips, and why, it tells warn, a line each: a sitemap that
// cannot be read, the URLs past a limit, those outside the crawl, the
// entries not full URLs; of the sitemaps an index lists, those that
// cannot be read, what was skipped of them, and their entries ignored,
// in one line for each reason. Its error is the context's cause, if ctx
// ends first.
func Collect(ctx context.Context, web Web, specs, origins []string, keep func(string) (string, bool), warn func(string)) ([]Seed, error) {
	c := &collector{web: web, keep: keep, warn: warn, read: make(map[string]bool), seen: make(map[string]bool)}
	for _, spec := range specs {
		if spec != "auto" {
			c.sitemap(ctx, spec, false)
			continue
		}
		for _, origin := range origins {
			listed, dropped, err := web.Robots(ctx, origin)
			if err := ctx.Err(); err != nil {
				return nil, context.Cause(ctx)
			}
			if err != nil {
				warn(fmt.Sprintf("-sitemap auto: %s/robots.txt: %v: its sitemaps are not read; give each with -sitemap URL", origin, err))
				continue
			}
			if len(listed) == 0 {
				listed = []string{origin + "/sitemap.xml"}
			}
			robots := origin + "/robots.txt"
			if dropped > 0 {
				warn(fmt.Sprintf("-sitemap auto: %s: skipped %s after the first %d, the most the crawler reads from a robots.txt; give the ones that matter with -sitemap URL", robots, count(dropped, "Sitemap line"), len(listed)))
			}
			for _, u := range listed {
				// sitemaps.org asks for a full URL; a relative one
				// is read as a browser would resolve it, as peers do.
				abs, err := resolve(robots, u)
				if err != nil {
					warn(fmt.Sprintf("-sitemap auto: %s names a sitemap %s that is not a URL: it is not read; give its URL with -sitemap URL", robots, strconv.Quote(u)))
					continue
				}
				c.sitemap(ctx, abs, false)
			}
		}
	}
	if cause := context.Cause(ctx); cause != nil {
		return nil, cause
	}
	return c.seeds, nil
}

// full reports whether u is a full URL, with a scheme and a host, as
// sitemaps.org asks of a sitemap's. Google ignores the others, and a
// relative one could be resolved against a sitemap that moved.
func full(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Scheme != "" && p.Host != ""
}

// notFull says why an entry not a full URL is ignored.
const notFull = "sitemaps.org asks for full URLs, which the site's sitemap should give"

var errNotFull = errors.New("not a full URL, which sitemaps.org asks for and the site's sitemap should give")

// resolve returns ref, resolved against base.
func resolve(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := b.Parse(ref)
	if err != nil {
		return "", err
	}
	return r.String(), nil
}

// MaxSitemaps is the most sitemaps Collect reads: indexes that list
// 50,000 sitemaps each would otherwise take as many requests.
const MaxSitemaps = 1_000

type collector struct {
	web     Web
	keep    func(string) (string, bool)
	warn    func(string)
	read    map[string]bool // the sitemaps read
	seen    map[string]bool // the seeds found
	full    bool            // MaxSeeds found
	fetched int             // the sitemaps fetched, up to MaxSitemaps
	capped  bool            // MaxSitemaps fetched, and said so
	// The entries ignored in the sitemaps of the index being read, told
	// of in a line each for them all, as an index may list thousands.
	notURL, outside ignored
	skipped         skipped

	seeds []Seed
}

// sitemap reads the sitemap at u, and, unless it is listed in an index
// (nested), the sitemaps it lists if it is an index. If u cannot be
// read, it warns, unless nested, when it returns why, for the index to
// tell of them all in one line.
func (c *collector) sitemap(ctx context.Context, u string, nested bool) error {
	if c.read[u] || ctx.Err() != nil || c.full {
		return nil
	}
	if c.fetched == MaxSitemaps {
		if !c.capped {
			c.capped = true
			c.warn(fmt.Sprintf("-sitemap: %s: skipped, and any sitemap after it: the crawler reads at most %d sitemaps; give the ones that matter with -sitemap URL", u, MaxSitemaps))
		}
		return nil
	}
	c.fetched++
	c.read[u] = true
	fail := func(err error) error {
		if nested {
			return err
		}
		c.warn(fmt.Sprintf("-sitemap: %s: %v", u, err))
		return nil
	}
	body, err := c.web.Sitemap(ctx, u)
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fail(fmt.Errorf("%w: the pages it lists are not crawled", err))
	}
	sm, err := Read(bytes.NewReader(body))
	if err != nil {
		return fail(fmt.Errorf("%w: the pages it lists are not crawled; give the URL of a sitemap", err))
	}
	switch {
	case nested && len(sm.Skipped) > 0:
		if c.skipped.n == 0 {
			c.skipped.first, c.skipped.what = u, sm.Skipped
		}
		c.skipped.n++
	default:
		c.tellSkipped(u, sm.Skipped)
	}
	if len(sm.Entries) == 0 && len(sm.Skipped) == 0 {
		// A 200 of nothing, often a page missing, would otherwise
		// add nothing in silence.
		return fail(errors.New("it is empty, or lists nothing: give the URL of a sitemap that lists pages"))
	}
	if sm.Kind == Index {
		if nested {
			return fmt.Errorf("skipped: a sitemap index listed in an index, which sitemaps.org does not allow; give it with -sitemap %s", u)
		}
		c.index(ctx, u, sm.Entries)
		return nil
	}
	var notURL, outside ignored
	for _, e := range sm.Entries {
		if !full(e.URL) {
			// Not for -scope to take in: the crawl could not name it.
			notURL.add(ignored{n: 1, first: e, in: u})
			continue
		}
		key, ok := c.keep(e.URL)
		switch {
		case !ok:
			outside.add(ignored{n: 1, first: e, in: u})
		case c.seen[key]:
		case len(c.seeds) == MaxSeeds:
			c.full = true
			c.warn(fmt.Sprintf("-sitemap: %s: skipped the URLs from line %d on, past the %d the crawler takes from its sitemaps", u, e.Line, MaxSeeds))
			return nil
		default:
			c.seen[key] = true
			c.seeds = append(c.seeds, Seed{URL: key, Sitemap: u, Line: e.Line, Column: e.Column})
		}
	}
	notURL.sitemaps, outside.sitemaps = min(notURL.n, 1), min(outside.n, 1)
	if nested {
		c.notURL.add(notURL)
		c.outside.add(outside)
	} else {
		c.tell(u, notURL, outside)
	}
	return nil
}

// index reads the sitemaps that the index at u lists, and tells of those
// read already in a line, and of those that could not be read in a line
// for each reason, as an index may list thousands.
func (c *collector) index(ctx context.Context, u string, entries []Entry) {
	c.notURL, c.outside, c.skipped = ignored{}, ignored{}, skipped{}
	defer func() {
		if c.skipped.n == 1 {
			c.tellSkipped(c.skipped.first, c.skipped.what)
		} else if c.skipped.n > 1 {
			c.warn(fmt.Sprintf("-sitemap: %s: skipped parts of %d of the sitemaps it lists, such as, in %s, %s", u, c.skipped.n, c.skipped.first, strings.Join(c.skipped.what, "; ")))
		}
		c.tell(u, c.notURL, c.outside)
	}()
	again := 0
	var firstAgain Entry
	// The sitemaps that could not be read, by why, in the order met.
	type failure struct {
		why   string
		n     int
		first string
	}
	var failed []failure
	for _, e := range entries {
		if c.read[e.URL] {
			if again == 0 {
				firstAgain = e
			}
			again++
			continue
		}
		err := errNotFull
		if full(e.URL) {
			err = c.sitemap(ctx, e.URL, true)
		}
		if err != nil {
			i := slices.IndexFunc(failed, func(f failure) bool { return f.why == err.Error() })
			if i < 0 {
				i = len(failed)
				failed = append(failed, failure{why: err.Error(), first: e.URL})
			}
			failed[i].n++
		}
	}
	if again > 0 {
		more := ""
		if again > 1 {
			more = fmt.Sprintf(", and %d more it lists", again-1)
		}
		c.warn(fmt.Sprintf("-sitemap: %s, line %d: skipped %s, read already%s", u, firstAgain.Line, quote(firstAgain.URL), more))
	}
	// A line for each reason, up to a few, then one for the rest.
	const reasons = 5
	if len(failed) > reasons {
		rest := failure{why: failed[reasons].why, first: failed[reasons].first}
		for _, f := range failed[reasons:] {
			rest.n += f.n
		}
		failed = append(failed[:reasons], rest)
	}
	for i, f := range failed {
		switch {
		case i == reasons:
			c.warn(fmt.Sprintf("-sitemap: %s: %d more sitemaps it lists could not be read, for other reasons, such as %s: %s", u, f.n, quote(f.first), f.why))
		case f.n == 1:
			c.warn(fmt.Sprintf("-sitemap: %s: a sitemap it lists could not be read: %s: %s", u, quote(f.first), f.why))
		default:
			c.warn(fmt.Sprintf("-sitemap: %s: %d sitemaps it lists could not be read, such as %s: %s", u, f.n, quote(f.first), f.why))
		}
	}
}

// An ignored tallies the entries ignored for one reason: how many, in
// how many sitemaps, and the first, in its sitemap.
type ignored struct {
	n, sitemaps int
	first       Entry
	in          string
}

func (g *ignored) add(o ignored) {
	if o.n == 0 {
		return
	}
	if g.n == 0 {
		g.first, g.in = o.first, o.in
	}
	g.n += o.n
	g.sitemaps += o.sitemaps
}

// A skipped tallies the sitemaps of an index whose parts were skipped,
// with what was skipped of the first.
type skipped struct {
	n     int
	first string
	what  []string
}

// tellSkipped tells warn what was skipped of the sitemap at u, a line
// each.
func (c *collector) tellSkipped(u string, what []string) {
	for _, s := range what {
		c.warn(fmt.Sprintf("-sitemap: %s: skipped %s", u, s))
	}
}

// tell tells warn of the entries ignored in the sitemap at u, or in the
// sitemaps it lists if it is an index: those not full URLs, and those
// outside the crawl.
func (c *collector) tell(u string, notURL, outside ignored) {
	// In one sitemap, named; in several, the index, and the first's.
	where, in := notURL.in, ""
	if notURL.sitemaps > 1 {
		where, in = u, fmt.Sprintf(", in %d of the sitemaps it lists", notURL.sitemaps)
	}
	switch {
	case notURL.n == 1:
		c.warn(fmt.Sprintf("-sitemap: %s: ignored 1 entry that is not a full URL, such as %s, at line %d: %s", where, quote(notURL.first.URL), notURL.first.Line, notFull))
	case notURL.n > 1 && in == "":
		c.warn(fmt.Sprintf("-sitemap: %s: ignored %d entries that are not full URLs, such as %s, at line %d: %s", where, notURL.n, quote(notURL.first.URL), notURL.first.Line, notFull))
	case notURL.n > 1:
		c.warn(fmt.Sprintf("-sitemap: %s: ignored %d entries that are not full URLs%s, such as %s, in %s at line %d: %s", where, notURL.n, in, quote(notURL.first.URL), notURL.in, notURL.first.Line, notFull))
	}
	where, in = outside.in, ""
	if outside.sitemaps > 1 {
		where, in = u, fmt.Sprintf(", in %d of the sitemaps it lists", outside.sitemaps)
	}
	switch {
	case outside.n > 0 && in == "":
		c.warn(fmt.Sprintf("-sitemap: %s: ignored %s outside the crawl, such as %s; -scope takes more in", where, count(outside.n, "URL"), quote(outside.first.URL)))
	case outside.n > 0:
		c.warn(fmt.Sprintf("-sitemap: %s: ignored %d URLs outside the crawl%s, such as %s in %s; -scope takes more in", where, outside.n, in, quote(outside.first.URL), outside.in))
	}
}

// count says n things, one or many.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// quote shows a URL from a sitemap as it is, unless it holds what a
// terminal could take for a command.
func quote(u string) string {
	if strings.ContainsFunc(u, func(r rune) bool { return r < ' ' || r == 0x7f }) || len(u) > 200 {
		return fmt.Sprintf("%.200q", u)
	}
	return u
}
