package pagefetch

import (
	"context"
	"io"
	"net/http"
	"net/url"
)

// FetchSitemap returns what a GET of the sitemap at rawURL got: for a
// 200, its body, decoded from its content coding (a gzipped file stays
// gzipped), and cut one byte past [SitemapMax], so that the reader can
// tell a longer one; for a redirect, its Target; else the status alone.
// It is paced, retried and checked against robots.txt as
// [Fetcher.FetchPage] is, and fails as it does, but is never recorded: a
// sitemap is no page of the crawl. A robots.txt it reads is recorded, with
// [Fetcher.Record], for the pages of its origin.
func (f *Fetcher) FetchSitemap(ctx context.Context, rawURL string) (*Page, error) {
	t := f.newTape()
	defer t.drop()
	if err := f.allowed(ctx, rawURL, f.WHATWG, t); err != nil {
		return &Page{URL: rawURL}, err
	}
	resp, err := f.get(ctx, http.MethodGet, rawURL, sitemap, t)
	if err != nil {
		return &Page{URL: rawURL}, err
	}
	p := resp.page()
	p.URL = rawURL
	if isRedirect(resp.code) && resp.location() != "" {
		p.Target = resolveLocation(rawURL, resp.location(), f.WHATWG)
	}
	return p, nil
}

// RobotsSitemaps returns the URLs of the Sitemap lines of origin's
// robots.txt (scheme://host[:port]), reading it if no fetch has yet,
// whether or not the fetcher obeys it: none if it has no rules, and the
// error that makes it no verdict, such as [ErrRobotsUnavailable]; and how
// many lines past the first 100 it dropped.
func (f *Fetcher) RobotsSitemaps(ctx context.Context, origin string) ([]string, int, error) {
	u, err := url.Parse(origin)
	if err != nil {
		return nil, 0, err
	}
	t := f.newTape()
	defer t.drop()
	rules, err := f.robotsFor(ctx, u, t)
	if err != nil {
		return nil, 0, err
	}
	list, dropped := rules.Sitemaps()
	return list, dropped, nil
}

// drop lets go of what t recorded, for a fetch that is not recorded: a
// robots.txt read for it is kept for the pages that obey it.
func (t *tape) drop() {
	for _, x := range t.recording().Exchanges {
		if cl, ok := x.Response.(io.Closer); ok {
			cl.Close()
		}
	}
}
