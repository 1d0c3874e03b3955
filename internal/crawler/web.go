package crawler

import (
	"context"
	"time"

	"tse-crawler/internal/pagefetch"
)

// The Web is where a crawl's pages and their requisites come from: a
// [*pagefetch.Fetcher], which keeps each host's pause and robots.txt,
// retries, and refuses what it must. Its methods may be called from
// several goroutines at once, and it keeps a host to one request at a
// time.
type Web interface {
	// FetchPage downloads a page, waiting as long as politeness requires.
	// Its errors decide what happens to the page: see [Crawler.Crawl].
	// Whatever the error, the Page holds what the fetch recorded.
	FetchPage(ctx context.Context, url string) (pagefetch.Page, error)
	// FetchRequisite fetches a resource a page needs to render, as a
	// browser loads it: any status and any type is an answer.
	FetchRequisite(ctx context.Context, url string) (pagefetch.Requisite, error)
	// Reach asks whether a site ("http://host[:port]") answers at all, and
	// returns what it sent and received.
	Reach(ctx context.Context, origin string) (pagefetch.Recording, error)
	// Next tells when a host may be asked without waiting for its pause,
	// so that the crawl's schedule goes to the hosts ready first.
	Next(host string) time.Time
	// MarkDown gives up a host that the crawl has found dead: every fetch
	// from it fails at once from now on, with [pagefetch.ErrHostDown], and
	// Down says so.
	MarkDown(host string, err error)
	Down(host string) error
}
