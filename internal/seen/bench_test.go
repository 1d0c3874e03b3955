package seen

import (
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkMemory reports what the set costs per URL, strings included,
// for a hundred thousand URLs of a typical length.
func BenchmarkMemory(b *testing.B) {
	const n = 100_000
	urls := make([]string, n)
	for i := range urls {
		urls[i] = "http://cs50tse.cs.dartmouth.edu/tse/synth/" + strconv.Itoa(i) + ".html"
	}
	var perURL float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var s Set
		for _, u := range urls {
			s.Add(string([]byte(u))) // a string of its own, as the crawler's are
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perURL = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(&s)
	}
	b.ReportMetric(perURL, "bytes/URL")
}
