package job

import (
	"testing"
	"time"

	"tse-crawler/internal/pagescan"
)

// checked returns the settings of a crawl of seed, the flags at the
// command's defaults but for those set changes, once check has checked
// them.
func checked(t *testing.T, seed string, set func(*Settings)) *Settings {
	t.Helper()
	cfg := &Settings{
		Delay: time.Second, Links: "auto", Order: "lifo", Requisites: "all", Robots: true, Retries: 2,
		Timeout: 30 * time.Second, MaxSize: 10 << 20, UserAgent: "tse-crawler/test", Parallel: 4, AheadMemory: 64 << 20,
		CheckCacheAge: DefaultCheckCacheAge,
	}
	if set != nil {
		set(cfg)
	}
	if err := cfg.check([]string{seed, "DIR", "2"}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestScanner: the scanner check builds reads links in the mode it
// chooses: -links auto, the default, is the reference's for a crawl of the
// CS50 site and a browser's once -scope is given, and -links reference or
// html forces it.
func TestScanner(t *testing.T) {
	const site = "http://www.example.edu/"
	tests := []struct {
		name   string
		links  string
		scopes []string
		from   string // -links-from
		seed   string
		mode   string
	}{
		{"default, no -scope", "auto", nil, "", zooSeed, "reference"},
		{"default, -scope", "auto", []string{site}, "", site + "index.html", "html"},
		{"default, the CS50 prefix as -scope", "auto", []string{"http://cs50tse.cs.dartmouth.edu/tse/"}, "", zooSeed, "html"},
		{"reference forced, -scope", "reference", []string{site}, "", site + "index.html", "reference"},
		{"html forced, no -scope", "html", nil, "", zooSeed, "html"},
		{"reference forced, no -scope", "reference", nil, "", zooSeed, "reference"},
		{"default, -scope, a content region", "auto", []string{site}, "<main>", site + "index.html", "html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := checked(t, tt.seed, func(cfg *Settings) { cfg.Links, cfg.Scopes, cfg.From = tt.links, tt.scopes, tt.from })
			if cfg.Mode() != tt.mode {
				t.Errorf("mode %q, want %q", cfg.Mode(), tt.mode)
			}
			scanner := cfg.scanner
			if r, ok := scanner.(*pagescan.Region); ok {
				scanner = r.Scanner
			}
			_, html := scanner.(*pagescan.HTML)
			_, ref := scanner.(*pagescan.Reference)
			if html != (tt.mode == "html") || ref != (tt.mode == "reference") {
				t.Errorf("scanner %T for mode %s", scanner, tt.mode)
			}
		})
	}
}

// TestWACZSuffix: -warc names a package whatever the case of its .wacz,
// and the crawl then writes its WARC file, gzipped, beside it.
func TestWACZSuffix(t *testing.T) {
	tests := []struct {
		warc, file string
		wacz       bool
	}{
		{"x.wacz", "x.wacz.warc.gz", true},
		{"X.WACZ", "X.WACZ.warc.gz", true},
		{"x.Wacz", "x.Wacz.warc.gz", true},
		{"x.warc.gz", "x.warc.gz", false},
		{"X.WARC.GZ", "X.WARC.GZ", false},
		{"X.WARC", "X.WARC", false},
		{"x.wacz.zip", "x.wacz.zip", false},
	}
	for _, tc := range tests {
		t.Run(tc.warc, func(t *testing.T) {
			cfg := &Settings{WARC: tc.warc}
			if got := cfg.wacz(); got != tc.wacz {
				t.Errorf("wacz() = %v, want %v", got, tc.wacz)
			}
			if got := cfg.warcFile(); got != tc.file {
				t.Errorf("warcFile() = %q, want %q", got, tc.file)
			}
		})
	}
}
