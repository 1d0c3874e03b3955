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
	r.Pages.Fetched, r.Pages.Saved, r.Pages.Failed, r.Pages.Redirects = 20, 16, 3, 1
	r.Pages.FailedBy = map[string]int{"HTTP 404": 2, "timeout": 1}
	r.URLs.Found, r.URLs.Added, r.URLs.External, r.URLs.Duplicate, r.URLs.Disallowed = 100, 21, 30, 49, 2
	r.Requests, r.BytesSaved = 24, 123456
	r.Elapsed, r.Pauses = Duration(21*time.Second+345678*time.Microsecond), 23
	r.MeanPause, r.ShortestPause = Duration(time.Second+1500*time.Microsecond), Duration(time.Second)
	r.DeepestDepth = 3
	return r
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `crawler: statistics
  pages:     20 fetched, 16 saved, 3 failed (2 HTTP 404, 1 timeout), 1 redirected
  URLs:      100 found, 21 added; ignored: 30 external, 49 duplicate, 2 disallowed by robots.txt
  requests:  24, robots.txt and retries included
  saved:     123456 bytes of HTML
  time:      21.346s elapsed; 23 pauses, mean 1.002s, shortest 1s
  depth:     3 at the deepest
`
	if b.String() != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", &b, want)
	}
	r := sample()
	r.Pages.Replayed = 7
	b.Reset()
	r.WriteText(&b)
	if !strings.Contains(b.String(), "16 (7 outcomes replayed from an earlier run) saved") {
		t.Errorf("WriteText of a resumed crawl does not say what was replayed:\n%s", &b)
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
	if !bytes.HasSuffix(data, []byte("}\n")) {
		t.Errorf("JSON does not end in a newline")
	}
}
