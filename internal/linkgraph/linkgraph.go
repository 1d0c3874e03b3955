// Package linkgraph keeps a crawl's link graph: a row for every link found
// on every page saved, and for every redirect followed, in the order the
// crawl meets them; and, for every URL a row names, what came of it in the
// end. The crawl tells a [Graph] what it finds and what it decides as it
// goes; only once it ends is every URL's status known, so the graph is
// written then, as CSV ([Graph.WriteCSV]), and its broken links summed up
// ([Graph.Broken]).
//
// A graph holds no more than the crawl can rebuild: a resumed crawl
// replays its journal and its pages, tells a new graph the same things in
// the same order, and so writes the same file as a crawl never stopped.
//
// A graph that keeps no rows, for the broken links alone, keeps only what
// they need: for a page saved, nothing but its place in the seen-set, which
// a graph also is ([Graph.Queue]).
package linkgraph

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tse-crawler/internal/stats"
)

// The statuses of a URL that was not requested as a page, or never
// answered with one; any other status is the HTTP status of its answer,
// such as "200" for a page saved, "301" for a redirect or "404", or a word
// for why a request failed (see [Graph.Failed]).
const (
	External = "external" // outside the crawl, or not a URL of a page
	Excluded = "excluded" // matched by -exclude
	Robots   = "robots"   // robots.txt does not allow it
	// Requisite is a resource a page needs to render, which the crawl
	// does not take as a page: -check checks it, -warc archives it.
	Requisite = "requisite"
	Depth     = "depth" // found only on pages at maxDepth, so never put in the bag
	MaxPages  = "max-pages"
	// Failed and Redirect stand for a failure or a redirect whose status
	// is not known: a crawl resumed from a journal that predates them.
	Failed   = "failed"
	Redirect = "redirect"
)

// A Graph is the link graph of one crawl. It is not safe for concurrent
// use: the crawl's own goroutine tells it everything.
//
// A graph keeps every URL the crawl puts in its bag, so it is the crawl's
// seen-set too ([Graph.Queue]), and the crawl need not keep them twice.
//
// The crawl takes each page once, and so tells a graph once what came of
// it: saved, failed, or decided otherwise; and every link of a page in
// turn, before the next page's.
type Graph struct {
	// With rows, a node for every URL.
	index map[string]int32 // into nodes, by URL
	nodes []node
	rows  []row
	// The page the last row came from, whose links come in a run: a
	// lookup saved on nearly every row.
	lastFrom      string
	lastFromIndex int32

	refs *referrers // without rows, what the broken links need, and no more
}

// A node is a URL that a row names, as a page linking or as a target.
type node struct {
	url    string
	status string // "" while undecided
	docID  int32  // its number in the page directory, or 0
	queued bool   // put in the bag: a page the crawl will take, unless it stops first
	failed bool
	pages  int32    // distinct pages that link to it
	last   int32    // the last of them, as a node index plus one
	from   [3]int32 // the first three of them, likewise
}

// A row is one link: node indexes.
type row struct{ from, to int32 }

// New returns an empty graph. One that writes no CSV, but only sums up
// its broken links, need not keep its rows.
func New(keepRows bool) *Graph {
	if !keepRows {
		return &Graph{refs: newReferrers()}
	}
	return &Graph{index: make(map[string]int32)}
}

// KeepsRows reports whether the graph keeps its rows, to write them.
func (g *Graph) KeepsRows() bool { return g.refs == nil }

// node returns the index of url's node, making it if need be.
func (g *Graph) node(url string) int32 {
	i, ok := g.index[url]
	if !ok {
		i = int32(len(g.nodes))
		g.nodes = append(g.nodes, node{url: url})
		g.index[url] = i
	}
	return i
}

// Link adds a row: from, a page saved or a URL that redirected, links to
// to; and if status is not "", decides to's status, as Decide does. Every
// link of a page is told in turn, before the next page's, which is what
// lets a node count its distinct pages by the last one alone.
func (g *Graph) Link(from, to, status string) {
	if g.refs != nil {
		g.refs.link(from, to)
		if status != "" {
			g.refs.decide(to)
		}
		return
	}
	if from != g.lastFrom || len(g.nodes) == 0 {
		g.lastFrom, g.lastFromIndex = from, g.node(from)
	}
	f, t := g.lastFromIndex, g.node(to)
	if status != "" && g.nodes[t].status == "" {
		g.nodes[t].status = status
	}
	g.rows = append(g.rows, row{f, t})
	if n := &g.nodes[t]; n.last != f+1 {
		if n.pages < 3 {
			n.from[n.pages] = f + 1
		}
		n.pages++
		n.last = f + 1
	}
}

