package job

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/sitemap"
)

// moreSeeds returns the seeds the crawl takes after its seed, and where
// each was found ("" for nowhere): for a crawl that resumes one that
// journaled them, the journal's, so that it goes on as it began whatever
// changed meanwhile, and no sitemap is read again; else the settings',
// then those of the -sitemap sitemaps, read through f, which it journals
// before the crawl takes its first page. A crawl without any journals
// nothing, so that its journal is what it always was.
func (j *Job) moreSeeds(ctx context.Context, f *pagefetch.Fetcher) (seeds, from []string, err error) {
	r := j.replay
	if r != nil && r.HasSeeds {
		return r.Seeds, r.SeedsFrom, nil
	}
	cfg := j.cfg
	// A crawl that took pages without journaling seeds had none: the
	// options in its journal's header said so.
	if cfg.MoreSeeds == nil && len(cfg.Sitemaps) == 0 || r != nil && (len(r.Entries) > 0 || len(r.Requisites) > 0) {
		return nil, nil, nil
	}
	seeds = append(seeds, cfg.MoreSeeds...)
	if len(cfg.Sitemaps) > 0 {
		listed, err := j.readSitemaps(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		from = make([]string, len(seeds), len(seeds)+len(listed))
		for _, s := range listed {
			seeds, from = append(seeds, s.URL), append(from, s.From())
		}
	}
	if seeds == nil {
		seeds = []string{}
	}
	if err := j.dir.RecordSeeds(seeds, from); err != nil {
		return nil, nil, err
	}
	return seeds, from, nil
}

// readSitemaps reads the sitemaps of -sitemap, through f, from the
// Scheduler's workers, as the crawl fetches: paced, within robots.txt,
// under the loopback rule. "auto" reads those of each host of the scope.
func (j *Job) readSitemaps(ctx context.Context, f *pagefetch.Fetcher) ([]sitemap.Seed, error) {
	cfg := j.cfg
	f.Scheduler.Start(ctx)
	defer f.Scheduler.Stop()
	prefixes := []string{scope.CS50Prefix}
	if len(cfg.Scopes) > 0 {
		prefixes, _ = cfg.prefixes() // Parse checked them
	}
	var origins []string
	for _, p := range prefixes {
		if u, err := url.Parse(p); err == nil && u.Host != "" {
			if o := u.Scheme + "://" + u.Host; !slices.Contains(origins, o) {
				origins = append(origins, o)
			}
		}
	}
	normalize, in, excluded := cfg.normalizer(), cfg.scope.Contains, cfg.excluder()
	keep := func(raw string) (string, bool) {
		u, ok := normalize(raw)
		return u, ok && in(u) && (excluded == nil || !excluded(u))
	}
	return sitemap.Collect(ctx, sitemapWeb{f}, cfg.Sitemaps, origins, keep, j.con.Warn)
}

// sitemapWeb is a Fetcher as package sitemap asks: each request from one
// of the Scheduler's workers.
type sitemapWeb struct{ f *pagefetch.Fetcher }

// maxSitemapRedirects is how many redirects a sitemap's fetch follows, as
// many as a robots.txt's.
const maxSitemapRedirects = 5

func (w sitemapWeb) Sitemap(ctx context.Context, u string) ([]byte, error) {
	for hops := 0; ; hops++ {
		var p *pagefetch.Page
		var err error
		if derr := w.do(ctx, u, func(ctx context.Context) { p, err = w.f.FetchSitemap(ctx, u) }); derr != nil {
			return nil, derr
		}
		switch {
		case err != nil:
			return nil, shortError(err)
		case p.Code == 200:
			return p.Body, nil
		case p.Target != "" && hops < maxSitemapRedirects:
			u = p.Target
			continue
		case p.Target != "":
			return nil, fmt.Errorf("redirected more than %d times, the last time to %s", maxSitemapRedirects, p.Target)
		}
		return nil, fmt.Errorf("HTTP %s", p.Status)
	}
}

func (w sitemapWeb) Robots(ctx context.Context, origin string) ([]string, int, error) {
	var list []string
	var dropped int
	var err error
	if derr := w.do(ctx, origin, func(ctx context.Context) { list, dropped, err = w.f.RobotsSitemaps(ctx, origin) }); derr != nil {
		return nil, 0, derr
	}
	return list, dropped, shortError(err)
}

// do runs fn on a worker of the Scheduler, at the host of u.
func (w sitemapWeb) do(ctx context.Context, u string, fn func(context.Context)) error {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return fmt.Errorf("%q is not a URL: give an http or https URL", u)
	}
	return w.f.Scheduler.Do(ctx, parsed.Host, fn)
}

// shortError drops from err the URL that the message names already.
func shortError(err error) error {
	if errors.Is(err, pagefetch.ErrDisallowed) {
		return pagefetch.ErrDisallowed
	}
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

// splitFrom splits where a seed was found, "SITEMAP:LINE:COLUMN", into
// the sitemap, its line and column, or returns false.
func splitFrom(from string) (string, int, int, bool) {
	i := strings.LastIndexByte(from, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(from[:i], ':')
	if j < 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(from[j+1 : i])
	col, err2 := strconv.Atoi(from[i+1:])
	return from[:j], line, col, err1 == nil && err2 == nil
}
