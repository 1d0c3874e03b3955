package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tse-crawler/internal/stats"
	"tse-crawler/internal/testbed/linediff"
)

// townSeed is the seed of the town's site, testdata/playground/tse/town: a
// calendar whose every month links to the next (a symbolic link, next,
// to its own folder), a section of old minutes, a page that moved, an old
// page that refreshes to the news, a page that is gone, linked from two
// pages, a link robots.txt disallows, a text file and external links.
const townSeed = "http://cs50tse.cs.dartmouth.edu/tse/town/index.html"

// townParking is the page that is gone.
const townParking = "http://cs50tse.cs.dartmouth.edu/tse/town/parking.html"

// TestGraph crawls the town with -graph and compares the file with golden
// files: every row and every status, in reference mode, with the minutes
// excluded, in html mode (where the old page's refresh is a link), and
// stopped by -max-pages, whatever -parallel; and the
// broken link, in -stats and -stats-json. go test -update rewrites them.
func TestGraph(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"town-graph-reference", []string{"-exclude", "/town/archive/", townSeed, "4"}},
		{"town-graph-html", []string{"-links", "html", townSeed, "2"}},
		{"town-graph-max-pages", []string{"-max-pages", "4", townSeed, "4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, parallel := range []string{"1", "4"} {
				dir, tmp := t.TempDir(), t.TempDir()
				out, statsFile := filepath.Join(tmp, "links.csv"), filepath.Join(tmp, "stats.json")
				args := append([]string{"-q", "-delay", "0", "-parallel", parallel, "-stats", "-stats-json", statsFile, "-graph", out}, withDir(tc.args, dir)...)
				code, _, stderr := crawl(t.Context(), p.getenv, args...)
				if code != exitOK {
					t.Fatalf("-parallel %s: exit %d: %s", parallel, code, stderr)
				}
				got := readFile(t, out)
				if parallel == "1" {
					first = got
					checkGolden(t, tc.name, strings.ReplaceAll(got, "\r\n", "\n"))
				} else if got != first {
					t.Errorf("-parallel %s: the graph differs from -parallel 1's:\n%s", parallel, linediff.First(first, got))
				}
				if !slices.Contains(tc.args, "-max-pages") { // which leaves out the news, the second page linking to it
					checkTownBroken(t, stderr, statsFile)
				}
			}
		})
	}
	// Without -graph, the statistics keep no rows, and say the same.
	t.Run("statistics alone", func(t *testing.T) {
		statsFile := filepath.Join(t.TempDir(), "stats.json")
		code, _, stderr := crawl(t.Context(), p.getenv, "-q", "-delay", "0", "-stats", "-stats-json", statsFile, townSeed, t.TempDir(), "4")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		checkTownBroken(t, stderr, statsFile)
	})
}

// checkTownBroken checks that the statistics name the page that is gone,
// and the two pages that link to it.
func checkTownBroken(t *testing.T, stderr, statsFile string) {
	t.Helper()
	town := "http://cs50tse.cs.dartmouth.edu/tse/town/"
	line := fmt.Sprintf("  broken:    %s (404): 2 pages link to it: %sindex.html, %snews.html\n", townParking, town, town)
	if !strings.Contains(stderr, line) {
		t.Errorf("-stats does not say\n%s\nit says:\n%s", line, stderr)
	}
	var r struct {
		Broken []stats.BrokenLink `json:"broken_links"`
	}
	if err := json.Unmarshal([]byte(readFile(t, statsFile)), &r); err != nil {
		t.Fatal(err)
	}
	want := []stats.BrokenLink{{URL: townParking, Status: "404", Pages: 2, From: []string{town + "index.html", town + "news.html"}}}
	if !reflect.DeepEqual(r.Broken, want) {
		t.Errorf("-stats-json's broken_links are %+v, want %+v", r.Broken, want)
	}
}

// checkGolden compares got with testdata/golden/name.golden, which go test
// -update rewrites.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("..", "..", "testdata", "golden", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test -update to accept):\n%s", name, golden, linediff.First(string(want), got))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGraphRefused: a -graph file that exists is refused without -resume,
// as one inside the page directory is, before anything is written; a
// crawl that resumes with another -graph is refused; and a crawl that
// saves nothing leaves no file.
func TestGraphRefused(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	tmp := t.TempDir()
	taken := filepath.Join(tmp, "taken.csv")
	if err := os.WriteFile(taken, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		graph func(dir string) string
		code  int
		msg   string
	}{
		{"exists", func(string) string { return taken }, exitUsage, "-graph " + taken + " exists"},
		{"in the page directory", func(dir string) string { return filepath.Join(dir, "links.csv") }, exitUsage, "-graph"},
		{"no such directory", func(string) string { return filepath.Join(tmp, "none", "links.csv") }, exitUsage, "-graph"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-graph", tc.graph(dir), townSeed, dir, "1")
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Errorf("exit %d, want %d, with %q: %s", code, tc.code, tc.msg, stderr)
			}
			if got := snapshot(t, dir); len(got) != 0 {
				t.Errorf("the page directory holds %d files", len(got))
			}
		})
	}
	if got := readFile(t, taken); got != "mine" {
		t.Errorf("the file that was there holds %q", got)
	}

	t.Run("a seed that fails", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "links.csv")
		code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-graph", out, townParking, t.TempDir(), "1")
		if code != exitSeedFetch {
			t.Fatalf("exit %d, want %d: %s", code, exitSeedFetch, stderr)
		}
		if _, err := os.Lstat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the crawl left %s: %v", out, err)
		}
	})
}

