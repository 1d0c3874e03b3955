package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tse-crawler/internal/pagedir"
)

// TestPageDirSymlinkedMarker: a .crawler that is a symbolic link stops the
// crawler, with or without -resume, before its first request, with exit 4
// and a message that names the link and the way out; the file the link
// leads to is untouched, down to its modification time.
func TestPageDirSymlinkedMarker(t *testing.T) {
	seed := "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	const precious = "someone's work\n"
	for _, resume := range []bool{false, true} {
		t.Run(fmt.Sprint("resume ", resume), func(t *testing.T) {
			p := newProxy(t, testdataSite(t))
			dir := t.TempDir()
			target := filepath.Join(t.TempDir(), "precious")
			if err := os.WriteFile(target, []byte(precious), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(target, old, old); err != nil {
				t.Fatal(err)
			}
			marker := filepath.Join(dir, pagedir.Marker)
			if err := os.Symlink(target, marker); err != nil {
				t.Skipf("skipping: cannot make a symbolic link here: %v", err)
			}
			args := []string{"-delay", "0", seed, dir, "2"}
			if resume {
				args = append([]string{"-resume"}, args...)
			}
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			want := fmt.Sprintf("crawler: cannot create .crawler in pageDirectory %s: %s is a symbolic link, and the crawler never writes through a link it did not make: remove it (rm %s) or use another directory\n", dir, marker, marker)
			if code != exitPageDir || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, stdout, stderr, exitPageDir, want)
			}
			if n := p.requests.Load(); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
			fi, err := os.Stat(target)
			if err != nil {
				t.Fatal(err)
			}
			if data, _ := os.ReadFile(target); string(data) != precious || !fi.ModTime().Equal(old) {
				t.Errorf("%s holds %q, modified %v; want %q, modified %v", target, data, fi.ModTime(), precious, old)
			}
			if link, err := os.Readlink(marker); err != nil || link != target {
				t.Errorf("the link is now %q, %v; want it left to %s", link, err, target)
			}
		})
	}
}

// TestPageDirResumeTornTwice: a crawl killed -9 in the middle of a journal
// line, at any byte of it, is resumed, stopped again, and resumed once
// more: the last resume must find a journal it can read, and finish the
// crawl byte for byte as an uninterrupted one.
func TestPageDirResumeTornTwice(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	args := []string{"-q", "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "10"}
	resume := append([]string{"-resume"}, args...)
	want, _ := uninterrupted(t, p, args)

	first := t.TempDir()
	stopAfter(t, p, 4, withDir(args, first)...)
	stopped := snapshot(t, first)
	data := []byte(stopped[pagedir.Marker])
	last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	for cut := last + 1; cut < len(data); cut++ {
		t.Run(fmt.Sprintf("torn at byte %d of %q", cut-last, data[last:]), func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range stopped {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Truncate(filepath.Join(dir, pagedir.Marker), int64(cut)); err != nil {
				t.Fatal(err)
			}
			_, before, _ := pagedir.ReadJournal(bytes.NewReader(data[:cut]))
			stopAfter(t, p, 3, withDir(resume, dir)...)
			j, err := os.ReadFile(filepath.Join(dir, pagedir.Marker))
			if err != nil {
				t.Fatal(err)
			}
			if _, after, err := pagedir.ReadJournal(bytes.NewReader(j)); err != nil {
				t.Errorf("after a resume stopped in its turn, the journal does not read: %v", err)
			} else if len(after) <= len(before) {
				t.Fatalf("the stopped resume recorded nothing (%d entries, as before): stop it later", len(after))
			}
			resumeMatches(t, p, args, dir, want)
		})
	}
}

// stopAfter runs the crawler with args and stops it, as Ctrl-C would, once
// the proxy has answered request step.
func stopAfter(t *testing.T, p *stepProxy, step int64, args ...string) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	p.setHook(func(n int64, answered bool) {
		if n == step && answered {
			cancel(stopSignal{syscall.SIGINT})
		}
	})
	defer p.setHook(nil)
	if code, _, stderr := crawl(ctx, p.getenv, args...); code != 128+int(syscall.SIGINT) {
		t.Fatalf("exit %d, want %d: %s", code, 128+int(syscall.SIGINT), stderr)
	}
}