// Decide sets the status of url, a target whose fate is known when the
// crawl meets it (External, Excluded), or of a page the crawl took that
// was neither saved nor failed (Robots, or a redirect's HTTP status). The
// first decision stands.
func (g *Graph) Decide(url, status string) {
	if g.refs != nil {
		g.refs.decide(url)
		return
	}
	if n := &g.nodes[g.node(url)]; n.status == "" {
		n.status = status
	}
}

// Queue notes that url is put in the bag, and reports whether it is new
// there: the crawl's seen-set.
func (g *Graph) Queue(url string) bool {
	if g.refs != nil {
		return g.refs.queue(url)
	}
	n := &g.nodes[g.node(url)]
	queued := n.queued
	n.queued = true
	return !queued
}

// Queued reports whether url was put in the bag.
func (g *Graph) Queued(url string) bool {
	if g.refs != nil {
		return g.refs.queued(url)
	}
	i, ok := g.index[url]
	return ok && g.nodes[i].queued
}

// Saved notes that url was saved as page docID.
func (g *Graph) Saved(url string, docID int) {
	if g.refs != nil {
		g.refs.saved(url)
		return
	}
	n := &g.nodes[g.node(url)]
	n.status, n.docID = "200", int32(docID)
}

// IsSaved reports whether url was saved as a page ([Graph.Saved]).
func (g *Graph) IsSaved(url string) bool {
	if g.refs != nil {
		return g.refs.isSaved(url)
	}
	i, ok := g.index[url]
	return ok && g.nodes[i].docID != 0
}

// Failed notes that the page at url could not be fetched, with status:
// its HTTP status, or a word for why, such as "timeout".
func (g *Graph) Failed(url, status string) {
	if g.refs != nil {
		g.refs.fail(url, status)
		return
	}
	n := &g.nodes[g.node(url)]
	n.status, n.failed = status, true
}

// final returns the status of node n once the crawl has ended.
func (n *node) final() string {
	switch {
	case n.status != "":
		return n.status
	case n.queued:
		return MaxPages
	}
	return Depth
}

// Rows returns how many rows the graph has, and how many distinct URLs
// they link to.
func (g *Graph) Rows() (rows, targets int) {
	seen := make([]bool, len(g.nodes))
	for _, r := range g.rows {
		if !seen[r.to] {
			seen[r.to] = true
			targets++
		}
	}
	return len(g.rows), targets
}

// WriteCSV writes the graph as CSV, as RFC 4180 says (lines end in CRLF),
// with a header: from, to, status, and the docIDs of both ends in the
// page directory, or nothing for a URL that is not a page saved.
func (g *Graph) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("from,to,status,from_docid,to_docid\r\n")
	var line []byte
	for _, r := range g.rows {
		f, t := &g.nodes[r.from], &g.nodes[r.to]
		line = appendField(line[:0], escapeControls(f.url))
		line = append(line, ',')
		line = appendField(line, escapeControls(t.url))
		line = append(line, ',')
		line = appendField(line, t.final())
		line = append(line, ',')
		line = appendDocID(line, f.docID)
		line = append(line, ',')
		line = appendDocID(line, t.docID)
		line = append(line, "\r\n"...)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendField appends s as a CSV field, quoted as encoding/csv quotes it,
// whose Writer wrote the graph before: a field with a comma, a quote or a
// line break, or that begins with a space, is quoted, its quotes doubled.
// A graph's fields hold no line break, for escapeControls encodes them.
func appendField(b []byte, s string) []byte {
	r, _ := utf8.DecodeRuneInString(s)
	if s != `\.` && !strings.ContainsAny(s, ",\"\r\n") && (s == "" || !unicode.IsSpace(r)) {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := range len(s) {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// escapeControls percent-encodes the control bytes of a URL, which the
// reference mode keeps as a page wrote them, and which RFC 4180's text
// does not allow; a browser sends them so encoded.
func escapeControls(u string) string {
	if !strings.ContainsFunc(u, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return u
	}
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < 0x20 || c == 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// appendDocID appends a docID, or nothing for 0, none.
func appendDocID(b []byte, id int32) []byte {
	if id == 0 {
		return b
	}
	return strconv.AppendInt(b, int64(id), 10)
}

// Broken returns the pages that failed and that some row links to, in the
// order the crawl first met them.
func (g *Graph) Broken() []stats.BrokenLink {
	if g.refs != nil {
		return g.refs.broken()
	}
	broken := []stats.BrokenLink{}
	for i := range g.nodes {
		n := &g.nodes[i]
		if !n.failed || n.pages == 0 {
			continue
		}
		b := stats.BrokenLink{URL: n.url, Status: n.status, Pages: int(n.pages)}
		for _, f := range n.from[:min(n.pages, 3)] {
			b.From = append(b.From, g.nodes[f-1].url)
		}
		broken = append(broken, b)
	}
	return broken
}
