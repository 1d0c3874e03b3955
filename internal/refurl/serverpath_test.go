package refurl

import (
	"slices"
	"strings"
	"testing"
)

func TestServerPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"plain", "/tse/letters/A.html", nil},
		{"root", "/", nil},
		{"empty", "", nil},
		{"other escapes kept", "/tse/a%20b.html", nil},
		{"UTF-8 escapes kept", "/tse/Human%e2%80%93computer.html", nil},
		{"params on a name", "/tse/a;b/c.html", nil},
		{"three dots with params are a name", "/tse/...;x/c.html", nil},

		// The escapes that climb out of /tse/, in every spelling.
		{"%2e%2e", "/tse/%2e%2e/secret.html", []string{"/secret.html"}},
		{"%2E%2E", "/tse/%2E%2E/secret.html", []string{"/secret.html"}},
		{"%2e%2E", "/tse/%2e%2E/secret.html", []string{"/secret.html"}},
		{".%2E", "/tse/.%2E/secret.html", []string{"/secret.html"}},
		{".%2e", "/tse/.%2e/secret.html", []string{"/secret.html"}},
		{"%2E.", "/tse/%2E./x.html", []string{"/x.html"}},
		{"%2e.", "/tse/%2e./x.html", []string{"/x.html"}},
		{"above the root is clamped", "/%2e%2e/%2e%2e/x.html", []string{"/x.html"}},
		{"ends in %2e%2e", "/tse/x/%2e%2e", []string{"/tse/"}},
		{"ends in %2e%2e past /tse", "/tse/%2e%2e", []string{"/"}},
		// Where %2F or '\' is needed to climb, the readings that keep it
		// in a name give the path itself, which is left out.
		{"..%2f", "/tse/..%2fsecret.html", []string{"/secret.html"}},
		{"..%2F", "/tse/..%2Fsecret.html", []string{"/secret.html"}},
		{"..%2F and ..%2f", "/tse/..%2Fx/..%2f..%2fy.html", []string{"/y.html"}},
		{"%2f..%2f inside one segment", "/tse/a%2f..%2f..%2fb.html", []string{"/b.html"}},
		{"all escaped", "%2ftse%2f%2e%2e%2fsecret.html", []string{"/secret.html", "%2ftse%2f..%2fsecret.html"}},
		{"..%5c", "/tse/..%5csecret.html", []string{"/secret.html"}},
		{"..%5C", "/tse/..%5Csecret.html", []string{"/secret.html"}},
		{"backslash", `/tse/..\secret.html`, []string{"/secret.html"}},
		{"backslash as separator", `/tse\a\b.html`, []string{"/tse/a/b.html"}},
		// Splitting a name lets a later ".." climb less: each reading counts.
		{"%2F in a name, then ..", "/tse/x%2fy/%2e%2e/%2e%2e/z.html", []string{"/tse/z.html", "/z.html"}},
		{"backslash in a name, then ..", `/tse/x\y/%2e%2e/%2e%2e/z.html`, []string{"/tse/z.html", "/z.html"}},
		{"both kinds mixed", `/tse/x\y/..%2f..%2fz.html`, []string{"/tse/z.html", "/z.html", "/tse/x/y/..%2f..%2fz.html"}},

		// Escapes that stay inside.
		{"%2e%2e back into /tse", "/tse/x/%2e%2e/y.html", []string{"/tse/y.html"}},
		{"%2e alone", "/tse/%2e/y.html", []string{"/tse/y.html"}},
		{"%2e inside a name", "/tse/a%2ehtml", []string{"/tse/a.html"}},
		{"three dots are a name", "/tse/%2e%2e%2e/x.html", []string{"/tse/.../x.html"}},
		{"%2f inside a name", "/tse/a%2fb.html", []string{"/tse/a/b.html"}},

		// A server decodes once: these are names, not dots.
		{"double escape", "/tse/%252e%252e/secret.html", nil},
		{"double escape of /", "/tse/..%252fsecret.html", nil},
		{"'%' before an escape", "/tse/%%2e%2e/x.html", []string{"/tse/%../x.html"}},
		{"cut escape", "/tse/.%2", nil},
		{"cut escape at the end", "/tse/%2e%", []string{"/tse/.%"}},
		{"not hex", "/tse/%2g%2e/x", []string{"/tse/%2g./x"}},

		// Slash runs collapse before dot segments go, as nginx does.
		{"slash run", "/tse//x.html", []string{"/tse/x.html"}},
		{"slash run then ..", "/tse//../x.html", []string{"/x.html"}},
		{"escaped slash run", "/tse/%2f%2f..%2fx.html", []string{"/x.html"}},

		// Path parameters on a dot segment, as Tomcat reads them.
		{"..;params", "/tse/..;jsessionid=1/secret.html", []string{"/secret.html"}},
		{"%2e%2e;params", "/tse/%2e%2e;x/secret.html", []string{"/secret.html"}},
		{".;params", "/tse/.;x/y.html", []string{"/tse/y.html"}},
		{"..; at the end", "/tse/..;x", []string{"/"}},
		{"params on a name, with a dot segment", "/tse/a;b/../c.html", []string{"/tse/c.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ServerPaths(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("ServerPaths(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestServerPathsAllocs guards the fast path: a path with nothing to
// decode or resolve, escapes of other characters included, costs nothing.
func TestServerPathsAllocs(t *testing.T) {
	for _, p := range []string{
		"/tse/wikipedia/Linked_list.html",
		"/tse/wikipedia/Human%e2%80%93computer_interaction.html",
		"/tse/toscrape/catalogue/a-light-in-the-attic_1000/index.html",
		"/tse/a;b/.../c.html",
	} {
		if got := testing.AllocsPerRun(100, func() { ServerPaths(p) }); got != 0 {
			t.Errorf("ServerPaths(%q) allocated %.0f times, want none", p, got)
		}
	}
}

// BenchmarkServerPaths reports the cost of the check on the paths of
// benchURLs, which the crawler pays for every internal link.
func BenchmarkServerPaths(b *testing.B) {
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
			ServerPaths(p)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
}

// FuzzServerPaths checks each reading against a model written differently:
// decode with a strings.Replacer, then split into segments and resolve them
// with a stack, as the playground server does. It also checks that each
// reading is a fixed point, and that ServerPaths returns exactly the
// readings that differ from the path, each once.
func FuzzServerPaths(f *testing.F) {
	for _, s := range []string{
		"/tse/%2e%2e/secret.html", "/tse/.%2E/x", "/tse/..%2Fx/..%2f..%2fy.html",
		"/tse/%252e%252e/x", `/tse/..\x`, "/tse/..%5cx", "/tse//../x", "/tse/..;a/x",
		"/tse/a%20b.html", "", "/", "a/%2e%2e/b", "%", "/.;/..;", "/%2e%2e%2e",
		`/tse/x\y/..%2f..%2fz.html`, "/tse/x%2fy/%2e%2e/%2e%2e/z.html",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		var want []string
		for _, r := range readings {
			got := serverPath(p, r)
			if again := serverPath(got, r); again != got {
				t.Fatalf("%+v: not idempotent: %q -> %q -> %q", r, p, got, again)
			}
			if resolved(p) && got != p {
				t.Fatalf("%+v: %q -> %q, want the path itself: there is nothing to resolve", r, p, got)
			}
			if got != p && !slices.Contains(want, got) {
				want = append(want, got)
			}
			if m, ok := model(p, r); ok && got != m {
				t.Fatalf("%+v: %q -> %q, but the model gives %q", r, p, got, m)
			}
		}
		if got := ServerPaths(p); !slices.Equal(got, want) {
			t.Fatalf("ServerPaths(%q) = %q, want %q", p, got, want)
		}
	})
}

// model resolves p as serverPath(p, r) should, or reports false for a path
// that does not start with '/', which it does not model.
func model(p string, r reading) (string, bool) {
	pairs := []string{"%2e", ".", "%2E", "."}
	if r.slash {
		pairs = append(pairs, "%2f", "/", "%2F", "/")
	}
	if r.backslash {
		pairs = append(pairs, "%5c", "/", "%5C", "/", `\`, "/")
	}
	p = strings.NewReplacer(pairs...).Replace(p)
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	var segs []string
	last := ""
	for seg := range strings.SplitSeq(p[1:], "/") {
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
	out := "/" + strings.Join(segs, "/")
	if dot, _, _ := strings.Cut(last, ";"); len(segs) > 0 && (last == "" || dot == "." || dot == "..") {
		out += "/"
	}
	return out, true
}
