package pagescan_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tse-crawler/internal/browserurl"

	"tse-crawler/internal/pagescan"
)

// styleRequisites returns what StyleRequisites finds in sheet, at
// sheetURL, whose Content-Type names charset.
func styleRequisites(sheet, charset string) []string {
	var urls []string
	pagescan.StyleRequisites(sheetURL, []byte(sheet), charset, func(u string) { urls = append(urls, u) })
	return urls
}

const (
	sheetURL = "http://cs50tse.cs.dartmouth.edu/tse/css/site.css"
	sheetDir = "http://cs50tse.cs.dartmouth.edu/tse/css/"
)

// inSheetDir returns the names, resolved against sheetDir.
func inSheetDir(names ...string) []string {
	var urls []string
	for _, n := range names {
		urls = append(urls, sheetDir+n)
	}
	return urls
}

// TestStyleRequisites checks CSS Syntax Level 3's tokenizer on what makes
// a URL: url() with and without quotes, escapes, comments, strings, bad
// urls and bad strings, and which @import rules count.
func TestStyleRequisites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sheet string
		want        []string
	}{
		{"unquoted", `a{b:url(a.png)}`, inSheetDir("a.png")},
		{"spaces inside", "a{b:url(  \t\na.png \n)}", inSheetDir("a.png")},
		{"double quotes", `a{b:url("a b.png")}`, inSheetDir("a%20b.png")},
		{"single quotes, spaces", `a{b:url(  'a.png'  )}`, inSheetDir("a.png")},
		{"a quoted url's modifiers", `a{b:url("a.png" crossorigin("x.png"))}`, inSheetDir("a.png")},
		{"in any case", `a{b:URL(a.png) c:Url("b.png")}`, inSheetDir("a.png", "b.png")},
		{"an escaped name", `a{b:\75 rl(a.png) c:u\72l("b.png") d:u\rl(c.png)}`, inSheetDir("a.png", "b.png", "c.png")},
		{"not a url function", `a{b:-url(no.png) c:10url(no2.png) d:#url(no3.png) e:xurl(no4.png) f:src("no5.png")}`, nil},
		{"escapes in a url", `a{b:url(a\ b.png) c:url(c\).png) d:url(\64 .png) e:url(\000065.png) f:url(g\0 h)}`, inSheetDir("a%20b.png", "c).png", "d.png", "e.png", "g%EF%BF%BDh")},
		{"escapes in a string", "a{b:url(\"a\\\"b.png\") c:url('c\\\nd.png') d:url(\"\\65 .png\") e:url(\"f\\\r\ng.png\")}", inSheetDir("a%22b.png", "cd.png", "e.png", "fg.png")},
		{"comments", `/* a{b:url(no.png)} */ a/**/{ b: /* url(no2.png) */ url(a/**/b.png) }`, inSheetDir("a/**/b.png")},
		{"a comment left open", `a{b:url(a.png)} /* url(no.png)`, inSheetDir("a.png")},
		{"strings are not urls", `a{content:"url(no.png)" 'url(no2.png)'}`, nil},
		{"a url left open", `a{b:url(a.png`, inSheetDir("a.png")},
		{"a quoted url left open", `a{b:url("a.png`, inSheetDir("a.png")},
		{"bad urls", "a{b:url(a b.png) c:url(a\"b.png) d:url(a(b.png) e:url(a\\\nb.png) f:url(a\x01b.png) g:url(ok.png)}", inSheetDir("ok.png")},
		{"a bad url runs to its ')', escaped or not", `a{b:url(a b\) url(no.png)) c:url(ok.png)}`, inSheetDir("ok.png")},
		{"a bad string", "a{b:url(\"no\n.png) c:url(ok.png)}", inSheetDir("ok.png")},
		{"a url( function's first string only", `a{b:url(x "no.png") c:url("ok.png" "no2.png")}`, inSheetDir("ok.png")},
		{"image-set", `a{b:image-set("a.png" 1x, url(b.png) 2x, "c.avif" type("image/avif") 3x) c:-WEBKIT-image-set('d.png' 1x)}`, inSheetDir("a.png", "b.png", "d.png")}, // c.avif, 3x, is not picked
		{"font-face", `@font-face{font-family:F;src:local("F"),url(f.woff2) format("woff2"),url(f.woff) format("woff")}`, inSheetDir("f.woff2", "f.woff")},
		{"empty, fragment-only and data URLs", `a{b:url() c:url("") d:url(#g) e:url(" #g") f:url(data:image/png;base64,AA) g:url("javascript:x")}`, nil},
		{"absolute and schemeless URLs", `a{b:url(https://h/a.png) c:url(//h2/b.png) d:url(/c.png) e:url(../d.png)}`, []string{"https://h/a.png", "http://h2/b.png", "http://cs50tse.cs.dartmouth.edu/c.png", "http://cs50tse.cs.dartmouth.edu/tse/d.png"}},
		{"a fragment goes", `a{b:url(s.svg#icon)}`, inSheetDir("s.svg")},
		{"NUL and non-ASCII", "a{b:url(\x00.png) c:url(\u00e9.png)}", inSheetDir("%EF%BF%BD.png", "%C3%A9.png")},
		{"not in a selector or a prelude", `url(no.png) {} @supports (background: url(no2.png)) { a { b: url(ok.png) } } @media url(no3.png) {}`, inSheetDir("ok.png")},
		// @import
		{"import", `@import "a.css"; @import 'b.css' screen; @import url(c.css) print; @import url("d.css") layer(x) supports(display: grid);`, inSheetDir("a.css", "b.css", "c.css", "d.css")},
		{"import after charset and layer statements, and HTML comments", `@charset "utf-8"; <!-- @layer base, x; @import "a.css"; --> @import "b.css"`, inSheetDir("a.css", "b.css")},
		{"no import after a rule", `a{} @import "no.css"; b{c:url(ok.png)}`, inSheetDir("ok.png")},
		{"no import after a layer block", `@layer x {} @import "no.css";`, nil},
		{"no import after @namespace, whose URL loads nothing", `@namespace svg url(http://www.w3.org/2000/svg); @import "no.css";`, nil},
		{"an import inside a block", `@media print { @import "no.css"; @import url(no2.css); a { b: url(ok.png) } }`, inSheetDir("ok.png")},
		{"an import with a block", `@import "no.css" { a { b: url(no.png) } } @import "no2.css";`, nil},
		{"an import without a URL first", `@import screen "no.css"; @import url(ok.css);`, inSheetDir("ok.css")},
		{"an import's other URLs", `@import "a.css" supports(background: url(no.png));`, inSheetDir("a.css")},
		{"a semicolon in a selector ends nothing", `a; @import "no.css"; b {}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := styleRequisites(tt.sheet, ""); !slices.Equal(got, tt.want) {
				t.Errorf("StyleRequisites(%q, %q) = %q, want %q", sheetURL, tt.sheet, got, tt.want)
			}
		})
	}
}

// TestStyleRequisitesCharset checks that a sheet's encoding comes from its
// byte order mark, then its Content-Type, then an @charset rule written
// exactly so, else UTF-8, and that queries are written in it.
func TestStyleRequisitesCharset(t *testing.T) {
	t.Parallel()
	const rules = "a{b:url(\"caf\xe9.png?\xe9\")}"
	latin := inSheetDir("caf%C3%A9.png?%E9")
	utf8 := inSheetDir("caf%C3%A9.png?%C3%A9")
	tests := []struct {
		name, charset, sheet string
		want                 []string
	}{
		{"@charset", "", `@charset "windows-1252";` + rules, latin},
		{"the Content-Type", "iso-8859-1", rules, latin},
		{"the Content-Type before @charset", "windows-1252", `@charset "shift_jis";` + rules, latin},
		{"an unknown Content-Type does not count", "x-no-such", `@charset "windows-1252";` + rules, latin},
		{"a byte order mark before the Content-Type", "windows-1252", "\xef\xbb\xbfa{b:url(\"caf\u00e9.png?\u00e9\")}", utf8},
		{"UTF-16 by its byte order mark, with UTF-8 queries", "", utf16LE(t, "a{b:url(\"caf\u00e9.png?\u00e9\")}"), utf8},
		{"@charset utf-16 means UTF-8", "", `@charset "utf-16";a{b:url("caf` + "\u00e9.png?\u00e9" + `")}`, utf8},
		{"@charset written otherwise does not count", "", `@charset  "windows-1252";a{b:url("caf` + "\u00e9.png?\u00e9" + `")}`, utf8},
		{"@CHARSET does not count", "", `@CHARSET "windows-1252";a{b:url("caf` + "\u00e9.png?\u00e9" + `")}`, utf8},
		{"UTF-8 by default", "", "a{b:url(\"caf\u00e9.png?\u00e9\")}", utf8},
		{"not UTF-8, declared nowhere", "", rules, inSheetDir("caf%EF%BF%BD.png?%EF%BF%BD")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := styleRequisites(tt.sheet, tt.charset); !slices.Equal(got, tt.want) {
				t.Errorf("StyleRequisites(%q, %q, %q) = %q, want %q", sheetURL, tt.sheet, tt.charset, got, tt.want)
			}
		})
	}
}

// TestStyleRequisitesDeep checks that nesting costs no more than the
// sheet's size, and counts: a url() is in a block or not.
func TestStyleRequisitesDeep(t *testing.T) {
	t.Parallel()
	if got := styleRequisites(strings.Repeat("(", 100_000)+"url(deep.png)", ""); got != nil {
		t.Errorf("url() outside a block, 100,000 parentheses deep: StyleRequisites = %q, want none", got)
	}
	if got := styleRequisites("a{"+strings.Repeat("(", 100_000)+"url(deep.png)", ""); !slices.Equal(got, inSheetDir("deep.png")) {
		t.Errorf("url() in a block, 100,000 parentheses deep: StyleRequisites = %q, want %q", got, inSheetDir("deep.png"))
	}
}

// fuzzCharsets are the Content-Type charsets the requisite fuzzers pick
// from.
var fuzzCharsets = []string{"", "windows-1252", "shift_jis", "utf-16le"}

// checkRequisite fails t unless u is what Requisites and StyleRequisites
// promise: an absolute http or https URL without a fragment, which the
// URL standard's parser reads back as itself.
func checkRequisite(t *testing.T, what, u string) {
	t.Helper()
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.Contains(u, "#") {
		t.Fatalf("%s found %q, which is not an http or https URL without a fragment", what, u)
	}
	if again, err := browserurl.Canonical(u); err != nil || again != u {
		t.Fatalf("%s found %q, which the parser reads as %q (%v)", what, u, again, err)
	}
}

// styleSeeds are sheets for the stylesheet fuzzers.
var styleSeeds = []string{
	`@charset "utf-8"; @import url(a.css) screen; @import "b.css"; a{b:url(c.png)}`,
	`@namespace svg url(http://www.w3.org/2000/svg); a { background: image-set("x.png" 1x, url(y.png) 2x) }`,
	`@font-face { src: url("f.woff2") format("woff2"), local(F) } /* url(no.png) */`,
	"a{b:url(a\\ b\\).png) c:url( \"d\\\ne.png\" ) d:url(\\75 rl)}",
	"a{b:url(x y) c:url(\"z\n) d:url(\\0) e:10url(f)",
	`@media print { @import "n.css"; a { b: url(../up.png?q#f) } }`,
	`@charset "windows-1252"; a{b:url("caf` + "\xe9" + `.png?` + "\xe9" + `")}`,
}

func FuzzStyleRequisites(f *testing.F) {
	for i, s := range styleSeeds {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, sheet []byte) {
		sheetURL := fuzzPages[int(which)%len(fuzzPages)]
		charset := fuzzCharsets[int(which)/len(fuzzPages)%len(fuzzCharsets)]
		var got []string
		pagescan.StyleRequisites(sheetURL, sheet, charset, func(u string) { got = append(got, u) })
		what := fmt.Sprintf("StyleRequisites(%q, %q, %q)", sheetURL, sheet, charset)
		for _, u := range got {
			checkRequisite(t, what, u)
		}
		// The same text in a <style> loads the same, but for @charset and
		// a byte order mark, which only a sheet's bytes read.
		s := string(sheet)
		if charset == "" && utf8.ValidString(s) && !strings.Contains(strings.ToLower(s), "</style") &&
			!strings.HasPrefix(s, `@charset "`) && !strings.HasPrefix(s, "\ufeff") {
			if fromPage := requisites(sheetURL, "<style>"+s+"</style>", "utf-8"); !slices.Equal(fromPage, got) {
				t.Fatalf("%s = %q, but in a <style> %q", what, got, fromPage)
			}
		}
	})
}

// FuzzStyleRoundTrip checks that any URL, escaped in a CSS string or in an
// unquoted url(), comes back as the URL standard reads it, unless it is
// empty or a fragment, or not http or https. A NUL cannot round-trip: it
// becomes U+FFFD, and so do bytes that are not UTF-8.
func FuzzStyleRoundTrip(f *testing.F) {
	for _, s := range []string{"a.png", " ../k.png#top\n", `x"y'z()\`, "//h/p", "\tq\r\nr", "é%zz", "#f", "data:,x", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		if strings.ContainsRune(ref, 0) || !utf8.ValidString(ref) {
			return
		}
		var want []string
		trimmed := strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
		if u, ok := browserurl.Resolve(sheetURL, ref); ok && trimmed != "" && trimmed[0] != '#' &&
			(strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
			want = []string{u}
		}
		for _, sheet := range []string{
			`a{b:url("` + cssEscape(ref) + `")}`,
			`a{b:url('` + cssEscape(ref) + `')}`,
			`a{b:url(` + cssEscape(ref) + `)}`,
			`@import "` + cssEscape(ref) + `";`,
			`a{b:image-set("` + cssEscape(ref) + `" 1x)}`,
		} {
			if got := styleRequisites(sheet, ""); !slices.Equal(got, want) {
				t.Fatalf("StyleRequisites(%q, %q) = %q, want %q", sheetURL, sheet, got, want)
			}
		}
	})
}

// cssEscape escapes s for a CSS string or an unquoted url(): every
// character but letters, digits and a few safe ones becomes a hex escape
// ended by a space.
func cssEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("./:-_?&=%", r) {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "\\%x ", r)
	}
	return b.String()
}
