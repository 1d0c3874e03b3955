package crawler

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
)

func TestSeen(t *testing.T) {
	s := make(seen)
	tests := []struct {
		add     string
		want    bool // add's result
		wantLen int
	}{
		{"http://cs50tse.cs.dartmouth.edu/tse/", true, 1},
		{"http://cs50tse.cs.dartmouth.edu/tse/", false, 1},
		{"http://cs50tse.cs.dartmouth.edu/tse/index.html", true, 2},
		{"http://cs50tse.cs.dartmouth.edu/TSE/", true, 3}, // case matters
		{"http://cs50tse.cs.dartmouth.edu/tse/index.html ", true, 4},
		{"", true, 5},
		{"", false, 5},
		{"http://cs50tse.cs.dartmouth.edu/tse/index.html", false, 5},
	}
	for _, tt := range tests {
		if got := s.has(tt.add); got == tt.want {
			t.Errorf("has(%q) = %t before add, want %t", tt.add, got, !tt.want)
		}
		if got := s.add(tt.add); got != tt.want {
			t.Errorf("add(%q) = %t, want %t", tt.add, got, tt.want)
		}
		if !s.has(tt.add) {
			t.Errorf("has(%q) = false after add", tt.add)
		}
		if got := len(s); got != tt.wantLen {
			t.Errorf("after add(%q) the set holds %d strings, want %d", tt.add, got, tt.wantLen)
		}
	}
}

// BenchmarkSeenMemory reports what the set costs per URL, strings
// included, for a hundred thousand URLs of a typical length.
func BenchmarkSeenMemory(b *testing.B) {
	benchmarkSeenMemory(b, 100_000, "http://cs50tse.cs.dartmouth.edu/tse/synth/")
}

// BenchmarkSeenMemoryWikipedia is BenchmarkSeenMemory for URLs of 70–76
// bytes, as long as the playground's wikipedia URLs, at the sizes of a
// large crawl.
func BenchmarkSeenMemoryWikipedia(b *testing.B) {
	for _, n := range []int{100_000, 300_000, 1_000_000} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			benchmarkSeenMemory(b, n, "http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Some_Article_Name_")
		})
	}
}

// benchmarkSeenMemory adds n URLs, prefix followed by a number and
// ".html", each a string of its own as the crawler's are, and reports the
// growth of the live heap per URL.
func benchmarkSeenMemory(b *testing.B, n int, prefix string) {
	var perURL float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := make(seen)
		buf := []byte(prefix)
		for i := range n {
			buf = append(strconv.AppendInt(buf[:len(prefix)], int64(i), 10), ".html"...)
			s.add(string(buf))
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perURL = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
		runtime.KeepAlive(s)
	}
	b.ReportMetric(perURL, "bytes/URL")
}
