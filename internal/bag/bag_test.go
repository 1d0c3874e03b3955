package bag

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// items returns n items named u0, u1, …, with depth equal to their index.
func items(n int) []Item {
	its := make([]Item, n)
	for i := range its {
		its[i] = Item{URL: fmt.Sprintf("u%d", i), Depth: i}
	}
	return its
}

// drain pops b until it is empty and returns what came out.
func drain(t *testing.T, b Bag) []Item {
	t.Helper()
	var out []Item
	for b.Len() > 0 {
		it, ok := b.Pop()
		if !ok {
			t.Fatalf("Pop() = _, false with Len() = %d", b.Len())
		}
		out = append(out, it)
	}
	if it, ok := b.Pop(); ok {
		t.Fatalf("Pop() on an empty bag = %v, true, want false", it)
	}
	return out
}

func TestOrder(t *testing.T) {
	in := items(5)
	reversed := slices.Clone(in)
	slices.Reverse(reversed)
	tests := []struct {
		name string
		bag  Bag
		want []Item
	}{
		{"Stack is LIFO", new(Stack), reversed},
		{"Queue is FIFO", new(Queue), in},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, it := range in {
				tt.bag.Push(it)
				if got, want := tt.bag.Len(), i+1; got != want {
					t.Fatalf("after %d pushes, Len() = %d, want %d", i+1, got, want)
				}
			}
			if got := drain(t, tt.bag); !slices.Equal(got, tt.want) {
				t.Errorf("popped %v, want %v", got, tt.want)
			}
		})
	}
}

