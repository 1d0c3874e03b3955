package linkgraph

import (
	"cmp"
	"slices"

	"tse-crawler/internal/stats"
)

// referrers is all a graph without rows keeps: what [Graph.Broken] needs,
// which is, for each page that failed, the pages that link to it. Any page
// the crawl has not decided yet may fail, so until it is decided the pages
// that link to it are kept; once it is saved or decided otherwise they are
// dropped, since it will never fail.
//
// Its map of URLs is also the crawl's seen-set. A slot of Go's
// map[string]struct{} takes 24 bytes, as one of a map[string]uint32 does,
// since Go pads an empty last field (go.dev/issue/71368), so the value,
// the order in which the graph met the URL and two flags, costs nothing
// the seen-set did not. The order names the URL, and so a page that links
// to it: only [Graph.Broken] turns orders back into URLs, for the few
// pages it names, with one pass over the map.
//
// What changes with each link is kept in state, a word a URL, by order:
// the one page that links to it so far (0 for none), or, once two do, the
// number of its record; or that it is decided. The map is written only
// when a URL is new, queued or failed: assigning to a string key replaces
// the key, and a link's URL, a string of its own, would then be kept
// beside the bag's. Records go back to a pool once their URL is decided.
// So a crawl keeps 4 bytes a URL, and a record for each page not yet
// decided that two or more pages link to.
//
// 2³⁰ URLs or records would overflow a word; a crawl of as many URLs, at
// over a hundred bytes each, would not fit in memory first.
type referrers struct {
	urls  map[string]uint32
	state chunks[uint32]

	// The page the last link came from, whose links come in a run, and
	// its order: a lookup saved on nearly every link.
	from      string
	fromOrder uint32

	recs chunks[record]
	free uint32 // the first record free, plus one, or 0

	failed map[string]string // the status of each URL that failed
}

// A record keeps the pages that link to a URL, once two or more do, each
// by its order. A record in the pool has pages 0, and last is the next
// free record plus one.
type record struct {
	pages uint32    // how many
	last  uint32    // the last of them
	from  [3]uint32 // the first three
}

// The parts of a URL's value in the map, and of its state.
const (
	orderMask = 1<<30 - 1
	hasFailed = 1 << 30
	isQueued  = 1 << 31

	refMask   = 1<<30 - 1
	isRecord  = 1 << 30
	isDecided = 1 << 31
)

func newReferrers() *referrers {
	return &referrers{urls: make(map[string]uint32), failed: make(map[string]string)}
}

// value returns url's value in the map, meeting url if it is new.
func (r *referrers) value(url string) uint32 {
	v, ok := r.urls[url]
	if !ok {
		v = r.state.add(0) + 1
		r.urls[url] = v
	}
	return v
}

// stateOf returns the state of the URL whose value in the map is v.
func (r *referrers) stateOf(v uint32) *uint32 { return r.state.at(v&orderMask - 1) }

// queue notes that url is put in the bag, and reports whether it is new
// there. The bag keeps url, so the map may too.
func (r *referrers) queue(url string) bool {
	v, ok := r.urls[url]
	if ok && v&isQueued != 0 {
		return false
	}
	if !ok {
		v = r.state.add(0) + 1
	}
	r.urls[url] = v | isQueued
	return true
}

func (r *referrers) queued(url string) bool { return r.urls[url]&isQueued != 0 }

// link notes that page from links to url.
func (r *referrers) link(from, url string) {
	if from != r.from || r.fromOrder == 0 {
		r.from, r.fromOrder = from, r.value(from)&orderMask
	}
	s := r.stateOf(r.value(url))
	if *s&isDecided == 0 { // else it will never fail
		*s = r.refer(*s, r.fromOrder)
	}
}

