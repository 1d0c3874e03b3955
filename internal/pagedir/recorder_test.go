package pagedir_test

import (
	"strings"
	"testing"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
)

// TestRecorderOrder: a page is saved before its journal line, so that a
// crash leaves a page unjournaled at worst, which a resume adopts; but a
// page whose record keeps a charset is journaled first, since its bytes
// alone would not scan alike. Here page 2's file is in the way, so its
// save fails: the line goes in only if it comes first.
func TestRecorderOrder(t *testing.T) {
	for _, tt := range []struct {
		charset string
		want    string
	}{
		{"", `S 1 "http://x/1.html"` + "\n"},
		{"Shift_JIS", `S 1 "http://x/1.html"` + "\n" + `S 2 "http://x/2.html" charset "Shift_JIS"` + "\n"},
	} {
		t.Run(tt.charset, func(t *testing.T) {
			dir := t.TempDir()
			d, err := pagedir.Open(dir, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Begin(params); err != nil {
				t.Fatal(err)
			}
			r := &pagedir.Recorder{Dir: d}
			if err := r.Record(&pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/1.html", DocID: 1, Body: []byte("<p>")}); err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, "2", "not the crawl's")
			err = r.Record(&pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/2.html", Depth: 1, DocID: 2, Body: []byte("<p>"), Charset: tt.charset})
			if err == nil {
				t.Fatal("page 2 was saved over a file in the way")
			}
			marker := readMarker(t, dir)
			if _, lines, _ := strings.Cut(marker, "begin\n"); lines != tt.want {
				t.Errorf("the journal holds %q, want %q", lines, tt.want)
			}
		})
	}
}
