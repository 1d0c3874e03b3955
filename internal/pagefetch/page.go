package pagefetch

import (
	"io"
	"net/http"

	"tse-crawler/internal/pagescan"
)

// A Kind is what came of a page a crawl took from its bag, or says that a
// Page is a requisite's.
type Kind uint8

const (
	Saved      Kind = iota + 1 // fetched, and a page: saved as DocID
	Failed                     // could not be fetched, or is no page
	Disallowed                 // robots.txt did not allow it
	Redirected                 // redirected to Target
	// Requisite is a resource some page needs to render, fetched for the
	// WARC file, whatever the answer; it is no page taken from the bag.
	// Target is its redirect's target, if it redirected, and Needs what
	// it needs in turn, if it is a stylesheet or a document.
	Requisite
)

// A Page is one URL a crawl took, from its fetch to its outputs: what
// the fetcher got, what the crawl made of it, and what reading it found.
// The fetcher fills in the answer; the crawl, the rest; each output (the
// page directory, the journal, the WARC file, the link graph, the
// statistics, a link check) reads what it keeps.
type Page struct {
	// URL is the crawl's key for it, the URL asked for.
	URL   string
	Depth int // of a page taken from the bag
	Kind  Kind
	DocID int // of a page saved

	// Code is the status of the final answer, 0 if none came; Status, as
	// the server sent it ("404 Not Found") for the answer, and, once the
	// crawl has decided, what the link graph says of a page that failed
	// or redirected: its code, or a word for why it failed.
	Code   int
	Status string
	// Header holds the final answer's header fields: Content-Type, ETag
	// and Last-Modified among them.
	Header http.Header
	// Body is the body of the final answer, as it came but for its
	// transfer and content codings: a page's HTML, or a requisite's body
	// whatever its status. It is nil for a page saved by an earlier run.
	Body []byte
	// Charset is what reading it keeps of the charset its Content-Type
	// names: a resumed crawl, which has the page but not its answer,
	// reads it alike.
	Charset string
	// Target is a redirect's target, resolved.
	Target string
	// Err is why it failed, if that is known: a replayed failure has no
	// reason.
	Err error
	// Recording is what fetching it sent and received, for the WARC file,
	// or nil. Its responses are the last output's to close.
	Recording *Recording

	// Needs, of a requisite, are the URLs of what it needs in turn, each
	// once, in the order found; Nest is how deep below the page that
	// needs it it was found: 1 for what a page names, 2 for what that
	// names, and so on.
	Needs []string
	Nest  int

	// Read is what reading the page found: its links, its requisites,
	// and for a link check where each is and the ids it holds; nil until
	// it is read.
	Read *pagescan.Reading
}

// ContentType returns the Content-Type of the final answer, or "".
func (p *Page) ContentType() string {
	if p.Header == nil {
		return ""
	}
	return p.Header.Get("Content-Type")
}

// HeaderCharset returns the charset the Content-Type of the final answer
// names, unquoted, or "": it may decide how the page is decoded (package
// pagescan).
func (p *Page) HeaderCharset() string { return charsetOf(p.ContentType()) }

// Close frees the responses of p's recording, which may be spooled to
// files, once they are written or will not be.
func (p *Page) Close() {
	if p == nil || p.Recording == nil {
		return
	}
	for _, x := range p.Recording.Exchanges {
		if c, ok := x.Response.(io.Closer); ok {
			c.Close()
		}
	}
}
