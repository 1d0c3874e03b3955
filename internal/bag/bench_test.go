package bag

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"testing"
)

// wikiPrefix and a number and ".html" make URLs of 70–76 bytes, as long as
// the playground's wikipedia URLs. As strings they take 80 bytes each, the
// allocator's size class.
const wikiPrefix = "http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Some_Article_Name_"

// big adds a size to BenchmarkMemory's, too large to run every time:
// 14 million is the frontier that took the crawler to 2.5 GB (issue 10).
var big = flag.Int("big", 0, "also run BenchmarkMemory with this many URLs")

// BenchmarkMemory reports what a frontier costs per URL in it, the URL
// strings included, after n pushes:
//
//   - alone: the bag by itself;
//   - with-seen: the seen-set and the bag together, holding the same
//     string, as the crawler's consider does;
//   - half-popped: the bag by itself, after n/2 of its URLs have been
//     popped (the cost is per URL still in the bag).
//
// The bag is only pushed to, as on a site whose every page holds thousands
// of new links, and the depths never decrease from one push to the next, as
// in a crawl (a page's links go into a stack or a queue one deeper than the
// deepest page in it).
func BenchmarkMemory(b *testing.B) {
	sizes := []int{100_000, 1_000_000}
	if *big > 0 {
		sizes = append(sizes, *big)
	}
	for _, mode := range []string{"alone", "with-seen", "half-popped"} {
		for _, order := range []string{"lifo", "bfs", "priority"} {
			for _, n := range sizes {
				b.Run(fmt.Sprintf("%s/%s/n=%d", mode, order, n), func(b *testing.B) {
					var perURL float64
					for b.Loop() {
						perURL = heapPerURL(func() (any, int) {
							bg, _ := New(order)
							// The crawl's set of URLs met, which shares each
							// URL's string with the bag.
							var set map[string]struct{}
							if mode == "with-seen" {
								set = make(map[string]struct{})
							}
							buf := []byte(wikiPrefix)
							for i := range n {
								buf = append(strconv.AppendInt(buf[:len(wikiPrefix)], int64(i), 10), ".html"...)
								u := string(buf)
								if set != nil {
									set[u] = struct{}{}
								}
								bg.Push(Item{URL: u, Depth: 1 + 10*i/n})
							}
							if mode == "half-popped" {
								for range n / 2 {
									bg.Pop()
								}
							}
							return []any{bg, set}, bg.Len()
						})
					}
					b.ReportMetric(perURL, "bytes/URL")
				})
			}
		}
	}
}

// heapPerURL returns the growth of the live heap while what fill builds
// is alive, per URL in it, as fill counts them.
func heapPerURL(fill func() (any, int)) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x, n := fill()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(x)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
}
