// Package bag holds the pages that are waiting to be crawled.
//
// The order in which a bag gives its pages back decides which page gets
// which docID, and, in a crawl limited by depth, which pages are found at
// all. The CS50 reference keeps its pages on a stack, so [Stack] is the
// default; [Queue] gives a breadth-first crawl, in which every page is
// recorded at its shortest distance from the seed.
package bag

import "fmt"

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

// New returns an empty bag for the named order: "lifo" or "bfs".
func New(order string) (Bag, error) {
	switch order {
	case "lifo":
		return new(Stack), nil
	case "bfs":
		return new(Queue), nil
	}
	return nil, fmt.Errorf("unknown crawl order %q: use lifo or bfs", order)
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
