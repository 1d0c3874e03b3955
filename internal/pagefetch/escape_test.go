package pagefetch_test

import (
	"errors"
	"net/url"
	"slices"
	"testing"

	"tse-crawler/internal/pagefetch"
)

// TestRobotsServerPath: robots.txt must allow a page both as its path is
// sent and as every kind of decoding server resolves it, and a page that
// any of them forbids is never requested.
func TestRobotsServerPath(t *testing.T) {
	t.Parallel()
	const rules = "User-agent: *\nDisallow: /tse/no/\nDisallow: /tse/a%2Fb\nDisallow: /no/\n"
	tests := []struct {
		name    string
		path    string
		allowed bool
	}{
		{"%2e%2e into a disallowed directory", "/tse/x/%2e%2e/no/p.html", false},
		{"%2E%2E", "/tse/x/%2E%2E/no/p.html", false},
		{".%2e", "/tse/x/.%2e/no/p.html", false},
		{"..%2f", "/tse/x/..%2fno/p.html", false},
		{"%2F as the separator", "/tse/no%2Fp.html", false},
		{"..%5c", "/tse/x/..%5cno/p.html", false},
		{"%2F in a name, then two %2e%2e", "/tse/x%2fy/%2e%2e/%2e%2e/no/p.html", false},
		{"with a query", "/tse/x/%2e%2e/no/p.html?page=2", false},
		{"the path as sent is disallowed", "/tse/a%2Fb.html", false},
		{"the path as sent is in a disallowed directory", "/tse/no/%2e%2e/yes.html", false},
		{"%2e%2e into an allowed directory", "/tse/x/%2e%2e/yes.html", true},
		{"double escape: a file name to the server", "/tse/no%252fp.html", true},
		{"an ordinary page", "/tse/yes.html", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u, err := url.Parse(base + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			s := newScript().on("/robots.txt", text(rules)).on(u.Path, page("<p>ok</p>"))
			_, err = memFetcher(s, 0, 0).Fetch(t.Context(), base+tt.path)
			want := []string{"/robots.txt"}
			if tt.allowed {
				if err != nil {
					t.Errorf("Fetch(%q) error = %v, want the page", tt.path, err)
				}
				want = append(want, u.Path)
			} else if !errors.Is(err, pagefetch.ErrDisallowed) {
				t.Errorf("Fetch(%q) error = %v, want ErrDisallowed", tt.path, err)
			}
			if got := s.order(); !slices.Equal(got, want) {
				t.Errorf("Fetch(%q) requested %q, want %q", tt.path, got, want)
			}
		})
	}
}

// TestRobotsQuery: a query goes out escaped as a browser escapes it, and
// robots.txt rules judge it as it goes out: a rule that names '<', "'"
// or '"' in a query, raw or escaped, forbids the page whether its URL
// holds the byte raw (the reference mode keeps it so) or escaped.
func TestRobotsQuery(t *testing.T) {
	t.Parallel()
	const rules = "User-agent: *\nDisallow: /q.html?<\nDisallow: /s.html?'\nDisallow: /d.html?%22\n"
	tests := []struct {
		name   string
		whatwg bool
		path   string
		sent   string // the path and query requested; "" if the page is disallowed
	}{
		{"less-than raw, in the rule too", false, "/q.html?<lt>", ""},
		{"less-than escaped", false, "/q.html?%3Clt%3E", ""},
		{"less-than escaped, html mode", true, "/q.html?%3Clt%3E", ""},
		{"apostrophe raw, in the rule too", false, "/s.html?'sq'", ""},
		{"apostrophe escaped, html mode", true, "/s.html?%27sq%27", ""},
		{"double quote raw, escaped in the rule", false, `/d.html?"dq"`, ""},
		{"not the query the rules name", false, "/q.html?lt", "/q.html?lt"},
		{"allowed, sent escaped", false, `/a.html?<'">`, "/a.html?%3C%27%22%3E"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newScript().on("/robots.txt", text(rules))
			if tt.sent != "" {
				s.on(tt.sent, page("<p>ok</p>"))
			}
			f := memFetcher(s, 0, 0)
			f.WHATWG = tt.whatwg
			_, err := f.Fetch(t.Context(), base+tt.path)
			want := []string{"/robots.txt"}
			if tt.sent != "" {
				if err != nil {
					t.Errorf("Fetch(%q) error = %v, want the page", tt.path, err)
				}
				want = append(want, tt.sent)
			} else if !errors.Is(err, pagefetch.ErrDisallowed) {
				t.Errorf("Fetch(%q) error = %v, want ErrDisallowed", tt.path, err)
			}
			if got := s.order(); !slices.Equal(got, want) {
				t.Errorf("Fetch(%q) requested %q, want %q", tt.path, got, want)
			}
		})
	}
}
