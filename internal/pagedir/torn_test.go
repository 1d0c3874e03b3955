package pagedir_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
)

// tornJournal is a journal whose last entry a test tears.
func tornJournal() (data []byte, entries []pagedir.Line) {
	entries = []pagedir.Line{
		{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/index.html", DocID: 1}},
		{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://x/missing.html"}},
		{Page: &pagefetch.Page{Kind: pagefetch.Redirected, URL: "http://x/dir", Target: "http://x/dir/"}},
		{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/dir/", DocID: 2}},
	}
	data = pagedir.JournalHeader(pagedir.Params{Seed: "http://x/index.html", MaxDepth: 2})
	for _, e := range entries {
		data = append(data, pagedir.JournalLine(e)...)
	}
	return data, entries
}

// TestResumeAfterTornLine: a crawl killed -9 in the middle of writing a
// journal line leaves it torn, wherever the write stopped. Resuming it,
// and being stopped again, must leave a journal that reads back, with the
// whole lines before the tear and the new one after it.
func TestResumeAfterTornLine(t *testing.T) {
	full, entries := tornJournal()
	last := bytes.LastIndexByte(full[:len(full)-1], '\n') + 1
	next := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/next.html", DocID: 2}}
	for cut := last; cut < len(full); cut++ {
		dir := t.TempDir()
		writeFile(t, dir, pagedir.Marker, string(full[:cut]))
		writeFile(t, dir, "1", "http://x/index.html\n0\n<html>\n")
		d, err := pagedir.Open(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Record(next); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, pagedir.Marker))
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := pagedir.ReadJournal(bytes.NewReader(data))
		want := append(slices.Clone(entries[:len(entries)-1]), next)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("torn at byte %d of the last line %q, then resumed: Read = %v, %v; want %v", cut-last, full[last:], got, err, want)
		}
	}
}

// TestRefusedResumeKeepsTornLine: a resume that goes no further than
// reading the journal, as one refused for its arguments does, leaves the
// marker as it was, torn line and all.
func TestRefusedResumeKeepsTornLine(t *testing.T) {
	full, _ := tornJournal()
	dir := t.TempDir()
	torn := string(full[:len(full)-5])
	writeFile(t, dir, pagedir.Marker, torn)
	d, err := pagedir.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Begin(pagedir.Params{Seed: "http://x/other.html"}); !isType[*pagedir.MismatchError](err) {
		t.Errorf("Begin of another crawl = %v, want a *MismatchError", err)
	}
	d.Close()
	if got, _ := os.ReadFile(filepath.Join(dir, pagedir.Marker)); string(got) != torn {
		t.Errorf("after a resume that recorded nothing the marker holds %q, want %q", got, torn)
	}
}

// TestBeginAfterTornLine: a resume that starts afresh, as one with a torn
// header and no page does, replaces the journal whole.
func TestBeginAfterTornLine(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, pagedir.Marker, "tse-crawler journal 1\nseed \"http://x/ind")
	d, err := pagedir.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p := pagedir.Params{Seed: "http://x/index.html", MaxDepth: 2}
	if replay, err := d.Begin(p); replay != nil || err != nil {
		t.Fatalf("Begin = %v, %v; want a fresh start", replay, err)
	}
	line := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/index.html", DocID: 1}}
	if err := d.Record(line); err != nil {
		t.Fatal(err)
	}
	want := string(pagedir.JournalHeader(p)) + string(pagedir.JournalLine(line))
	if got := readMarker(t, dir); got != want {
		t.Errorf("the marker holds %q, want only the new lines %q", got, want)
	}
}

// TestResumeUnsavedCharset: the line of a page that keeps a charset is
// written before the page, so a crawl stopped between the two leaves it
// last, its page not on disk. Begin drops it, as if the page had never
// been taken, and the first Record cuts it off, torn line after it or
// not. Any other line keeps its place, and a last line without a charset
// whose page is missing is left for the crawler to find diverged.
func TestResumeUnsavedCharset(t *testing.T) {
	params := pagedir.Params{Seed: "http://x/index.html", MaxDepth: 2}
	index := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/index.html", DocID: 1}, WARC: 100}
	sjis := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/sjis.html", DocID: 2, Charset: "shift_jis"}, WARC: 200}
	failed := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://x/gone.html"}, WARC: 300}
	plain := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/plain.html", DocID: 2}, WARC: 200}
	next := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/next.html", DocID: 2}}
	tests := []struct {
		name    string
		entries []pagedir.Line
		torn    string
		pages   int
		want    []pagedir.Line // the replay's
		saved   int
	}{
		{"its page missing", []pagedir.Line{index, sjis}, "", 1, []pagedir.Line{index}, 1},
		{"its page missing, then a torn line", []pagedir.Line{index, sjis}, "F \"http://x/a", 1, []pagedir.Line{index}, 1},
		{"its page on disk", []pagedir.Line{index, sjis}, "", 2, []pagedir.Line{index, sjis}, 2},
		{"not the last line", []pagedir.Line{index, sjis, failed}, "", 1, []pagedir.Line{index, sjis, failed}, 2},
		{"no charset", []pagedir.Line{index, plain}, "", 1, []pagedir.Line{index, plain}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			data := pagedir.JournalHeader(params)
			for _, e := range tt.entries {
				data = append(data, pagedir.JournalLine(e)...)
			}
			writeFile(t, dir, pagedir.Marker, string(data)+tt.torn)
			for id := 1; id <= tt.pages; id++ {
				writeFile(t, dir, strconv.Itoa(id), tt.entries[id-1].URL+"\n0\n<html>\n")
			}
			d, err := pagedir.Open(dir, true)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			replay, err := d.Begin(params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(replay.Entries, tt.want) || replay.Saved != tt.saved || replay.Pages != tt.pages {
				t.Fatalf("Begin = %+v, want entries %+v, %d saved, %d pages", replay, tt.want, tt.saved, tt.pages)
			}
			if err := d.Record(next); err != nil {
				t.Fatal(err)
			}
			_, got, err := pagedir.ReadJournal(strings.NewReader(readMarker(t, dir)))
			if want := append(slices.Clone(tt.want), next); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("after a Record the journal reads %+v, %v; want %+v", got, err, want)
			}
		})
	}
}
