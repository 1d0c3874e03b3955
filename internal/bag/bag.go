// Package bag holds the pages that are waiting to be crawled.
//
// The order in which a bag gives its pages back decides which page gets
// which docID, and, in a crawl limited by depth, which pages are found at
// all. The CS50 reference keeps its pages on a stack, so [Stack] is the
// default; [Queue] gives a breadth-first crawl, in which every page is
// recorded at its shortest distance from the seed; [Priority] visits pages
// whose names carry the largest numbers first.
package bag

import (
	"container/heap"
	"fmt"
	"math"
	"strings"
)

// An Item is a page to crawl: its normalized URL and the depth at which it
// was found.
type Item struct {
	URL   string
	Depth int
}

// A Bag holds items until the crawler takes them out.
type Bag interface {
	Push(Item)
	// Pop removes and returns the next item, or returns false if the bag
	// is empty.
	Pop() (Item, bool)
	Len() int
}

// New returns an empty bag for the named order: "lifo", "bfs" or
// "priority".
func New(order string) (Bag, error) {
	switch order {
	case "lifo":
		return new(Stack), nil
	case "bfs":
		return new(Queue), nil
	case "priority":
		return new(Priority), nil
	}
	return nil, fmt.Errorf("unknown crawl order %q: use lifo, bfs or priority", order)
}

// A Stack gives back the item pushed last, as the reference's bag does.
// The zero value is an empty stack.
type Stack struct {
	items []Item
}

func (s *Stack) Push(it Item) { s.items = append(s.items, it) }

func (s *Stack) Pop() (Item, bool) {
	if len(s.items) == 0 {
		return Item{}, false
	}
	it := s.items[len(s.items)-1]
	s.items[len(s.items)-1] = Item{} // let the URL be collected
	s.items = s.items[:len(s.items)-1]
	return it, true
}

func (s *Stack) Len() int { return len(s.items) }

// A Queue gives back the item pushed first. The zero value is an empty
// queue.
type Queue struct {
	items []Item
	head  int // items[:head] have been popped
}

func (q *Queue) Push(it Item) {
	// Reuse the popped front of the slice once it is at least half of it,
	// so a long crawl does not keep every item it ever queued.
	if q.head > 0 && q.head >= len(q.items)/2 && len(q.items) == cap(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.items = append(q.items, it)
}

func (q *Queue) Pop() (Item, bool) {
	if q.head == len(q.items) {
		return Item{}, false
	}
	it := q.items[q.head]
	q.items[q.head] = Item{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return it, true
}

func (q *Queue) Len() int { return len(q.items) - q.head }

// A Priority bag gives back first the item whose URL's last path segment
// carries the largest number: the last run of digits in it, so that
// ".../05678.html" has priority 5678. Items with no number come last. Equal
// priorities come out in the order they went in, so the order never
// depends on anything but the pushes. The zero value is an empty bag.
type Priority struct {
	h prioHeap
	n int // pushes so far, to break ties
}

// Push adds it. It panics if it.URL is longer than 4 GiB, since the bag
// keeps where the URL's number is in 32 bits.
func (p *Priority) Push(it Item) {
	if uint64(len(it.URL)) > math.MaxUint32 {
		panic("bag: a URL longer than 4 GiB")
	}
	start, end := priority(it.URL)
	heap.Push(&p.h, prioItem{url: it.URL, depth: it.Depth, seq: p.n, start: uint32(start), end: uint32(end)})
	p.n++
}

func (p *Priority) Pop() (Item, bool) {
	if len(p.h) == 0 {
		return Item{}, false
	}
	pi := heap.Pop(&p.h).(prioItem)
	return Item{URL: pi.url, Depth: pi.depth}, true
}

func (p *Priority) Len() int { return len(p.h) }

// priority returns where the last run of digits in u's last path segment
// is, without its leading zeros (but for the last one if it is all
// zeros), as u[start:end]; start == end if there is none. The number is
// kept as digits, so that no length of number overflows.
func priority(u string) (start, end int) {
	from := 0 // where the path starts
	if i := strings.Index(u, "://"); i >= 0 {
		from = len(u)
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			from = i + 3 + j
		}
	}
	to := len(u) // where the path ends
	if i := strings.IndexAny(u[from:], "?#"); i >= 0 {
		to = from + i
	}
	seg := from + strings.LastIndexByte(u[from:to], '/') + 1
	last := strings.LastIndexAny(u[seg:to], "0123456789")
	if last < 0 {
		return 0, 0
	}
	end = seg + last + 1
	start = end - 1
	for start > seg && '0' <= u[start-1] && u[start-1] <= '9' {
		start--
	}
	for start < end-1 && u[start] == '0' {
		start++
	}
	return start, end
}

// A prioItem is an Item in a Priority bag. Its number is a part of its URL,
// kept as two offsets rather than a string, to make it 40 bytes rather
// than 56: a frontier can hold millions.
type prioItem struct {
	url        string
	depth      int
	seq        int    // Push's count, to break ties
	start, end uint32 // url[start:end] is the number; none if they are equal
}

func (it *prioItem) num() string { return it.url[it.start:it.end] }

// prioHeap is a container/heap whose top is the item to visit next.
type prioHeap []prioItem

func (h prioHeap) Len() int { return len(h) }

func (h prioHeap) Less(i, j int) bool {
	a, b := &h[i], &h[j]
	an, bn := a.num(), b.num()
	if (an != "") != (bn != "") {
		return an != ""
	}
	if an != bn {
		// Larger first: a longer run of digits (without leading zeros) is
		// a larger number; equal lengths compare as strings.
		if len(an) != len(bn) {
			return len(an) > len(bn)
		}
		return an > bn
	}
	return a.seq < b.seq
}

func (h prioHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *prioHeap) Push(x any) { *h = append(*h, x.(prioItem)) }

func (h *prioHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	old[len(old)-1] = prioItem{}
	*h = old[:len(old)-1]
	return it
}
