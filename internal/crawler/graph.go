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
func (r *run) graphSaved(page bag.Item, out outcome) {
	g := r.c.Graph
	if g == nil {
		return
	}
	g.Saved(page.URL, r.res.Saved)
	if r.scans(page) {
		return
	}
	told := func(l link) {
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
	if out.links != nil {
		for _, l := range out.links.all {
			told(l)
		}
		return
	}
	found := func(found string) { told(r.read.link(found)) }
	if !r.graphScan(page.URL, out, found) {
		r.read.scan(page.URL, out.html, out.charset, found)
	}
}

// A graphScanner reads a page's links and, in the same pass, its
// requisites for the link graph (pagescan.HTML.ScanGraph).
type graphScanner interface {
	ScanGraph(pageURL string, page []byte, charset string, found, requisite func(url string))
}

// graphScan reads the links of a page saved with found and, in the same
// pass, its requisites, for graphRequisites, if the graph keeps rows and
// the crawl's scanner can; it reports whether it did.
func (r *run) graphScan(pageURL string, out outcome, found func(string)) bool {
	gs, ok := r.c.Scanner.(graphScanner)
	if !ok || r.c.Graph == nil || !r.c.Graph.KeepsRows() {
		return false
	}
	r.graphReqs = r.graphReqs[:0]
	gs.ScanGraph(pageURL, out.html, out.charset, found, func(u string) { r.graphReqs = append(r.graphReqs, u) })
	r.graphRead = true
	return true
}

// graphRequisites adds, after a page's links, a row for each requisite it
// has, for a graph that writes its rows of a crawl that reads pages as a
// browser does: a page needs them to render, and
// the crawl never takes them as pages, so their status says so.
func (r *run) graphRequisites(page bag.Item, out outcome) {
	g := r.c.Graph
	if g == nil || !g.KeepsRows() {
		return
	}
	if _, ok := r.c.Scanner.(pagescan.RequisiteScanner); !ok {
		// The reference's model of a page has links alone, and reading
		// the tree beside it for requisites tripled the graph's cost.
		return
	}
	if r.graphRead {
		// Read with the page's links.
		for _, u := range r.graphReqs {
			g.Link(page.URL, u, linkgraph.Requisite)
		}
		r.graphRead = false
		return
	}
	var h pagescan.HTML
	h.Refs(page.URL, out.html, out.charset, func(ref pagescan.Ref) {
		// A frame's document is a link there already.
		if ref.Requisite && !ref.Frame {
			g.Link(page.URL, ref.URL, linkgraph.Requisite)
		}
	}, nil)
}

// graphDecided tells the graph what came of a page that was not saved.
func (r *run) graphDecided(page bag.Item, out outcome) {
	g := r.c.Graph
	if g == nil {
		return
	}
	switch out.kind {
	case Disallowed:
		g.Decide(page.URL, linkgraph.Robots)
	case Redirected:
		g.Decide(page.URL, cmp.Or(out.statusOf(), linkgraph.Redirect))
	case Failed:
		g.Failed(page.URL, cmp.Or(out.statusOf(), linkgraph.Failed))
	}
}

// statusOf returns what the link graph says of a page that failed or
// redirected: the HTTP status of its answer, or a word for why it failed,
// such as "timeout" or "too-many-redirects"; "" for a replayed outcome
// whose journal predates statuses.
func (out *outcome) statusOf() string {
	if out.status != "" || out.err == nil || out.kind != Failed {
		return out.status
	}
	if se, ok := errors.AsType[*pagefetch.StatusError](out.err); ok {
		return strconv.Itoa(se.Code)
	}
	return strings.ReplaceAll(strings.ToLower(reason(out.err)), " ", "-")
}
