// Package bag holds the pages that are waiting to be crawled.
//
// The order in which a bag gives its pages back decides which page gets
// which docID, and, in a crawl limited by depth, which pages are found at
// all. The CS50 reference keeps its pages on a stack, so [Stack] is the
// default; [Queue] gives a breadth-first crawl, in which every page is
// recorded at its shortest distance from the seed; [Priority] visits pages
// whose names carry the largest numbers first.
//
// A frontier can hold millions of pages, so the bags are frugal: beyond
// the bytes of its URL, which it shares with the crawl's set of seen
// URLs, a page costs 16 bytes in a stack or a queue and 40 in a priority
// bag, and no bag copies its pages to grow.
package bag

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"unsafe"
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
	urls   blocks[string]
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

// Peek returns the item Pop would return, without removing it, or false if
// the stack is empty.
func (s *Stack) Peek() (Item, bool) {
	if s.urls.n == 0 {
		return Item{}, false
	}
	return Item{URL: *s.urls.at(s.urls.n - 1), Depth: s.depths[len(s.depths)-1].depth}, true
}

// A Queue gives back the item pushed first. The zero value is an empty
// queue.
type Queue struct {
	urls   blocks[string]
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

// Peek returns the item Pop would return, without removing it, or false if
// the queue is empty.
func (q *Queue) Peek() (Item, bool) {
	if q.urls.n == 0 {
		return Item{}, false
	}
	return Item{URL: *q.urls.at(0), Depth: q.depths[0].depth}, true
}

// Like returns an empty bag of b's kind, or false for a bag that is not a
// Stack, a Queue or a Priority.
func Like(b Bag) (Bag, bool) {
	switch b.(type) {
	case *Stack:
		return new(Stack), true
	case *Queue:
		return new(Queue), true
	case *Priority:
		return new(Priority), true
	}
	return nil, false
}

// Split sorts the items of b into new bags of b's kind by key, each of
// which gives its items back in the order b would; b is unchanged. It
// reports false, and returns nothing, for a bag that is not a Stack, a
// Queue or a Priority.
func Split(b Bag, key func(Item) string) (map[string]Bag, bool) {
	bags := make(map[string]Bag)
	into := func(it Item, empty func() Bag) {
		k := key(it)
		if bags[k] == nil {
			bags[k] = empty()
		}
		bags[k].Push(it)
	}
	switch b := b.(type) {
	case *Stack:
		// From the bottom up, the order they were pushed in.
		for it := range inOrder(&b.urls, b.depths) {
			into(it, func() Bag { return new(Stack) })
		}
	case *Queue:
		for it := range inOrder(&b.urls, b.depths) {
			into(it, func() Bag { return new(Queue) })
		}
	case *Priority:
		// Pushed again in the order they first were, so that ties break
		// the same way.
		all := make([]*prioItem, b.h.n)
		for i := range all {
			all[i] = b.h.at(i)
		}
		slices.SortFunc(all, func(x, y *prioItem) int { return cmp.Compare(x.seq, y.seq) })
		for _, p := range all {
			into(Item{URL: p.url, Depth: p.depth}, func() Bag { return new(Priority) })
		}
	default:
		return nil, false
	}
	return bags, true
}

// inOrder yields the items of a Stack or a Queue from front to back.
func inOrder(urls *blocks[string], depths runs) iter.Seq[Item] {
	return func(yield func(Item) bool) {
		i := 0
		for _, r := range depths {
			for range r.n {
				if !yield(Item{URL: *urls.at(i), Depth: r.depth}) {
					return
				}
				i++
			}
		}
	}
}

// blocks holds the items of a bag in blocks of about 8 KiB, and gives
// them back from either end. Unlike a slice grown by append, it never
// copies its items to grow, so it never needs room for two copies of them
// at once, nor holds up to a quarter more than it needs; and a block goes
// back to the garbage collector as soon as it has been emptied.
type blocks[T any] struct {
	b    [][]T // the items are b[0][head:], then b[1], b[2], …: all full but the last
	head int
	n    int
}

// blockLen is how many items a block holds: as many as fit in the
// allocator's 8 KiB size class, after the 8-byte header it puts before an
// object with pointers of more than 512 bytes. (512 strings would take a
// 9,472-byte class: 2.5 bytes more a URL.)
func (q *blocks[T]) blockLen() int {
	var x T
	return (8192 - 8) / int(unsafe.Sizeof(x))
}

func (q *blocks[T]) push(x T) {
	if k := len(q.b); k == 0 || len(q.b[k-1]) == q.blockLen() {
		q.b = append(q.b, make([]T, 0, q.blockLen()))
	}
	last := &q.b[len(q.b)-1]
	*last = append(*last, x)
	q.n++
}

// at returns the item i places from the front, which must be there.
func (q *blocks[T]) at(i int) *T {
	i += q.head
	n := q.blockLen()
	return &q.b[i/n][i%n]
}

// popBack removes and returns the last item. q must not be empty.
func (q *blocks[T]) popBack() T {
	var zero T
	k := len(q.b) - 1
	last := q.b[k]
	x := last[len(last)-1]
	last[len(last)-1] = zero // let what it points to be collected
	q.b[k] = last[:len(last)-1]
	q.n--
	if q.n == 0 {
		q.b[0], q.head = q.b[0][:0], 0 // keep one block, for the next push
	} else if len(q.b[k]) == 0 {
		q.b[k] = nil
		q.b = q.b[:k]
	}
	return x
}

// popFront removes and returns the first item. q must not be empty.
func (q *blocks[T]) popFront() T {
	var zero T
	first := q.b[0]
	x := first[q.head]
	first[q.head] = zero
	q.head++
	q.n--
	if q.n == 0 {
		q.b[0], q.head = first[:0], 0
	} else if q.head == len(first) {
		q.b[0] = nil
		q.b, q.head = q.b[1:], 0
	}
	return x
}

// A run is n items in a row with the same depth.
type run struct{ depth, n int }

// runs holds the depths of a Stack's or a Queue's items, as runs of equal
// depths, first pushed first. In a crawl the depths in a stack never
// decrease from bottom to top (each page's links go in one deeper than
// the page, which was the deepest in the stack), and in a queue from front
// to back but for a redirect, whose target keeps its depth. So there are
// about as many runs as depths, and a depth costs next to nothing per URL
// instead of a word. (At worst, if every depth differed from the one
// pushed before it, a run would cost 16 bytes an item, 8 more than a word.)
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
	h blocks[prioItem] // a binary heap: the item at i comes before those at 2i+1 and 2i+2
	n int              // pushes so far, to break ties
}

