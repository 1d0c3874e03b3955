package pagedir_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
)

// params names the crawl that the tests begin.
var params = pagedir.Params{Seed: "http://x/1.html", MaxDepth: 2}

// readMarker returns what dir's marker holds.
func readMarker(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, pagedir.Marker))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// writeFile creates a file in dir, failing the test on an error.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// names returns the sorted names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range entries {
		ns = append(ns, e.Name())
	}
	slices.Sort(ns)
	return ns
}

// noTemps fails the test if dir holds a temporary page file.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	for _, n := range names(t, dir) {
		if strings.HasPrefix(n, ".page-") {
			t.Errorf("temporary file %s left in %s", n, dir)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns the path to open
		want  []string                  // substrings of the error message
	}{
		{
			name:  "empty path",
			setup: func(*testing.T) string { return "" },
			want:  []string{"pageDirectory is empty"},
		},
		{
			name:  "missing",
			setup: func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") },
			want:  []string{"nope", "does not exist", "mkdir -p"},
		},
		{
			name:  "missing parent",
			setup: func(t *testing.T) string { return filepath.Join(t.TempDir(), "a", "b") },
			want:  []string{"does not exist"},
		},
		{
			name:  "a file",
			setup: func(t *testing.T) string { return writeFile(t, t.TempDir(), "f", "x") },
			want:  []string{"is not a directory"},
		},
		{
			name: "a directory through a file",
			setup: func(t *testing.T) string {
				return filepath.Join(writeFile(t, t.TempDir(), "f", "x"), "sub")
			},
			want: []string{"pageDirectory"},
		},
		{
			name: "holds page 7",
			setup: func(t *testing.T) string {
				dir := t.TempDir()
				writeFile(t, dir, "notes.txt", "")
				writeFile(t, dir, "7", "http://x/\n0\n<html>\n")
				return dir
			},
			want: []string{"already holds pages", "7 is in the way"},
		},
		{
			name: "holds page 1 and .crawler",
			setup: func(t *testing.T) string {
				dir := t.TempDir()
				writeFile(t, dir, ".crawler", "")
				writeFile(t, dir, "1", "")
				return dir
			},
			want: []string{"already holds pages", "1 is in the way"},
		},
		{
			name: "holds pages 1 to 12: the first is named",
			setup: func(t *testing.T) string {
				dir := t.TempDir()
				for _, n := range []string{"12", "3", "10", "1", "2", "11", "9"} {
					writeFile(t, dir, n, "")
				}
				return dir
			},
			want: []string{"already holds pages", string(filepath.Separator) + "1 is in the way"},
		},
		{
			name: "holds a directory named 12",
			setup: func(t *testing.T) string {
				dir := t.TempDir()
				if err := os.Mkdir(filepath.Join(dir, "12"), 0o755); err != nil {
					t.Fatal(err)
				}
				return dir
			},
			want: []string{"12 is in the way"},
		},
		{
			name: "unwritable",
			setup: func(t *testing.T) string {
				if os.Geteuid() == 0 {
					t.Skip("running as root, which can write to any directory")
				}
				dir := filepath.Join(t.TempDir(), "ro")
				if err := os.Mkdir(dir, 0o555); err != nil {
					t.Fatal(err)
				}
				return dir
			},
			want: []string{"cannot create .crawler", "permission denied", "choose a directory you can write to"},
		},
		{
			name: ".crawler is a directory",
			setup: func(t *testing.T) string {
				dir := t.TempDir()
				if err := os.Mkdir(filepath.Join(dir, ".crawler"), 0o755); err != nil {
					t.Fatal(err)
				}
				return dir
			},
			want: []string{"cannot create .crawler"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t)
			var before []string
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				before = names(t, path)
			}
			d, err := pagedir.Open(path, false)
			if err == nil {
				t.Fatalf("Open(%q) = %v, nil, want an error", path, d)
			}
			if d != nil {
				t.Errorf("Open(%q) returned a Dir with its error %v", path, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Open(%q) error %q does not contain %q", path, err, w)
				}
			}
			if before != nil {
				if after := names(t, path); !slices.Equal(after, before) {
					t.Errorf("failed Open(%q) changed the directory from %q to %q", path, before, after)
				}
			}
		})
	}
}

