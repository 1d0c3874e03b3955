package refurl

import "testing"

// benchURLs are links as the crawler meets them: most already normal, some
// with dot segments, upper case or a query.
var benchURLs = []string{
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Human%e2%80%93computer_interaction.html",
	"http://cs50tse.cs.dartmouth.edu/tse/toscrape/catalogue/../catalogue/page-2.html",
	"https://en.wikipedia.org/wiki/Algorithm",
	"HTTP://CS50TSE.CS.DARTMOUTH.EDU/tse/letters/A.html",
	"http://cs50tse.cs.dartmouth.edu/tse/toscrape/index.html?page=2",
	"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/File:Logo.png",
	"http://cs50tse.cs.dartmouth.edu/tse/toscrape/catalogue/a-light-in-the-attic_1000/index.html",
}

// BenchmarkNormalize reports the time and allocations per URL.
func BenchmarkNormalize(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range benchURLs {
			Normalize(u)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(benchURLs)), "ns/URL")
}
