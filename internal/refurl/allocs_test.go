package refurl

import "testing"

// TestNormalizeAllocs guards the normalizer's fast path: a URL that is
// normal already costs no allocation, and one that is not costs one.
func TestNormalizeAllocs(t *testing.T) {
	tests := []struct {
		url    string
		allocs float64
	}{
		{"http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html", 0},
		{"http://cs50tse.cs.dartmouth.edu/tse/toscrape/index.html?page=2", 0},
		{"https://en.wikipedia.org/wiki/Algorithm", 0},
		{"HTTP://CS50TSE.CS.DARTMOUTH.EDU/tse/letters/A.html", 1},
		{"http://cs50tse.cs.dartmouth.edu/tse/a/../b/./c.html", 2}, // the path, then the URL
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(100, func() { Normalize(tt.url) }); got > tt.allocs {
			t.Errorf("Normalize(%q) allocated %.0f times, want at most %.0f", tt.url, got, tt.allocs)
		}
	}
}
