package seen

import "testing"

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
		{"", true, 4},
		{"", false, 4},
		{"http://cs50tse.cs.dartmouth.edu/tse/index.html", false, 4},
	}
	for _, tt := range tests {
		if got := s.Add(tt.add); got != tt.want {
			t.Errorf("Add(%q) = %t, want %t", tt.add, got, tt.want)
		}
		if !s.Contains(tt.add) {
			t.Errorf("Contains(%q) = false after Add", tt.add)
		}
		if got := s.Len(); got != tt.wantLen {
			t.Errorf("Len() after Add(%q) = %d, want %d", tt.add, got, tt.wantLen)
		}
	}
}

func TestContains(t *testing.T) {
	var s Set
	s.Add("a")
	s.Add("b")
	tests := []struct {
		s    string
		want bool
	}{
		{"a", true},
		{"b", true},
		{"c", false},
		{"A", false},
		{"", false},
		{"a ", false},
	}
	for _, tt := range tests {
		if got := s.Contains(tt.s); got != tt.want {
			t.Errorf("Contains(%q) = %t, want %t", tt.s, got, tt.want)
		}
	}
	if got := s.Len(); got != 2 {
		t.Errorf("Len() = %d, want 2 (Contains must not add)", got)
	}
}

func TestZeroValue(t *testing.T) {
	var s Set
	if got := s.Len(); got != 0 {
		t.Errorf("Len() of the zero Set = %d, want 0", got)
	}
	if s.Contains("") {
		t.Errorf("Contains(%q) on the zero Set = true, want false", "")
	}
	if s.Contains("x") {
		t.Errorf("Contains(%q) on the zero Set = true, want false", "x")
	}
	if got := s.Len(); got != 0 {
		t.Errorf("Len() after Contains on the zero Set = %d, want 0", got)
	}
	if !s.Add("x") {
		t.Errorf("Add(%q) on the zero Set = false, want true", "x")
	}
}
