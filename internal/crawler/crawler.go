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

// ErrSeedFailed is returned, wrapped with the reason, when the seed page
// cannot be fetched: there is nothing to crawl.
var ErrSeedFailed = errors.New("cannot fetch the seed page")

// A Crawler holds the collaborators of one crawl. Every field but Log must
// be set.
type Crawler struct {
	// Fetch downloads a page, waiting as long as politeness requires.
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

// Result sums up a finished crawl.
type Result struct {
	Saved  int // pages saved, and so the last docID
	Failed int // pages that could not be fetched
}

// Crawl crawls from seed, which must be normalized and internal. It stops
// at the first error it cannot crawl past: the seed cannot be fetched
// ([ErrSeedFailed]), a page cannot be saved, the fetcher refuses to connect
// ([pagefetch.ErrNotLoopback]), or ctx ends (the context's cause). Every page
// saved before an error is whole.
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
	for {
		page, ok := c.Bag.Pop()
		if !ok {
			return res, nil
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
			if page.URL == seed {
				log.line(page.Depth, "FAILED", page.URL)
				return res, fmt.Errorf("%w %s: %v", ErrSeedFailed, seed, err)
			}
			res.Failed++
			log.line(page.Depth, "FAILED", page.URL)
			if err := log.flush(); err != nil {
				return res, fmt.Errorf("writing the log: %w", err)
			}
			fmt.Fprintf(c.Errors, "crawler: %s: %v\n", page.URL, err)
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
			log.line(page.Depth, "Found", link)
			norm, ok := urlnorm.Normalize(link)
			switch {
			case !ok:
				log.line(page.Depth, "IgnExtrn", link)
			case !c.Internal(norm):
				log.line(page.Depth, "IgnExtrn", norm)
			case !urls.Add(norm):
				log.line(page.Depth, "IgnDupl", norm)
			default:
				c.Bag.Push(bag.Item{URL: norm, Depth: page.Depth + 1})
				log.line(page.Depth, "Added", norm)
			}
		})
	}
}
