package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// crawlOnePage crawls the one page index.html of site, at depth 0, with
// -warc and args, and returns how many requests the proxy got, what
// -stats-json says of the requisites, and stderr.
func crawlOnePage(t *testing.T, page string, args ...string) (requests int64, fetched, failed, skipped int, stderr string) {
	t.Helper()
	p := newProxy(t, fstest.MapFS{"tse/big/index.html": {Data: []byte(page)}})
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	args = append(args, "-delay", "0", "-warc", filepath.Join(t.TempDir(), "crawl.warc"), "-stats-json", statsFile,
		"http://cs50tse.cs.dartmouth.edu/tse/big/index.html", t.TempDir(), "0")
	code, _, stderr := crawl(t.Context(), p.getenv, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(statsFile)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Requisites struct{ Fetched, Failed, Skipped int }
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return p.requests.Load(), r.Requisites.Fetched, r.Requisites.Failed, r.Requisites.Skipped, stderr
}

// TestHugeSrcset: a page whose srcset has 50,000 candidates costs its
// src and the four a browser could pick, not 50,000 requests; the others
// are counted as skipped, and named in a line on stderr.
func TestHugeSrcset(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<img src="s.png" srcset="`)
	for i := range 50000 {
		fmt.Fprintf(&b, "w%d.png %dw, ", i, 100*(i+1))
	}
	b.WriteString(`">`)
	requests, fetched, failed, skipped, stderr := crawlOnePage(t, b.String())
	// robots.txt, the page, s.png, and 100w, 200w, 2000w and 3900w.
	if requests != 7 || fetched+failed != 5 {
		t.Errorf("%d requests, %d requisites fetched or failed; want 7 and 5", requests, fetched+failed)
	}
	if skipped != 49996 {
		t.Errorf("-stats-json: %d skipped, want 49996", skipped)
	}
	line := "crawler: http://cs50tse.cs.dartmouth.edu/tse/big/index.html: 49996 requisites skipped (image candidates a browser would not load)\n"
	if strings.Count(stderr, "requisites skipped") != 1 || !strings.Contains(stderr, line) {
		t.Errorf("stderr %q, want the one line %q", stderr, line)
	}
	// -q keeps the line off; the figures keep the count.
	if _, _, _, skipped, stderr := crawlOnePage(t, b.String(), "-q"); skipped != 49996 || strings.Contains(stderr, "skipped") {
		t.Errorf("-q: %d skipped, stderr %q; want 49996 and no line", skipped, stderr)
	}
}

// TestMaxRequisites: a page of 1,200 images has its first -max-requisites
// fetched, in document order, each distinct URL counted once, and the
// rest counted as skipped; 0 is no cap.
func TestMaxRequisites(t *testing.T) {
	var b strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&b, "<img src=i%d.png><img src=i%d.png#again>\n", i, i)
	}
	for _, tc := range []struct {
		args             []string
		fetched, skipped int
	}{
		{nil, 1000, 200},
		{[]string{"-max-requisites", "1000"}, 1000, 200},
		{[]string{"-max-requisites", "7"}, 7, 1193},
		{[]string{"-max-requisites", "0"}, 1200, 0},
	} {
		t.Run(strings.Join(append([]string{"args"}, tc.args...), " "), func(t *testing.T) {
			requests, fetched, failed, skipped, stderr := crawlOnePage(t, b.String(), tc.args...)
			if requests != int64(2+tc.fetched) || fetched+failed != tc.fetched || skipped != tc.skipped {
				t.Errorf("%d requests, %d requisites fetched or failed, %d skipped; want %d, %d, %d",
					requests, fetched+failed, skipped, 2+tc.fetched, tc.fetched, tc.skipped)
			}
			if tc.skipped == 0 {
				if strings.Contains(stderr, "skipped") {
					t.Errorf("stderr %q, want no line of what was skipped", stderr)
				}
				return
			}
			line := fmt.Sprintf("crawler: http://cs50tse.cs.dartmouth.edu/tse/big/index.html: %d requisites skipped (%d past -max-requisites %d)\n",
				tc.skipped, tc.skipped, tc.fetched)
			if strings.Count(stderr, "requisites skipped") != 1 || !strings.Contains(stderr, line) {
				t.Errorf("stderr %q, want the one line %q", stderr, line)
			}
		})
	}
}
