package urlnorm

import (
	"strings"
	"testing"
)

func TestServerPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain", "/tse/letters/A.html", "/tse/letters/A.html"},
		{"root", "/", "/"},
		{"empty", "", ""},
		{"other escapes kept", "/tse/a%20b.html", "/tse/a%20b.html"},
		{"UTF-8 escapes kept", "/tse/Human%e2%80%93computer.html", "/tse/Human%e2%80%93computer.html"},

		// The escapes that climb out of /tse/, in every spelling.
		{"%2e%2e", "/tse/%2e%2e/secret.html", "/secret.html"},
		{"%2E%2E", "/tse/%2E%2E/secret.html", "/secret.html"},
		{"%2e%2E", "/tse/%2e%2E/secret.html", "/secret.html"},
		{".%2E", "/tse/.%2E/secret.html", "/secret.html"},
		{".%2e", "/tse/.%2e/secret.html", "/secret.html"},
		{"%2E.", "/tse/%2E./x.html", "/x.html"},
		{"%2e.", "/tse/%2e./x.html", "/x.html"},
		{"..%2f", "/tse/..%2fsecret.html", "/secret.html"},
		{"..%2F", "/tse/..%2Fsecret.html", "/secret.html"},
		{"..%2F and ..%2f", "/tse/..%2Fx/..%2f..%2fy.html", "/y.html"},
		{"%2f..%2f inside one segment", "/tse/a%2f..%2f..%2fb.html", "/b.html"},
		{"all escaped", "%2ftse%2f%2e%2e%2fsecret.html", "/secret.html"},
		{"..%5c", "/tse/..%5csecret.html", "/secret.html"},
		{"..%5C", "/tse/..%5Csecret.html", "/secret.html"},
		{"backslash", `/tse/..\secret.html`, "/secret.html"},
		{"backslash as separator", `/tse\a\b.html`, "/tse/a/b.html"},
		{"above the root is clamped", "/%2e%2e/%2e%2e/x.html", "/x.html"},
		{"ends in %2e%2e", "/tse/x/%2e%2e", "/tse/"},
		{"ends in %2e%2e past /tse", "/tse/%2e%2e", "/"},

		// Escapes that stay inside.
		{"%2e%2e back into /tse", "/tse/x/%2e%2e/y.html", "/tse/y.html"},
		{"%2e alone", "/tse/%2e/y.html", "/tse/y.html"},
		{"%2e inside a name", "/tse/a%2ehtml", "/tse/a.html"},
		{"three dots are a name", "/tse/%2e%2e%2e/x.html", "/tse/.../x.html"},
		{"%2f inside a name", "/tse/a%2fb.html", "/tse/a/b.html"},

		// A server decodes once: these are names, not dots.
		{"double escape", "/tse/%252e%252e/secret.html", "/tse/%252e%252e/secret.html"},
		{"double escape of /", "/tse/..%252fsecret.html", "/tse/..%252fsecret.html"},
		{"'%' before an escape", "/tse/%%2e%2e/x.html", "/tse/%../x.html"},
		{"cut escape", "/tse/.%2", "/tse/.%2"},
		{"cut escape at the end", "/tse/%2e%", "/tse/.%"},
		{"not hex", "/tse/%2g%2e/x", "/tse/%2g./x"},

		// Slash runs collapse before dot segments go, as nginx does.
		{"slash run", "/tse//x.html", "/tse/x.html"},
		{"slash run then ..", "/tse//../x.html", "/x.html"},
		{"escaped slash run", "/tse/%2f%2f..%2fx.html", "/x.html"},

		// Path parameters on a dot segment, as Tomcat reads them.
		{"..;params", "/tse/..;jsessionid=1/secret.html", "/secret.html"},
		{"%2e%2e;params", "/tse/%2e%2e;x/secret.html", "/secret.html"},
		{".;params", "/tse/.;x/y.html", "/tse/y.html"},
		{"..; at the end", "/tse/..;x", "/"},
		{"params elsewhere kept", "/tse/a;b/c.html", "/tse/a;b/c.html"},
		{"...;x is a name", "/tse/...;x/c.html", "/tse/...;x/c.html"},
		{"params on a name, with a dot segment", "/tse/a;b/../c.html", "/tse/c.html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ServerPath(tt.in); got != tt.want {
				t.Errorf("ServerPath(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestServerPathAllocs guards the fast path: a path with nothing to
// decode or resolve, escapes of other characters included, costs nothing.
func TestServerPathAllocs(t *testing.T) {
	for _, p := range []string{
		"/tse/wikipedia/Linked_list.html",
		"/tse/wikipedia/Human%e2%80%93computer_interaction.html",
		"/tse/toscrape/catalogue/a-light-in-the-attic_1000/index.html",
		"/tse/a;b/.../c.html",
	} {
		if got := testing.AllocsPerRun(100, func() { ServerPath(p) }); got != 0 {
			t.Errorf("ServerPath(%q) allocated %.0f times, want none", p, got)
		}
	}
}

// BenchmarkServerPath reports the cost of the check on the paths of
// benchURLs, which the crawler pays for every internal link.
func BenchmarkServerPath(b *testing.B) {
	var paths []string
	for _, u := range benchURLs {
		if n, ok := Normalize(u); ok {
			rest := n[strings.Index(n, "://")+3:]
			paths = append(paths, rest[strings.IndexByte(rest, '/'):])
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paths {
			ServerPath(p)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
}

// FuzzServerPath checks ServerPath against a model written differently:
// decode with a strings.Replacer, then split into segments and resolve them
// with a stack, as the playground server does. It also checks that the
// result is a fixed point and holds nothing a server would still resolve.
func FuzzServerPath(f *testing.F) {
	for _, s := range []string{
		"/tse/%2e%2e/secret.html", "/tse/.%2E/x", "/tse/..%2Fx/..%2f..%2fy.html",
		"/tse/%252e%252e/x", `/tse/..\x`, "/tse/..%5cx", "/tse//../x", "/tse/..;a/x",
		"/tse/a%20b.html", "", "/", "a/%2e%2e/b", "%", "/.;/..;", "/%2e%2e%2e",
	} {
		f.Add(s)
	}
	decode := strings.NewReplacer(
		"%2e", ".", "%2E", ".", "%2f", "/", "%2F", "/", "%5c", "/", "%5C", "/", `\`, "/")
	f.Fuzz(func(t *testing.T, p string) {
		got := ServerPath(p)
		if again := ServerPath(got); again != got {
			t.Fatalf("not idempotent: ServerPath(%q) = %q, but ServerPath(%q) = %q", p, got, got, again)
		}
		if !resolved(got) {
			t.Fatalf("ServerPath(%q) = %q, which a server would resolve further", p, got)
		}
		if resolved(p) && got != p {
			t.Fatalf("ServerPath(%q) = %q, want the path itself: there is nothing to resolve", p, got)
		}
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(decode.Replace(p), "/") {
			return // the model is for URL paths, which start with '/'
		}
		var segs []string
		last := ""
		for seg := range strings.SplitSeq(decode.Replace(p)[1:], "/") {
			last = seg
			if dot, _, ok := strings.Cut(seg, ";"); ok && (dot == "." || dot == "..") {
				seg = dot
			}
			switch seg {
			case "", ".":
			case "..":
				if len(segs) > 0 {
					segs = segs[:len(segs)-1]
				}
			default:
				segs = append(segs, seg)
			}
		}
		want := "/" + strings.Join(segs, "/")
		if dot, _, _ := strings.Cut(last, ";"); len(segs) > 0 && (last == "" || dot == "." || dot == "..") {
			want += "/"
		}
		if got != want {
			t.Fatalf("ServerPath(%q) = %q, but the model gives %q", p, got, want)
		}
	})
}
