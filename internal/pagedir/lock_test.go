//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package pagedir_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"tse-crawler/internal/filelock"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
)

// running begins a crawl in a new directory, saves its first page and
// leaves a second being written, as a crawl that runs does, and returns
// the open directory and its path.
func running(t *testing.T) (*pagedir.Dir, string) {
	t.Helper()
	dir := t.TempDir()
	d, err := pagedir.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Begin(params); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(1, params.Seed, 0, []byte("<html>")); err != nil {
		t.Fatal(err)
	}
	if err := d.Record(pagedir.Line{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: params.Seed, DocID: 1}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".page-inflight", "http://x/2.html\n1\n<ht")
	return d, dir
}

// checkBusy checks that err refuses dir as in use by this process.
func checkBusy(t *testing.T, err error, dir string) {
	t.Helper()
	be, ok := errors.AsType[*filelock.BusyError](err)
	if !ok {
		t.Fatalf("got %v, want a *filelock.BusyError", err)
	}
	if want := "pageDirectory " + dir; be.Name != want {
		t.Errorf("it names %q, want %q", be.Name, want)
	}
	if runtime.GOOS == "linux" && be.PID != os.Getpid() {
		t.Errorf("it names process %d, want this one, %d", be.PID, os.Getpid())
	}
}

// TestClaimBusy opens a directory in which a crawl runs, in every way a
// second crawler could, and with the directory renamed, which the lock
// follows: each is refused, and the running crawl's files are as they
// were, its page being written included, which Open would have removed.
// Once the crawl closes its directory, it can be claimed again.
func TestClaimBusy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rename bool
		open   func(dir string) error
	}{
		{"claim", false, func(dir string) error { _, err := pagedir.Claim(dir); return err }},
		{"new crawl", false, func(dir string) error { _, err := pagedir.Open(dir, false); return err }},
		{"resume", false, func(dir string) error { _, err := pagedir.Open(dir, true); return err }},
		{"renamed", true, func(dir string) error { _, err := pagedir.Open(dir, true); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, dir := running(t)
			if tc.rename {
				moved := dir + "-moved"
				if err := os.Rename(dir, moved); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(moved) })
				dir = moved
			}
			before := snapshot(t, dir)
			checkBusy(t, tc.open(dir), dir)
			if after := snapshot(t, dir); !maps.Equal(before, after) {
				t.Errorf("the refused crawler changed the directory: %q, was %q", after, before)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			d2, err := pagedir.Open(dir, true)
			if err != nil {
				t.Fatalf("once the crawl closed it: %v", err)
			}
			d2.Close()
		})
	}
}

// TestClaimRelease: a directory claimed and released, or claimed and
// opened and closed, is free again; a claim opens one directory once.
func TestClaimRelease(t *testing.T) {
	dir := t.TempDir()
	c, err := pagedir.Claim(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkBusy(t, func() error { _, err := pagedir.Claim(dir); return err }(), dir)
	c.Release()
	c.Release()
	if _, err := c.Open(false); err == nil {
		t.Error("Open after Release succeeded")
	}
	c, err = pagedir.Claim(dir)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	d, err := c.Open(false)
	if err != nil {
		t.Fatal(err)
	}
	c.Release() // the Dir has the lock now
	checkBusy(t, func() error { _, err := pagedir.Claim(dir); return err }(), dir)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open(false); err == nil {
		t.Error("a second Open succeeded")
	}
	d, err = pagedir.Open(dir, false)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	d.Close()
}

// snapshot returns the names and contents of the files in dir: a link's
// target, or "directory", for what is not a regular file.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := make(map[string]string)
	for _, name := range names(t, dir) {
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case fi.IsDir():
			files[name] = "directory"
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = "link to " + target
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = string(data)
		}
	}
	return files
}

