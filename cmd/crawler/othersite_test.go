package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/playground"
)

// TestOtherSite crawls the project's second playground, a university in the
// spirit of seed 004: three hosts of one domain, numbered pages, content
// regions with links outside them that must not be followed, relative and
// external links, and robots.txt files with a Request-rate, a Crawl-delay
// and a Disallow. It checks the exact order of the visit, the depths and
// the statistics.
func TestOtherSite(t *testing.T) {
	var mu sync.Mutex
	hits := make(map[string][]time.Time) // host -> request starts
	var ends = make(map[string][]time.Time)
	h := playground.VirtualHosts(os.DirFS(filepath.Join("..", "..", "testdata", "vhosts")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		mu.Lock()
		hits[r.URL.Host] = append(hits[r.URL.Host], start)
		ends[r.URL.Host] = append(ends[r.URL.Host], time.Now())
		mu.Unlock()
	}))
	defer srv.Close()
	getenv := proxyEnv(srv.URL)
	dir := t.TempDir()
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	code, stdout, stderr := crawl(t.Context(), getenv,
		"-delay", "0", "-scope", "http://*.example.edu/", "-order", "priority",
		"-links-from", "<!-- CONTENT -->", "-links-until", "<!-- /CONTENT -->",
		"-stats", "-stats-json", statsFile,
		"http://www.example.edu/index.html", dir, "10")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	want := []string{
		"1 0 http://www.example.edu/index.html",
		"2 1 http://ir.example.edu/00300.html",    // 900 is disallowed; 300 is the largest left
		"3 2 http://staff.example.edu/00400.html", // found on 300, larger than everything waiting
		"4 2 http://ir.example.edu/00310.html",    // 310 twice: the one found first
		"5 3 http://staff.example.edu/00310.html", // then the other
		"6 1 http://www.example.edu/00200.html",   // its link from 400 was a duplicate, so depth 1
		"7 2 http://www.example.edu/00210.html",
		"8 1 http://www.example.edu/00100.html",
		"9 2 http://www.example.edu/00110.html",
		"10 3 http://www.example.edu/00120.html",
		"11 1 http://www.example.edu/00050.html",
		"12 2 http://www.example.edu/00055.html",
		"13 3 http://staff.example.edu/notes.html", // no number: last but for what it adds
		"14 4 http://staff.example.edu/00020.html",
	}
	var got []string
	for _, p := range readPages(t, dir) {
		got = append(got, fmt.Sprintf("%d %d %s", p.id, p.depth, p.url))
	}
	if !slices.Equal(got, want) {
		t.Errorf("visiting order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, never := range []string{"09999", "08888", "05000", "00700", "00999", "google"} {
		if strings.Contains(strings.Join(got, " "), never) {
			t.Errorf("%s was crawled: it is linked only outside a content region, or out of scope", never)
		}
	}
	if !strings.Contains(stdout, " 1  IgnRobots: http://www.example.edu/private/00900.html\n") {
		t.Errorf("the disallowed page is not logged IgnRobots:\n%s", stdout)
	}

	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Pages struct {
			Fetched, Saved, Failed, Redirects int
			FailedBy                          map[string]int `json:"failed_by"`
		}
		URLs struct {
			Found, Added, External, Duplicate, Disallowed int
		}
		Requests      int
		BytesSaved    int64   `json:"bytes_saved"`
		Elapsed       float64 `json:"elapsed"`
		Pauses        int
		MeanPause     float64 `json:"mean_pause"`
		ShortestPause float64 `json:"shortest_pause"`
		DeepestDepth  int     `json:"deepest_depth"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("-stats-json: %v\n%s", err, data)
	}
	var bytes int64
	for _, p := range readPages(t, dir) {
		bytes += int64(len(p.html))
	}
	type counts struct{ fetched, saved, failed, redirects, found, added, external, duplicate, disallowed, requests, pauses, deepest int }
	gotCounts := counts{st.Pages.Fetched, st.Pages.Saved, st.Pages.Failed, st.Pages.Redirects,
		st.URLs.Found, st.URLs.Added, st.URLs.External, st.URLs.Duplicate, st.URLs.Disallowed,
		st.Requests, st.Pauses, st.DeepestDepth}
	// 21 links: 14 added, 3 external (google, the bare domain, https), 4
	// duplicates; 17 requests: 3 robots.txt and 14 pages; 14 pauses: every
	// request but the first to each host.
	if wantCounts := (counts{14, 14, 0, 0, 21, 14, 3, 4, 1, 17, 14, 4}); gotCounts != wantCounts {
		t.Errorf("statistics %+v, want %+v", gotCounts, wantCounts)
	}
	if st.BytesSaved != bytes || st.Pages.FailedBy == nil {
		t.Errorf("bytes_saved %d, want %d; failed_by %v, want {}", st.BytesSaved, bytes, st.Pages.FailedBy)
	}
	// Request-rate 5/1 on www and Crawl-delay 0.1 on ir: 8 pauses of at
	// least 200ms and 2 of at least 100ms, among 14. The pauses of one host
	// overlap the requests to the others, but www's 8 follow each other.
	if st.MeanPause < 1.8/14 || st.ShortestPause < 0 || st.Elapsed < 1.6 {
		t.Errorf("mean pause %.3fs, shortest %.3fs, elapsed %.3fs; want a mean of at least %.3fs", st.MeanPause, st.ShortestPause, st.Elapsed, 1.8/14)
	}
	for host, min := range map[string]time.Duration{"www.example.edu": 200 * time.Millisecond, "ir.example.edu": 100 * time.Millisecond} {
		for i := 1; i < len(hits[host]); i++ {
			// The server reads its clock around its handler, not when
			// bytes cross the wire, and may read the end late: once, on
			// a busy machine, a gap came 0.3 ms short. The crawler's
			// own pause is exact (TestPacing).
			if gap := hits[host][i].Sub(ends[host][i-1]); gap < min-10*time.Millisecond {
				t.Errorf("%s: request %d came %v after the previous one ended, want at least %v", host, i+1, gap, min)
			}
		}
	}
	for _, line := range []string{"crawler: statistics", "14 fetched, 14 saved, 0 failed", "1 disallowed by robots.txt", "17, robots.txt and retries included", "depth:     4"} {
		if !strings.Contains(stderr, line) {
			t.Errorf("-stats output lacks %q:\n%s", line, stderr)
		}
	}
}
