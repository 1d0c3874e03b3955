package seen

import (
	"testing"
	"unsafe"
)

func TestAdd(t *testing.T) {
	var s Set // the zero value is usable
	tests := []struct {
		add     string
		want    bool // Add's result
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
		if got := s.Has(tt.add); got == tt.want {
			t.Errorf("Has(%q) = %t before Add, want %t", tt.add, got, !tt.want)
		}
		if got := s.Add(tt.add); got != tt.want {
			t.Errorf("Add(%q) = %t, want %t", tt.add, got, tt.want)
		}
		if !s.Has(tt.add) {
			t.Errorf("Has(%q) = false after Add", tt.add)
		}
		if _, ok := s.m[tt.add]; !ok {
			t.Errorf("%q is not in the set after Add", tt.add)
		}
		if got := len(s.m); got != tt.wantLen {
			t.Errorf("after Add(%q) the set holds %d strings, want %d", tt.add, got, tt.wantLen)
		}
	}
}

// TestAddShares checks that the set keeps the string it is given, not a
// copy, so that the crawler's bag and set share a URL's bytes.
func TestAddShares(t *testing.T) {
	var s Set
	u := string([]byte("http://cs50tse.cs.dartmouth.edu/tse/index.html"))
	s.Add(u)
	for k := range s.m {
		if unsafe.StringData(k) != unsafe.StringData(u) {
			t.Errorf("the set holds a copy of %q, want the string itself", u)
		}
	}
}
