package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/playground"
)

// TestExcludeParsed: -exclude is repeatable, and journaled only when
// given, each expression quoted.
func TestExcludeParsed(t *testing.T) {
	tests := []struct {
		name   string
		args   []string // before seedURL pageDirectory maxDepth
		option string   // the journal's option line, or ""
	}{
		{"none", nil, ""},
		{"one", []string{"-exclude", "/eel"}, `option exclude "\"/eel\""`},
		{"repeated", []string{"-exclude", "/eel", "-exclude=owl[.]html$"}, `option exclude "\"/eel\" \"owl[.]html$\""`},
		{"anchored", []string{"-exclude", `^http://cs50tse\.cs\.dartmouth\.edu/tse/zoo/o`}, `option exclude "\"^http://cs50tse\\\\.cs\\\\.dartmouth\\\\.edu/tse/zoo/o\""`},
		{"anchored where no URL begins", []string{"-exclude", "^/tse/"}, `option exclude "\"^/tse/\""`},
		{"with a space", []string{"-exclude", "a b", "-exclude", "eel"}, `option exclude "\"a b\" \"eel\""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseArgs(append(slices.Clone(tt.args), zooSeed, "DIR", "2"))
			if err != nil {
				t.Fatal(err)
			}
			header := string(pagedir.JournalHeader(cfg.params()))
			if got := strings.Contains(header, "option exclude"); got != (tt.option != "") || tt.option != "" && !strings.Contains(header, tt.option+"\n") {
				t.Errorf("journal header:\n%s\nwant %q", header, tt.option)
			}
		})
	}
}

// TestExcludeRefused: a bad expression is refused as a bad flag, naming
// it and where it goes wrong, and a seed an expression matches as a bad
// seed, before anything is written or requested.
func TestExcludeRefused(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	tests := []struct {
		name string
		args []string // before seedURL pageDirectory maxDepth
		code int
		msg  string
	}{
		{"group left open", []string{"-exclude", "a(b"}, exitUsage, `crawler: -exclude "a(b": missing closing ): at position 3, counting from 0: give a regular expression in Go's syntax (RE2)`},
		{"the second of two", []string{"-exclude", "eel", "-exclude", "x**"}, exitUsage, `-exclude "x**": invalid nested repetition operator: at position 1,`},
		{"bad before the seed is read", []string{"-exclude", "zoo", "-exclude", "[z-a]"}, exitUsage, `-exclude "[z-a]": invalid character class range: at position 1,`},
		{"seed", []string{"-exclude", "zoo/index"}, exitSeedURL, `crawler: seedURL ` + zooSeed + ` is excluded by -exclude "zoo/index"`},
		{"seed by the second", []string{"-exclude", "eel", "-exclude", `index\.html$`}, exitSeedURL, `is excluded by -exclude "index\\.html$"`},
		{"seed once normalized", []string{"-exclude", "^http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html$"}, exitSeedURL, "is excluded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			seed := zooSeed
			if tt.name == "seed once normalized" {
				seed = "HTTP://CS50TSE.cs.dartmouth.edu/tse/zoo/./index.html"
			}
			before := p.requests.Load()
			code, stdout, stderr := crawl(t.Context(), p.getenv, append(slices.Clone(tt.args), seed, dir, "2")...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.msg)
			}
			if stdout != "" || p.requests.Load() != before {
				t.Errorf("stdout %q and %d requests, want neither", stdout, p.requests.Load()-before)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%s holds %v, want nothing", dir, entries)
			}
		})
	}
}

// TestExcludeArchive crawls the museum with -warc and an -exclude that
// takes out a whole host of its requisites, or a directory of those in
// scope: the WARC file holds every other requisite once, and none of
// those, which were never requested.
func TestExcludeArchive(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	www := inScope(museumRequisites, "http://www.example.net/")
	noMedia := make(map[string]int)
	for u, status := range www {
		if !strings.Contains(u, "/media/") {
			noMedia[u] = status
		}
	}
	for _, tc := range []struct {
		name     string
		args     []string
		want     map[string]int
		excluded string // a part of every URL excluded
	}{
		{"another host", []string{"-parallel", "4", "-exclude", `^http://cdn\.example\.net/`}, www, "http://cdn.example.net/"},
		{"a directory in scope", []string{"-parallel", "1", "-requisites", "scope", "-exclude", "/media/"}, noMedia, "/media/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, out, statsFile := t.TempDir(), filepath.Join(t.TempDir(), "crawl.warc"), filepath.Join(t.TempDir(), "stats.json")
			args := append(tc.args, "-warc", out, "-stats-json", statsFile, "-delay", "0", "-scope", "http://www.example.net/", museumSeed, dir, "2")
			if code, _, stderr := crawl(t.Context(), p.getenv, args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			caps := checkWARC(t, out)
			checkRequisitesArchived(t, caps, tc.want)
			for _, c := range caps {
				if strings.Contains(c.uri, tc.excluded) {
					t.Errorf("%s, which is excluded, was requested", c.uri)
				}
			}
			checkRequisiteFigures(t, statsFile, tc.want)
		})
	}
}

// A recorder serves the test site through the playground's handler and
// records the path of every request.
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
}

