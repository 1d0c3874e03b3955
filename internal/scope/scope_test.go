package scope

import (
	"strings"
	"testing"

	"tse-crawler/internal/refurl"
)

func TestContains(t *testing.T) {
	tests := []struct {
		prefixes []string
		url      string
		want     bool
	}{
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "http://cs50tse.cs.dartmouth.edu/tse/letters/A.html", true},
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "http://cs50tse.cs.dartmouth.edu/tse/", true},
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "http://cs50tse.cs.dartmouth.edu/tse", false},
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "https://cs50tse.cs.dartmouth.edu/tse/x.html", false},
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "http://cs50tse.cs.dartmouth.edu:80/tse/x.html", false},
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "http://cs50tse.cs.dartmouth.edu/TSE/x.html", false},
		{[]string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "http://user@cs50tse.cs.dartmouth.edu/tse/x.html", false},
		{[]string{"HTTP://CS50TSE.cs.dartmouth.edu/tse/"}, "http://cs50tse.cs.dartmouth.edu/tse/x.html", true},
		// The wildcard: one or more whole labels.
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://ir.inf.ed.ac.uk/x.html", true},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://www.inf.ed.ac.uk/", true},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://a.b.inf.ed.ac.uk/", true},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://inf.ed.ac.uk/", false},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://evil-inf.ed.ac.uk/", false},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://ir.inf.ed.ac.uk.evil.org/", false},
		{[]string{"http://*.inf.ed.ac.uk/"}, "https://ir.inf.ed.ac.uk/", false},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://ir.inf.ed.ac.uk:8080/", false},
		{[]string{"http://*.inf.ed.ac.uk:8080/"}, "http://ir.inf.ed.ac.uk:8080/", true},
		{[]string{"http://*.inf.ed.ac.uk:8080/"}, "http://ir.inf.ed.ac.uk/", false},
		{[]string{"http://*.inf.ed.ac.uk/docs/"}, "http://ir.inf.ed.ac.uk/docs/a.html", true},
		{[]string{"http://*.inf.ed.ac.uk/docs/"}, "http://ir.inf.ed.ac.uk/other/a.html", false},
		{[]string{"http://*.inf.ed.ac.uk/"}, "http://u@ir.inf.ed.ac.uk/", false},
		{[]string{"http://www.*.ac.uk/"}, "http://www.ed.ac.uk/", true},
		{[]string{"http://www.*.ac.uk/"}, "http://www.inf.ed.ac.uk/", true},
		{[]string{"http://www.*.ac.uk/"}, "http://www.ac.uk/", false},
		// Several prefixes: any one will do.
		{[]string{"http://a.edu/", "http://b.edu/x/"}, "http://b.edu/x/y.html", true},
		{[]string{"http://a.edu/", "http://b.edu/x/"}, "http://b.edu/y.html", false},
		{nil, "http://a.edu/", false},
	}
	for _, tt := range tests {
		s, err := Parse(tt.prefixes)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.prefixes, err)
		}
		if got := s.Contains(tt.url); got != tt.want {
			t.Errorf("Parse(%q).Contains(%q) = %v, want %v", tt.prefixes, tt.url, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, raw := range []string{
		"", "example.edu/", "ftp://example.edu/", "http://example.edu", "http:///x/",
		"http://exa*mple.edu/", "http://*example.edu/", "http://example..edu/", "http://example.edu:/",
		"http://example.edu:80a/", "http://u@example.edu/", "http://example.edu/a?b", "http://example.edu/*/",
	} {
		if _, err := Parse([]string{raw}); err == nil || !strings.Contains(err.Error(), "give a URL prefix") {
			t.Errorf("Parse(%q) error = %v, want a message with an example", raw, err)
		}
	}
}

func TestDefault(t *testing.T) {
	s := Default()
	if !s.Contains("http://cs50tse.cs.dartmouth.edu/tse/x.html") || s.Contains("http://example.com/tse/x.html") {
		t.Errorf("Default() = %s, want the CS50 playground", s)
	}
}

func TestDefaultScope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"prefix itself", "http://cs50tse.cs.dartmouth.edu/tse/", true},
		{"a page", "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", true},
		{"https", "https://cs50tse.cs.dartmouth.edu/tse/", false},
		{"port 80", "http://cs50tse.cs.dartmouth.edu:80/tse/", false},
		{"upper-case path", "http://cs50tse.cs.dartmouth.edu/TSE/", false},
		{"no trailing slash", "http://cs50tse.cs.dartmouth.edu/tse", false},
		{"user-info", "http://u@cs50tse.cs.dartmouth.edu/tse/", false},
		{"another host", "http://cs50tse.cs.dartmouth.edu.evil/tse/", false},
		{"sibling directory", "http://cs50tse.cs.dartmouth.edu/tsex/", false},
		{"not normalized: upper-case host", "http://CS50TSE.cs.dartmouth.edu/tse/", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Default().Contains(tt.in); got != tt.want {
				t.Errorf("Default().Contains(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestNormalizeInternal checks the two together, as the crawler uses them.
func TestNormalizeInternal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"HTTP://CS50TSE.CS.DARTMOUTH.EDU/tse/", true},
		{"http://cs50tse.cs.dartmouth.edu//tse//letters/", true},
		{"http://cs50tse.cs.dartmouth.edu/tse/letters/../../tse/", true},
		{"http://cs50tse.cs.dartmouth.edu/tse/../", false},
		{"http://cs50tse.cs.dartmouth.edu/tse", false},
		{"http://cs50tse.cs.dartmouth.edu/TSE/", false},
	}
	for _, tt := range tests {
		norm, ok := refurl.Normalize(tt.in)
		if got := ok && Default().Contains(norm); got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; internal %v, want %v", tt.in, norm, ok, got, tt.want)
		}
	}
}
