package linkcheck_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"tse-crawler/internal/linkcheck"
	"tse-crawler/internal/pagefetch"
)

// hostileTexts are what a page or a server may put in a field of the
// report, each with how the report must show it.
var hostileTexts = []struct {
	name, raw, shown string
}{
	{"window title", "\x1b]0;pwned\x07x", `\x1b]0;pwned\x07x`},
	{"clear screen", "\x1b[2J", `\x1b[2J`},
	{"carriage return", "a\rb", `a\x0db`},
	{"C1 CSI", "\u009b31m", `\u009b31m`},
	{"invalid UTF-8", "\xff\x9b31m\xc3", `\xff\x9b31m\xc3`},
	{"right-to-left override", "\u202egnp.exe", `\u202egnp.exe`},
	{"isolate", "\u2067x\u2069", `\u2067x\u2069`},
}

// TestWriteTextEscapes writes a report with terminal controls in each of
// its fields, to a file, and finds them escaped: a report redirected to a
// file is read on a terminal too.
func TestWriteTextEscapes(t *testing.T) {
	fields := []struct {
		name string
		put  func(b *linkcheck.BrokenLink, s string)
	}{
		{"URL", func(b *linkcheck.BrokenLink, s string) { b.URL = "http://site/" + s }},
		{"fragment", func(b *linkcheck.BrokenLink, s string) { b.URL = "http://site/a.html#" + s }},
		{"status", func(b *linkcheck.BrokenLink, s string) { b.Status = s }},
		{"kind", func(b *linkcheck.BrokenLink, s string) { b.Kind = s }},
		{"referrer", func(b *linkcheck.BrokenLink, s string) { b.From[0].Page = "http://site/" + s }},
		{"referrer's URL", func(b *linkcheck.BrokenLink, s string) { b.From[0].URL = "http://site/" + s }},
	}
	for _, f := range fields {
		for _, h := range hostileTexts {
			t.Run(f.name+"/"+h.name, func(t *testing.T) {
				b := linkcheck.BrokenLink{URL: "http://site/u", Status: "404", Kind: linkcheck.KindPage,
					From: []linkcheck.Referrer{{Page: "http://site/", Line: 3, Column: 7}}}
				want := b
				want.From = []linkcheck.Referrer{b.From[0]}
				f.put(&b, h.raw)
				f.put(&want, h.shown)
				r := &linkcheck.Report{Pages: 1, Links: 1, Broken: []linkcheck.BrokenLink{b}}

				name := filepath.Join(t.TempDir(), "report")
				out, err := os.Create(name)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.WriteText(out); err != nil {
					t.Fatal(err)
				}
				if err := out.Close(); err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				var plain strings.Builder // want, with nothing to escape
				(&linkcheck.Report{Pages: 1, Links: 1, Broken: []linkcheck.BrokenLink{want}}).WriteText(&plain)
				if string(got) != plain.String() {
					t.Errorf("the report holds\n%q\nwant\n%q", got, plain.String())
				}
				if bad := terminalControls(got); bad != "" {
					t.Errorf("the report holds %q raw", bad)
				}
			})
		}
	}
}

// TestCheckerFragmentEscaped checks a page whose links name fragments
// full of terminal controls, each missing: the report names each link
// with its fragment escaped.
func TestCheckerFragmentEscaped(t *testing.T) {
	var page strings.Builder
	var links []int // the rows of hostileTexts linked to, in order
	for i, h := range hostileTexts {
		// A page's invalid UTF-8 is decoded away, and a URL drops its
		// CR, before the fragment is read.
		if utf8.ValidString(h.raw) && !strings.Contains(h.raw, "\r") {
			page.WriteString(`<a href="a.html#` + h.raw + `">x</a>` + "\n")
			links = append(links, i)
		}
	}
	c := &linkcheck.Checker{Web: &fakeWeb{}, Scheduler: pagefetch.NewScheduler(0, nil, 1), Scope: scope{}}
	c.Saved("http://site/", read("http://site/", page.String(), ""))
	c.Saved("http://site/a.html", read("http://site/a.html", `<h1 id=here>A</h1>`, ""))
	r, err := c.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	if err := r.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	for line, i := range links {
		want := "http://site/a.html#" + hostileTexts[i].shown + ": missing-fragment (fragment, 1 link)\n  http://site/:" + strconv.Itoa(line+1) + ":1\n"
		if !strings.Contains(got.String(), want) {
			t.Errorf("the report lacks\n%q\nit is\n%q", want, got.String())
		}
	}
	if bad := terminalControls([]byte(got.String())); bad != "" {
		t.Errorf("the report holds %q raw:\n%q", bad, got.String())
	}
}

// terminalControls returns what in b a terminal would obey, by the rules
// of package termsafe written anew: C0 controls but newline and tab, DEL,
// C1 controls, bytes of no valid UTF-8 sequence and bidirectional
// controls. It returns "" if there is none.
func terminalControls(b []byte) string {
	var bad []byte
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 || r < ' ' && r != '\n' && r != '\t' || r == 0x7f ||
			0x80 <= r && r <= 0x9f || unicode.Is(unicode.Bidi_Control, r) {
			bad = append(bad, b[:n]...)
		}
		b = b[n:]
	}
	return string(bad)
}

// TestCheckerFragmentDirective checks links with a text fragment
// (#:~:text=...): a browser takes the fragment directive, from ":~:" on,
// out of the fragment before it looks for the element it names, so
// only what comes before it must be an id, and nothing before it is the
// page's top.
func TestCheckerFragmentDirective(t *testing.T) {
	tests := []struct {
		name, href string
		missing    string // the fragment reported missing, or ""
	}{
		{"directive alone", "a.html#:~:text=hello", ""},
		{"id before it", "a.html#here:~:text=hello", ""},
		{"top before it", "a.html#top:~:text=x", ""},
		{"missing id before it", "a.html#gone:~:text=x", "gone:~:text=x"},
		{"two directives", "a.html#here:~:text=a:~:text=b", ""},
		{"no directive", "a.html#gone", "gone"},
		{"a tilde alone", "a.html#:~text", ":~text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &linkcheck.Checker{Web: &fakeWeb{}, Scheduler: pagefetch.NewScheduler(0, nil, 1), Scope: scope{}}
			c.Saved("http://site/", read("http://site/", `<a href="`+tt.href+`">x</a>`, ""))
			c.Saved("http://site/a.html", read("http://site/a.html", `<h1 id=here>A</h1>`, ""))
			r, err := c.Run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range r.Broken {
				got = append(got, b.URL)
			}
			var want []string
			if tt.missing != "" {
				want = []string{"http://site/a.html#" + tt.missing}
			}
			if !slices.Equal(got, want) {
				t.Errorf("broken %q, want %q", got, want)
			}
		})
	}
}

// TestWriteTextUnread: the pages not read for their links are listed
// apart, with the fix, and counted in the last line, in the singular for
// one.
func TestWriteTextUnread(t *testing.T) {
	tests := []struct {
		unread []string
		want   string
	}{
		{nil, "1 page checked, 2 links checked: 0 broken links to 0 targets\n"},
		{[]string{"http://site/big.html"}, "Not read for their links, as they are larger than -max-size (a larger -max-size reads them):\n" +
			"  http://site/big.html\n\n" +
			"1 page checked, 2 links checked: 0 broken links to 0 targets; 1 page not read (-max-size)\n"},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(len(tt.unread)), func(t *testing.T) {
			var b strings.Builder
			r := &linkcheck.Report{Pages: 1, Links: 2, Unread: tt.unread}
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("report:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}
