package pagescan_test

import (
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
)

func TestParseRefresh(t *testing.T) {
	t.Parallel()
	tests := []struct {
		content string
		url     string
		hasURL  bool
		ok      bool
	}{
		{content: "0;url=api/index.html", url: "api/index.html", hasURL: true, ok: true},
		{content: "5; URL='x.html'", url: "x.html", hasURL: true, ok: true},
		{content: `5; url="x.html"tail`, url: "x.html", hasURL: true, ok: true},
		{content: `0; url='x.html`, url: "x.html", hasURL: true, ok: true}, // no end quote: to the end
		{content: "0, x.html", url: "x.html", hasURL: true, ok: true},
		{content: "0 x.html", url: "x.html", hasURL: true, ok: true},
		{content: "  3  ;  Url  =  x.html ", url: "x.html ", hasURL: true, ok: true},
		{content: "1.5.2; url=x.html", url: "x.html", hasURL: true, ok: true},
		{content: ".5;url=x.html", url: "x.html", hasURL: true, ok: true},
		{content: "0; 'x.html'", url: "x.html", hasURL: true, ok: true},
		{content: "0;urlx.html", url: "urlx.html", hasURL: true, ok: true},
		{content: "0;url x.html", url: "url x.html", hasURL: true, ok: true},
		{content: "0; ur.html", url: "ur.html", hasURL: true, ok: true},
		{content: "0; u.html", url: "u.html", hasURL: true, ok: true},
		{content: "0;url=", url: "", hasURL: true, ok: true},
		{content: "0;;x.html", url: ";x.html", hasURL: true, ok: true},
		{content: "0", hasURL: false, ok: true},
		{content: "0;", hasURL: false, ok: true},
		{content: "10 , ", hasURL: false, ok: true},
		{content: "", ok: false},
		{content: "soon", ok: false},
		{content: "url=x.html", ok: false},
		{content: "-1; url=x.html", ok: false},
		{content: "0x; url=x.html", ok: false},
		{content: "\u00a00; url=x.html", ok: false}, // not ASCII whitespace
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			url, hasURL, ok := pagescan.ParseRefresh(tt.content)
			if url != tt.url || hasURL != tt.hasURL || ok != tt.ok {
				t.Errorf("ParseRefresh(%q) = %q, %v, %v; want %q, %v, %v",
					tt.content, url, hasURL, ok, tt.url, tt.hasURL, tt.ok)
			}
			if got := refreshOracle(tt.content); got != (refreshResult{url, hasURL, ok}) {
				t.Errorf("refreshOracle(%q) = %+v, but ParseRefresh says %q, %v, %v", tt.content, got, url, hasURL, ok)
			}
		})
	}
}

// FuzzParseRefresh checks ParseRefresh against the standard's steps
// written out one by one.
func FuzzParseRefresh(f *testing.F) {
	for _, s := range []string{"0;url=a.html", "5; URL='x.html'", "0, x", ".5 url = \"q\"z", "0;urlx", "1", "x", " \t3\f;\rU"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		url, hasURL, ok := pagescan.ParseRefresh(content)
		if want := refreshOracle(content); (refreshResult{url, hasURL, ok}) != want {
			t.Fatalf("ParseRefresh(%q) = %q, %v, %v; the standard's steps give %+v", content, url, hasURL, ok, want)
		}
		if hasURL && !strings.Contains(content, url) {
			t.Fatalf("ParseRefresh(%q) = %q, which is not in the content", content, url)
		}
	})
}

type refreshResult struct {
	url        string
	hasURL, ok bool
}

// refreshOracle is the HTML Standard's shared declarative refresh steps,
// steps 2 to 11, transliterated: position is an index, "return" is
// failure, and the URL is returned instead of parsed.
func refreshOracle(input string) refreshResult {
	position := 0
	at := func() byte { // the code point at position, or 0 past the end
		if position < len(input) {
			return input[position]
		}
		return 0
	}
	pastEnd := func() bool { return position >= len(input) }
	isSpace := func(c byte) bool { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' }
	skipSpace := func() {
		for !pastEnd() && isSpace(at()) {
			position++
		}
	}
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }

	skipSpace()       // 3
	start := position // 5: collect digits
	for !pastEnd() && isDigit(at()) {
		position++
	}
	if position == start && at() != '.' { // 6
		return refreshResult{}
	}
	for !pastEnd() && (isDigit(at()) || at() == '.') { // 8
		position++
	}
	if !pastEnd() { // 10
		if c := at(); c != ';' && c != ',' && !isSpace(c) {
			return refreshResult{}
		}
		skipSpace()
		if c := at(); c == ';' || c == ',' {
			position++
		}
		skipSpace()
	}
	if pastEnd() { // 11 skipped: the page itself
		return refreshResult{ok: true}
	}
	urlString := input[position:] // 11.1
	var quote byte
	switch {
	case at() != 'U' && at() != 'u': // 11.2: jump to skip quotes
	default:
		position++
		if at() != 'R' && at() != 'r' { // 11.3: jump to parse
			return refreshResult{urlString, true, true}
		}
		position++
		if at() != 'L' && at() != 'l' { // 11.4
			return refreshResult{urlString, true, true}
		}
		position++
		skipSpace()      // 11.5
		if at() != '=' { // 11.6
			return refreshResult{urlString, true, true}
		}
		position++
		skipSpace() // 11.7
	}
	if c := at(); c == '\'' || c == '"' { // 11.8: skip quotes
		quote = c
		position++
	}
	urlString = input[position:] // 11.9
	if quote != 0 {              // 11.10
		if i := strings.IndexByte(urlString, quote); i >= 0 {
			urlString = urlString[:i]
		}
	}
	return refreshResult{urlString, true, true} // 11.11: parse
}
