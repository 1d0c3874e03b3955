//go:build unix

package pagedir_test

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
)

// old is the modification time given to the files a test must not touch,
// so that any write to them would show.
var old = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

// A victim is a file the crawler must leave alone: its bytes and its
// modification time must be the same after the test, or, if it was
// missing, it must still be missing.
type victim struct {
	path    string
	content string
	missing bool
}

func (v victim) check(t *testing.T) {
	t.Helper()
	fi, err := os.Lstat(v.path)
	if v.missing {
		if err == nil {
			t.Errorf("%s was created", v.path)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(v.path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != v.content || fi.Size() != int64(len(v.content)) || !fi.ModTime().Equal(old) {
		t.Errorf("%s changed: %d bytes %q, modified %v; want %q, modified %v", v.path, fi.Size(), data, fi.ModTime(), v.content, old)
	}
}

// plant writes a file that the crawler must not touch.
func plant(t *testing.T, path, content string) victim {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return victim{path: path, content: content}
}

// openWithin calls Open, failing the test instead of hanging if Open
// blocks, as it would on a FIFO opened for writing.
func openWithin(t *testing.T, dir string, resume bool) (*pagedir.Dir, error) {
	t.Helper()
	type result struct {
		d   *pagedir.Dir
		err error
	}
	done := make(chan result, 1)
	go func() {
		d, err := pagedir.Open(dir, resume)
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		return r.d, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Open(%q) has not returned after 10s", dir)
		return nil, nil
	}
}

// TestOpenRefusesMarker: a .crawler that is not a regular file with one
// name is refused, with or without -resume, before anything is written:
// the file it leads to, inside the directory or out, is left as it was,
// and a link that leads nowhere does not make its target.
func TestOpenRefusesMarker(t *testing.T) {
	tests := []struct {
		name string
		// setup makes dir's .crawler and returns the files it leads to.
		setup func(t *testing.T, dir, outside string) []victim
		want  []string // in the error, with DIR for the directory
	}{
		{
			name: "link to a file outside",
			setup: func(t *testing.T, dir, outside string) []victim {
				v := plant(t, filepath.Join(outside, "precious"), "someone's work\n")
				symlink(t, v.path, filepath.Join(dir, pagedir.Marker))
				return []victim{v}
			},
			want: []string{"is a symbolic link", "never writes through a link it did not make", "rm DIR/.crawler"},
		},
		{
			name: "dangling link",
			setup: func(t *testing.T, dir, outside string) []victim {
				v := victim{path: filepath.Join(outside, "new"), missing: true}
				symlink(t, v.path, filepath.Join(dir, pagedir.Marker))
				return []victim{v}
			},
			want: []string{"is a symbolic link"},
		},
		{
			name: "link to a file inside",
			setup: func(t *testing.T, dir, outside string) []victim {
				v := plant(t, filepath.Join(dir, "notes.txt"), "my notes\n")
				symlink(t, "notes.txt", filepath.Join(dir, pagedir.Marker))
				return []victim{v}
			},
			want: []string{"is a symbolic link"},
		},
		{
			name: "dangling link inside",
			setup: func(t *testing.T, dir, outside string) []victim {
				symlink(t, "5", filepath.Join(dir, pagedir.Marker))
				return []victim{{path: filepath.Join(dir, "5"), missing: true}}
			},
			want: []string{"is a symbolic link"},
		},
		{
			name: "link to a directory",
			setup: func(t *testing.T, dir, outside string) []victim {
				symlink(t, outside, filepath.Join(dir, pagedir.Marker))
				return nil
			},
			want: []string{"is a symbolic link"},
		},
		{
			name: "hard link",
			setup: func(t *testing.T, dir, outside string) []victim {
				v := plant(t, filepath.Join(outside, "precious"), "someone's work\n")
				if err := os.Link(v.path, filepath.Join(dir, pagedir.Marker)); err != nil {
					t.Skipf("skipping: no hard links here: %v", err)
				}
				return []victim{v}
			},
			want: []string{"has 2 hard links", "rm DIR/.crawler"},
		},
		{
			name: "FIFO",
			setup: func(t *testing.T, dir, outside string) []victim {
				if err := syscall.Mkfifo(filepath.Join(dir, pagedir.Marker), 0o644); err != nil {
					t.Skipf("skipping: cannot make a FIFO here: %v", err)
				}
				return nil
			},
			want: []string{"is a named pipe (FIFO)"},
		},
		{
			name: "socket",
			setup: func(t *testing.T, dir, outside string) []victim {
				ln, err := net.Listen("unix", filepath.Join(dir, pagedir.Marker))
				if err != nil {
					t.Skipf("skipping: cannot make a socket here: %v", err)
				}
				ln.(*net.UnixListener).SetUnlinkOnClose(false)
				t.Cleanup(func() { ln.Close() })
				return nil
			},
			want: []string{"is a socket"},
		},
		{
			name: "directory",
			setup: func(t *testing.T, dir, outside string) []victim {
				if err := os.Mkdir(filepath.Join(dir, pagedir.Marker), 0o755); err != nil {
					t.Fatal(err)
				}
				return nil
			},
			want: []string{"is a directory", "rmdir DIR/.crawler"},
		},
	}
	for _, tt := range tests {
		for _, resume := range []bool{false, true} {
			name := tt.name
			if resume {
				name += ", resume"
			}
			t.Run(name, func(t *testing.T) {
				dir, outside := t.TempDir(), t.TempDir()
				victims := tt.setup(t, dir, outside)
				if resume {
					// A page, as a crawl being resumed has.
					victims = append(victims, plant(t, filepath.Join(dir, "1"), "http://x/\n0\n<html>\n"))
				}
				before := names(t, dir)
				d, err := openWithin(t, dir, resume)
				if err == nil {
					d.Close()
					t.Errorf("Open(%q) of a .crawler that is a %s succeeded, want an error", dir, tt.name)
				} else {
					for _, w := range append([]string{"cannot create .crawler in pageDirectory DIR: DIR/.crawler "}, tt.want...) {
						if w = strings.ReplaceAll(w, "DIR", dir); !strings.Contains(err.Error(), w) {
							t.Errorf("Open error %q does not contain %q", err, w)
						}
					}
				}
				for _, v := range victims {
					v.check(t)
				}
				if after := names(t, dir); !slices.Equal(after, before) {
					t.Errorf("the refused Open changed the directory from %q to %q", before, after)
				}
			})
		}
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("skipping: cannot make a symbolic link here: %v", err)
	}
}

// TestDirectoryMoved: the directory is opened once, so a crawl whose
// directory is renamed, and another put in its place, goes on writing to
// its own directory, wherever it now is, and never to the new one.
func TestDirectoryMoved(t *testing.T) {
	d, dir, moved := begunToMove(t)
	if err := d.Save(1, "http://x/1.html", 0, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(2, "http://x/2.html", 1, []byte("two")); err != nil {
		t.Fatalf("Save after the directory moved: %v", err)
	}
	line := pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://x/2.html", DocID: 2}}
	if err := d.Record(line); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(moved, "2")); err != nil || string(got) != "http://x/2.html\n1\ntwo\n" {
		t.Errorf("page 2 in the moved directory = %q, %v; want it saved there", got, err)
	}
	want := string(pagedir.JournalHeader(params)) + string(pagedir.JournalLine(line))
	if got, err := os.ReadFile(filepath.Join(moved, pagedir.Marker)); err != nil || string(got) != want {
		t.Errorf("the moved directory's journal = %q, %v; want %q", got, err, want)
	}
	if n, err := d.Count(); n != 2 || err != nil {
		t.Errorf("Count() = %d, %v; want the moved directory's 2 pages", n, err)
	}
	if url, _, _, err := d.Load(2); url != "http://x/2.html" || err != nil {
		t.Errorf("Load(2) = %q, %v; want page 2 of the moved directory", url, err)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("the directory put in the old one's place holds %q, want nothing", got)
	}
}

// TestScratch: a scratch file reads back what was written to it and has
// no name, made while pages are saved from another goroutine, and it is
// made in the Dir's own directory, after that was renamed and another put
// in its place.
func TestScratch(t *testing.T) {
	d, dir, moved := begunToMove(t)
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wg sync.WaitGroup
	wg.Go(func() {
		for id := 1; id <= n; id++ {
			if err := d.Save(id, "http://x/", 0, []byte("<p>")); err != nil {
				t.Error(err)
			}
		}
	})
	want := []byte("held until the end is known")
	for range n {
		f, err := d.Scratch()
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want))
		if _, err := f.Write(want); err != nil {
			t.Error(err)
		} else if _, err := f.ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
			t.Errorf("scratch file read back %q, %v; want %q", got, err, want)
		}
		// Linux names an open file's path, deleted, in /proc.
		if where, err := os.Readlink(fmt.Sprint("/proc/self/fd/", f.Fd())); err == nil &&
			(filepath.Dir(where) != moved || !strings.HasSuffix(where, " (deleted)")) {
			t.Errorf("scratch file at %q, want one deleted from %s", where, moved)
		}
		f.Close()
	}
	wg.Wait()
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("the directory put in the old one's place holds %q, want nothing", got)
	}
	if got := names(t, moved); len(got) != n+1 {
		t.Errorf("the directory holds %q, want the marker and %d pages alone", got, n)
	}
}

