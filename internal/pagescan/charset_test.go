package pagescan_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/unicode"

	"tse-crawler/internal/pagescan"
)

// scanCharset runs s over page, whose Content-Type names charset, and
// returns the links it found, or nil.
func scanCharset(s pagescan.CharsetScanner, page []byte, charset string) []string {
	var links []string
	s.ScanCharset(index, page, charset, func(link string) { links = append(links, link) })
	return links
}

// utf16LE returns s in UTF-16LE with its byte order mark.
func utf16LE(t *testing.T, s string) string {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHTMLCharset checks that the html scanner decodes a page as a
// browser does, from its byte order mark, its Content-Type's charset, or
// its <meta>, in that order, and writes each link's path in UTF-8 and its
// query in the page's encoding. In windows-1252, é is 0xE9; in Shift_JIS,
// 表 (U+8868) is 0x95 0x5C, and there is no é, which becomes &#233;.
func TestHTMLCharset(t *testing.T) {
	const links = "<a href=\"caf\xe9.html?x=\xe9\">a</a>"
	const sjis = "<a href=\"\x95\x5c.html?k=\x95\x5c&amp;e=&eacute;\">a</a>"
	const cafe, cafeUTF8 = dir + "caf%C3%A9.html?x=%E9", dir + "caf%C3%A9.html?x=%C3%A9"
	const hyo = dir + "%E8%A1%A8.html?k=%95\\&e=%26%23233%3B"
	tests := []struct {
		name, charset, html string
		want                []string
	}{
		{"windows-1252 by <meta charset>", "", "<meta charset=windows-1252>" + links, []string{cafe}},
		{"windows-1252 by http-equiv", "", `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">` + links, []string{cafe}},
		{"windows-1252 by the Content-Type, though it reads as UTF-8", "windows-1252", "<a href=\"caf\xc3\xa9.html?x=\xc3\xa9\">a</a>", []string{dir + "caf%C3%83%C2%A9.html?x=%C3%A9"}},
		{"windows-1252, declared nowhere", "", links, []string{cafe}},
		{"UTF-8, declared nowhere", "", "<a href=\"caf\u00e9.html?x=\u00e9\">a</a>", []string{cafeUTF8}},
		{"UTF-8 after 1024 bytes of ASCII", "", strings.Repeat(" ", 1024) + "<a href=\"caf\u00e9.html?x=\u00e9\">a</a>", []string{cafeUTF8}},
		{"a <meta> after 1024 bytes does not count", "", strings.Repeat(" ", 1024) + "<meta charset=shift_jis>" + links, []string{cafe}},
		{"the Content-Type before the <meta>", "windows-1252", "<meta charset=shift_jis>" + links, []string{cafe}},
		{"an unknown charset does not count", "x-no-such", "<meta charset=windows-1252>" + links, []string{cafe}},
		{"a UTF-8 byte order mark before the Content-Type", "windows-1252", "\xef\xbb\xbf<a href=\"caf\u00e9.html?x=\u00e9\">a</a>", []string{cafeUTF8}},
		{"UTF-16 by its byte order mark, with UTF-8 queries", "shift_jis", utf16LE(t, "<a href=\"caf\u00e9.html?x=\u00e9\">a</a>"), []string{cafeUTF8}},
		{"Shift_JIS by <meta charset>", "", "<meta charset=shift_jis>" + sjis, []string{hyo}},
		{"Shift_JIS by the Content-Type", "Shift_JIS", sjis, []string{hyo}},
		{"a <base>, an iframe and a refresh in Shift_JIS", "shift_jis",
			"<base href=\"/b/?\x95\x5c\"><iframe src=\"i.html?\x95\x5c\"></iframe><meta http-equiv=refresh content=\"0; url=r.html?\x95\x5c\"><a href=\"?\x95\x5c\">",
			[]string{site + "/b/i.html?%95\\", site + "/b/r.html?%95\\", site + "/b/?%95\\"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scanCharset(new(pagescan.HTML), []byte(tt.html), tt.charset); !slices.Equal(got, tt.want) {
				t.Errorf("HTML.ScanCharset(%q, %q) = %q, want %q", tt.html, tt.charset, got, tt.want)
			}
			if tt.charset != "" {
				return
			}
			if got := scan(new(pagescan.HTML), index, []byte(tt.html)); !slices.Equal(got, tt.want) {
				t.Errorf("HTML.Scan(%q) = %q, want %q", tt.html, got, tt.want)
			}
		})
	}
}

// TestHTMLCharsetRegion checks that a region's bounds are found in the
// page's text, decoded: markers are given in UTF-8.
func TestHTMLCharsetRegion(t *testing.T) {
	r := &pagescan.Region{From: []byte("<h1>caf\u00e9</h1>"), Until: []byte("<h2>"), Scanner: new(pagescan.HTML)}
	page := "<a href=\"nav.html\">n</a><h1>caf\xe9</h1><a href=\"caf\xe9.html?x=\xe9\">a</a><h2><a href=\"foot.html\">f</a>"
	want := []string{dir + "caf%C3%A9.html?x=%E9"}
	if got := scanCharset(r, []byte(page), "windows-1252"); !slices.Equal(got, want) {
		t.Errorf("Region.ScanCharset(%q) = %q, want %q", page, got, want)
	}
}

// TestHTMLCharsetKept checks what Charset says a crawl must keep beside a
// page to scan it again without its Content-Type: the charset when it
// changes how the page reads, and nothing when the page's bytes say the
// same or override it.
func TestHTMLCharsetKept(t *testing.T) {
	tests := []struct {
		name, charset, html, want string
	}{
		{"no charset", "", "caf\xe9", ""},
		{"the same as the <meta>", "ISO-8859-1", "<meta charset=windows-1252>caf\xe9", ""},
		{"the same as the guess", "utf-8", "caf\u00e9", ""},
		{"a byte order mark overrides it", "shift_jis", "\xef\xbb\xbfcaf\u00e9", ""},
		{"an unknown charset", "x-no-such", "caf\xe9", ""},
		{"another than the <meta>'s", "Shift_JIS", "<meta charset=windows-1252>\x95\x5c", "Shift_JIS"},
		{"another than the guess", "windows-1252", "caf\u00e9", "windows-1252"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range []pagescan.CharsetScanner{new(pagescan.HTML), &pagescan.Region{Scanner: new(pagescan.HTML)}} {
				if got := s.Charset([]byte(tt.html), tt.charset); got != tt.want {
					t.Errorf("%T.Charset(%q, %q) = %q, want %q", s, tt.html, tt.charset, got, tt.want)
				}
			}
		})
	}
	r := &pagescan.Region{Scanner: new(pagescan.Reference)}
	if got := r.Charset([]byte("caf\u00e9"), "windows-1252"); got != "" {
		t.Errorf("a Region of the reference scanner keeps charset %q, want none", got)
	}
}