// TestRemoveAbandoned leaves, in one directory, the page directories of
// link checks killed, or running, and others that look like them, and
// checks that RemoveAbandoned removes those of crawls killed, and only
// those.
func TestRemoveAbandoned(t *testing.T) {
	parent, outside := t.TempDir(), t.TempDir()
	const journal = "tse-crawler journal 1\nseed \"http://x/\"\nmaxDepth 2\nbegin\nS 1 \"http://x/\"\n"
	crawl := func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, pagedir.Marker, journal)
		writeFile(t, dir, "1", "http://x/\n0\n<html>\n")
		writeFile(t, dir, "2", "http://x/a\n1\n<html>\n")
		writeFile(t, dir, ".page-4k2j", "http://x/b\n1\n<ht")
	}
	victim := writeFile(t, outside, "precious", "mine")
	tests := []struct {
		name    string
		entry   string
		setup   func(t *testing.T, path string)
		removed bool
	}{
		{"killed", "crawler-check-1", crawl, true},
		{"killed, marker alone", "crawler-check-2", func(t *testing.T, path string) {
			os.Mkdir(path, 0o700)
			writeFile(t, path, pagedir.Marker, "")
		}, true},
		{"running", "crawler-check-3", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			d, err := pagedir.Open(path, false)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Close() })
		}, false},
		{"just made, not yet claimed", "crawler-check-4", func(t *testing.T, path string) { os.Mkdir(path, 0o700) }, false},
		{"pages but no marker", "crawler-check-5", func(t *testing.T, path string) {
			crawl(t, path)
			os.Remove(filepath.Join(path, pagedir.Marker))
		}, false},
		{"a file of someone else's", "crawler-check-6", func(t *testing.T, path string) {
			crawl(t, path)
			writeFile(t, path, "notes.txt", "keep me")
		}, false},
		{"a directory inside", "crawler-check-7", func(t *testing.T, path string) {
			crawl(t, path)
			os.Mkdir(filepath.Join(path, "3"), 0o700)
		}, false},
		{"a page that is a link", "crawler-check-8", func(t *testing.T, path string) {
			crawl(t, path)
			os.Symlink(victim, filepath.Join(path, "3"))
		}, false},
		{"a marker that is a link", "crawler-check-9", func(t *testing.T, path string) {
			crawl(t, path)
			os.Remove(filepath.Join(path, pagedir.Marker))
			os.Symlink(victim, filepath.Join(path, pagedir.Marker))
		}, false},
		{"a link to a crawl's directory", "crawler-check-10", func(t *testing.T, path string) {
			target := filepath.Join(outside, "crawl")
			crawl(t, target)
			os.Symlink(target, path)
		}, false},
		{"a file", "crawler-check-11", func(t *testing.T, path string) { writeFile(t, parent, filepath.Base(path), "x") }, false},
		{"not digits", "crawler-check-1x", crawl, false},
		{"no digits", "crawler-check-", crawl, false},
		{"another prefix", "crawler-demo-12", crawl, false},
	}
	before := make(map[string]map[string]string)
	for _, tc := range tests {
		path := filepath.Join(parent, tc.entry)
		tc.setup(t, path)
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			before[tc.entry] = snapshot(t, path)
		}
	}
	outsideBefore := names(t, outside)
	pagedir.RemoveAbandoned(parent, "crawler-check-")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(parent, tc.entry)
			_, err := os.Lstat(path)
			switch {
			case tc.removed && err == nil:
				t.Errorf("%s is still there: %q", tc.entry, names(t, path))
			case !tc.removed && err != nil:
				t.Errorf("%s was removed: %v", tc.entry, err)
			case !tc.removed && before[tc.entry] != nil && !maps.Equal(snapshot(t, path), before[tc.entry]):
				t.Errorf("%s was changed: %q, was %q", tc.entry, snapshot(t, path), before[tc.entry])
			}
		})
	}
	if got := names(t, outside); !slices.Equal(got, outsideBefore) {
		t.Errorf("outside, %q, was %q", got, outsideBefore)
	}
	if data, err := os.ReadFile(victim); err != nil || string(data) != "mine" {
		t.Errorf("the file links pointed to: %q, %v", data, err)
	}
	if got := names(t, filepath.Join(outside, "crawl")); len(got) != 4 {
		t.Errorf("the crawl a link pointed to holds %q", got)
	}
}
