package linkcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzLoad loads a file of any bytes: Load never fails on one, and
// either reads it, trusting only what is fine and recent, and a write
// that follows keeps its entries, or sets it aside with its bytes and a
// warning, trusting nothing of it.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"format": "tse-crawler link cache", "version": 1, "links": [{"url": "http://a/", "status": "200", "checked": "2025-03-01T11:00:00Z"}, {"url": "http://a/s.css", "status": "200", "checked": "2025-03-01T11:30:00Z", "stylesheet": true, "imports": [{"url": "http://a/f.woff", "line": 1, "column": 5}]}]}`))
	f.Add([]byte(`{"format": "tse-crawler link cache", "version": 1, "links": [{"url": "http://a/", "status": "404", "checked": "2025-03-01T11:00:00Z"}, {"url": "http://a/", "status": "200", "checked": "2025-03-01T11:30:00Z"}]}`))
	f.Add([]byte(`{"format": "tse-crawler link cache", "version": 1, "links": null}`))
	f.Add([]byte(`{"format": "tse-crawler link cache", "version": 2, "links": []}`))
	f.Add([]byte(`{"format": "tse-crawler link c`))
	f.Add([]byte(`{"name": "x", "version": "1"}`))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "links.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		var warned []string
		c, err := New(path, 24*time.Hour, func() time.Time { return now }, func(msg string) { warned = append(warned, msg) })
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Load(t.Context()); err != nil {
			t.Fatalf("Load: %v", err)
		}
		parsed, why := parse(data)
		if why != "" {
			if len(warned) != 1 || len(c.read) != 0 {
				t.Fatalf("a file that %s: warnings %q, %d entries read", why, warned, len(c.read))
			}
			if aside, err := os.ReadFile(path + ".bad"); err != nil || string(aside) != string(data) {
				t.Fatalf("set aside: %q, %v", aside, err)
			}
			return
		}
		if len(warned) != 0 {
			t.Fatalf("a file of ours: warnings %q", warned)
		}
		for u, e := range c.read {
			got, ok := c.Fine(u)
			age := now.Sub(e.Checked)
			if want := Fine(e.Status) && age >= 0 && age < 24*time.Hour; ok != want {
				t.Fatalf("%s (%s, %v ago) trusted: %v", u, e.Status, age, ok)
			}
			if ok && got.URL != u {
				t.Fatalf("Fine(%q) gave %q", u, got.URL)
			}
		}
		c.Put(t.Context(), Entry{URL: "http://new/", Status: "200"})
		data, err = os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		again, why := parse(data)
		if why != "" {
			t.Fatalf("the file written %s:\n%s", why, data)
		}
		kept := make(map[string]bool)
		for _, e := range again.Links {
			kept[e.URL] = true
		}
		horizon := now.Add(-keep)
		for _, e := range parsed.Links {
			if !kept[e.URL] && !c.read[e.URL].Checked.Before(horizon) {
				t.Fatalf("%s was lost in the write", e.URL)
			}
		}
	})
}