func TestOpenNamesTheFileInTheWay(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "7", "")
	_, err := pagedir.Open(dir, false)
	if want := filepath.Join(dir, "7"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Open(dir holding 7) = %v, want an error naming %s", err, want)
	}
}

func TestOpen(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // present before Open
	}{
		{"empty", nil},
		{"existing empty marker", map[string]string{".crawler": ""}},
		{"existing marker with content", map[string]string{".crawler": "old contents\n"}},
		{"files that are not pages", map[string]string{
			".crawler":  "x",
			"notes.txt": "n",
			"007":       "",
			"0":         "",
			"-1":        "",
			"+1":        "",
			"1a":        "",
			" 1":        "",
			"1.0":       "",
			".1":        "",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, dir, name, content)
			}
			d, err := pagedir.Open(dir, false)
			if err != nil {
				t.Fatalf("Open(%q) error: %v", dir, err)
			}
			defer d.Close()
			marker := filepath.Join(dir, pagedir.Marker)
			fi, err := os.Stat(marker)
			if err != nil {
				t.Fatalf("Open did not create the marker: %v", err)
			}
			if !fi.Mode().IsRegular() || fi.Size() != 0 {
				t.Errorf("%s is %v of %d bytes, want an empty regular file", marker, fi.Mode(), fi.Size())
			}
			for name, content := range tt.files {
				if name == pagedir.Marker {
					continue
				}
				if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != content {
					t.Errorf("Open changed %s: %q, %v; want %q", name, b, err, content)
				}
			}
		})
	}
}

func TestMarker(t *testing.T) {
	if pagedir.Marker != ".crawler" {
		t.Errorf("Marker = %q, want %q", pagedir.Marker, ".crawler")
	}
}