// TestKill9Graph kills the crawler process with SIGKILL at every step of a
// crawl of the town with -graph, in both link modes: while each request is
// in flight, and the moment each has been answered. -resume then writes
// the graph, byte for byte the uninterrupted crawl's.
func TestKill9Graph(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"reference", []string{"-q", "-delay", "0", "-exclude", "/town/archive/", townSeed, "4"}},
		{"html parallel 4", []string{"-q", "-delay", "0", "-links", "html", "-parallel", "4", townSeed, "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "links.csv")
			args := append([]string{"-graph", out}, tc.args...)
			wantDir, steps := uninterrupted(t, p, args)
			want := readFile(t, out)
			for step := int64(1); step <= steps; step++ {
				for _, answered := range []bool{false, true} {
					t.Run(fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered]), func(t *testing.T) {
						dir := t.TempDir()
						os.Remove(out)
						_, stderr, err := interruptProcess(t, p, withDir(args, dir), step, answered, (*os.Process).Kill)
						checkKilled(t, err, stderr, answered, dir, wantDir)
						resumeMatches(t, p, args, dir, wantDir)
						if got := readFile(t, out); got != want {
							t.Errorf("the resumed crawl's graph differs:\n%s", linediff.First(want, got))
						}
					})
				}
			}
		})
	}
}

// TestKill9Broken: the statistics alone keep no rows of the graph, and
// only some of what they know of each URL; a crawl with -stats-json killed
// at every step, then resumed, still names the broken link and the pages
// that link to it as the crawl never stopped does.
func TestKill9Broken(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	args := []string{"-q", "-delay", "0", "-stats-json", statsFile, "-exclude", "/town/archive/", townSeed, "4"}
	wantDir, steps := uninterrupted(t, p, args)
	want := brokenLinks(t, statsFile)
	if len(want) == 0 {
		t.Fatalf("the uninterrupted crawl names no broken link")
	}
	for step := int64(1); step <= steps; step++ {
		for _, answered := range []bool{false, true} {
			t.Run(fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered]), func(t *testing.T) {
				dir := t.TempDir()
				os.Remove(statsFile)
				_, stderr, err := interruptProcess(t, p, withDir(args, dir), step, answered, (*os.Process).Kill)
				checkKilled(t, err, stderr, answered, dir, wantDir)
				resumeMatches(t, p, args, dir, wantDir)
				if got := brokenLinks(t, statsFile); !reflect.DeepEqual(got, want) {
					t.Errorf("the resumed crawl's broken links are %+v, want %+v", got, want)
				}
			})
		}
	}
}

// brokenLinks returns the broken links of a -stats-json file.
func brokenLinks(t *testing.T, statsFile string) []stats.BrokenLink {
	t.Helper()
	var r struct {
		Broken []stats.BrokenLink `json:"broken_links"`
	}
	if err := json.Unmarshal([]byte(readFile(t, statsFile)), &r); err != nil {
		t.Fatal(err)
	}
	return r.Broken
}

// TestGraphStatuses crawls pages that fail every way the manual names, and
// checks the word the graph gives each: a page served as text, one over
// -max-size, one too slow for -timeout, one gone, one that moved, and a
// chain of redirects one too long.
func TestGraphStatuses(t *testing.T) {
	links := `<a href="plain.html">p</a> <a href="big.html">b</a> <a href="slow.html">s</a>
		<a href="gone.html">g</a> <a href="moved.html">m</a> <a href="loop0.html">l</a>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Base(r.URL.Path)
		var hop int
		_, notLoop := fmt.Sscanf(name, "loop%d.html", &hop)
		switch {
		case name == "index.html":
			fmt.Fprint(w, "<html>"+links+"</html>")
		case name == "plain.html":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "just text")
		case name == "big.html":
			fmt.Fprint(w, "<html>"+strings.Repeat("x", 2048)+"</html>")
		case name == "slow.html":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		case name == "moved.html":
			http.Redirect(w, r, "index.html", http.StatusFound)
		case notLoop == nil:
			http.Redirect(w, r, fmt.Sprintf("loop%d.html", hop+1), http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	out := filepath.Join(t.TempDir(), "links.csv")
	code, _, stderr := crawl(t.Context(), proxyEnv(srv.URL), "-q", "-delay", "0", "-timeout", "1s", "-retries", "0", "-max-size", "1KiB",
		"-graph", out, "http://cs50tse.cs.dartmouth.edu/tse/g/index.html", t.TempDir(), "1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(readFile(t, out))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]string)
	for _, row := range rows[1:] {
		got[path.Base(row[1])] = row[2]
	}
	want := map[string]string{
		"plain.html": "not-html", "big.html": "too-large", "slow.html": "timeout", "gone.html": "404",
		"moved.html": "302", "index.html": "200", "loop0.html": "301", "loop9.html": "301", "loop10.html": "too-many-redirects",
	}
	for name, status := range want {
		if got[name] != status {
			t.Errorf("%s: status %q, want %q", name, got[name], status)
		}
	}
	if _, ok := got["loop11.html"]; ok {
		t.Errorf("the graph follows the chain past its tenth redirect")
	}
}
