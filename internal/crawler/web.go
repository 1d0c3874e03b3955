package crawler

import (
	"context"

	"tse-crawler/internal/pagefetch"
)

// The Web is where a crawl's pages and their requisites come from: a
// [*pagefetch.Fetcher], which waits for each host's pause and turn,
// reads its robots.txt, retries, and refuses what it must. The crawl
// calls it from its Scheduler's workers only, several at once, so that
// the workers bound the hosts asked at once.
type Web interface {
	// FetchPage downloads a page. Its error decides what happens to the
	// page: see [Crawler.Crawl]. Whatever the error, the Page holds what
	// the fetch recorded.
	FetchPage(ctx context.Context, url string) (*pagefetch.Page, error)
	// FetchRequisite fetches a resource a page needs to render, as a
	// browser loads it: any status and any type is an answer.
	FetchRequisite(ctx context.Context, url string) (*pagefetch.Page, error)
	// Refused returns what FetchPage would return for a page it can
	// refuse without a request or a wait, as robots.txt read already
	// disallows it, or nil. The crawl asks it on its own goroutine.
	Refused(url string) *pagefetch.Page
	// Reach asks whether a site ("http://host[:port]") answers at all, and
	// returns what it sent and received.
	Reach(ctx context.Context, origin string) (pagefetch.Recording, error)
}
