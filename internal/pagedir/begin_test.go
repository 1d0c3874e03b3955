package pagedir_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
)

// isType reports whether err's tree holds an error of type E.
func isType[E error](err error) bool {
	_, ok := errors.AsType[E](err)
	return ok
}

// TestBegin walks the rules for resuming, one case each: what the
// directory holds, what Begin decides, and what it leaves in the marker.
func TestBegin(t *testing.T) {
	saved := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/1.html", DocID: 1}}
	failed := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://x/404.html"}}
	requisite := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://x/a.png"}, WARC: 700}
	sheet := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://x/s.css", Needs: []string{"http://x/b.png"}}, WARC: 900}
	seeds := pagedir.Line{Seeds: []string{"http://x/2.html", "http://x/3.html"}}
	header := string(pagedir.JournalHeader(params))
	page1 := "http://x/1.html\n0\n<html>\n"
	other := params
	other.MaxDepth = 3
	tests := []struct {
		name   string
		resume bool
		files  map[string]string
		// check judges Begin's outcome.
		check func(t *testing.T, replay *pagedir.Replay, err error)
		// marker is what the marker holds after Begin; "" means as it was.
		marker string
	}{
		{
			name:   "a new crawl",
			check:  fresh,
			marker: header,
		},
		{
			name:   "a new crawl over an old journal",
			files:  map[string]string{pagedir.Marker: header + string(pagedir.JournalLine(failed))},
			check:  fresh,
			marker: header,
		},
		{
			name:   "resume an empty directory",
			resume: true,
			check:  fresh,
			marker: header,
		},
		{
			name:   "resume a crawl whose seed failed",
			resume: true,
			files:  map[string]string{pagedir.Marker: ""},
			check:  fresh,
			marker: header,
		},
		{
			name:   "resume a crawl stopped in its header",
			resume: true,
			files:  map[string]string{pagedir.Marker: header[:len(header)/2]},
			check:  fresh,
			marker: header,
		},
		{
			name:   "resume",
			resume: true,
			files:  map[string]string{pagedir.Marker: header + string(pagedir.JournalLine(saved)) + string(pagedir.JournalLine(failed)), "1": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if err != nil || replay == nil || !reflect.DeepEqual(replay.Entries, []pagedir.Line{saved, failed}) || replay.Saved != 1 {
					t.Errorf("Begin = %+v, %v; want the 2 entries, 1 saved", replay, err)
				}
			},
		},
		{
			name:   "resume a crawl that recorded requisites",
			resume: true,
			files:  map[string]string{pagedir.Marker: header + string(pagedir.JournalLine(requisite)) + string(pagedir.JournalLine(saved)) + string(pagedir.JournalLine(sheet)) + string(pagedir.JournalLine(failed)), "1": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if err != nil || replay == nil || !reflect.DeepEqual(replay.Entries, []pagedir.Line{saved, failed}) || replay.Saved != 1 ||
					!reflect.DeepEqual(replay.Requisites, []pagedir.Line{requisite, sheet}) {
					t.Errorf("Begin = %+v, %v; want the 2 pages' entries, 1 saved, and the 2 requisites apart", replay, err)
				}
			},
		},
		{
			name:   "resume a crawl with more seeds",
			resume: true,
			files:  map[string]string{pagedir.Marker: header + string(pagedir.JournalLine(seeds)) + string(pagedir.JournalLine(saved)), "1": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if err != nil || replay == nil || !reflect.DeepEqual(replay.Entries, []pagedir.Line{saved}) || !replay.HasSeeds || !slices.Equal(replay.Seeds, seeds.Seeds) {
					t.Errorf("Begin = %+v, %v; want the seeds, and 1 entry", replay, err)
				}
			},
		},
		{
			name:   "resume a crawl stopped as it listed its more seeds",
			resume: true,
			files:  map[string]string{pagedir.Marker: header + strings.TrimSuffix(string(pagedir.JournalLine(seeds)), "\n")},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if err != nil || replay == nil || replay.HasSeeds || len(replay.Entries) != 0 {
					t.Errorf("Begin = %+v, %v; want an empty replay, without seeds", replay, err)
				}
			},
		},
		{
			name:   "resume a journal whose seeds come after a page",
			resume: true,
			files:  map[string]string{pagedir.Marker: header + string(pagedir.JournalLine(saved)) + string(pagedir.JournalLine(seeds)), "1": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if !isType[*pagedir.NotJournalError](err) {
					t.Errorf("Begin = %+v, %v; want a *NotJournalError", replay, err)
				}
			},
		},
		{
			name:   "resume a crawl stopped before its first line",
			resume: true,
			files:  map[string]string{pagedir.Marker: header},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if err != nil || replay == nil || len(replay.Entries) != 0 {
					t.Errorf("Begin = %+v, %v; want an empty replay", replay, err)
				}
			},
		},
		{
			name:   "resume another crawl",
			resume: true,
			files:  map[string]string{pagedir.Marker: string(pagedir.JournalHeader(other)) + string(pagedir.JournalLine(saved)), "1": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				me, ok := errors.AsType[*pagedir.MismatchError](err)
				if !ok || !slices.Equal(me.Diffs, []string{"maxDepth 3, not 2"}) {
					t.Errorf("Begin = %v, %v; want a *MismatchError on maxDepth", replay, err)
				}
			},
		},
		{
			name:   "resume a finished crawl",
			resume: true,
			files:  map[string]string{pagedir.Marker: "", "1": page1, "2": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if fe, ok := errors.AsType[*pagedir.FinishedError](err); !ok || fe.Pages != 2 {
					t.Errorf("Begin = %v, %v; want a *FinishedError with 2 pages", replay, err)
				}
			},
		},
		{
			name:   "resume pages with a gap",
			resume: true,
			files:  map[string]string{pagedir.Marker: header, "1": page1, "3": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if !isType[*pagedir.PagesError](err) || !strings.Contains(err.Error(), "page 2 is missing") {
					t.Errorf("Begin = %v, %v; want a *PagesError naming page 2", replay, err)
				}
			},
		},
		{
			name:   "resume pages with no journal",
			resume: true,
			files:  map[string]string{pagedir.Marker: "notes\n", "1": page1},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if !isType[*pagedir.NotJournalError](err) || !errors.Is(err, pagedir.ErrNotJournal) {
					t.Errorf("Begin = %v, %v; want a *NotJournalError", replay, err)
				}
			},
		},
		{
			name:   "resume a journal with a bad line",
			resume: true,
			files:  map[string]string{pagedir.Marker: header + "X \"http://x/\"\n"},
			check: func(t *testing.T, replay *pagedir.Replay, err error) {
				if !isType[*pagedir.NotJournalError](err) || !strings.Contains(err.Error(), "journal line") {
					t.Errorf("Begin = %v, %v; want a *NotJournalError naming the line", replay, err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, dir, name, content)
			}
			d, err := pagedir.Open(dir, tt.resume)
			if err != nil {
				t.Fatal(err)
			}
			before := readMarker(t, dir)
			replay, err := d.Begin(params)
			tt.check(t, replay, err)
			want := tt.marker
			if want == "" {
				want = before
			}
			if got := readMarker(t, dir); got != want {
				t.Errorf("after Begin the marker holds %q, want %q", got, want)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// fresh checks that Begin began a new crawl.
func fresh(t *testing.T, replay *pagedir.Replay, err error) {
	t.Helper()
	if replay != nil || err != nil {
		t.Errorf("Begin = %+v, %v; want a fresh start", replay, err)
	}
}

// TestBeginFinishedLabel: a finished crawl resumed with other parameters
// is refused, where the label keeps the crawl's name, and is finished,
// with nothing written, for the same parameters.
func TestBeginFinishedLabel(t *testing.T) {
	dir := t.TempDir()
	d := beginLabelled(t, dir)
	if err := d.Save(1, "http://x/1.html", 0, []byte("<html>")); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	other := params
	other.Seed = "http://x/other.html"
	for _, tt := range []struct {
		p    pagedir.Params
		want func(error) bool
	}{
		{other, isType[*pagedir.MismatchError]},
		{params, isType[*pagedir.FinishedError]},
	} {
		d, err := pagedir.Open(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		if replay, err := d.Begin(tt.p); replay != nil || !tt.want(err) {
			t.Errorf("Begin(%v) of a finished crawl = %v, %v", tt.p, replay, err)
		}
		d.Close()
		if got := readMarker(t, dir); got != "" {
			t.Errorf("after Begin the finished crawl's marker holds %q, want nothing", got)
		}
	}
}

// TestOpenHoldsPages: a new crawl in a directory that holds pages is
// refused with the page in the way.
func TestOpenHoldsPages(t *testing.T) {
	dir := t.TempDir()
	page := writeFile(t, dir, "3", "")
	_, err := pagedir.Open(dir, false)
	if he, ok := errors.AsType[*pagedir.HoldsPagesError](err); !ok || he.Dir != dir || he.Page != page {
		t.Errorf("Open = %v, want a *HoldsPagesError naming %s", err, page)
	}
}

// TestRecorded: a directory opened to resume tells the parameters of the
// crawl in it, from its journal, or once finished from its label, and
// writes nothing; a directory opened for a new crawl, or with no journal,
// tells none.
func TestRecorded(t *testing.T) {
	withLinks := params
	withLinks.Options = [][2]string{{"links", "reference"}}
	header := string(pagedir.JournalHeader(withLinks))
	saved := string(pagedir.JournalLine(pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/1.html", DocID: 1}}))
	for _, tt := range []struct {
		name   string
		resume bool
		marker string
		want   bool
	}{
		{"a journal", true, header + saved, true},
		{"a journal whose entries Begin would refuse", true, header + saved + "begin\n", true},
		{"a new crawl", false, header + saved, false},
		{"no journal", true, "", false},
		{"not a journal", true, "notes\n", false},
		{"a header cut short", true, header[:len(header)-3], false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, pagedir.Marker, tt.marker)
			d, err := pagedir.Open(dir, tt.resume)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			before := readMarker(t, dir)
			p, ok := d.Recorded()
			if ok != tt.want || ok && p.Diff(withLinks) != nil {
				t.Errorf("Recorded = %+v, %v; want %v", p, ok, tt.want)
			}
			if got := readMarker(t, dir); got != before {
				t.Errorf("Recorded changed the marker to %q", got)
			}
		})
	}

	dir := t.TempDir()
	d := beginLabelled(t, dir)
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	d, err := pagedir.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if p, ok := d.Recorded(); !ok || p.Diff(params) != nil {
		t.Errorf("Recorded of a finished crawl = %+v, %v; want its label's %+v", p, ok, params)
	}
}
