//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// open opens path as a crawl opens what it locks: a directory read only,
// a file for writing.
func open(t *testing.T, path string) int {
	t.Helper()
	flag := unix.O_RDONLY | unix.O_DIRECTORY
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		flag = unix.O_WRONLY
	}
	fd, err := unix.Open(path, flag|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// checkBusy checks that err is a *BusyError naming name and, on Linux,
// this process.
func checkBusy(t *testing.T, err error, name string) {
	t.Helper()
	be, ok := errors.AsType[*BusyError](err)
	if !ok {
		t.Fatalf("got %v, want a *BusyError", err)
	}
	if be.Name != name {
		t.Errorf("Name %q, want %q", be.Name, name)
	}
	if runtime.GOOS == "linux" && be.PID != os.Getpid() {
		t.Errorf("PID %d, want this process's, %d", be.PID, os.Getpid())
	}
}

// TestLock takes the lock of a directory and of a file twice, through two
// open files: the second is refused, naming this process, until every
// descriptor of the first, a duplicate included, is closed.
func TestLock(t *testing.T) {
	for _, kind := range []string{"directory", "file"} {
		t.Run(kind, func(t *testing.T) {
			path := t.TempDir()
			if kind == "file" {
				path = filepath.Join(path, "crawl.warc")
				if err := os.WriteFile(path, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			first, second := open(t, path), open(t, path)
			if err := Lock(first, "it"); err != nil {
				t.Fatalf("first lock: %v", err)
			}
			if err := Lock(first, "it"); err != nil {
				t.Errorf("the holder locking again: %v", err)
			}
			checkBusy(t, Lock(second, "it"), "it")
			dup, err := unix.Dup(first)
			if err != nil {
				t.Fatal(err)
			}
			unix.Close(first)
			checkBusy(t, Lock(second, "it"), "it")
			unix.Close(dup)
			if err := Lock(second, "it"); err != nil {
				t.Errorf("once the holder is closed: %v", err)
			}
		})
	}
}

// TestProbe probes a file that is missing, free, locked, and a symbolic
// link to a locked file, which it does not follow.
func TestProbe(t *testing.T) {
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked.warc")
	free := filepath.Join(dir, "free.warc")
	link := filepath.Join(dir, "link.warc")
	for _, p := range []string{locked, free} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(locked, link); err != nil {
		t.Fatal(err)
	}
	if err := Lock(open(t, locked), "it"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		busy bool
	}{
		{"missing", filepath.Join(dir, "none.warc"), false},
		{"free", free, false},
		{"locked", locked, true},
		{"link", link, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Probe(tc.path, "WARC file "+tc.path)
			if tc.busy {
				checkBusy(t, err, "WARC file "+tc.path)
				return
			}
			if err != nil {
				t.Fatalf("Probe: %v, want nil", err)
			}
		})
	}
	// A probe leaves no lock behind.
	if err := Lock(open(t, free), "it"); err != nil {
		t.Errorf("after a probe: %v", err)
	}
}

// TestKeep keeps the lock of a file past its closing, until it is
// released.
func TestKeep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.warc")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := LockFile(f, "it"); err != nil {
		t.Fatal(err)
	}
	release, err := Keep(f)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	other := open(t, path)
	checkBusy(t, Lock(other, "it"), "it")
	release()
	if err := Lock(other, "it"); err != nil {
		t.Errorf("once released: %v", err)
	}
}
