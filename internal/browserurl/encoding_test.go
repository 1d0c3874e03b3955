package browserurl

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// encodingFor returns the encoding named name, as a browser reads an
// encoding label.
func encodingFor(t testing.TB, name string) encoding.Encoding {
	t.Helper()
	enc, err := htmlindex.Get(name)
	if err != nil {
		t.Fatalf("encoding %s: %v", name, err)
	}
	return enc
}

// TestResolveEncoded checks links in a document of a legacy encoding: the
// path in UTF-8, the query in the document's encoding, as the URL Standard
// says and browsers do. The WPT cases are those of WPT's
// url/resources/percent-encoding.json (its href tests, which serve the
// page with the charset in its Content-Type) and of
// encoding/legacy-mb-*/…-encode-href-errors-*.html, which expect a code
// point the encoding lacks as "%26%23" N "%3B".
func TestResolveEncoded(t *testing.T) {
	const page = "http://h.example/d/p.html?was=1"
	tests := []struct {
		name, enc, base, ref, want string
	}{
		{"windows-1252 path and query", "windows-1252", page, "caf\u00e9.html?x=\u00e9", "http://h.example/d/caf%C3%A9.html?x=%E9"},
		{"WPT U+2020 in windows-1252", "windows-1252", "https://doesnotmatter.invalid/", "https://doesnotmatter.invalid/?\u2020#\u2020", "https://doesnotmatter.invalid/?%86"},
		{"WPT U+2020 in UTF-8", "utf-8", "https://doesnotmatter.invalid/", "https://doesnotmatter.invalid/?\u2020#\u2020", "https://doesnotmatter.invalid/?%E2%80%A0"},
		{"WPT U+2020 missing from Big5", "big5", page, "?\u2020", "http://h.example/d/p.html?%26%238224%3B"},
		{"windows-1252 lacks U+8868", "windows-1252", page, "q.html?k=\u8868", "http://h.example/d/q.html?k=%26%2334920%3B"},
		{"Shift_JIS", "shift_jis", page, "\u8868.html?k=\u8868&s=\u30bd", `http://h.example/d/%E8%A1%A8.html?k=%95\&s=%83\`},
		{"Shift_JIS lacks U+00E9", "shift_jis", page, "q.html?k=\u00e9", "http://h.example/d/q.html?k=%26%23233%3B"},
		{"EUC-JP", "euc-jp", page, "q.html?k=\u8868", "http://h.example/d/q.html?k=%C9%BD"},
		{"gb18030", "gb18030", page, "q.html?k=\u00e9", "http://h.example/d/q.html?k=%A8%A6"},
		{"percent signs stay", "windows-1252", page, "q.html?x=%E9%zz%", "http://h.example/d/q.html?x=%E9%zz%"},
		{"the special-query set", "windows-1252", page, `q.html?a b"c'd<e>f` + "\x01g", "http://h.example/d/q.html?a%20b%22c%27d%3Ce%3Ef%01g"},
		{"tabs and newlines go", "windows-1252", page, " q.html?x=\t\u00e9\n\u00e9 ", "http://h.example/d/q.html?x=%E9%E9"},
		{"an absolute link", "windows-1252", page, "HTTPS://Other.example/\u00e9?\u00e9", "https://other.example/%C3%A9?%E9"},
		{"a scheme-relative link", "windows-1252", page, "//other.example?\u00e9", "http://other.example/?%E9"},
		{"an empty query", "windows-1252", page, "q.html?#\u00e9", "http://h.example/d/q.html?"},
		{"no query: none", "windows-1252", page, "\u00e9.html", "http://h.example/d/%C3%A9.html"},
		{"no query: the base's", "windows-1252", "http://h.example/p.html?x=%C3%A9", "#\u00e9", "http://h.example/p.html?x=%C3%A9"},
		{"a '?' in the fragment", "windows-1252", page, "#a?\u00e9", "http://h.example/d/p.html?was=1"},
		{"ws stays UTF-8", "windows-1252", page, "ws://h.example/?\u00e9", "ws://h.example/?%C3%A9"},
		{"a non-special scheme stays UTF-8", "windows-1252", page, "mailto:a@b.example?subject=\u00e9", "mailto:a@b.example?subject=%C3%A9"},
		{"ftp", "windows-1252", page, "ftp://h.example/?\u00e9", "ftp://h.example/?%E9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var enc encoding.Encoding
			if tt.enc != "utf-8" {
				enc = encodingFor(t, tt.enc)
			}
			got, ok := ResolveEncoded(tt.base, tt.ref, enc)
			if !ok || got != tt.want {
				t.Fatalf("ResolveEncoded(%q, %q, %s) = %q, %v, want %q", tt.base, tt.ref, tt.enc, got, ok, tt.want)
			}
			if !strings.HasPrefix(got, "http") {
				return
			}
			if key, ok := Normalize(got); !ok || key != got {
				t.Errorf("Normalize(%q) = %q, %v: not its own key", got, key, ok)
			}
		})
	}
}

// TestResolveEncodedFails checks that a link that does not resolve fails
// whatever the encoding.
func TestResolveEncodedFails(t *testing.T) {
	enc := encodingFor(t, "windows-1252")
	for _, ref := range []string{"http://[::1/?\u00e9", "http://h:99999/?\u00e9"} {
		if got, ok := ResolveEncoded(page, ref, enc); ok {
			t.Errorf("ResolveEncoded(%q, %q) = %q, want a failure", page, ref, got)
		}
	}
}

// FuzzResolveEncoded checks ResolveEncoded against Resolve: they succeed
// and fail together, agree but for the query, and agree on an ASCII link;
// and what ResolveEncoded gives is a key, when it is a page's URL.
func FuzzResolveEncoded(f *testing.F) {
	for _, s := range []string{"caf\u00e9.html?x=\u00e9", "?\u8868\u00e9#\u00e9", "//h?\u00e9", "q.html?a b%zz", "ws://h/?\u00e9", "\u00e9#?\u00e9"} {
		f.Add(page, s, false)
	}
	enc := map[bool]encoding.Encoding{false: encodingFor(f, "windows-1252"), true: encodingFor(f, "shift_jis")}
	f.Fuzz(func(t *testing.T, base, ref string, sjis bool) {
		got, ok := ResolveEncoded(base, ref, enc[sjis])
		want, wok := Resolve(base, ref)
		if ok != wok {
			t.Fatalf("ResolveEncoded(%q, %q) = %q, %v, but Resolve gives %q, %v", base, ref, got, ok, want, wok)
		}
		if !ok {
			return
		}
		if withoutQuery(got) != withoutQuery(want) || isASCII(ref) && got != want {
			t.Fatalf("ResolveEncoded(%q, %q) = %q, but Resolve gives %q", base, ref, got, want)
		}
		if key, ok := Normalize(got); ok && key != got {
			t.Fatalf("ResolveEncoded(%q, %q) = %q, whose key is %q", base, ref, got, key)
		}
	})
}

func withoutQuery(s string) string {
	before, _, _ := strings.Cut(s, "?")
	return before
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
