package stats

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func sample() *Report {
	r := new(Report)
	r.Pages.Fetched, r.Pages.Tried, r.Pages.Saved, r.Pages.Failed, r.Pages.Redirects = 16, 20, 16, 3, 1
	r.Pages.FailedBy = map[string]int{"HTTP 404": 2, "timeout": 1}
	r.URLs.Found, r.URLs.Added, r.URLs.External, r.URLs.Duplicate, r.URLs.Disallowed = 100, 21, 30, 49, 2
	r.Requests, r.BytesSaved = 24, 123456
	r.Elapsed, r.Pauses = Duration(21*time.Second+345678*time.Microsecond), 23
	r.MeanPause, r.ShortestPause = Duration(time.Second+1500*time.Microsecond), Duration(time.Second)
	r.DeepestDepth, r.Links = 3, "html"
	return r
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `crawler: statistics
  pages:     16 fetched, 16 saved, 3 failed (2 HTTP 404, 1 timeout), 1 redirected; 20 tried
  URLs:      100 found, 21 added; ignored: 30 external, 49 duplicate, 2 disallowed by robots.txt
  requests:  24, robots.txt and retries included
  saved:     123,456 bytes (120.6 KiB) of HTML
  time:      21.346s elapsed; 23 pauses, mean 1.002s, shortest 1s
  depth:     3 at the deepest
  links:     read as a browser does (-links html)
`
	if b.String() != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", &b, want)
	}
	r := sample()
	r.Pages.Recalled = 7
	b.Reset()
	r.WriteText(&b)
	if !strings.Contains(b.String(), "; 20 tried, 7 outcomes replayed from an earlier run\n") {
		t.Errorf("WriteText of a resumed crawl does not say what was replayed:\n%s", &b)
	}

	// A crawl that ended at -max-pages says so.
	r = sample()
	r.MaxPagesReached, r.Waiting = true, 42
	b.Reset()
	r.WriteText(&b)
	if wantLimit := want + "  limit:     -max-pages reached, 42 pages left waiting\n"; b.String() != wantLimit {
		t.Errorf("WriteText of a crawl that ended at -max-pages:\n%s\nwant:\n%s", &b, wantLimit)
	}

	// Hosts crawled side by side: a line each, after the lines of a
	// crawl of one host, which stay as they are.
	r = sample()
	r.Hosts = []Host{
		{Name: "ir.example.edu", Requests: 4, Pauses: 3, MeanPause: Duration(100 * time.Millisecond)},
		{Name: "staff.example.edu:8080", Requests: 1},
		{Name: "www.example.edu", Requests: 19, Pauses: 18, MeanPause: Duration(1001400 * time.Microsecond)},
	}
	r.AheadPeak = 3 << 20
	b.Reset()
	r.WriteText(&b)
	if wantHosts := want + `  hosts:     ir.example.edu: 4 requests, mean pause 100ms
             staff.example.edu:8080: 1 request, mean pause 0s
             www.example.edu: 19 requests, mean pause 1.001s
  ahead:     at most 3,145,728 bytes (3.0 MiB) of pages fetched ahead waited in memory
`; b.String() != wantHosts {
		t.Errorf("WriteText of a crawl of three hosts:\n%s\nwant:\n%s", &b, wantHosts)
	}
	// One host: nothing more than the crawl's own figures.
	r.Hosts, r.AheadPeak = r.Hosts[:1], 0
	b.Reset()
	r.WriteText(&b)
	if b.String() != want {
		t.Errorf("WriteText of a crawl of one host:\n%s\nwant:\n%s", &b, want)
	}
	// A crawl with a WARC file sums its pages' requisites up last.
	r = sample()
	r.Requisites = &Requisites{Fetched: 12, Failed: 2, FailedBy: map[string]int{"HTTP 404": 1, "too large": 1}, Redirects: 1, Disallowed: 1, Bytes: 45678, Hosts: 2}
	b.Reset()
	r.WriteText(&b)
	if wantReqs := want + "  requisites: 12 fetched, 2 failed (1 HTTP 404, 1 too large), 1 redirected, 1 disallowed by robots.txt; 45,678 bytes (44.6 KiB) from 2 hosts\n"; b.String() != wantReqs {
		t.Errorf("WriteText of a crawl with requisites:\n%s\nwant:\n%s", &b, wantReqs)
	}
	// What was skipped is told only if anything was.
	r.Requisites.Skipped = 49996
	b.Reset()
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if wantReqs := want + "  requisites: 12 fetched, 2 failed (1 HTTP 404, 1 too large), 1 redirected, 1 disallowed by robots.txt, 49996 skipped; 45,678 bytes (44.6 KiB) from 2 hosts\n"; b.String() != wantReqs {
		t.Errorf("WriteText of a crawl with requisites skipped:\n%s\nwant:\n%s", &b, wantReqs)
	}
}