func TestInterleaved(t *testing.T) {
	// Each op is a push of the named URL, or "-" for a pop; want lists
	// what the pops return, in order.
	ops := []string{"a", "b", "-", "c", "-", "d", "e", "-", "-", "f", "-", "-"}
	tests := []struct {
		name string
		bag  Bag
		want []string
	}{
		{"Stack", new(Stack), []string{"b", "c", "e", "d", "f", "a"}},
		{"Queue", new(Queue), []string{"a", "b", "c", "d", "e", "f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			wantLen := 0
			for _, op := range ops {
				if op == "-" {
					it, ok := tt.bag.Pop()
					if !ok {
						t.Fatalf("Pop() = _, false after %v, want an item", got)
					}
					got = append(got, it.URL)
					wantLen--
				} else {
					tt.bag.Push(Item{URL: op})
					wantLen++
				}
				if n := tt.bag.Len(); n != wantLen {
					t.Fatalf("after op %q, Len() = %d, want %d", op, n, wantLen)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("popped %q, want %q", got, tt.want)
			}
			if it, ok := tt.bag.Pop(); ok {
				t.Errorf("Pop() on an empty bag = %v, true, want false", it)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	tests := []struct {
		name string
		bag  Bag
	}{
		{"Stack", new(Stack)},
		{"Queue", new(Queue)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // an empty bag stays empty and usable
				if n := tt.bag.Len(); n != 0 {
					t.Errorf("Len() = %d, want 0", n)
				}
				if it, ok := tt.bag.Pop(); ok || it != (Item{}) {
					t.Errorf("Pop() = %v, %t, want zero Item, false", it, ok)
				}
			}
			tt.bag.Push(Item{URL: "x", Depth: 3})
			if it, ok := tt.bag.Pop(); !ok || it != (Item{URL: "x", Depth: 3}) {
				t.Errorf("Pop() after emptying = %v, %t, want {x 3}, true", it, ok)
			}
		})
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		order   string
		want    string // the dynamic type, or "" for an error
		wantErr bool
	}{
		{"lifo", "*bag.Stack", false},
		{"bfs", "*bag.Queue", false},
		{"bogus", "", true},
		{"", "", true},
		{"LIFO", "", true},
		{"fifo", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.order, func(t *testing.T) {
			b, err := New(tt.order)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("New(%q) = %T, nil, want an error", tt.order, b)
				}
				if b != nil {
					t.Errorf("New(%q) = %T, %v, want a nil Bag with the error", tt.order, b, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q) error: %v", tt.order, err)
			}
			if got := fmt.Sprintf("%T", b); got != tt.want {
				t.Errorf("New(%q) = %s, want %s", tt.order, got, tt.want)
			}
			if n := b.Len(); n != 0 {
				t.Errorf("New(%q).Len() = %d, want 0", tt.order, n)
			}
		})
	}
}

// TestAgainstSlice checks each bag against a plain slice of items, in
// the order pushed, over a long run of pushes and pops: with depths that
// repeat, as stacks and queues keep them in runs, with numbers that
// repeat, and with enough items to fill several blocks and then empty
// them.
func TestAgainstSlice(t *testing.T) {
	nums := make(map[string]int) // each URL's number, or -1 for none
	// next returns the index in the slice of the item to pop.
	tests := []struct {
		name string
		bag  Bag
		next func([]Item) int
	}{
		{"Stack", new(Stack), func(its []Item) int { return len(its) - 1 }},
		{"Queue", new(Queue), func([]Item) int { return 0 }},
		{"Priority", new(Priority), func(its []Item) int {
			// The first of the largest numbers; "none" is -1.
			best := 0
			for i := range its {
				if nums[its[i].URL] > nums[its[best].URL] {
					best = i
				}
			}
			return best
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var model []Item
			for i := range 24_000 {
				// Phases of mostly pushes, which fill several blocks, and of
				// mostly pops, which empty them and pop the empty bag.
				if r.IntN(100) < 75 == (i/4000%2 == 0) {
					num := r.IntN(100)
					u := fmt.Sprintf("http://a/%d/%d.html", i, num)
					if r.IntN(10) == 0 {
						u, num = fmt.Sprintf("http://a/%d/none.html", i), -1
					}
					nums[u] = num
					it := Item{URL: u, Depth: r.IntN(3)}
					tt.bag.Push(it)
					model = append(model, it)
				} else {
					want, wantOK := Item{}, len(model) > 0
					if wantOK {
						j := tt.next(model)
						want = model[j]
						model = slices.Delete(model, j, j+1)
					}
					if got, ok := tt.bag.Pop(); got != want || ok != wantOK {
						t.Fatalf("op %d: Pop() = %v, %t, want %v, %t", i, got, ok, want, wantOK)
					}
				}
				if got := tt.bag.Len(); got != len(model) {
					t.Fatalf("op %d: Len() = %d, want %d", i, got, len(model))
				}
			}
		})
	}
}

// TestQueueReleases checks that a queue that stays short while many items
// pass through it keeps its order and frees its storage as it goes,
// instead of keeping every item it ever held.
func TestQueueReleases(t *testing.T) {
	blockLen := new(blocks[string]).blockLen()
	for _, live := range []int{1, 2, 3, 7, 100, 2 * blockLen} {
		t.Run(fmt.Sprint("live=", live), func(t *testing.T) {
			var q Queue
			next, want := 0, 0 // the next URL to push, and to pop
			push := func() {
				q.Push(Item{URL: fmt.Sprint(next), Depth: next})
				next++
			}
			for range live {
				push()
			}
			maxBlocks, maxRuns := 0, 0
			for range 20_000 {
				push()
				it, ok := q.Pop()
				if w := (Item{URL: fmt.Sprint(want), Depth: want}); !ok || it != w {
					t.Fatalf("Pop() = %v, %t, want %v, true", it, ok, w)
				}
				want++
				if q.Len() != live {
					t.Fatalf("Len() = %d, want %d", q.Len(), live)
				}
				maxBlocks = max(maxBlocks, len(q.urls.b))
				maxRuns = max(maxRuns, cap(q.depths))
			}
			// live items and the one pushed before each pop span at most
			// two blocks more than they fill.
			if bound := live/blockLen + 2; maxBlocks > bound {
				t.Errorf("the queue held %d blocks with %d live items, want at most %d", maxBlocks, live, bound)
			}
			// Every item has a depth of its own here, the worst case.
			if bound := 4*live + 16; maxRuns > bound {
				t.Errorf("cap(depths) reached %d with %d live items, want at most %d", maxRuns, live, bound)
			}
			for _, it := range drain(t, &q) {
				if w := (Item{URL: fmt.Sprint(want), Depth: want}); it != w {
					t.Fatalf("draining: Pop() = %v, want %v", it, w)
				}
				want++
			}
			if want != next {
				t.Errorf("popped %d items, pushed %d", want, next)
			}
		})
	}
}

// TestPopClears checks that popped URLs do not linger in the storage of a
// stack or a queue, so that they can be collected, and that blocks are
// let go once emptied.
func TestPopClears(t *testing.T) {
	blockLen := new(blocks[string]).blockLen()
	pushes, pops := 3*blockLen+10, 2*blockLen+20
	tests := []struct {
		name       string
		bag        Bag
		urls       func(Bag) *blocks[string]
		wantBlocks int // for the pushes-pops items left
	}{
		{"Stack", new(Stack), func(b Bag) *blocks[string] { return &b.(*Stack).urls }, 1},
		{"Queue", new(Queue), func(b Bag) *blocks[string] { return &b.(*Queue).urls }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range pushes {
				tt.bag.Push(Item{URL: fmt.Sprint(i)})
			}
			for range pops {
				tt.bag.Pop()
			}
			q := tt.urls(tt.bag)
			if got := len(q.b); got != tt.wantBlocks {
				t.Errorf("%d items in %d blocks after popping, want %d blocks", pushes-pops, got, tt.wantBlocks)
			}
			for i, b := range q.b {
				for j, s := range b[:cap(b)] {
					popped := j >= len(b) || (i == 0 && j < q.head)
					if popped && s != "" {
						t.Errorf("block %d[%d] = %q after being popped, want \"\"", i, j, s)
					}
				}
			}
		})
	}
}

func TestPriority(t *testing.T) {
	urls := []string{
		"http://a.edu/01234.html",
		"http://a.edu/about.html",
		"http://a.edu/05678.html",
		"http://b.edu/x/page2.html",
		"http://b.edu/x/",
		"http://a.edu/1234.html",    // the same number as 01234: the first pushed comes first
		"http://a.edu/v9/7.html",    // only the last segment counts: 7
		"http://a.edu/a12b34c.html", // the last run of digits: 34
		"http://a.edu/99999999999999999999999.html",
		"http://a.edu/0.html",
		"http://a.edu/x.html?id=999", // the query does not count
	}
	want := []string{
		"http://a.edu/99999999999999999999999.html",
		"http://a.edu/05678.html",
		"http://a.edu/01234.html",
		"http://a.edu/1234.html",
		"http://a.edu/a12b34c.html",
		"http://a.edu/v9/7.html",
		"http://b.edu/x/page2.html",
		"http://a.edu/0.html",
		"http://a.edu/about.html",
		"http://b.edu/x/",
		"http://a.edu/x.html?id=999",
	}
	var p Priority
	for i, u := range urls {
		p.Push(Item{URL: u, Depth: i})
	}
	if p.Len() != len(urls) {
		t.Fatalf("Len() = %d, want %d", p.Len(), len(urls))
	}
	var got []string
	for {
		it, ok := p.Pop()
		if !ok {
			break
		}
		got = append(got, it.URL)
	}
	if !slices.Equal(got, want) {
		t.Errorf("priority order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPriorityInterleaved(t *testing.T) {
	var p Priority
	p.Push(Item{URL: "http://a/5.html"})
	p.Push(Item{URL: "http://a/9.html"})
	if it, _ := p.Pop(); it.URL != "http://a/9.html" {
		t.Errorf("Pop() = %s, want 9", it.URL)
	}
	p.Push(Item{URL: "http://a/7.html"})
	p.Push(Item{URL: "http://a/3.html"})
	for _, want := range []string{"http://a/7.html", "http://a/5.html", "http://a/3.html"} {
		if it, ok := p.Pop(); !ok || it.URL != want {
			t.Errorf("Pop() = %s, %v; want %s", it.URL, ok, want)
		}
	}
	if _, ok := p.Pop(); ok {
		t.Error("Pop() of an empty bag succeeded")
	}
}

func TestPriorityNumber(t *testing.T) {
	tests := []struct {
		url  string
		want string // the number, or "" for none
	}{
		{"http://a.edu/05678.html", "5678"},
		{"http://a.edu/000.html", "0"},
		{"http://a.edu/a12b034c.html", "34"},
		{"http://a.edu/v9/x.html", ""},
		{"http://a.edu/x.html?id=999", ""},
		{"http://a.edu/x.html#s2", ""},
		{"http://a.edu/7?q/8", "7"},
		{"http://a7.edu", ""},
		{"7/08", "8"}, // no scheme: all of it is the path
		{"", ""},
	}
	for _, tt := range tests {
		start, end := priority(tt.url)
		if got := tt.url[start:end]; got != tt.want {
			t.Errorf("priority(%q) gives %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestPeekAndSplit: Peek shows what Pop gives, and Split sorts a bag's
// items by key into bags that give each key's items back in the order the
// whole bag would, however pushes and pops were interleaved before.
func TestPeekAndSplit(t *testing.T) {
	for _, order := range []string{"lifo", "bfs", "priority"} {
		t.Run(order, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			b, _ := New(order)
			n := 0
			for range 3000 {
				if b.Len() > 0 && rng.IntN(3) == 0 {
					peek, ok := b.(interface{ Peek() (Item, bool) }).Peek()
					if got, _ := b.Pop(); !ok || got != peek {
						t.Fatalf("Peek() = %v, %v, then Pop() = %v", peek, ok, got)
					}
					continue
				}
				// Depths that mostly grow, as in a crawl, with runs.
				b.Push(Item{URL: fmt.Sprintf("http://h%d/%d.html", rng.IntN(4), rng.IntN(50)*1000+n), Depth: n / 100})
				n++
			}
			host := func(it Item) string { return strings.Split(it.URL, "/")[2] }
			parts, ok := Split(b, host)
			if !ok {
				t.Fatal("Split failed")
			}
			total := 0
			for _, p := range parts {
				total += p.Len()
			}
			if total != b.Len() {
				t.Fatalf("Split gave %d items, want %d", total, b.Len())
			}
			for _, it := range drain(t, b) {
				got, ok := parts[host(it)].Pop()
				if !ok || got != it {
					t.Fatalf("the bag of %s gives %v, %v, where the whole bag gives %v", host(it), got, ok, it)
				}
			}
		})
	}
	if _, ok := Split(struct{ Bag }{new(Stack)}, func(Item) string { return "" }); ok {
		t.Error("Split of an unknown kind of bag succeeded")
	}
	for _, b := range []Bag{new(Stack), new(Queue), new(Priority)} {
		if like, ok := Like(b); !ok || fmt.Sprintf("%T", like) != fmt.Sprintf("%T", b) {
			t.Errorf("Like(%T) = %T, %v", b, like, ok)
		}
	}
	if _, ok := Like(struct{ Bag }{new(Stack)}); ok {
		t.Error("Like of an unknown kind of bag succeeded")
	}
}
