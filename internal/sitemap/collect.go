package sitemap

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// A Web fetches for [Collect], as the crawl fetches: paced, and checked
// against robots.txt.
type Web interface {
	// Sitemap returns the body of the sitemap at url, after its
	// redirects, cut past MaxBytes or not, or why there is none.
	Sitemap(ctx context.Context, url string) ([]byte, error)
	// Robots returns the URLs of the Sitemap lines of origin's
	// robots.txt.
	Robots(ctx context.Context, origin string) ([]string, error)
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
// of each of origins names, or, if it names none, origin/sitemap.xml. A
// sitemap index is read for the sitemaps it lists, one level deep. Each
// sitemap is read once. keep says whether a URL is in the crawl, and how
// the crawl names it; the others are ignored, never fetched.
//
// What Collect skips, and why, it tells warn, a line each: a sitemap that
// cannot be read, the URLs past a limit, those outside the crawl. Its
// error is the context's cause, if ctx ends first.
func Collect(ctx context.Context, web Web, specs, origins []string, keep func(string) (string, bool), warn func(string)) ([]Seed, error) {
	c := &collector{web: web, keep: keep, warn: warn, read: make(map[string]bool), seen: make(map[string]bool)}
	for _, spec := range specs {
		if spec != "auto" {
			c.sitemap(ctx, spec, false)
			continue
		}
		for _, origin := range origins {
			listed, err := web.Robots(ctx, origin)
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
			for _, u := range listed {
				c.sitemap(ctx, u, false)
			}
		}
	}
	if cause := context.Cause(ctx); cause != nil {
		return nil, cause
	}
	return c.seeds, nil
}

type collector struct {
	web  Web
	keep func(string) (string, bool)
	warn func(string)
	read map[string]bool // the sitemaps read
	seen map[string]bool // the seeds found
	full bool            // MaxSeeds found

	seeds []Seed
}

// sitemap reads the sitemap at u, and, unless it is listed in an index
// (nested), the sitemaps it lists if it is an index.
func (c *collector) sitemap(ctx context.Context, u string, nested bool) {
	if c.read[u] || ctx.Err() != nil || c.full {
		return
	}
	c.read[u] = true
	body, err := c.web.Sitemap(ctx, u)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		c.warn(fmt.Sprintf("-sitemap: %s: %v: the pages it lists are not crawled", u, err))
		return
	}
	sm, err := Read(bytes.NewReader(body))
	if err != nil {
		c.warn(fmt.Sprintf("-sitemap: %s: %v: the pages it lists are not crawled; give the URL of a sitemap", u, err))
		return
	}
	for _, s := range sm.Skipped {
		c.warn(fmt.Sprintf("-sitemap: %s: skipped %s", u, s))
	}
	if sm.Kind == Index {
		if nested {
			c.warn(fmt.Sprintf("-sitemap: %s: skipped: a sitemap index listed in an index, which sitemaps.org does not allow; give it with -sitemap %s", u, u))
			return
		}
		for _, e := range sm.Entries {
			if c.read[e.URL] {
				c.warn(fmt.Sprintf("-sitemap: %s, line %d: skipped %s, read already", u, e.Line, e.URL))
				continue
			}
			c.sitemap(ctx, e.URL, true)
		}
		return
	}
	outside, first := 0, ""
	for _, e := range sm.Entries {
		key, ok := c.keep(e.URL)
		switch {
		case !ok:
			if outside == 0 {
				first = e.URL
			}
			outside++
		case c.seen[key]:
		case len(c.seeds) == MaxSeeds:
			c.full = true
			c.warn(fmt.Sprintf("-sitemap: %s: skipped the URLs from line %d on, past the %d the crawler takes from its sitemaps", u, e.Line, MaxSeeds))
			return
		default:
			c.seen[key] = true
			c.seeds = append(c.seeds, Seed{URL: key, Sitemap: u, Line: e.Line, Column: e.Column})
		}
	}
	if outside > 0 {
		c.warn(fmt.Sprintf("-sitemap: %s: ignored %d URLs outside the crawl, such as %s; -scope takes more in", u, outside, quote(first)))
	}
}

// quote shows a URL from a sitemap as it is, unless it holds what a
// terminal could take for a command.
func quote(u string) string {
	if strings.ContainsFunc(u, func(r rune) bool { return r < ' ' || r == 0x7f }) || len(u) > 200 {
		return fmt.Sprintf("%.200q", u)
	}
	return u
}
