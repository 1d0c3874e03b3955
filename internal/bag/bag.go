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
	urls   blocks
	depths runs
}

func (s *Stack) Push(it Item) {
	s.urls.push(it.URL)
	s.depths.push(it.Depth)
}

func (s *Stack) Pop() (Item, bool) {
	if s.urls.n == 0 {
		return Item{}, false
	}
	return Item{URL: s.urls.popBack(), Depth: s.depths.popBack()}, true
}

func (s *Stack) Len() int { return s.urls.n }

// A Queue gives back the item pushed first. The zero value is an empty
// queue.
type Queue struct {
	urls   blocks
	depths runs
}

func (q *Queue) Push(it Item) {
	q.urls.push(it.URL)
	q.depths.push(it.Depth)
}

func (q *Queue) Pop() (Item, bool) {
	if q.urls.n == 0 {
		return Item{}, false
	}
	return Item{URL: q.urls.popFront(), Depth: q.depths.popFront()}, true
}

func (q *Queue) Len() int { return q.urls.n }

// blockLen is how many strings a block holds: 8,176 bytes of string
// headers, which with the 8-byte header the allocator puts before an
// object with pointers of more than 512 bytes make exactly its 8 KiB size
// class. 512 strings would take a 9,472-byte class, 2.5 bytes more a URL.
const blockLen = 511

// blocks holds the URLs of a Stack or a Queue in blocks of blockLen, and
// gives them back from either end. Unlike a slice grown by append, it
// never copies its strings to grow, so it never needs room for two copies
// of them at once, nor holds up to a quarter more than it needs; and a
// block goes back to the garbage collector as soon as it has been emptied.
type blocks struct {
	b    [][]string // the strings are b[0][head:], then b[1], b[2], …: all full but the last
	head int
	n    int
}

func (q *blocks) push(s string) {
	if k := len(q.b); k == 0 || len(q.b[k-1]) == blockLen {
		q.b = append(q.b, make([]string, 0, blockLen))
	}
	last := &q.b[len(q.b)-1]
	*last = append(*last, s)
	q.n++
}

// popBack removes and returns the last string. q must not be empty.
func (q *blocks) popBack() string {
	k := len(q.b) - 1
	last := q.b[k]
	s := last[len(last)-1]
	last[len(last)-1] = "" // let the string be collected
	q.b[k] = last[:len(last)-1]
	q.n--
	if q.n == 0 {
		q.b[0], q.head = q.b[0][:0], 0 // keep one block, for the next push
	} else if len(q.b[k]) == 0 {
		q.b[k] = nil
		q.b = q.b[:k]
	}
	return s
}

// popFront removes and returns the first string. q must not be empty.
func (q *blocks) popFront() string {
	first := q.b[0]
	s := first[q.head]
	first[q.head] = ""
	q.head++
	q.n--
	if q.n == 0 {
		q.b[0], q.head = first[:0], 0
	} else if q.head == len(first) {
		q.b[0] = nil
		q.b, q.head = q.b[1:], 0
	}
	return s
}

// A run is n items in a row with the same depth.
type run struct{ depth, n int }

// runs holds the depths of a Stack's or a Queue's items, as runs of equal
// depths, first pushed first. In a crawl the depths in a stack never
// decrease from bottom to top (each page's links go in one deeper than
// the page, which was the deepest in the stack), and in a queue from front
// to back but for a redirect, whose target keeps its depth. So there are
// about as many runs as depths, and a depth costs next to nothing per URL
// instead of a word.
type runs []run

func (rs *runs) push(depth int) {
	if k := len(*rs); k > 0 && (*rs)[k-1].depth == depth {
		(*rs)[k-1].n++
		return
	}
	*rs = append(*rs, run{depth, 1})
}

// popBack removes the last depth and returns it. rs must not be empty.
func (rs *runs) popBack() int {
	last := &(*rs)[len(*rs)-1]
	last.n--
	d := last.depth
	if last.n == 0 {
		*rs = (*rs)[:len(*rs)-1]
	}
	return d
}

// popFront removes the first depth and returns it. rs must not be empty.
func (rs *runs) popFront() int {
	first := &(*rs)[0]
	first.n--
	d := first.depth
	if first.n == 0 {
		*rs = (*rs)[1:]
	}
	return d
}

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