// Push adds it. It panics if it.URL is longer than 4 GiB, since the bag
// keeps where the URL's number is in 32 bits.
func (p *Priority) Push(it Item) {
	if uint64(len(it.URL)) > math.MaxUint32 {
		panic("bag: a URL longer than 4 GiB")
	}
	start, end := priority(it.URL)
	p.h.push(prioItem{url: it.URL, depth: it.Depth, seq: p.n, start: uint32(start), end: uint32(end)})
	p.n++
	for i := p.h.n - 1; i > 0; { // up to its place
		up := (i - 1) / 2
		a, b := p.h.at(i), p.h.at(up)
		if !a.before(b) {
			break
		}
		*a, *b = *b, *a
		i = up
	}
}

func (p *Priority) Pop() (Item, bool) {
	if p.h.n == 0 {
		return Item{}, false
	}
	top := p.h.at(0)
	it := Item{URL: top.url, Depth: top.depth}
	last := p.h.popBack()
	if p.h.n == 0 {
		return it, true
	}
	*top = last
	for i := 0; ; { // down to its place
		next := 2*i + 1
		if next >= p.h.n {
			break
		}
		if r := next + 1; r < p.h.n && p.h.at(r).before(p.h.at(next)) {
			next = r
		}
		a, b := p.h.at(i), p.h.at(next)
		if !b.before(a) {
			break
		}
		*a, *b = *b, *a
		i = next
	}
	return it, true
}

func (p *Priority) Len() int { return p.h.n }

// Peek returns the item Pop would return, without removing it, or false if
// the bag is empty.
func (p *Priority) Peek() (Item, bool) {
	if p.h.n == 0 {
		return Item{}, false
	}
	top := p.h.at(0)
	return Item{URL: top.url, Depth: top.depth}, true
}

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

func (a *prioItem) num() string { return a.url[a.start:a.end] }

// before reports whether a comes out of the bag before b.
func (a *prioItem) before(b *prioItem) bool {
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