func TestDocID(t *testing.T) {
	tests := []struct {
		name   string
		want   int
		wantOK bool
	}{
		{"1", 1, true},
		{"9", 9, true},
		{"10", 10, true},
		{"1516", 1516, true},
		{strconv.Itoa(math.MaxInt), math.MaxInt, true},
		{"0", 0, false},
		{"00", 0, false},
		{"007", 0, false},
		{"01", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1a", 0, false},
		{"a1", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
		{"1.0", 0, false},
		{"1e3", 0, false},
		{"0x1", 0, false},
		{"١", 0, false}, // an Arabic-Indic digit one
		{"", 0, false},
		{".crawler", 0, false},
		{".page-1", 0, false},
		{"9223372036854775808", 0, false}, // overflows int64
		{"99999999999999999999", 0, false},
	}
	for _, tt := range tests {
		got, ok := pagedir.DocID(tt.name)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("DocID(%q) = %d, %t, want %d, %t", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestSave(t *testing.T) {
	tests := []struct {
		name  string
		id    int
		url   string
		depth int
		html  []byte
		want  string
	}{
		{
			name: "page",
			id:   1, url: "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", depth: 0,
			html: []byte("<html>\n<a href=A.html>A</a>\n</html>"),
			want: "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html\n0\n<html>\n<a href=A.html>A</a>\n</html>\n",
		},
		{
			name: "html ending in a newline gets another",
			id:   2, url: "http://h/tse/a.html", depth: 3,
			html: []byte("<p>x</p>\n"),
			want: "http://h/tse/a.html\n3\n<p>x</p>\n\n",
		},
		{
			name: "empty html",
			id:   3, url: "http://h/tse/", depth: 10,
			html: nil,
			want: "http://h/tse/\n10\n\n",
		},
		{
			name: "empty non-nil html",
			id:   4, url: "http://h/tse/", depth: 1,
			html: []byte{},
			want: "http://h/tse/\n1\n\n",
		},
		{
			name: "NUL bytes",
			id:   5, url: "http://h/tse/n.html", depth: 2,
			html: []byte("a\x00b\x00\x00c\xff\r\n"),
			want: "http://h/tse/n.html\n2\na\x00b\x00\x00c\xff\r\n\n",
		},
		{
			name: "large id and depth",
			id:   123456, url: "http://h/tse/big.html", depth: 1234,
			html: bytes.Repeat([]byte("0123456789"), 100_000),
			want: "http://h/tse/big.html\n1234\n" + strings.Repeat("0123456789", 100_000) + "\n",
		},
	}
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := d.Save(tt.id, tt.url, tt.depth, tt.html); err != nil {
				t.Fatalf("Save(%d, %q, %d, …) error: %v", tt.id, tt.url, tt.depth, err)
			}
			path := filepath.Join(dir, strconv.Itoa(tt.id))
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				if len(tt.want) > 200 {
					t.Errorf("Save(%d, …) wrote %d bytes, want %d (contents differ)", tt.id, len(got), len(tt.want))
				} else {
					t.Errorf("Save(%d, …) wrote %q, want %q", tt.id, got, tt.want)
				}
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode(); got != 0o644 {
				t.Errorf("page %d has mode %v, want %v", tt.id, got, fs.FileMode(0o644))
			}
			noTemps(t, dir)
		})
	}
	want := []string{".crawler", "1", "123456", "2", "3", "4", "5"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("directory holds %q, want %q", got, want)
	}
}

func TestSaveRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	// A page that appears after Open, for example from a second crawler
	// writing to the same directory.
	const old = "http://h/tse/old.html\n0\nold\n"
	path := writeFile(t, dir, "3", old)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	err = d.Save(3, "http://h/tse/new.html", 1, []byte("new"))
	if err == nil {
		t.Fatal("Save(3, …) over an existing page 3 succeeded, want an error")
	}
	if !strings.Contains(err.Error(), "already exists") || !strings.Contains(err.Error(), "page 3") {
		t.Errorf("Save(3, …) error = %q, want it to say page 3 already exists", err)
	}
	got, rerr := os.ReadFile(path)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if string(got) != old {
		t.Errorf("page 3 = %q after the failed Save, want it untouched: %q", got, old)
	}
	if fi, err := os.Stat(path); err != nil {
		t.Error(err)
	} else if fi.Mode() != 0o600 {
		t.Errorf("page 3's mode after the failed Save = %v, want -rw-------", fi.Mode())
	}
	noTemps(t, dir)
	if want := []string{".crawler", "3"}; !slices.Equal(names(t, dir), want) {
		t.Errorf("directory holds %q, want %q", names(t, dir), want)
	}
	// The directory is still usable.
	if err := d.Save(4, "http://h/tse/new.html", 1, []byte("new")); err != nil {
		t.Errorf("Save(4, …) after the failed Save(3, …) error: %v", err)
	}
	noTemps(t, dir)
}

func TestSaveTwice(t *testing.T) {
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Save(1, "http://h/tse/a.html", 0, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(1, "http://h/tse/b.html", 0, []byte("b")); err == nil {
		t.Error("second Save(1, …) succeeded, want an error")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "1")); string(got) != "http://h/tse/a.html\n0\na\n" {
		t.Errorf("page 1 = %q after the second Save, want the first page", got)
	}
	noTemps(t, dir)
}

func TestSaveDirectoryGone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pages")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	err = d.Save(1, "http://h/tse/", 0, []byte("x"))
	if err == nil {
		t.Fatal("Save into a removed directory succeeded, want an error")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Save into a removed directory = %v, want an error wrapping fs.ErrNotExist", err)
	}
}

// TestOpenRemovesLeftovers: a crawl killed while writing a page leaves a
// temporary file, which the next Open removes, with or without -resume;
// nothing else is touched.
func TestOpenRemovesLeftovers(t *testing.T) {
	for _, resume := range []bool{false, true} {
		t.Run(fmt.Sprint("resume ", resume), func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, ".page-1234", "http://x/a.html\n1\n<html>half a pa")
			writeFile(t, dir, ".page-other", "")
			writeFile(t, dir, "notes.txt", "mine")
			if resume {
				writeFile(t, dir, pagedir.Marker, "")
				writeFile(t, dir, "1", "http://x/\n0\n<html></html>\n")
			}
			d, err := pagedir.Open(dir, resume)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			want := []string{".crawler", "notes.txt"}
			if resume {
				want = []string{".crawler", "1", "notes.txt"}
			}
			if !slices.Equal(names, want) {
				t.Errorf("after Open the directory holds %q, want %q", names, want)
			}
		})
	}
}