// TestLoadRefusesLink: on -resume, a page file that is a symbolic link is
// not one the crawler saved, wherever it leads.
func TestLoadRefusesLink(t *testing.T) {
	dir := t.TempDir()
	outside := plant(t, filepath.Join(t.TempDir(), "page"), "http://x/\n0\n<html>\n")
	writeFile(t, dir, pagedir.Marker, "")
	writeFile(t, dir, "1", "http://x/\n0\n<html>\n")
	symlink(t, "1", filepath.Join(dir, "2"))
	symlink(t, outside.path, filepath.Join(dir, "3"))
	d, err := pagedir.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, id := range []int{2, 3} {
		if _, _, _, err := d.Load(id); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Load(%d) of a link = %v, want an error that says it is a link", id, err)
		}
	}
	if _, _, _, err := d.Load(1); err != nil {
		t.Errorf("Load(1) = %v", err)
	}
}

// TestSaveOverLink: a link that appears under a page's name while the
// crawl runs is neither followed nor replaced.
func TestSaveOverLink(t *testing.T) {
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	v := plant(t, filepath.Join(t.TempDir(), "precious"), "someone's work\n")
	symlink(t, v.path, filepath.Join(dir, "1"))
	if err := d.Save(1, "http://x/", 0, []byte("page")); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("Save(1) over a link = %v, want an error that page 1 exists", err)
	}
	v.check(t)
	noTemps(t, dir)
}

