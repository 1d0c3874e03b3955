package crawler

import (
	"io"

	"tse-crawler/internal/pagefetch"
)

// A Kind is what came of a page taken from the bag, or says that a record
// is a requisite's.
type Kind uint8

const (
	Saved      Kind = iota + 1 // fetched and saved as DocID
	Failed                     // could not be fetched
	Disallowed                 // robots.txt did not allow it
	Redirected                 // redirected to Target
	// Requisite is a resource some page needs to render, fetched for the
	// WARC file, whatever the answer; it is no page taken from the bag.
	// Target is its redirect's target, if it redirected, and Needs what
	// a stylesheet needs in turn.
	Requisite
)

// A Record is what the crawl decided about one page it took from its bag,
// or one requisite it fetched: what its [Sink] stores, and what a resumed
// crawl is given back of the runs before it (Crawler.History).
type Record struct {
	Kind  Kind
	URL   string
	Depth int // of a page: its depth
	DocID int // for Saved
	// HTML, for Saved, is the page to save, or nil for a page that is on
	// disk already: saved by an earlier run that was killed before it
	// could record it.
	HTML []byte
	// Charset, for Saved, is the charset its Content-Type named, if the
	// page's scan needs it (see pagescan.CharsetScanner): a resumed
	// crawl, which has the page but not its response, scans it with it.
	Charset string
	Target  string // for Redirected, and a Requisite that redirected
	// Status, for Failed and Redirected, is what the link graph says of
	// the page: its HTTP status, or a word for why it failed.
	Status string
	// Needs, for a Requisite, are the URLs of what it needs in turn: a
	// stylesheet's imports and url()s, each once, in the order found.
	Needs []string
	// Nest, for a Requisite, is how deep it is nested below the page
	// that needs it: 1 for what a page names, 2 for what that names, and
	// so on. Past a depth, a requisite is not read for its Needs.
	Nest int
	// Recording is what fetching it sent and received, for the WARC file,
	// or nil. Its responses are the Sink's to close.
	Recording *pagefetch.Recording
}

// A Sink stores what a crawl decides: the pages, and whichever of the
// crawl's records its outputs keep (a journal, a WARC file). The crawl
// hands it one record at a time, in the order it decides them, from a
// goroutine of its own, behind the crawl: a Sink need not be safe for
// concurrent use. An error stops the crawl; no record is handed over
// after it.
type Sink interface {
	Record(Record) error
}

// recorded returns what a fetch recorded, or nil if it recorded nothing.
func recorded(rec pagefetch.Recording) *pagefetch.Recording {
	if rec.Exchanges == nil && rec.RobotsOrigin == "" {
		return nil
	}
	return &rec
}

// discard frees the responses of a recording that will not be stored,
// which may be spooled to files.
func discard(rec *pagefetch.Recording) {
	if rec == nil {
		return
	}
	for _, x := range rec.Exchanges {
		if c, ok := x.Response.(io.Closer); ok {
			c.Close()
		}
	}
}
