package crawler

import (
	"strings"
	"testing"
	"testing/fstest"

	"tse-crawler/internal/browserurl"
)

// TestNormalizeField checks that the crawl keys pages with its Normalize
// function, and with the reference normalizer when that is nil: the same
// links give one page in html mode's WHATWG keys and three in the
// reference's.
func TestNormalizeField(t *testing.T) {
	fsys := fstest.MapFS{
		"tse/t/index.html": {Data: []byte(`<a href=a%20b.html>1</a> <a href=HTTP://CS50TSE.CS.DARTMOUTH.EDU:80/tse/t/a%20b.html>2</a> <a href=a%20b.html#x>3</a> <a href=x.pdf>4</a>`)},
		"tse/t/a b.html":   {Data: []byte(`a page with a space in its name`)},
	}
	tests := []struct {
		name      string
		normalize func(string) (string, bool)
		log       string // the log after the first two lines
	}{
		{"reference", nil, `
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Added: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Found: HTTP://CS50TSE.CS.DARTMOUTH.EDU:80/tse/t/a%20b.html
 0  IgnExtrn: http://cs50tse.cs.dartmouth.edu:80/tse/t/a%20b.html
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0   IgnDupl: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/x.pdf
 0  IgnExtrn: http://cs50tse.cs.dartmouth.edu/tse/t/x.pdf
 1    Fetched: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
`},
		{"whatwg", browserurl.Normalize, `
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Added: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Found: HTTP://CS50TSE.CS.DARTMOUTH.EDU:80/tse/t/a%20b.html
 0   IgnDupl: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0   IgnDupl: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
 0     Found: http://cs50tse.cs.dartmouth.edu/tse/t/x.pdf
 0  IgnExtrn: http://cs50tse.cs.dartmouth.edu/tse/t/x.pdf
 1    Fetched: http://cs50tse.cs.dartmouth.edu/tse/t/a%20b.html
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(fsys, 1, 0)
			h.c.Scope.(*scopeFuncs).key = tt.normalize
			if _, err := h.c.Crawl(t.Context(), site+"index.html"); err != nil {
				t.Fatalf("Crawl: %v\nstderr:\n%s", err, &h.errs)
			}
			_, log, _ := strings.Cut(h.log.String(), "Scanning: "+site+"index.html")
			if log != tt.log {
				t.Errorf("log:%s\nwant:%s", log, tt.log)
			}
		})
	}
}

// TestSiteOf checks the host that the dead-host watch files a page under:
// the one its request names, even for a key that net/url cannot parse
// whole.
func TestSiteOf(t *testing.T) {
	tests := []struct{ url, origin, host string }{
		{"http://h/x.html", "http://h", "h"},
		{"http://u:p@h:8080/x.html", "http://h:8080", "h:8080"},
		{"http://h:8080/%zz|.html", "http://h:8080", "h:8080"},
		{"https://[::1]:8443/a b", "https://[::1]:8443", "[::1]:8443"},
		{"http://h?q", "http://h", "h"},
		{"no scheme", "", ""},
		{"http://a b/", "", ""},
	}
	for _, tt := range tests {
		if got := originOf(tt.url); got != tt.origin {
			t.Errorf("originOf(%q) = %q, want %q", tt.url, got, tt.origin)
		}
		if got := hostOf(tt.url); got != tt.host {
			t.Errorf("hostOf(%q) = %q, want %q", tt.url, got, tt.host)
		}
	}
}
