package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"

	"tse-crawler/internal/playground"
)

// outcomesSite has a page of every outcome: saved, 404 (twice), 500, too
// large for -max-size 1KiB, a redirect (dir to dir/), and one robots.txt
// disallows.
var outcomesSite = fstest.MapFS{
	"robots.txt": {Data: []byte("User-agent: *\nDisallow: /tse/q/private\n")},
	"tse/q/index.html": {Data: []byte(`<a href=a.html>a</a> <a href=gone.html>404</a> <a href=gone2.html>404</a>
		<a href=broken.html>500</a> <a href=big.html>big</a> <a href=dir>301</a> <a href=private/p.html>robots</a>`)},
	"tse/q/a.html":         {Data: []byte(`<a href=index.html>home</a>`)},
	"tse/q/dir/index.html": {Data: []byte(`<a href=../a.html>a</a>`)},
	"tse/q/big.html":       {Data: []byte("<p>" + strings.Repeat("x", 2048))},
	"tse/q/private/p.html": {Data: []byte(`private`)},
}

const outcomesSeed = "http://cs50tse.cs.dartmouth.edu/tse/q/index.html"

// outcomesArgs are the flags of a crawl of outcomesSite.
var outcomesArgs = []string{"-delay", "0", "-retries", "0", "-max-size", "1KiB", "-scope", "http://cs50tse.cs.dartmouth.edu/tse/q/"}