func newRecorder(t *testing.T) *recorder {
	r := new(recorder)
	h := playground.Handler(testdataSite(t))
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.paths = append(r.paths, req.URL.Path)
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(r.Close)
	return r
}

// TestExcludeCrawl crawls the syntax pages without two of their
// sections: one linked to, the other reached by a redirect. Neither is
// requested; each time a URL in them is met it is logged IgnExcld, as
// many times as the statistics count; and the pages saved are the other
// pages of the crawl without -exclude.
func TestExcludeCrawl(t *testing.T) {
	const seed = "http://cs50tse.cs.dartmouth.edu/tse/syntax/index.html"
	sections := regexp.MustCompile("/syntax/(other|base)/")
	for _, mode := range []string{"reference", "html"} {
		t.Run(mode, func(t *testing.T) {
			full := newRecorder(t)
			all := t.TempDir()
			if code, _, stderr := crawl(t.Context(), proxyEnv(full.URL), "-delay", "0", "-links", mode, seed, all, "2"); code != exitOK {
				t.Fatalf("without -exclude: exit %d: %s", code, stderr)
			}
			rec := newRecorder(t)
			dir, statsFile := t.TempDir(), filepath.Join(t.TempDir(), "stats.json")
			code, log, stderr := crawl(t.Context(), proxyEnv(rec.URL), "-delay", "0", "-links", mode, "-stats", "-stats-json", statsFile,
				"-exclude", "/syntax/(other|base)/", seed, dir, "2")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !slices.ContainsFunc(full.paths, sections.MatchString) {
				t.Fatalf("the crawl without -exclude requests nothing in the sections: %q", full.paths)
			}
			for _, path := range rec.paths {
				if sections.MatchString(path) {
					t.Errorf("requested %s, which is excluded", path)
				}
			}
			var want []string
			for _, pg := range readPages(t, all) {
				if !sections.MatchString(pg.url) {
					want = append(want, pg.url)
				}
			}
			var got []string
			for _, pg := range readPages(t, dir) {
				got = append(got, pg.url)
			}
			if !slices.Equal(got, want) {
				t.Errorf("saved %q, want %q", got, want)
			}
			checkExcludedLog(t, log, stderr, statsFile, sections.MatchString)
		})
	}
}

// checkExcludedLog checks the IgnExcld lines of a crawl's log: each names
// a URL in an excluded section, which no other line but Found names, and
// they are as many as -stats and -stats-json count.
func checkExcludedLog(t *testing.T, log, stderr, statsFile string, excluded func(string) bool) {
	t.Helper()
	n := 0
	for line := range strings.Lines(log) {
		before, url, _ := strings.Cut(strings.TrimSuffix(line, "\n"), ": ")
		fields := strings.Fields(before) // the depth and the word
		switch word := fields[len(fields)-1]; {
		case word == "IgnExcld":
			n++
			if !excluded(url) {
				t.Errorf("%q: not in an excluded section", line)
			}
		case word != "Found" && excluded(url):
			t.Errorf("%q: an excluded URL", line)
		}
	}
	if n < 2 {
		t.Errorf("the log has %d IgnExcld lines, want the sections' at least:\n%s", n, log)
	}
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var s struct{ URLs struct{ Excluded int } }
	if err := json.Unmarshal(data, &s); err != nil || s.URLs.Excluded != n {
		t.Errorf("-stats-json counts %d excluded (%v), the log %d", s.URLs.Excluded, err, n)
	}
	if !strings.Contains(stderr, " duplicate, "+strconv.Itoa(n)+" excluded, ") {
		t.Errorf("-stats does not count %d excluded:\n%s", n, stderr)
	}
}

// TestExcludeResume: -exclude shapes the crawl, so a crawl resumes only
// with the expressions it began with, and then ends as it would have.
func TestExcludeResume(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	const seed = zooSeed
	tests := []struct {
		name       string
		began, now []string // the -exclude flags the crawl began and resumes with
		code       int
	}{
		{"the same", []string{"-exclude", "eel"}, []string{"-exclude=eel"}, exitOK},
		{"the same two", []string{"-exclude", "eel", "-exclude", "owl"}, []string{"-exclude", "eel", "-exclude", "owl"}, exitOK},
		{"another", []string{"-exclude", "eel"}, []string{"-exclude", "owl"}, exitResume},
		{"one more", []string{"-exclude", "eel"}, []string{"-exclude", "eel", "-exclude", "owl"}, exitResume},
		{"none", []string{"-exclude", "eel"}, nil, exitResume},
		{"one where there was none", nil, []string{"-exclude", "eel"}, exitResume},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := uninterrupted(t, p, append(append([]string{"-delay", "0"}, tt.began...), seed, "3"))
			dir := interruptedZoo(t, p, tt.began...)
			before := snapshot(t, dir)
			code, _, stderr := crawl(t.Context(), p.getenv, append(append([]string{"-delay", "0", "-resume"}, tt.now...), seed, dir, "3")...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if code == exitOK {
				if diff := sameDir(snapshot(t, dir), want); diff != "" {
					t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
				}
				return
			}
			if !strings.Contains(stderr, "-exclude") {
				t.Errorf("stderr does not name -exclude: %s", stderr)
			}
			if diff := sameDir(snapshot(t, dir), before); diff != "" {
				t.Errorf("a refused resume changed the directory: %s", diff)
			}
		})
	}
}