func TestOpenResume(t *testing.T) {
	t.Run("pages without a marker", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "1", "x")
		if _, err := pagedir.Open(dir, true); err == nil || !strings.Contains(err.Error(), "no .crawler") {
			t.Errorf("Open(resume) of pages with no marker: %v, want an error", err)
		}
	})
	t.Run("keeps the journal", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, pagedir.Marker, "the journal\n")
		writeFile(t, dir, "1", "http://x/\n0\n<html></html>\n")
		d, err := pagedir.Open(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := readMarker(t, dir); got != "the journal\n" {
			t.Errorf("after Open the marker holds %q, want the journal kept", got)
		}
		more := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://x/more.html"}}
		if err := d.Record(more); err != nil {
			t.Fatal(err)
		}
		if got, want := readMarker(t, dir), "the journal\n"+string(pagedir.JournalLine(more)); got != want {
			t.Errorf("after Record the marker holds %q, want %q", got, want)
		}
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, pagedir.Marker)); len(got) != 0 {
			t.Errorf("after Finish the marker holds %q, want nothing", got)
		}
	})
	t.Run("a fresh crawl empties the marker", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, pagedir.Marker, "an old journal\n")
		d, err := pagedir.Open(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if replay, err := d.Begin(params); replay != nil || err != nil {
			t.Fatalf("Begin = %v, %v; want a fresh start", replay, err)
		}
		if got, want := readMarker(t, dir), string(pagedir.JournalHeader(params)); got != want {
			t.Errorf("the marker holds %q, want only the new header %q", got, want)
		}
		d.Close()
	})
}

func TestLoadAndCount(t *testing.T) {
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for id := 1; id <= 3; id++ {
		if err := d.Save(id, fmt.Sprintf("http://x/%d.html", id), id-1, []byte(fmt.Sprintf("<p>%d\n</p>", id))); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := d.Count(); n != 3 || err != nil {
		t.Errorf("Count() = %d, %v; want 3", n, err)
	}
	url, depth, html, err := d.Load(2)
	if url != "http://x/2.html" || depth != 1 || string(html) != "<p>2\n</p>" || err != nil {
		t.Errorf("Load(2) = %q, %d, %q, %v", url, depth, html, err)
	}
	if _, _, _, err := d.Load(4); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(4) error = %v, want fs.ErrNotExist", err)
	}
	writeFile(t, dir, "5", "http://x/5.html\n4\n<p>5</p>\n")
	if _, err := d.Count(); err == nil || !strings.Contains(err.Error(), "page 4 is missing") {
		t.Errorf("Count() with a gap: %v, want an error naming page 4", err)
	}
	writeFile(t, dir, "4", "not a page")
	if _, _, _, err := d.Load(4); err == nil {
		t.Errorf("Load of a file that is not a page succeeded")
	}
}

// beginLabelled begins a crawl of params in dir, and skips the test where
// the file system keeps no label.
func beginLabelled(t *testing.T, dir string) *pagedir.Dir {
	t.Helper()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Begin(params); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Label(); !ok {
		d.Close()
		t.Skip("skipping: this file system keeps no extended attributes")
	}
	return d
}

// TestLabel: Begin labels the marker with the crawl's header, and the
// label outlives the journal that Finish empties.
func TestLabel(t *testing.T) {
	dir := t.TempDir()
	d := beginLabelled(t, dir)
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	// The label is read from the open marker, as a resume reads it.
	d, err := pagedir.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got, ok := d.Label(); !ok || string(got) != string(pagedir.JournalHeader(params)) {
		t.Errorf("Label() = %q, %v after Finish; want the header %q kept", got, ok, pagedir.JournalHeader(params))
	}
}