// outcomesProxy serves outcomesSite, broken.html as a 500, and calls
// onRequest, if set, with the number of each request before answering it.
func outcomesProxy(t *testing.T, onRequest func(n int64)) func(string) string {
	t.Helper()
	h := playground.Handler(outcomesSite)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if onRequest != nil {
			onRequest(n.Add(1))
		}
		if strings.HasSuffix(r.URL.Path, "/broken.html") {
			http.Error(w, "broken", http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return proxyEnv(srv.URL)
}

// jsonStats are the figures of -stats-json that these tests read.
type jsonStats struct {
	Pages struct {
		Fetched, Tried, Saved, Replayed, Failed, Redirects int
		FailedBy                                           map[string]int `json:"failed_by"`
	}
	URLs struct{ Disallowed int }
}

func readStats(t *testing.T, path string) jsonStats {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st jsonStats
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("-stats-json: %v\n%s", err, data)
	}
	return st
}

// logCount counts the log lines with word.
func logCount(log, word string) int {
	return strings.Count(log, " "+word+": ")
}

// TestStatsAgreeWithLog: the statistics' "fetched" is the number of
// Fetched lines in the log, in a crawl with every outcome, and in the run
// that resumes it after an interrupt, whose replayed pages are in neither.
func TestStatsAgreeWithLog(t *testing.T) {
	getenv := outcomesProxy(t, nil)
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "stats.json")
	args := append(append([]string{"-stats", "-stats-json", file}, outcomesArgs...), outcomesSeed, dir, "2")
	code, stdout, stderr := crawl(t.Context(), getenv, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st := readStats(t, file)
	for _, c := range []struct {
		word      string
		got, want int
	}{
		{"Fetched", st.Pages.Fetched, 3}, // index, a, dir/
		{"FAILED", st.Pages.Failed, 4},
		{"Redirect", st.Pages.Redirects, 1},
		{"IgnRobots", st.URLs.Disallowed, 1},
	} {
		if n := logCount(stdout, c.word); c.got != n || n != c.want {
			t.Errorf("statistics count %d %s, the log %d, want %d", c.got, c.word, n, c.want)
		}
	}
	if st.Pages.Tried != 8 || st.Pages.Saved != 3 {
		t.Errorf("tried %d, saved %d; want 8 and 3", st.Pages.Tried, st.Pages.Saved)
	}
	want := map[string]int{"HTTP 404": 2, "HTTP 500": 1, "too large": 1}
	if fmt.Sprint(st.Pages.FailedBy) != fmt.Sprint(want) {
		t.Errorf("failed_by %v, want %v", st.Pages.FailedBy, want)
	}
	line := "  pages:     3 fetched, 3 saved, 4 failed (2 HTTP 404, 1 HTTP 500, 1 too large), 1 redirected; 8 tried\n"
	if !strings.Contains(stderr, line) {
		t.Errorf("-stats lacks %q:\n%s", line, stderr)
	}

	// Interrupted at each request, then resumed: each run's statistics
	// agree with its own log. The count of requests comes from the whole
	// crawl, not from the first interrupted run that exits 0: an interrupt
	// that races the last response may let the crawl finish, and must not
	// end the loop early.
	var made atomic.Int64
	counted := outcomesProxy(t, func(n int64) { made.Store(n) })
	if code, _, stderr := crawl(t.Context(), counted, append(append([]string{}, outcomesArgs...), outcomesSeed, t.TempDir(), "2")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	requests := made.Load()
	if requests != 9 {
		t.Fatalf("the crawl made %d requests, want 9", requests)
	}
	for step := int64(1); step <= requests; step++ {
		dir := t.TempDir()
		ctx, cancel := context.WithCancelCause(t.Context())
		getenv := outcomesProxy(t, func(n int64) {
			if n == step {
				cancel(stopSignal{syscall.SIGINT})
			}
		})
		args := append(append([]string{"-stats-json", file}, outcomesArgs...), outcomesSeed, dir, "2")
		code, stdout, stderr := crawl(ctx, getenv, args...)
		cancel(nil)
		if code == exitOK && step == requests {
			continue // the interrupt came with the last response, and the crawl had nothing left
		}
		if code != 130 {
			t.Fatalf("interrupted at request %d: exit %d: %s", step, code, stderr)
		}
		st := readStats(t, file)
		if n := logCount(stdout, "Fetched"); st.Pages.Fetched != n {
			t.Errorf("interrupted at request %d: %d fetched, and %d Fetched lines", step, st.Pages.Fetched, n)
		}
		resumed := append([]string{"-resume"}, args...)
		code, stdout, stderr = crawl(t.Context(), outcomesProxy(t, nil), resumed...)
		if code != exitOK {
			t.Fatalf("resumed after request %d: exit %d: %s", step, code, stderr)
		}
		// Each of the crawl's 9 pages is either replayed or decided by
		// this run: tried (fetched, failed or redirected) or disallowed.
		rst := readStats(t, file)
		n := logCount(stdout, "Fetched")
		if rst.Pages.Fetched != n || rst.Pages.Saved != 3 || rst.Pages.Replayed+rst.Pages.Tried+rst.URLs.Disallowed != 9 {
			t.Errorf("resumed after request %d: %d fetched, %d saved, %d replayed, %d tried, %d disallowed, and %d Fetched lines; want 9 pages in all",
				step, rst.Pages.Fetched, rst.Pages.Saved, rst.Pages.Replayed, rst.Pages.Tried, rst.URLs.Disallowed, n)
		}
	}
}

// TestQuietFailures: under -q, the pages that could not be fetched are
// summed up in one line at the end, most frequent reason first; without
// it, each has its line, as the reference's users expect, and there is no
// summary. The warning of a crawl through a proxy with no pause is not
// progress, and -q keeps it.
func TestQuietFailures(t *testing.T) {
	getenv := outcomesProxy(t, nil)
	const summary = "crawler: 4 pages could not be fetched: 2 HTTP 404, 1 HTTP 500, 1 too large\n"
	const warning = "crawler: warning: -delay 0s through the proxy that HTTP_PROXY names: " +
		"the crawler cannot see whether it forwards to a real server; if it does, give -delay 1s or more\n"
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprintf("quiet %t", quiet), func(t *testing.T) {
			args := append([]string{}, outcomesArgs...)
			if quiet {
				args = append(args, "-q")
			}
			code, stdout, stderr := crawl(t.Context(), getenv, append(args, outcomesSeed, t.TempDir(), "2")...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			perPage := strings.Count(stderr, "crawler: http://")
			switch {
			case quiet && (stderr != warning+summary || stdout != ""):
				t.Errorf("stdout %q, stderr:\n%s\nwant no log, and only:\n%s", stdout, stderr, warning+summary)
			case !quiet && (perPage != 4 || strings.Contains(stderr, "could not be fetched:")):
				t.Errorf("stderr:\n%s\nwant a line for each of 4 failed pages, and no summary", stderr)
			}
		})
	}
	t.Run("the seed", func(t *testing.T) {
		seed := "http://cs50tse.cs.dartmouth.edu/tse/q/gone.html"
		code, _, stderr := crawl(t.Context(), getenv, append(append([]string{"-q"}, outcomesArgs...), seed, t.TempDir(), "2")...)
		if code != exitSeedFetch || !strings.Contains(stderr, "cannot fetch the seed page") || !strings.Contains(stderr, "404") ||
			strings.Contains(stderr, "could not be fetched:") {
			t.Errorf("exit %d, stderr:\n%s\nwant %d, the seed's failure and its reason, once", code, stderr, exitSeedFetch)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		// The summary comes before the command that resumes the crawl.
		ctx, cancel := context.WithCancelCause(t.Context())
		defer cancel(nil)
		getenv := outcomesProxy(t, func(n int64) {
			if n == 6 { // robots.txt, index, dir, dir/ and big, which failed, came before
				cancel(stopSignal{syscall.SIGINT})
			}
		})
		code, _, stderr := crawl(ctx, getenv, append(append([]string{"-q"}, outcomesArgs...), outcomesSeed, t.TempDir(), "2")...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 130 || len(lines) != 4 || lines[0]+"\n" != warning || !strings.Contains(lines[1], "could not be fetched: ") || !strings.HasPrefix(lines[3], "To finish the crawl, run: ") {
			t.Errorf("exit %d, stderr:\n%s\nwant 130, the proxy's warning, the summary, the interrupt and how to resume", code, stderr)
		}
	})
}

// TestStatsJSONReplaced: the -stats-json file is replaced whole, by a file
// written beside it and renamed, keeping the old file's permissions and
// leaving nothing else in its directory. The old file is never written:
// another name for it, a hard link, still reads as it did, where a file
// rewritten in place would show the statistics, or half of them.
func TestStatsJSONReplaced(t *testing.T) {
	for _, tt := range []struct {
		name string
		old  string // "" for no file before the crawl
		mode os.FileMode
	}{
		{"new file", "", 0o644},
		{"over an old one", "stale, and longer than the statistics will ever be " + strings.Repeat("x", 4096), 0o600},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			file := filepath.Join(out, "stats.json")
			link := filepath.Join(t.TempDir(), "old.json")
			if tt.old != "" {
				if err := os.WriteFile(file, []byte(tt.old), tt.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Link(file, link); err != nil {
					t.Skipf("no hard links here: %v", err)
				}
			}
			args := append(append([]string{"-stats-json", file}, outcomesArgs...), outcomesSeed, t.TempDir(), "1")
			if code, _, stderr := crawl(t.Context(), outcomesProxy(t, nil), args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			readStats(t, file) // whole JSON, nothing of the old file left
			fi, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.mode &^ umask(t); fi.Mode().Perm() != want {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), want)
			}
			if names, _ := os.ReadDir(out); len(names) != 1 {
				t.Errorf("the directory holds %d files, want the statistics alone", len(names))
			}
			if tt.old != "" {
				if data, _ := os.ReadFile(link); string(data) != tt.old {
					t.Errorf("the old file was written in place: it now holds %.40q", data)
				}
			}
		})
	}
}

// umask returns the process's file mode creation mask, for a file made
// with a mode: the old file of TestStatsJSONReplaced is made with it too.
func umask(t *testing.T) os.FileMode {
	t.Helper()
	f := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(f, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}
