package crawler

import (
	"cmp"
	"errors"
	"strconv"
	"strings"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/linkgraph"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
)

// The link graph (Crawler.Graph) is told what the crawl does as the crawl
// applies each outcome, which a resumed crawl does again for every outcome
// it replays, in the same order: so a resumed crawl's graph is the one a
// crawl never stopped would have. What it needs beyond what the crawl
// keeps, a page's status when it failed or redirected, the journal keeps.
// The graph keeps every URL put in the bag, so it is the crawl's seen-set
// too (graphSet).

// graphLink adds a row for a link from page from to target, as the log
// shows it, and what the crawl made of it, as the log says.
func (r *run) graphLink(from, target, word string) {
	g := r.c.Graph
	if g == nil {
		return
	}
	if (word == "IgnExtrn" || word == "IgnExcld") && !g.KeepsRows() {
		return // never fetched, so never broken: only the rows name it
	}
	switch word {
	case "IgnExtrn":
		g.Link(from, target, linkgraph.External)
	case "IgnExcld":
		g.Link(from, target, linkgraph.Excluded)
	default: // Added (and queued already, by the seen-set: see graphSet), IgnDupl, or at maxDepth
		g.Link(from, target, "")
	}
}

// graphSaved tells the graph of a page saved, and, for a page at maxDepth,
// which the crawl does not scan, of its links: none is put in the bag, so
// each is external or excluded, or its status is decided by the rest of
// the crawl.
func (r *run) graphSaved(page bag.Item, p *pagefetch.Page) {
	g := r.c.Graph
	if g == nil {
		return
	}
	g.Saved(page.URL, r.res.Saved)
	if r.scans(page) {
		return
	}
	for _, found := range p.Read.Links {
		l := r.read.link(found)
		target, word := l.found, "IgnExtrn"
		if l.url != "" {
			target = l.url
			switch {
			case l.excluded:
				word = "IgnExcld"
			case l.internal:
				word = ""
			}
		}
		r.graphLink(page.URL, target, word)
	}
}

// graphRequisites adds, after a page's links, a row for each requisite it
// has, but the documents of its frames, which are links there already,
// for a graph that writes its rows of a crawl that reads pages as a
// browser does: a page needs them to render, and the crawl never takes
// them as pages, so their status says so. They come from the reading that
// found the page's links.
func (r *run) graphRequisites(page bag.Item, p *pagefetch.Page) {
	g := r.c.Graph
	if g == nil || !g.KeepsRows() || !r.read.what.Requisites || p.Read == nil {
		return
	}
	if _, ok := r.c.Scanner.(pagescan.Reader); !ok {
		// The reference's model of a page has links alone.
		return
	}
	for i, u := range p.Read.Requisites {
		if !p.Read.Frames[i] {
			g.Link(page.URL, u, linkgraph.Requisite)
		}
	}
}

// graphDecided tells the graph what came of a page that was not saved.
func (r *run) graphDecided(page bag.Item, p *pagefetch.Page) {
	g := r.c.Graph
	if g == nil {
		return
	}
	switch p.Kind {
	case pagefetch.Disallowed:
		g.Decide(page.URL, linkgraph.Robots)
	case pagefetch.Redirected:
		g.Decide(page.URL, cmp.Or(statusOf(p), linkgraph.Redirect))
	case pagefetch.Failed:
		g.Failed(page.URL, cmp.Or(statusOf(p), linkgraph.Failed))
	}
}

// statusOf returns what the link graph says of a page that failed or
// redirected: the HTTP status of its answer, or a word for why it failed,
// such as "timeout" or "too-many-redirects"; "" for a replayed outcome
// whose journal predates statuses, and for a page saved.
func statusOf(p *pagefetch.Page) string {
	switch {
	case p.Kind == pagefetch.Saved || p.Kind == pagefetch.Disallowed:
		return ""
	case p.Kind == pagefetch.Redirected && p.Code != 0:
		return strconv.Itoa(p.Code)
	case p.Kind != pagefetch.Failed || p.Err == nil:
		return p.Status
	}
	if se, ok := errors.AsType[*pagefetch.StatusError](p.Err); ok {
		return strconv.Itoa(se.Code)
	}
	return strings.ReplaceAll(strings.ToLower(reason(p.Err)), " ", "-")
}
