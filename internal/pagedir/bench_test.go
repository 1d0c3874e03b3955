package pagedir

import (
	"bytes"
	"testing"
)

// BenchmarkSave saves wikipedia-sized pages (113 KB, their mean) one after
// another, as a crawl does.
func BenchmarkSave(b *testing.B) {
	d, err := Open(b.TempDir(), false)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	html := bytes.Repeat([]byte("<p>Some wikipedia text, and <a href=\"x.html\">a link</a>.</p>\n"), 113_000/64)
	b.SetBytes(int64(len(html)))
	b.ReportAllocs()
	id := 0
	for b.Loop() {
		id++
		if err := d.Save(id, "http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html", 2, html); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSaveAllocs guards the saver: a page costs a few allocations for the
// file and its names, none for its bytes.
func TestSaveAllocs(t *testing.T) {
	d, err := Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	html := bytes.Repeat([]byte("<p>text</p>\n"), 10_000)
	id := 0
	allocs := testing.AllocsPerRun(50, func() {
		id++
		if err := d.Save(id, "http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Linked_list.html", 2, html); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 12 {
		t.Errorf("Save allocated %.0f times a page, want at most 12", allocs)
	}
}