// refer returns state s with the page from among those that link to its
// URL.
func (r *referrers) refer(s, from uint32) uint32 {
	ref := s & refMask
	if s&isRecord != 0 {
		rec := r.recs.at(ref)
		if rec.last != from {
			if rec.pages < 3 {
				rec.from[rec.pages] = from
			}
			rec.pages++
			rec.last = from
		}
		return s
	}
	switch ref {
	case from:
		return s
	case 0:
		return from
	}
	return isRecord | r.alloc(record{pages: 2, last: from, from: [3]uint32{ref, from}})
}

func (r *referrers) alloc(rec record) uint32 {
	if r.free == 0 {
		return r.recs.add(rec)
	}
	i := r.free - 1
	p := r.recs.at(i)
	r.free = p.last
	*p = rec
	return i
}

// decide notes that the page at url is decided, unless it failed: the
// first decision stands. Its record, if any, goes back to the pool.
func (r *referrers) decide(url string) {
	v, ok := r.urls[url]
	if !ok || v&hasFailed != 0 {
		return
	}
	s := r.stateOf(v)
	if *s&isDecided != 0 {
		return // the first decision stands
	}
	if *s&isRecord != 0 {
		i := *s & refMask
		*r.recs.at(i) = record{last: r.free}
		r.free = i + 1
	}
	*s = isDecided
}

// saved notes that url was saved as a page: decided, with the reference
// part of its state, which a decided URL has no use for, 1.
func (r *referrers) saved(url string) {
	r.value(url)
	r.decide(url)
	if s := r.stateOf(r.urls[url]); *s == isDecided {
		*s = isDecided | 1
	}
}

// isSaved reports whether url was saved as a page.
func (r *referrers) isSaved(url string) bool {
	v, ok := r.urls[url]
	return ok && *r.stateOf(v) == isDecided|1
}

func (r *referrers) fail(url, status string) {
	r.urls[url] = r.value(url) | hasFailed
	r.failed[url] = status
}

// broken returns the pages that failed and that some page links to, in
// the order the graph first met them.
func (r *referrers) broken() []stats.BrokenLink {
	type met struct {
		order uint32
		url   string
		pages uint32
		from  [3]uint32
	}
	var found []met
	names := make(map[uint32]string) // of the pages that link to them, by order
	for url := range r.failed {
		v := r.urls[url]
		s := *r.stateOf(v)
		m := met{order: v & orderMask, url: url, pages: 1, from: [3]uint32{s & refMask}}
		switch {
		case s&isRecord != 0:
			rec := r.recs.at(s & refMask)
			m.pages, m.from = rec.pages, rec.from
		case s == 0 || s&isDecided != 0:
			continue // no page links to it, or it was decided before it failed
		}
		for _, f := range m.from[:min(m.pages, 3)] {
			names[f] = ""
		}
		found = append(found, m)
	}
	if len(names) > 0 {
		for url, v := range r.urls {
			if _, ok := names[v&orderMask]; ok {
				names[v&orderMask] = url
			}
		}
	}
	slices.SortFunc(found, func(a, b met) int { return cmp.Compare(a.order, b.order) })
	broken := make([]stats.BrokenLink, len(found))
	for i, m := range found {
		broken[i] = stats.BrokenLink{URL: m.url, Status: r.failed[m.url], Pages: int(m.pages)}
		for _, f := range m.from[:min(m.pages, 3)] {
			broken[i].From = append(broken[i].From, names[f])
		}
	}
	return broken
}

// chunks is a slice that grows a chunk at a time, so that it is never
// copied: growing a slice of a million elements would, for a moment, take
// twice their memory and more.
type chunks[T any] struct {
	c [][]T
	n uint32
}

const chunkLen = 4096

// add appends v and returns its index.
func (c *chunks[T]) add(v T) uint32 {
	if c.n%chunkLen == 0 {
		c.c = append(c.c, make([]T, 0, chunkLen))
	}
	last := &c.c[len(c.c)-1]
	*last = append(*last, v)
	c.n++
	return c.n - 1
}

func (c *chunks[T]) at(i uint32) *T { return &c.c[i/chunkLen][i%chunkLen] }
