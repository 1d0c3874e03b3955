package earlier

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkIndex opens a .warc.gz of 20,000 exchanges (40,000 records),
// each of a URL of 62 bytes, and reports what its index costs in memory
// for each URL: the heap it holds once open.
func BenchmarkIndex(b *testing.B) {
	const urls = 20000
	xs := make([]exchange, urls)
	for i := range xs {
		body := fmt.Sprintf("<p>page %d</p>", i)
		xs[i] = exchange{
			url:  fmt.Sprintf("http://www.example.test/articles/2025/03/some-page-%06d.html", i),
			resp: ok200(fmt.Sprintf("ETag: \"%d\"\r\n", i), body),
			at:   time.Duration(i) * time.Millisecond,
		}
	}
	path := writeWARC(b, filepath.Join(b.TempDir(), "big.warc.gz"), xs)
	var perURL float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		a, err := Open(b.Context(), path)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if a.Len() != urls {
			b.Fatalf("Len() = %d, want %d", a.Len(), urls)
		}
		perURL = float64(after.HeapAlloc-before.HeapAlloc) / urls
		a.Close()
	}
	b.ReportMetric(perURL, "B/URL")
}
