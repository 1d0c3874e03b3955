package pagedir_test

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/warc"
)

var warcInfo = warc.Info{Software: "tse-crawler/test"}

func pageURL(id int) string { return fmt.Sprintf("http://x/%d.html", id) }

// writeWARC creates a WARC file at path with n exchanges, the nth for
// http://x/n.html, and returns the file's size after each: sizes[i] is
// where the records of i exchanges end.
func writeWARC(t *testing.T, path string, n int) (sizes []int64) {
	t.Helper()
	w, err := warc.Create(path, warcInfo)
	if err != nil {
		t.Fatal(err)
	}
	sizes = append(sizes, w.Size())
	for i := 1; i <= n; i++ {
		err := w.WriteExchange(warc.Exchange{
			TargetURI: pageURL(i),
			Date:      time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			Request:   []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
			Response:  strings.NewReader("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n<html>"),
		})
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, w.Size())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return sizes
}

// warcTargets returns the WARC-Type of each record in the file at path,
// with the target of each response: "warcinfo", "response http://x/1.html".
func warcTargets(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSuffix(s.Text(), "\r")
		if typ, ok := strings.CutPrefix(line, "WARC-Type: "); ok && typ != "request" {
			recs = append(recs, typ)
		}
		if uri, ok := strings.CutPrefix(line, "WARC-Target-URI: "); ok && recs[len(recs)-1] == "response" {
			recs[len(recs)-1] += " " + uri
		}
	}
	return recs
}

// TestResumeWARC walks the rules for where a resumed crawl's WARC file is
// cut back, one case each: what the journal and the directory hold, and
// what records the file keeps before the resumed run's warcinfo record.
func TestResumeWARC(t *testing.T) {
	saved := func(id int, size int64) pagedir.Line {
		return pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: pageURL(id), DocID: id}, WARC: size}
	}
	tests := []struct {
		name      string
		exchanges int // in the file before the resume; -1 for no file
		// replay is what Begin returned, given the sizes the file had
		// after each exchange.
		replay func(sizes []int64) *pagedir.Replay
		want   []string // the records kept, before the new warcinfo
	}{
		{
			name:      "a fresh crawl empties the file",
			exchanges: 2,
			replay:    func([]int64) *pagedir.Replay { return nil },
			want:      nil,
		},
		{
			name:      "a fresh crawl makes a missing file",
			exchanges: -1,
			replay:    func([]int64) *pagedir.Replay { return nil },
			want:      nil,
		},
		{
			name:      "a crawl stopped before its first line",
			exchanges: 1,
			replay:    func([]int64) *pagedir.Replay { return &pagedir.Replay{} },
			want:      nil,
		},
		{
			name:      "cut back to the last page journaled",
			exchanges: 3,
			replay: func(sizes []int64) *pagedir.Replay {
				return &pagedir.Replay{Entries: []pagedir.Line{saved(1, sizes[1]), saved(2, sizes[2])}, Saved: 2, Pages: 2}
			},
			want: []string{"warcinfo", "response http://x/1.html", "response http://x/2.html"},
		},
		{
			name:      "requisites journaled after the last page keep their records",
			exchanges: 4,
			replay: func(sizes []int64) *pagedir.Replay {
				return &pagedir.Replay{Entries: []pagedir.Line{saved(1, sizes[1])}, Saved: 1, Pages: 1, Requisites: []pagedir.Line{
					{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: pageURL(2)}, WARC: sizes[2]}, {Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: pageURL(3)}, WARC: sizes[3]},
				}}
			},
			want: []string{"warcinfo", "response http://x/1.html", "response http://x/2.html", "response http://x/3.html"},
		},
		{
			name:      "a page to adopt keeps its records",
			exchanges: 2,
			replay: func(sizes []int64) *pagedir.Replay {
				return &pagedir.Replay{Entries: []pagedir.Line{saved(1, sizes[1])}, Saved: 1, Pages: 2}
			},
			want: []string{"warcinfo", "response http://x/1.html", "response http://x/2.html"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crawl.warc")
			var sizes []int64
			if tt.exchanges >= 0 {
				sizes = writeWARC(t, path, tt.exchanges)
			}
			d, err := pagedir.Open(t.TempDir(), true)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			w, err := d.ResumeWARC(path, tt.replay(sizes), warcInfo)
			if err != nil {
				t.Fatalf("ResumeWARC: %v", err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			want := append(slices.Clone(tt.want), "warcinfo")
			if got := warcTargets(t, path); !slices.Equal(got, want) {
				t.Errorf("the file holds %q, want %q", got, want)
			}
		})
	}
}

// TestResumeWARCMissing: a crawl that saved pages, whose WARC file is
// gone, is refused, and no file is made, for a new one would lack the
// records of those pages.
func TestResumeWARCMissing(t *testing.T) {
	dir, path := t.TempDir(), filepath.Join(t.TempDir(), "crawl.warc")
	d, err := pagedir.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	replay := &pagedir.Replay{Entries: []pagedir.Line{{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/1.html", DocID: 1}, WARC: 900}}, Saved: 1, Pages: 1}
	_, err = d.ResumeWARC(path, replay, warcInfo)
	if me, ok := errors.AsType[*pagedir.MissingWARCError](err); !ok || me.Path != path || me.Dir != dir || me.Pages != 1 {
		t.Errorf("ResumeWARC = %v, want a *MissingWARCError for %s, 1 page in %s", err, path, dir)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused resume made %s: %v", path, err)
	}
}
