package seen

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkMemory reports what the set costs per URL, strings included,
// for a hundred thousand URLs of a typical length.
func BenchmarkMemory(b *testing.B) {
	benchmarkMemory(b, 100_000, "http://cs50tse.cs.dartmouth.edu/tse/synth/")
}

// BenchmarkMemoryWikipedia is BenchmarkMemory for URLs of 70–76 bytes, as
// long as the playground's wikipedia URLs, at the sizes of a large crawl.
func BenchmarkMemoryWikipedia(b *testing.B) {
	for _, n := range []int{100_000, 150_000, 200_000, 300_000, 500_000, 700_000, 1_000_000, 1_500_000} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			benchmarkMemory(b, n, "http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Some_Article_Name_")
		})
	}
}

// benchmarkMemory adds n URLs, prefix followed by a number and ".html",
// each a string of its own as the crawler's are, and reports the growth of
// the live heap per URL.
func benchmarkMemory(b *testing.B, n int, prefix string) {
	var perURL float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var s Set
		buf := []byte(prefix)
		for i := range n {
			buf = append(strconv.AppendInt(buf[:len(prefix)], int64(i), 10), ".html"...)
			s.Add(string(buf))
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perURL = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
		runtime.KeepAlive(&s)
	}
	b.ReportMetric(perURL, "bytes/URL")
}
