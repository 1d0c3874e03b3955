package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/playground"
)

// The crawls the resume tests interrupt: between them they have failed
// pages (404s), a page robots.txt disallows, a redirect, both orders and
// both scanners, pages that html mode reads in the charset their
// Content-Type names, and a crawl of three hosts fetched one page at a
// time and several hosts at once, which a resumed crawl may do either way.
// One keeps two pages out with -exclude.
var resumeCrawls = []struct {
	name string
	args []string
}{
	{"zoo lifo", []string{"http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "10"}},
	{"zoo bfs", []string{"-order", "bfs", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "3"}},
	{"syntax html", []string{"-links", "html", "http://cs50tse.cs.dartmouth.edu/tse/syntax/index.html", "2"}},
	{"charset html", []string{"-links", "html", charsetSeed, "2"}},
	{"zoo exclude", []string{"-exclude", `/(eel|owl)\.html$`, "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "10"}},
	{"university parallel 1", []string{"-parallel", "1", "-scope", "http://*.example.edu/", universitySeed, "10"}},
	{"university parallel 4", []string{"-parallel", "4", "-scope", "http://*.example.edu/", universitySeed, "10"}},
	{"university bfs html parallel 8", []string{"-parallel", "8", "-order", "bfs", "-links", "html", "-scope", "http://*.example.edu/", universitySeed, "10"}},
}

// withDir puts dir before the last argument, maxDepth.
func withDir(args []string, dir string) []string {
	return slices.Insert(slices.Clone(args), len(args)-1, dir)
}

// A stepProxy serves the test site, with the Content-Types of
// withCharsets, and the university and the museum for their hosts, and
// calls its hook, if set, with the number of each request, before
// answering it and again after.
type stepProxy struct {
	*httptest.Server
	n    atomic.Int64
	mu   sync.Mutex
	hook func(n int64, answered bool)
	// hold, if not 0, is a request to answer only once its client has
	// given up on it (or after a minute): a crawler process sent a signal
	// while the request is in flight then stops at it, however long the
	// process takes to see the signal, rather than finish the crawl first.
	hold atomic.Int64
}

func newStepProxy(t *testing.T, fsys fs.FS) *stepProxy {
	p := new(stepProxy)
	h := withMuseum(withUniversity(withCharsets(playground.Handler(fsys))))
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := p.n.Add(1)
		p.mu.Lock()
		hook := p.hook
		p.mu.Unlock()
		if hook != nil {
			hook(n, false)
		}
		if n == p.hold.Load() {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Minute):
			}
		}
		h.ServeHTTP(w, r)
		if hook != nil {
			http.NewResponseController(w).Flush()
			hook(n, true)
		}
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *stepProxy) setHook(hook func(n int64, answered bool)) {
	p.mu.Lock()
	p.hook = hook
	p.mu.Unlock()
	p.n.Store(0)
}

func (p *stepProxy) getenv(name string) string { return proxyEnv(p.URL)(name) }

// snapshot returns every file of a directory and its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string]string)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

// sameDir reports how got differs from want, file by file, or "".
func sameDir(got, want map[string]string) string {
	var diffs []string
	for name, w := range want {
		if g, ok := got[name]; !ok {
			diffs = append(diffs, name+" is missing")
		} else if g != w {
			diffs = append(diffs, fmt.Sprintf("%s differs (%d bytes, want %d)", name, len(g), len(w)))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, name+" should not be there")
		}
	}
	slices.Sort(diffs)
	return strings.Join(diffs, "; ")
}

// uninterrupted crawls with args (maxDepth last, the directory is put
// before it) through the proxy, and returns the finished directory's files
// and how many requests the crawl made.
func uninterrupted(t *testing.T, p *stepProxy, args []string) (map[string]string, int64) {
	t.Helper()
	dir := t.TempDir()
	p.setHook(nil)
	if code, _, stderr := crawl(t.Context(), p.getenv, withDir(args, dir)...); code != exitOK {
		t.Fatalf("uninterrupted crawl: exit %d: %s", code, stderr)
	}
	return snapshot(t, dir), p.n.Load()
}

// resumeMatches resumes the crawl in dir and checks that it ends as the
// uninterrupted crawl did, byte for byte.
func resumeMatches(t *testing.T, p *stepProxy, args []string, dir string, want map[string]string) {
	t.Helper()
	if code, _, stderr := crawl(t.Context(), p.getenv, withDir(append([]string{"-resume"}, args...), dir)...); code != exitOK {
		t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
	}
	if diff := sameDir(snapshot(t, dir), want); diff != "" {
		t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
	}
}

// checkWhole checks that an interrupted crawl left only whole pages, each
// one equal to the page of the same number in the finished crawl, and no
// temporary file.
func checkWhole(t *testing.T, got, want map[string]string) {
	t.Helper()
	for name, data := range got {
		if name == pagedir.Marker {
			continue
		}
		if _, ok := pagedir.DocID(name); !ok {
			t.Errorf("%s left in the directory", name)
		} else if data != want[name] {
			t.Errorf("page %s is not the finished crawl's page %s", name, name)
		}
	}
}

// TestResumeEveryStep interrupts a crawl at every step, as Ctrl-C would:
// while each request is in flight, and just after each is answered. Each
// time the directory must hold only whole pages, and -resume must finish
// the crawl byte for byte as if it had never stopped. Each interrupted
// directory is resumed twice over: once as it is, and once with the last
// line of its journal torn and a temporary file left behind, as kill -9
// can leave them.
func TestResumeEveryStep(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range resumeCrawls {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-q", "-delay", "0"}, tc.args...)
			want, steps := uninterrupted(t, p, args)
			for step := int64(1); step <= steps; step++ {
				for _, answered := range []bool{false, true} {
					for _, torn := range []bool{false, true} {
						name := fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered])
						if torn {
							name += ", torn"
						}
						t.Run(name, func(t *testing.T) {
							dir := t.TempDir()
							code, _, stderr := interruptAt(t, p, withDir(args, dir), step, answered)
							if code == 130 && !strings.Contains(stderr, " -resume http://") {
								t.Errorf("the summary does not say how to resume: %s", stderr)
							}
							checkWhole(t, snapshot(t, dir), want)
							if torn {
								tearJournal(t, dir)
							}
							resumeMatches(t, p, args, dir, want)
						})
					}
				}
			}
		})
	}
}

