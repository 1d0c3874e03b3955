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

	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/seen"
	"tse-crawler/internal/urlnorm"
)

// ErrSeedFailed is returned, wrapped with the reason, when the crawl saves
// no page at all: the seed could not be fetched, robots.txt disallows it,
// or it redirects out of the crawl.
var ErrSeedFailed = errors.New("cannot fetch the seed page")

// A Crawler holds the collaborators of one crawl. Every field but Log must
// be set.
type Crawler struct {
	// Fetch downloads a page, waiting as long as politeness requires. Its
	// errors decide what happens to the page: see [Crawler.Crawl].
	Fetch func(ctx context.Context, url string) ([]byte, error)
	// Save stores page id, a page fetched from url at the given depth.
	Save    func(id int, url string, depth int, html []byte) error
	Scanner pagescan.Scanner
	// Internal reports whether a normalized URL belongs to the crawl.
	Internal func(url string) bool
	Bag      bag.Bag
	MaxDepth int
	// Log receives the progress log, or nothing if it is nil.
	Log io.Writer
	// Errors receives the reason for each page that could not be fetched.
	Errors io.Writer
}

// Result sums up a crawl.
type Result struct {
	Saved      int // pages saved, and so the last docID
	Failed     int // pages that could not be fetched
	Redirects  int // pages that redirected
	Disallowed int // pages robots.txt did not allow
}

// Crawl crawls from seed, which must be normalized and internal.
//
// What a failed fetch means depends on its error: a
// [*pagefetch.RedirectError] puts the target in the bag at the same depth,
// as if it were a link ("Redirect"); [pagefetch.ErrDisallowed] skips the
// page ("IgnRobots"); any other error fails the page ("FAILED", and the
// reason on Errors) and the crawl goes on.
//
// Crawl stops at the first error it cannot crawl past: a page cannot be
// saved, the fetcher refuses to connect ([pagefetch.ErrNotLoopback]), or
// ctx ends (the context's cause). A crawl that saves nothing at all fails
// with [ErrSeedFailed]. Every page saved before an error is whole.
func (c *Crawler) Crawl(ctx context.Context, seed string) (Result, error) {
	lw := c.Log
	if lw == nil {
		lw = io.Discard
	}
	w := &logWriter{w: bufio.NewWriterSize(lw, 16<<10)}
	res, err := c.crawl(ctx, seed, w)
	if ferr := w.flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing the log: %w", ferr)
	}
	return res, err
}

func (c *Crawler) crawl(ctx context.Context, seed string, log *logWriter) (Result, error) {
	var res Result
	var urls seen.Set
	urls.Add(seed)
	c.Bag.Push(bag.Item{URL: seed, Depth: 0})
	// Why the last page that failed did; if no page is ever saved, it says
	// why the seed (or the page it redirects to) gave nothing.
	var seedFailure string

	// consider logs a link found on a page at depth, or a redirect's target,
	// and puts it in the bag at pushDepth if it is internal and new.
	consider := func(depth, pushDepth int, link string) (added bool) {
		log.line(depth, "Found", link)
		norm, ok := urlnorm.Normalize(link)
		switch {
		case !ok:
			log.line(depth, "IgnExtrn", link)
		case !c.Internal(norm):
			log.line(depth, "IgnExtrn", norm)
		case !urls.Add(norm):
			log.line(depth, "IgnDupl", norm)
		default:
			c.Bag.Push(bag.Item{URL: norm, Depth: pushDepth})
			log.line(depth, "Added", norm)
			return true
		}
		return false
	}

	for {
		page, ok := c.Bag.Pop()
		if !ok {
			break
		}
		// Show the log so far before a fetch that may wait.
		if err := log.flush(); err != nil {
			return res, fmt.Errorf("writing the log: %w", err)
		}
		html, err := c.Fetch(ctx, page.URL)
		if err != nil {
			if cause := context.Cause(ctx); cause != nil {
				return res, cause
			}
			if errors.Is(err, pagefetch.ErrNotLoopback) {
				return res, err
			}
			var redirect *pagefetch.RedirectError
			switch {
			case errors.As(err, &redirect):
				res.Redirects++
				log.line(page.Depth, "Redirect", page.URL)
				if !consider(page.Depth, page.Depth, redirect.Location) {
					seedFailure = fmt.Sprintf("%s redirects to %s, which is outside the crawl or already seen", page.URL, redirect.Location)
				}
			case errors.Is(err, pagefetch.ErrDisallowed):
				res.Disallowed++
				log.line(page.Depth, "IgnRobots", page.URL)
				seedFailure = page.URL + ": robots.txt does not allow it"
			default:
				res.Failed++
				log.line(page.Depth, "FAILED", page.URL)
				seedFailure = fmt.Sprintf("%s: %v", page.URL, err)
				if res.Saved == 0 {
					break // the seed's failure: Crawl's error gives the reason
				}
				if err := log.flush(); err != nil {
					return res, fmt.Errorf("writing the log: %w", err)
				}
				fmt.Fprintf(c.Errors, "crawler: %s\n", seedFailure)
			}
			continue
		}
		log.line(page.Depth, "Fetched", page.URL)
		if err := c.Save(res.Saved+1, page.URL, page.Depth, html); err != nil {
			return res, err
		}
		res.Saved++
		if page.Depth >= c.MaxDepth {
			continue
		}
		log.line(page.Depth, "Scanning", page.URL)
		c.Scanner.Scan(page.URL, html, func(link string) {
			consider(page.Depth, page.Depth+1, link)
		})
	}
	if res.Saved == 0 {
		return res, fmt.Errorf("%w: %s", ErrSeedFailed, seedFailure)
	}
	return res, nil
}
