package crawler

import "tse-crawler/internal/linkgraph"

// seen is the set of the URLs a crawl has met, so that no page is put in
// the bag twice: the design's hashtable of URLs. A URL's value says
// whether the crawl saved it as a page.
//
// A crawl never forgets a URL, so the set is most of its memory. A URL
// costs its own bytes (rounded up to the allocator's size class: 80 for
// a URL of 65 to 80 bytes), which the bag shares, and 35 to 56 bytes of
// map, as the map's load swings between its splits: a slot of a
// map[string]bool takes 24 bytes, as one of a map[string]struct{} does,
// since Go pads an empty last field (go.dev/issue/71368).
type seen map[string]bool

// add adds u to the set and reports whether it was new.
func (s seen) add(u string) bool {
	if _, ok := s[u]; ok {
		return false
	}
	s[u] = false
	return true
}

// has reports whether u is in the set.
func (s seen) has(u string) bool {
	_, ok := s[u]
	return ok
}

// saved notes that u, in the set, was saved as a page.
func (s seen) saved(u string) { s[u] = true }

// isSaved reports whether u was saved as a page.
func (s seen) isSaved(u string) bool { return s[u] }

// A urlSet is the crawl's seen-set: a seen, or the link graph if the
// crawl keeps one, which keeps every URL put in the bag anyway.
type urlSet interface {
	add(u string) bool
	has(u string) bool
	saved(u string)
	isSaved(u string) bool
}

// graphSet is a link graph as the crawl's seen-set. The graph is told of
// each page saved as the crawl applies it.
type graphSet struct{ g *linkgraph.Graph }

func (s graphSet) add(u string) bool     { return s.g.Queue(u) }
func (s graphSet) has(u string) bool     { return s.g.Queued(u) }
func (s graphSet) saved(string)          {}
func (s graphSet) isSaved(u string) bool { return s.g.IsSaved(u) }
