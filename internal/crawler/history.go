package crawler

import (
	"tse-crawler/internal/bag"
	"tse-crawler/internal/pagefetch"
)

// A History is what the earlier runs of a crawl decided, which a crawl
// that goes on where they stopped is given back page by page, so that it
// rebuilds its bag and seen-set exactly before it fetches anything: the
// outcomes they recorded, then, at most, a page a run saved but was
// killed before it could record.
type History interface {
	// Recall returns what an earlier run decided about page, the page the
	// crawl has taken from its bag with saved pages saved, and whether
	// that run told it (logged, counted and recorded it), or only saved
	// it. A saved page's Body is its HTML, read back. ok is false once
	// the history has nothing more to say, which it then never has. An
	// error wrapping [ErrDiverged] says that the history is not this
	// crawl's.
	Recall(page bag.Item, saved int) (p *pagefetch.Page, told, ok bool, err error)
	// Rest returns, once the crawl's bag is empty, an error wrapping
	// [ErrDiverged] if the history has outcomes the crawl never asked
	// about, or nil.
	Rest() error
	// Requisites are the requisites the earlier runs recorded, in order:
	// none is fetched again.
	Requisites() []*pagefetch.Page
}