// TestOpenLeftoverLinks: a leftover temporary name that is a link is
// removed itself, never what it leads to; one that is a directory is not
// the crawler's, and stays.
func TestOpenLeftoverLinks(t *testing.T) {
	dir := t.TempDir()
	v := plant(t, filepath.Join(t.TempDir(), "precious"), "someone's work\n")
	symlink(t, v.path, filepath.Join(dir, ".page-link"))
	if err := os.Mkdir(filepath.Join(dir, ".page-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got, want := names(t, dir), []string{".crawler", ".page-dir"}; !slices.Equal(got, want) {
		t.Errorf("after Open the directory holds %q, want %q", got, want)
	}
	v.check(t)
}

// TestClosedDir: a directory used after it is closed fails, rather than
// acting on whatever file now has its descriptor.
func TestClosedDir(t *testing.T) {
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	other, err := os.Open(t.TempDir()) // likely to get the freed descriptor
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := d.Save(1, "http://x/", 0, nil); err == nil {
		t.Error("Save after Close succeeded")
	}
	if _, err := d.Count(); err == nil {
		t.Error("Count after Close succeeded")
	}
	if _, err := d.Scratch(); err == nil {
		t.Error("Scratch after Close succeeded")
	}
	if err := d.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("second Close = %v, want os.ErrClosed", err)
	}
}

// begunToMove begins a crawl in a new directory, dir, and returns it and
// the path, moved, that a test renames it to.
func begunToMove(t *testing.T) (d *pagedir.Dir, dir, moved string) {
	t.Helper()
	parent := t.TempDir()
	dir, moved = filepath.Join(parent, "data"), filepath.Join(parent, "moved")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Begin(params); err != nil {
		t.Fatal(err)
	}
	return d, dir, moved
}
