package pagedir

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A fullFile stands for a temporary file on a disk with room for limit
// more bytes: writes beyond it fail as a full disk does. The bytes that do
// fit are really written, so a half-written file is left for Save to clean.
type fullFile struct {
	*os.File
	limit int
}

func (f *fullFile) Write(b []byte) (int, error) {
	if len(b) > f.limit {
		n, _ := f.File.Write(b[:f.limit])
		f.limit = 0
		return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	f.limit -= len(b)
	return f.File.Write(b)
}

// TestSaveDiskFull checks, with an injected writer, that a page that does
// not fit fails with the system's error and leaves nothing behind: neither
// a page file nor a temporary one. Earlier pages are untouched.
func TestSaveDiskFull(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Save(1, "http://x/1.html", 0, []byte("<p>fits</p>")); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{0, 5, 20, 200} {
		d.createTemp = func() (tempFile, string, error) {
			f, name, err := d.newTemp()
			if err != nil {
				return nil, "", err
			}
			return &fullFile{File: f.(*os.File), limit: limit}, name, nil
		}
		err := d.Save(2, "http://x/2.html", 1, []byte(strings.Repeat("<p>too big</p>", 100)))
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "saving page 2") {
			t.Errorf("limit %d: Save error = %v, want ENOSPC for page 2", limit, err)
		}
		assertOnly(t, dir, ".crawler", "1")
	}
}

// TestSaveTmpfsFull fills a real, small tmpfs, where this test may mount
// one (as root on Linux); elsewhere TestSaveDiskFull covers the same.
func TestSaveTmpfsFull(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot mount a tmpfs here (%v: %s); TestSaveDiskFull injects the failure instead", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	d, err := Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	page := []byte(strings.Repeat("<p>twenty bytes</p>\n", 1000)) // 20 KB
	var saveErr error
	id := 1
	for ; id < 10 && saveErr == nil; id++ {
		saveErr = d.Save(id, "http://x/p.html", 0, page)
	}
	if !errors.Is(saveErr, syscall.ENOSPC) {
		t.Fatalf("Save error = %v, want ENOSPC once 64k are full", saveErr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == Marker {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if _, ok := DocID(e.Name()); !ok || err != nil || len(data) != len("http://x/p.html\n0\n")+len(page)+1 {
			t.Errorf("after the disk filled up, %s holds %d bytes (%v): want only whole pages", e.Name(), len(data), err)
		}
	}
	if len(entries) != id-1 { // the marker and the pages before the one that failed
		t.Errorf("%d files, want %d", len(entries), id-1)
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}
