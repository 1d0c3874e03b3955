package scope

import (
	"testing"
)

// TestContainsServerPath: a URL is in the scope only if every path a
// decoding server may resolve it to is too. Each escape below begins with
// /tse/, which is all the reference checks, but nginx serves it from
// outside /tse/.
func TestContainsServerPath(t *testing.T) {
	t.Parallel()
	const tse = "http://cs50tse.cs.dartmouth.edu/tse/"
	tests := []struct {
		name string
		url  string
		want bool
	}{
		{"%2e%2e", tse + "%2e%2e/secret.html", false},
		{"%2E%2E", tse + "%2E%2E/secret.html", false},
		{".%2E", tse + ".%2E/secret.html", false},
		{"%2E.", tse + "%2E./x.html", false},
		{"..%2f", tse + "..%2fsecret.html", false},
		{"..%2F then ..%2f twice", tse + "..%2Fx/..%2f..%2fy.html", false},
		{"..%5c", tse + "..%5csecret.html", false},
		{"backslash", tse + `..\secret.html`, false},
		{"..;params", tse + "..;x/secret.html", false},
		{"%2F in a name, then climbing", tse + "x%2fy/%2e%2e/%2e%2e/z.html", false},
		{"backslash in a name, then climbing", tse + `x\y/%2e%2e/%2e%2e/z.html`, false},
		{"to the prefix's parent", tse + "%2e%2e", false},
		{"out and back in", tse + "%2e%2e/tse/x.html", true},
		{"with a query", tse + "%2e%2e/secret.html?q=/tse/", false},
		{"escapes in the query only", tse + "x.html?a=%2e%2e%2f", true},
		{"back into /tse/", tse + "x/%2e%2e/y.html", true},
		{"%2e alone", tse + "%2e/y.html", true},
		{"a space", tse + "a%20b.html", true},
		{"UTF-8", tse + "wikipedia/Human%e2%80%93computer_interaction.html", true},
		{"double escape: a name to a server that decodes once", tse + "%252e%252e/secret.html", true},
		{"outside as written", "http://cs50tse.cs.dartmouth.edu/%2e%2e/tse/x.html", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Default().Contains(tt.url); got != tt.want {
				t.Errorf("Default().Contains(%q) = %v, want %v", tt.url, got, tt.want)
			}
		})
	}
}

// TestContainsServerPathPrefixes: with several prefixes, or a wildcard,
// the resolved URL may fall under any of them.
func TestContainsServerPathPrefixes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		prefixes []string
		url      string
		want     bool
	}{
		{"into a sibling prefix", []string{"http://h.edu/a/", "http://h.edu/b/"}, "http://h.edu/a/%2e%2e/b/x.html", true},
		{"out of both", []string{"http://h.edu/a/", "http://h.edu/b/"}, "http://h.edu/a/%2e%2e/c/x.html", false},
		{"wildcard, out", []string{"http://*.h.edu/docs/"}, "http://www.h.edu/docs/%2e%2e/x.html", false},
		{"wildcard, in", []string{"http://*.h.edu/docs/"}, "http://www.h.edu/docs/a/%2e%2e/x.html", true},
		{"wildcard with port, out", []string{"http://*.h.edu:8080/docs/"}, "http://www.h.edu:8080/docs/..%2Fx.html", false},
		{"root prefix: nowhere to climb to", []string{"http://h.edu/"}, "http://h.edu/%2e%2e/x.html", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := Parse(tt.prefixes)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Contains(tt.url); got != tt.want {
				t.Errorf("Parse(%q).Contains(%q) = %v, want %v", tt.prefixes, tt.url, got, tt.want)
			}
		})
	}
}

// TestContainsAllocs guards the common case: an ordinary URL, escapes of
// other characters included, is checked without allocating.
func TestContainsAllocs(t *testing.T) {
	s := Default()
	for _, u := range []string{
		"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html",
		"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Human%e2%80%93computer_interaction.html",
		"http://cs50tse.cs.dartmouth.edu/tse/toscrape/index.html?page=2",
		"https://en.wikipedia.org/wiki/Algorithm",
	} {
		if got := testing.AllocsPerRun(100, func() { s.Contains(u) }); got != 0 {
			t.Errorf("Contains(%q) allocated %.0f times, want none", u, got)
		}
	}
}

// BenchmarkContains reports the cost per URL of the scope test on links as
// the crawler meets them.
func BenchmarkContains(b *testing.B) {
	urls := []string{
		"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html",
		"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Human%e2%80%93computer_interaction.html",
		"http://cs50tse.cs.dartmouth.edu/tse/toscrape/catalogue/a-light-in-the-attic_1000/index.html",
		"http://cs50tse.cs.dartmouth.edu/tse/toscrape/index.html?page=2",
		"https://en.wikipedia.org/wiki/Algorithm",
	}
	s := Default()
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range urls {
			s.Contains(u)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(urls)), "ns/URL")
}