func TestJSON(t *testing.T) {
	data, err := sample().JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	pages := got["pages"].(map[string]any)
	urls := got["urls"].(map[string]any)
	for _, c := range []struct {
		name string
		got  any
		want float64
	}{
		{"pages.fetched", pages["fetched"], 16},
		{"pages.tried", pages["tried"], 20},
		{"pages.saved", pages["saved"], 16},
		{"pages.failed_by.timeout", pages["failed_by"].(map[string]any)["timeout"], 1},
		{"urls.disallowed", urls["disallowed"], 2},
		{"requests", got["requests"], 24},
		{"bytes_saved", got["bytes_saved"], 123456},
		{"elapsed", got["elapsed"], 21.345678},
		{"mean_pause", got["mean_pause"], 1.0015},
		{"shortest_pause", got["shortest_pause"], 1},
		{"deepest_depth", got["deepest_depth"], 3},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if got["links"] != "html" {
		t.Errorf("links = %v, want html", got["links"])
	}
	if !bytes.HasSuffix(data, []byte("}\n")) {
		t.Errorf("JSON does not end in a newline")
	}
	if hosts, ok := got["hosts"].([]any); !ok || len(hosts) != 0 || got["ahead_peak_bytes"] != 0.0 {
		t.Errorf("hosts = %v, ahead_peak_bytes = %v; want [] and 0", got["hosts"], got["ahead_peak_bytes"])
	}
	if got["max_pages_reached"] != false || got["waiting"] != 0.0 {
		t.Errorf("max_pages_reached = %v, waiting = %v; want false and 0", got["max_pages_reached"], got["waiting"])
	}
	r := sample()
	r.MaxPagesReached, r.Waiting = true, 42
	data, _ = r.JSON()
	if !bytes.Contains(data, []byte("\n  \"max_pages_reached\": true,\n  \"waiting\": 42")) {
		t.Errorf("JSON of a crawl that ended at -max-pages:\n%s", data)
	}
	r = sample()
	r.Hosts = []Host{{Name: "a.test:8080", Requests: 3, Pauses: 2, MeanPause: Duration(1500 * time.Millisecond)}}
	data, _ = r.JSON()
	if !bytes.Contains(data, []byte(`"hosts": [
    {
      "host": "a.test:8080",
      "requests": 3,
      "pauses": 2,
      "mean_pause": 1.500000
    }
  ],`)) {
		t.Errorf("JSON of a host:\n%s", data)
	}
}

// TestJSONRequisites: the requisites' figures are there only for a crawl
// that fetches requisites, with failed_by {} if none failed.
func TestJSONRequisites(t *testing.T) {
	t.Parallel()
	r := sample()
	data, _ := r.JSON()
	if bytes.Contains(data, []byte("requisites")) {
		t.Errorf("JSON of a crawl without requisites mentions them:\n%s", data)
	}
	r.Requisites = &Requisites{Fetched: 3, Bytes: 100, Hosts: 1}
	data, _ = r.JSON()
	if !bytes.Contains(data, []byte(`"requisites": {
    "fetched": 3,
    "failed": 0,
    "failed_by": {},
    "redirects": 0,
    "disallowed": 0,
    "bytes": 100,
    "hosts": 1,
    "skipped": 0
  }`)) {
		t.Errorf("JSON of a crawl with requisites:\n%s", data)
	}
	if r.Requisites.FailedBy != nil {
		t.Errorf("JSON set the report's requisites' FailedBy to %v", r.Requisites.FailedBy)
	}
}

// TestJSONNoFailures: a crawl with no failures has failed_by {}, not
// null, and JSON leaves the report as it was.
func TestJSONNoFailures(t *testing.T) {
	t.Parallel()
	r := sample()
	r.Pages.FailedBy = nil
	data, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"failed_by": {},`)) {
		t.Errorf("JSON of a crawl without failures:\n%s\nwant \"failed_by\": {}", data)
	}
	if r.Pages.FailedBy != nil {
		t.Errorf("JSON set the report's FailedBy to %v", r.Pages.FailedBy)
	}
}

func TestReasons(t *testing.T) {
	t.Parallel()
	tests := []struct {
		by   map[string]int
		want string
	}{
		{nil, ""},
		{map[string]int{"HTTP 404": 31}, "31 HTTP 404"},
		{map[string]int{"timeout": 2, "HTTP 404": 31}, "31 HTTP 404, 2 timeout"},
		// As many of each: by name.
		{map[string]int{"timeout": 1, "not HTML": 1, "HTTP 500": 1}, "1 HTTP 500, 1 not HTML, 1 timeout"},
		{map[string]int{"too large": 2, "HTTP 404": 1, "host unreachable": 5, "HTTP 403": 2}, "5 host unreachable, 2 HTTP 403, 2 too large, 1 HTTP 404"},
	}
	for _, tt := range tests {
		if got := Reasons(tt.by); got != tt.want {
			t.Errorf("Reasons(%v) = %q, want %q", tt.by, got, tt.want)
		}
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1, "1 byte"},
		{999, "999 bytes"},
		{1000, "1,000 bytes"},
		{1023, "1,023 bytes"},
		{1024, "1,024 bytes (1.0 KiB)"},
		{6486, "6,486 bytes (6.3 KiB)"},
		{1075, "1,075 bytes (1.0 KiB)"},   // 1.0498: rounds down
		{1076, "1,076 bytes (1.1 KiB)"},   // 1.0508: rounds up
		{10188, "10,188 bytes (9.9 KiB)"}, // 9.949
		{10189, "10,189 bytes (10.0 KiB)"},
		{1048524, "1,048,524 bytes (1023.9 KiB)"},
		{1048525, "1,048,525 bytes (1.0 MiB)"}, // would be 1024.0 KiB
		{1 << 20, "1,048,576 bytes (1.0 MiB)"},
		{10 << 20, "10,485,760 bytes (10.0 MiB)"},
		{123456789, "123,456,789 bytes (117.7 MiB)"},
		{3 << 30, "3,221,225,472 bytes (3.0 GiB)"},
		{1<<40 - 1, "1,099,511,627,775 bytes (1.0 TiB)"},
		{1<<63 - 1, "9,223,372,036,854,775,807 bytes (8.0 EiB)"},
	}
	for _, tt := range tests {
		if got := size(tt.n); got != tt.want {
			t.Errorf("size(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestSummary: the line that ends a crawl on a terminal.
func TestSummary(t *testing.T) {
	t.Parallel()
	r := sample()
	if got, want := r.Summary("data/mine"), "finished in 21.3s: 16 pages saved in data/mine, 123,456 bytes (120.6 KiB); 3 failed"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	r.Pages.Saved, r.Pages.Failed, r.BytesSaved, r.Elapsed = 1, 0, 1, Duration(40*time.Millisecond)
	if got, want := r.Summary("pages"), "finished in 40ms: 1 page saved in pages, 1 byte; 0 failed"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

// TestExcluded: the URLs -exclude kept out are counted among those
// ignored, in the text only by a crawl that excluded some, so that every
// other crawl's text reads as before, and in the JSON always.
func TestExcluded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		excluded int
		line     string // the URLs line of the text
	}{
		{"none", 0, "  URLs:      100 found, 21 added; ignored: 30 external, 49 duplicate, 2 disallowed by robots.txt\n"},
		{"some", 7, "  URLs:      100 found, 21 added; ignored: 30 external, 49 duplicate, 7 excluded, 2 disallowed by robots.txt\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sample()
			r.URLs.Excluded = tt.excluded
			var b bytes.Buffer
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.line) {
				t.Errorf("WriteText:\n%s\nwant the line\n%s", &b, tt.line)
			}
			data, err := r.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ URLs map[string]int }
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if n, ok := got.URLs["excluded"]; !ok || n != tt.excluded {
				t.Errorf("JSON urls.excluded = %d (given: %t), want %d\n%s", n, ok, tt.excluded, data)
			}
		})
	}
}