// tearJournal cuts the journal's last line in two, as a crawl killed in the
// middle of writing it would, and leaves a half-written temporary page. A
// last line that keeps a charset is written before its page, so it stays
// whole and its page goes, as a crawl killed while it wrote the page
// leaves them.
func tearJournal(t *testing.T, dir string) {
	t.Helper()
	name := filepath.Join(dir, pagedir.Marker)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	_, entries, err := pagedir.ReadJournal(bytes.NewReader(data))
	if err == nil && len(entries) > 0 && entries[len(entries)-1].Charset != "" {
		if err := os.Remove(filepath.Join(dir, strconv.Itoa(entries[len(entries)-1].DocID))); err != nil {
			t.Fatal(err)
		}
	} else if i := bytes.LastIndexByte(bytes.TrimSuffix(data, []byte("\n")), '\n'); i > 0 && len(data) > 0 {
		last := data[i+1:]
		data = data[:i+1+len(last)/2]
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".page-123456"), []byte("http://x/\n1\n<html>half"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// interruptAt runs a crawl with args, as Ctrl-C stops it when the proxy
// gets request step (while it is in flight, or once it is answered), and
// returns what crawl does. The crawl must stop with 130, or may have
// finished if the request was its last.
func interruptAt(t *testing.T, p *stepProxy, args []string, step int64, answered bool) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	p.setHook(func(n int64, done bool) {
		if n == step && done == answered {
			cancel(stopSignal{syscall.SIGINT})
		}
	})
	code, stdout, stderr = crawl(ctx, p.getenv, args...)
	p.setHook(nil)
	if code != 130 && code != exitOK {
		t.Fatalf("interrupted crawl: exit %d: %s", code, stderr)
	}
	return code, stdout, stderr
}

// interruptedZoo crawls the zoo to depth 3 with flags, as Ctrl-C stops it
// during its fourth request, and returns the directory it left.
func interruptedZoo(t *testing.T, p *stepProxy, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	p.setHook(func(n int64, done bool) {
		if n == 4 && !done {
			cancel(stopSignal{syscall.SIGINT})
		}
	})
	defer p.setHook(nil)
	args := append(append([]string{"-delay", "0"}, flags...), zooSeed, dir, "3")
	if code, _, stderr := crawl(ctx, p.getenv, args...); code != 130 {
		t.Fatalf("exit %d, want 130: %s", code, stderr)
	}
	return dir
}

func TestResumeRefused(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	seed := zooSeed
	interrupted := func(t *testing.T) string { return interruptedZoo(t, p) }
	tests := []struct {
		name string
		args []string // DIR stands for the directory
		msg  string
	}{
		{"another seed", []string{"-delay", "0", "-resume", "http://cs50tse.cs.dartmouth.edu/tse/zoo/eel.html", "DIR", "3"}, "seedURL"},
		{"another depth", []string{"-delay", "0", "-resume", seed, "DIR", "2"}, "maxDepth 3, not 2"},
		{"another scanner", []string{"-delay", "0", "-resume", "-links", "html", seed, "DIR", "3"}, "-links"},
		{"another order", []string{"-delay", "0", "-resume", "-order", "bfs", seed, "DIR", "3"}, "-order"},
		{"without robots", []string{"-delay", "0", "-resume", "-robots=false", seed, "DIR", "3"}, "-robots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := interrupted(t)
			before := snapshot(t, dir)
			args := slices.Clone(tt.args)
			args[slices.Index(args, "DIR")] = dir
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			if code != exitResume || !strings.Contains(stderr, tt.msg) || stdout != "" {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitResume, tt.msg)
			}
			if diff := sameDir(snapshot(t, dir), before); diff != "" {
				t.Errorf("a refused resume changed the directory: %s", diff)
			}
		})
	}
	t.Run("without -resume", func(t *testing.T) {
		dir := interrupted(t)
		code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", seed, dir, "3")
		if code != exitPageDir || !strings.Contains(stderr, "-resume") {
			t.Errorf("exit %d, stderr %q; want %d and a hint to use -resume", code, stderr, exitPageDir)
		}
	})
	t.Run("another pause is fine", func(t *testing.T) {
		dir := interrupted(t)
		if code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "1ms", "-resume", seed, dir, "3"); code != exitOK {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
}

func TestResumeFinished(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	seed := "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"
	dir := t.TempDir()
	if code, _, stderr := crawl(t.Context(), p.getenv, "-q", "-delay", "0", seed, dir, "2"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := snapshot(t, dir)
	p.setHook(nil)
	code, stdout, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-resume", seed, dir, "2")
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "finished") {
		t.Errorf("resuming a finished crawl: exit %d, stdout %q, stderr %q; want 0 and a word that it is finished", code, stdout, stderr)
	}
	if n := p.n.Load(); n != 0 {
		t.Errorf("resuming a finished crawl sent %d requests", n)
	}
	if diff := sameDir(snapshot(t, dir), before); diff != "" {
		t.Errorf("resuming a finished crawl changed it: %s", diff)
	}
	// The crawl's parameters outlive its journal where the file system
	// keeps extended attributes.
	if d, err := pagedir.Open(dir, true); err == nil {
		_, err := d.Begin(pagedir.Params{Seed: seed})
		d.Close()
		if _, ok := errors.AsType[*pagedir.MismatchError](err); !ok {
			t.Skip("skipping the rest: this file system keeps no extended attributes")
		}
	}
	code, _, stderr = crawl(t.Context(), p.getenv, "-delay", "0", "-resume", seed, dir, "3")
	if code != exitResume || !strings.Contains(stderr, "maxDepth 2, not 3") {
		t.Errorf("resuming a finished crawl with another maxDepth: exit %d, stderr %q; want %d", code, stderr, exitResume)
	}
}

// TestResumeAfterSeedFailed: a crawl whose seed failed leaves only an
// empty .crawler; once the seed is back, -resume runs the whole crawl.
func TestResumeAfterSeedFailed(t *testing.T) {
	site := testdataSite(t)
	var down atomic.Bool
	down.Store(true)
	h := playground.Handler(site)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() && r.URL.Path != "/robots.txt" {
			http.Error(w, "down for maintenance", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	getenv := proxyEnv(srv.URL)
	seed := "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"
	dir := t.TempDir()
	if code, _, _ := crawl(t.Context(), getenv, "-q", "-delay", "0", seed, dir, "2"); code != exitSeedFetch {
		t.Fatalf("exit %d, want %d", code, exitSeedFetch)
	}
	assertOnlyMarker(t, dir)
	if data, _ := os.ReadFile(filepath.Join(dir, pagedir.Marker)); len(data) != 0 {
		t.Errorf(".crawler holds %q after the seed failed, want nothing", data)
	}
	down.Store(false)
	ref := t.TempDir()
	if code, _, stderr := crawl(t.Context(), getenv, "-q", "-delay", "0", seed, ref, "2"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := crawl(t.Context(), getenv, "-q", "-delay", "0", "-resume", seed, dir, "2"); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if diff := sameDir(snapshot(t, dir), snapshot(t, ref)); diff != "" {
		t.Errorf("resumed crawl differs from a fresh one: %s", diff)
	}
}

// TestFileAppears: a page file that appears while the crawl runs is never
// overwritten; the crawl stops with an error that names it.
func TestFileAppears(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	dir := t.TempDir()
	p.setHook(func(n int64, done bool) {
		if n == 2 && !done {
			os.WriteFile(filepath.Join(dir, "2"), []byte("someone else's"), 0o644)
		}
	})
	code, _, stderr := crawl(t.Context(), p.getenv, "-q", "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", dir, "2")
	if code != exitFailure || !strings.Contains(stderr, "already exists") {
		t.Errorf("exit %d, stderr %q; want %d and a word that page 2 exists", code, stderr, exitFailure)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "2")); string(data) != "someone else's" {
		t.Errorf("the file that appeared was overwritten: %q", data)
	}
}

// TestDiskFull crawls into a tiny tmpfs, where the test may mount one: the
// crawl stops with the system's error and a way to go on, every page left
// is whole, and after room is made -resume finishes the crawl.
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot mount a tmpfs here (%v: %s); internal/pagedir injects a full disk instead", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	p := newStepProxy(t, testdataSite(t))
	crawlInto := func(d string, extra ...string) (int, string) {
		args := append(extra, "-q", "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/syntax/index.html", d, "2")
		code, _, stderr := crawl(t.Context(), p.getenv, args...)
		return code, stderr
	}
	refDir := t.TempDir()
	if code, stderr := crawlInto(refDir); code != exitOK {
		t.Fatalf("reference crawl: exit %d: %s", code, stderr)
	}
	want := snapshot(t, refDir)

	// Fill most of the disk, leaving room for a few pages only (a tmpfs
	// gives each file at least a 4 KiB page).
	filler := filepath.Join(dir, "filler")
	if err := os.WriteFile(filler, bytes.Repeat([]byte("x"), 236<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := crawlInto(dir)
	if code != exitFailure || !strings.Contains(stderr, "no space left on device") || !strings.Contains(stderr, "-resume") {
		t.Fatalf("exit %d, stderr %q; want %d, the system's error and how to resume", code, stderr, exitFailure)
	}
	got := snapshot(t, dir)
	delete(got, "filler")
	checkWhole(t, got, want)

	os.Remove(filler)
	if code, stderr := crawlInto(dir, "-resume"); code != exitOK {
		t.Fatalf("resume after making room: exit %d: %s", code, stderr)
	}
	if diff := sameDir(snapshot(t, dir), want); diff != "" {
		t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
	}
}
