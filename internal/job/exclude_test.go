package job

import (
	"errors"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

const (
	zooSeed = "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"
	zooEel  = "http://cs50tse.cs.dartmouth.edu/tse/zoo/eel.html"
	zooOwl  = "http://cs50tse.cs.dartmouth.edu/tse/zoo/owl.html"
)

// TestExclusion: each -exclude expression is compiled as given and
// matched anywhere in a URL.
func TestExclusion(t *testing.T) {
	tests := []struct {
		name     string
		excludes []string
		excluded []string // of the URLs below, those excluded
	}{
		{"none", nil, nil},
		{"one", []string{"/eel"}, []string{zooEel}},
		{"repeated", []string{"/eel", "owl[.]html$"}, []string{zooEel, zooOwl}},
		{"anchored", []string{`^http://cs50tse\.cs\.dartmouth\.edu/tse/zoo/o`}, []string{zooOwl}},
		{"anchored where no URL begins", []string{"^/tse/"}, nil},
		{"with a space", []string{"a b", "eel"}, []string{zooEel}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := checked(t, zooSeed, func(cfg *Settings) { cfg.Excludes = tt.excludes })
			var excluded []string
			for _, u := range []string{zooSeed, zooEel, zooOwl, "http://cs50tse.cs.dartmouth.edu/tse/zoo/ant.html"} {
				if cfg.exclusion(u) != nil {
					excluded = append(excluded, u)
				}
				if got := cfg.excluder(); got != nil && got(u) != (cfg.exclusion(u) != nil) || got == nil && len(tt.excludes) > 0 {
					t.Errorf("excluder disagrees with exclusion on %s", u)
				}
			}
			if !slices.Equal(excluded, tt.excluded) {
				t.Errorf("excluded %q, want %q", excluded, tt.excluded)
			}
		})
	}
}

// TestErrorOffset: where an expression goes wrong, counted in bytes from
// 0, whatever piece of it Go's message quotes.
func TestErrorOffset(t *testing.T) {
	tests := []struct {
		expr string
		want int
	}{
		{"a(b", 3},        // the ')' is missing at the end
		{"(a)(b", 5},      // however many groups close before
		{"ab)", 2},        // Go quotes the whole expression
		{"(a)b)", 4},      // the second ')', not the first
		{`\)a)`, 3},       // an escaped ')' is no group's
		{"[)]a)", 4},      // nor one in a class
		{"a[b", 1},        // the class left open
		{"[a][b", 3},      // the second class
		{"x**", 1},        // the repetition of a repetition
		{"a**b**", 1},     // the first of two
		{`\q`, 0},         // an escape Go does not know
		{`a\`, 1},         // a backslash at the end
		{"[z-a]", 1},      // a range backwards
		{`\pZ\p{Foo}`, 3}, // the second class, where the first is a prefix of it
		{"(?P<>a)", 0},    // a capture without a name
		{"a|*", 2},        // a repetition of nothing
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := syntax.Parse(tt.expr, syntax.Perl)
			se, ok := errors.AsType[*syntax.Error](err)
			if !ok {
				t.Fatalf("%q parses: %v", tt.expr, err)
			}
			if got := errorOffset(tt.expr, se); got != tt.want {
				t.Errorf("errorOffset(%q, %q) = %d, want %d", tt.expr, se, got, tt.want)
			}
		})
	}
}

// TestExcludeRequisites: with -warc, a requisite that an -exclude matches
// is not fetched either, with -requisites all or scope.
func TestExcludeRequisites(t *testing.T) {
	tests := []struct {
		name       string
		requisites string
		excludes   []string
		keep       func(key string) bool // which requisites may be fetched; nil: any
	}{
		{"nothing excluded", "all", nil, nil},
		{"any host but one", "all", []string{`^http://cdn\.example\.net/`}, func(k string) bool { return !strings.HasPrefix(k, "http://cdn.example.net/") }},
		{"scope, and a directory out", "scope", []string{"/media/"}, func(k string) bool {
			return strings.HasPrefix(k, scopeEDU) && !strings.Contains(k, "/media/")
		}},
		{"scope alone", "scope", nil, func(k string) bool { return strings.HasPrefix(k, scopeEDU) }},
	}
	keys := []string{"http://cdn.example.net/lib/theme.css", "http://www.example.edu/media/a.ogg", "http://www.example.edu/img/a.png", "https://www.example.edu/img/a.png"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := checked(t, "http://www.example.edu/index.html", func(cfg *Settings) {
				cfg.WARC, cfg.Scopes, cfg.Requisites, cfg.Excludes = "x.warc", []string{scopeEDU}, tt.requisites, tt.excludes
			})
			in := cfg.requisiteScope()
			if (in == nil) != (tt.keep == nil) {
				t.Fatalf("requisiteScope() is nil %t, want %t", in == nil, tt.keep == nil)
			}
			for _, k := range keys {
				if in != nil && in(k) != tt.keep(k) {
					t.Errorf("requisiteScope()(%s) = %t, want %t", k, in(k), tt.keep(k))
				}
			}
		})
	}
}

const scopeEDU = "http://www.example.edu/"
