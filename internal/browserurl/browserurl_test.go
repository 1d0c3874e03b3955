package browserurl

import (
	"strings"
	"testing"
)

const page = "http://cs50tse.cs.dartmouth.edu/tse/dir/index.html"

func TestResolve(t *testing.T) {
	tests := []struct {
		name, base, ref, want string
		ok                    bool
	}{
		{"plain relative", page, "a.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/a.html", true},
		{"space in a path", page, "a b.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/a%20b.html", true},
		{"escaped space", page, "a%20b.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/a%20b.html", true},
		{"non-ASCII path", page, "café.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/caf%C3%A9.html", true},
		{"escaped non-ASCII", page, "caf%C3%A9.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/caf%C3%A9.html", true},
		{"lower-case escapes are kept", page, "caf%c3%a9.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/caf%c3%a9.html", true},
		{"backslashes", page, `\other\x.html`, "http://cs50tse.cs.dartmouth.edu/other/x.html", true},
		{"same scheme, no slashes", page, "http:x.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/x.html", true},
		{"other scheme, no slashes", page, "https:x.html", "https://x.html/", true},
		{"host without a path", page, "http://host", "http://host/", true},
		{"space in a query", page, "search.html?q=a b", "http://cs50tse.cs.dartmouth.edu/tse/dir/search.html?q=a%20b", true},
		{"quote in a query", page, "s.html?q='x'", "http://cs50tse.cs.dartmouth.edu/tse/dir/s.html?q=%27x%27", true},
		{"default port", page, "http://host:80/x.html", "http://host/x.html", true},
		{"other port", page, "http://host:8080/x.html", "http://host:8080/x.html", true},
		{"https default port", page, "https://host:443/x.html", "https://host/x.html", true},
		{"upper-case scheme and host", page, "HTTP://CS50TSE.CS.Dartmouth.EDU/tse/A.html", "http://cs50tse.cs.dartmouth.edu/tse/A.html", true},
		{"IDNA host", page, "http://Bücher.example/x.html", "http://xn--bcher-kva.example/x.html", true},
		{"IPv4 in hex", page, "http://0x7f.1/", "http://127.0.0.1/", true},
		{"IPv6", page, "http://[0:0::1]:80/", "http://[::1]/", true},
		{"escaped dot segments", page, "%2e%2E/x.html", "http://cs50tse.cs.dartmouth.edu/tse/x.html", true},
		{"dot segments", page, "../../x.html", "http://cs50tse.cs.dartmouth.edu/x.html", true},
		{"above the root", page, "../../../../x.html", "http://cs50tse.cs.dartmouth.edu/x.html", true},
		{"escaped slash is no separator", page, "..%2Fx.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/..%2Fx.html", true},
		{"double slashes are kept", page, "a//b.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/a//b.html", true},
		{"protocol-relative", page, "//Other.EXAMPLE/x.html", "http://other.example/x.html", true},
		{"fragment dropped", page, "a.html#top", "http://cs50tse.cs.dartmouth.edu/tse/dir/a.html", true},
		{"fragment only", page, "#top", page, true},
		{"empty", page, "", page, true},
		{"query only", page + "?x=1", "?y=2", page + "?y=2", true},
		{"empty query kept", page, "a.html?", "http://cs50tse.cs.dartmouth.edu/tse/dir/a.html?", true},
		{"pipe and caret stay raw", page, "x|y^z.html?a|b^c", "http://cs50tse.cs.dartmouth.edu/tse/dir/x|y^z.html?a|b^c", true},
		{"bad escape stays", page, "%zz.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/%zz.html", true},
		{"spaces and newlines trimmed", page, " \n a\tb.html\r\n ", "http://cs50tse.cs.dartmouth.edu/tse/dir/ab.html", true},
		{"colon in a name is a scheme", page, "File:Logo.png", "file:///Logo.png", true},
		{"colon after a slash", page, "x/File:Logo.png", "http://cs50tse.cs.dartmouth.edu/tse/dir/x/File:Logo.png", true},
		{"mailto", page, "mailto:a@example.org", "mailto:a@example.org", true},
		{"javascript", page, "javascript:go('x')", "javascript:go('x')", true},
		{"user-info", page, "http://u:p@host/x.html", "http://u:p@host/x.html", true},
		{"base with a query", page + "?q=1", "a.html", "http://cs50tse.cs.dartmouth.edu/tse/dir/a.html", true},
		{"bad port", page, "http://f:b/c", "", false},
		{"port too large", page, "http://f:65536/c", "", false},
		{"space in a host", page, "//a b/", "", false},
		{"empty host", page, "http:///", "", false},
		{"bad IPv6", page, "http://[::1/", "", false},
		{"relative base", "index.html", "a.html", "", false},
		{"opaque base", "mailto:x", "a.html", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Resolve(tt.base, tt.ref)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Resolve(%q, %q) = %q, %v, want %q, %v", tt.base, tt.ref, got, ok, tt.want, tt.ok)
			}
			// The parser alone must agree, whichever way Resolve went.
			if got, ok := resolve(tt.base, tt.ref); got != tt.want || ok != tt.ok {
				t.Errorf("resolve(%q, %q) = %q, %v, want %q, %v", tt.base, tt.ref, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"key", "http://host/a.html", "http://host/a.html", true},
		{"no path", "http://host", "http://host/", true},
		{"default port", "http://host:80/x.html", "http://host/x.html", true},
		{"https default port", "https://host:443/", "https://host/", true},
		{"upper case", "HTTP://Host/A.HTML", "http://host/A.HTML", true},
		{"space", "http://host/a b.html", "http://host/a%20b.html", true},
		{"non-ASCII", "http://host/café.html", "http://host/caf%C3%A9.html", true},
		{"fragment", "http://host/a.html#x", "http://host/a.html", true},
		{"backslash", `http://host\a\b.html`, "http://host/a/b.html", true},
		{"trailing slash", "http://host/dir/", "http://host/dir/", true},
		{"no extension", "http://host/dir/x", "http://host/dir/x", true},
		{"empty extension", "http://host/p.", "http://host/p.", true},
		{"htm", "http://host/x.htm", "http://host/x.htm", true},
		{"html5", "http://host/x.HTML5", "http://host/x.HTML5", true},
		{"dot in a directory", "http://host/v1.2/x", "http://host/v1.2/x", true},
		{"query is no extension", "http://host/x.html?f=a.pdf", "http://host/x.html?f=a.pdf", true},
		{"pdf", "http://host/x.pdf", "", false},
		{"png after escaping", "http://host/a b.png", "", false},
		{"php", "http://host/x.php?a=1", "", false},
		{"ftp", "ftp://host/x.html", "", false},
		{"mailto", "mailto:a@example.org", "", false},
		{"relative", "x.html", "", false},
		{"bad port", "http://host:x/", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Normalize(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Normalize(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// keyOf is key, under a name that the fuzz target's variables leave free.
var keyOf = key

// TestKey: Key keys any http or https URL as Normalize keys a page,
// whatever its extension.
func TestKey(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"http://host/a.html#x", "http://host/a.html", true},
		{"HTTP://Host:80/css/site.css", "http://host/css/site.css", true},
		{"http://host/a b.png", "http://host/a%20b.png", true},
		{"https://host/f.woff2?v=1#x", "https://host/f.woff2?v=1", true},
		{`http://host\img\x.svg`, "http://host/img/x.svg", true},
		{"http://host", "http://host/", true},
		{"data:image/png;base64,AAAA", "", false},
		{"ftp://host/x.png", "", false},
		{"x.png", "", false},
		{"http://host:x/", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got, ok := Key(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("Key(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            string // a phrase of the error, or "" for none
	}{
		{"prefix", "http://example.edu/docs/", "http://example.edu/docs/", ""},
		{"no path", "http://example.edu", "http://example.edu/", ""},
		{"case, port and space", "HTTP://Example.EDU:80/a b/", "http://example.edu/a%20b/", ""},
		{"wildcard kept", "http://*.Example.edu/", "http://*.example.edu/", ""},
		{"fragment kept for scope to refuse", "http://x/#f", "http://x/#f", ""},
		{"query kept for scope to refuse", "http://x/?q", "http://x/?q", ""},
		{"not a URL", "example.edu/", "", "not a URL a browser can parse"},
		{"bad host", "http://exa mple.edu/", "", "not a URL a browser can parse"},
		{"ftp", "ftp://example.edu/", "", "not an http or https URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical(tt.in)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Canonical(%q): %v", tt.in, err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("Canonical(%q) = %q, %v, want an error saying %q", tt.in, got, err, tt.err)
			case got != tt.want:
				t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestPlain checks the parser's shortcuts on the cases at their edges:
// each must either decline or give what the parser gives.
func TestPlain(t *testing.T) {
	keys := []struct {
		s     string
		plain bool
	}{
		{"http://host/", true},
		{"https://a-b.c0/x/y.html?q=1&r=|^`{}", true},
		{"http://host:8080/", true},
		{"http://host:80/", false},    // the default port goes
		{"https://host:443/", false},  // likewise
		{"http://host:08080/", false}, // leading zero goes
		{"http://host:65536/", false}, // too large
		{"http://host:65535/", true},  // the largest
		{"http://Host/", false},       // upper case
		{"http://xn--bcher-kva.example/", false},
		{"http://1.2.3.4/", true}, // an address as it serializes
		{"http://127.0.0.1:8080/", true},
		{"http://255.255.255.255/", true},
		{"http://256.0.0.1/", false},   // out of range: a failure
		{"http://1.2.3/", false},       // three parts
		{"http://1.2.3.4.5/", false},   // five parts
		{"http://01.2.3.4/", false},    // octal
		{"http://0x1.2.3.4/", false},   // hexadecimal
		{"http://a.1.2.3/", false},     // a number last, a letter first
		{"http://1.2.3.4./", false},    // a trailing dot
		{"http://a.b1/", true},         // a label that is no number
		{"http://host./", false},       // a trailing dot
		{"http://a..b/", false},        // an empty label
		{"http://u@host/", false},      // user-info
		{"http://host", false},         // no path
		{"http://host/a b", false},     // space
		{"http://host/a\\b", false},    // backslash
		{"http://host/a/../b", false},  // dot segment
		{"http://host/a/%2E/b", false}, // escaped dot segment
		{"http://host/a/.%2e", false},
		{"http://host/a/...", true},  // three dots are a name
		{"http://host/a?q='", false}, // quote in a query
		{"http://host/a#f", false},   // fragment
		{"http://host/caf\u00e9", false},
	}
	for _, k := range keys {
		if got := plainKey(k.s); got != k.plain {
			t.Errorf("plainKey(%q) = %v, want %v", k.s, got, k.plain)
		}
		if s, ok := serialize(k.s); k.plain && (!ok || s != k.s) {
			t.Errorf("plainKey(%q) is true, but the parser gives %q, %v", k.s, s, ok)
		}
	}
	refs := []string{"a.html", "a/b.html?x=1#y", "", "#f", "?q", "/abs", `\x`, "../x", "./x", "a:b", "a/b:c", "x y", "http://host/x", "HTTP://host/x", "//host/x", "a?b'c",
		"..", ".", "../", "./", "a/..", "a/.", "a/%2e%2E", "../../../../../x", "a//../b", "/", "/?q", "//host", "///host/x", "//host:80/x", "/.%2e/x", "a?b:c", "a?b/c:d", "../a?../b"}
	for _, base := range []string{page, "http://127.0.0.1:8080/a/b/c?q", "https://h:8443/"} {
		for _, ref := range refs {
			got, ok := resolvePlain(base, ref)
			want, wok := resolve(base, ref)
			if ok && (!wok || got != want) {
				t.Errorf("resolvePlain(%q, %q) = %q, but the parser gives %q, %v", base, ref, got, want, wok)
			}
		}
		// The common links must not go to the parser.
		for _, ref := range []string{"a.html#f", "../x", "./x", "/abs", "?q", "..", "a/..", "//host/x", "http://host/x"} {
			if _, ok := resolvePlain(base, ref); !ok {
				t.Errorf("resolvePlain(%q, %q) leaves it to the parser", base, ref)
			}
		}
	}
}

// FuzzResolve checks that Resolve never panics, that it gives what the
// parser alone gives, that keying a resolved link is idempotent, and that a
// link that cannot be resolved against a page is no page by itself either.
// Its seeds are every entry of the WPT suite, every link in testdata, and
// a link of each shape on the playground's site, when it is there, on its
// pages and on loopback.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"a.html", "a b.html", `\other\x.html`, "http:x.html", "http://host", "?q=a b", "../%2e/x", "#f", "//h:80/", "http://[::1]/", "File:x.png", "http://Bücher.example/"} {
		f.Add(page, s)
	}
	f.Add("http://h/a/b?q", "c")
	f.Add("https://h:8443/", "x/y/../z.html")
	for _, l := range seedLinks(f) {
		f.Add(l.base, l.href)
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		got, ok := Resolve(base, ref)
		if want, wok := resolve(base, ref); got != want || ok != wok {
			t.Fatalf("Resolve(%q, %q) = %q, %v, but the parser gives %q, %v", base, ref, got, ok, want, wok)
		}
		if plainKey(base) {
			if s, ok := serialize(base); !ok || s != base {
				t.Fatalf("plainKey(%q), but the parser gives %q, %v", base, s, ok)
			}
		}
		if !ok {
			// The html scanner reports such a link as written, and the
			// crawler must then find it no page of its own.
			if key, ok := Normalize(ref); ok && isKey(base) {
				t.Fatalf("Resolve(%q, %q) fails, but Normalize(%q) = %q", base, ref, ref, key)
			}
			return
		}
		key, ok := Normalize(got)
		if !ok {
			return
		}
		if again, ok := Normalize(key); !ok || again != key {
			t.Fatalf("Resolve(%q, %q) = %q, key %q, which normalizes to %q, %v", base, ref, got, key, again, ok)
		}
	})
}

// isKey reports whether s is an http or https URL that serializes to itself.
func isKey(s string) bool {
	k, ok := serialize(s)
	return ok && k == s
}

// FuzzNormalize checks that Normalize never panics, gives what the parser
// alone gives, and is idempotent, and that what it keeps is an http or
// https URL with no fragment. Its seeds are FuzzResolve's links, resolved.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"http://host/a.html", "HTTP://Host:80", "http://host/a b.html#x", `http:\\h\a`, "https://[::1]:443/", "http://0x7f.1/x.pdf", "http://h/%2e%2e/x", "http://xn--bcher-kva.example/"} {
		f.Add(s)
	}
	for _, l := range seedLinks(f) {
		if u, ok := resolve(l.base, l.href); ok {
			f.Add(u)
		} else {
			f.Add(l.href)
		}
	}
	f.Fuzz(func(t *testing.T, raw string) {
		key, ok := Normalize(raw)
		if want, wok := normalize(raw); key != want || ok != wok {
			t.Fatalf("Normalize(%q) = %q, %v, but the parser gives %q, %v", raw, key, ok, want, wok)
		}
		anyKey, anyOK := Key(raw)
		if want, wok := keyOf(raw); anyKey != want || anyOK != wok {
			t.Fatalf("Key(%q) = %q, %v, but the parser gives %q, %v", raw, anyKey, anyOK, want, wok)
		}
		if ok && anyKey != key {
			t.Fatalf("Key(%q) = %q, %v, but Normalize gives %q", raw, anyKey, anyOK, key)
		}
		if !ok {
			if key != "" {
				t.Fatalf("Normalize(%q) = %q, false: want \"\"", raw, key)
			}
			return
		}
		if !strings.HasPrefix(key, "http://") && !strings.HasPrefix(key, "https://") || strings.Contains(key, "#") {
			t.Fatalf("Normalize(%q) = %q: not an http or https URL without a fragment", raw, key)
		}
		if again, ok := Normalize(key); !ok || again != key {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", raw, key, again, ok)
		}
	})
}
