//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"tse-crawler/internal/filelock"
)

// busyMessage is what a crawler refused for name, in use by process pid,
// prints: the process where the system tells it.
func busyMessage(name string, pid int) string {
	if runtime.GOOS != "linux" {
		pid = 0
	}
	return "crawler: " + (&filelock.BusyError{Name: name, PID: pid}).Error() + "\n"
}

// firstPage is the request for the first page of a crawl, after
// robots.txt: while it is in flight, nothing is being written.
const firstPage = 2

// holdAt makes the proxy hold request step in flight, once, until the
// returned release is called; held is closed once it holds it.
func holdAt(t *testing.T, p *stepProxy, step int64) (held <-chan struct{}, release func()) {
	t.Helper()
	h, r := make(chan struct{}), make(chan struct{})
	var once sync.Once
	p.setHook(func(n int64, answered bool) {
		if n == step && !answered {
			close(h)
			<-r
		}
	})
	release = func() { once.Do(func() { close(r) }) }
	t.Cleanup(func() { release(); p.setHook(nil) })
	return h, release
}

// fileBytes returns each file of each path, a directory's or a file's, and
// its bytes, as a snapshot to compare.
func fileBytes(t *testing.T, paths ...string) map[string]string {
	t.Helper()
	all := make(map[string]string)
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.IsDir() {
			all[path] = readFile(t, path)
			continue
		}
		for name, data := range snapshot(t, path) {
			all[filepath.Join(path, name)] = data
		}
	}
	return all
}

// TestBusy holds a crawl with a WARC file in the middle of its first
// page's request, when its journal and its WARC file are begun and
// nothing is being written, and meanwhile starts every kind of second
// crawler on its page directory or its WARC file: each is refused at
// once, with exit 10 and the message that names what is in use and this
// process, which holds it, and writes nothing, not even in a directory of
// its own, and requests nothing. Let go, the first crawl finishes as if it
// had been alone.
func TestBusy(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	base := []string{"-q", "-delay", "0"}
	want, _ := uninterrupted(t, p, append(base, zooSeed, "10"))
	for _, file := range []string{"crawl.warc.gz", "crawl.wacz"} {
		t.Run(file, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			archive := filepath.Join(t.TempDir(), file)
			written := archive // what the crawl writes until it ends
			if strings.HasSuffix(file, ".wacz") {
				written += ".warc.gz"
			}
			held, release := holdAt(t, p, firstPage)
			done := make(chan string, 1)
			go func() {
				code, _, stderr := crawl(t.Context(), p.getenv, append(base, "-warc", archive, zooSeed, dir, "10")...)
				done <- fmt.Sprintf("exit %d: %s", code, stderr)
			}()
			select {
			case <-held:
			case out := <-done:
				t.Fatalf("the first crawl ended before its first page: %s", out)
			}
			// A copy of the crawl's directory, to resume elsewhere
			// with the same WARC file.
			copied := t.TempDir()
			for name, data := range snapshot(t, dir) {
				if err := os.WriteFile(filepath.Join(copied, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dirBusy := busyMessage("pageDirectory "+dir, os.Getpid())
			warcBusy := strings.Replace(busyMessage("WARC file "+written, os.Getpid()), "crawler: ", "crawler: -warc: ", 1)
			tests := []struct {
				name string
				args []string
				want string
			}{
				{"new crawl", append(base, zooSeed, dir, "10"), dirBusy},
				{"resume", append(base, "-resume", "-warc", archive, zooSeed, dir, "10"), dirBusy},
				{"check", []string{"-check", "-delay", "0", zooSeed, dir, "10"}, dirBusy},
				{"new crawl, same -warc", append(base, "-warc", archive, zooSeed, other, "10"), warcBusy},
				{"resume elsewhere, same -warc", append(base, "-resume", "-warc", archive, zooSeed, copied, "10"), warcBusy},
			}
			before := fileBytes(t, dir, other, copied, written)
			requests := p.n.Load()
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					code, stdout, stderr := crawl(t.Context(), p.getenv, tc.args...)
					if code != exitBusy || stderr != tc.want || stdout != "" {
						t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and:\n%s", code, stdout, stderr, exitBusy, tc.want)
					}
				})
			}
			if after := fileBytes(t, dir, other, copied, written); !maps.Equal(after, before) {
				t.Errorf("the refused crawlers changed files: %s", sameDir(after, before))
			}
			if n := p.n.Load(); n != requests {
				t.Errorf("the refused crawlers sent %d requests", n-requests)
			}
			release()
			if out := <-done; !strings.HasPrefix(out, "exit 0:") {
				t.Fatalf("the first crawl: %s", out)
			}
			if diff := sameDir(snapshot(t, dir), want); diff != "" {
				t.Errorf("the first crawl is not what it is alone: %s", diff)
			}
			if strings.HasSuffix(archive, ".wacz") {
				archive, _ = openWACZ(t, archive)
			}
			checkPagesArchived(t, dir, checkWARC(t, archive))
		})
	}
}

// TestBusyProcess holds a crawler process, with a WARC file, in the
// middle of its first page's request, and starts a second process that
// resumes in its directory, as a script or cron job could, and in-process
// crawlers on its directory and its WARC file: each is refused with the
// message that names the first process. Killed with SIGKILL, the first
// process leaves no lock behind: -resume then finishes its crawl as if it
// had never stopped, in its directory and its WARC file.
func TestBusyProcess(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	args := []string{"-q", "-delay", "0", "-warc", filepath.Join(t.TempDir(), "crawl.warc.gz"), zooSeed, "10"}
	want, _ := uninterrupted(t, p, []string{"-q", "-delay", "0", zooSeed, "10"})
	dir := t.TempDir()
	archive := args[4]
	held, release := holdAt(t, p, firstPage)
	first, firstErr := crawlerProcess(p.URL, withDir(args, dir)...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	select {
	case <-held:
	case err := <-exited:
		t.Fatalf("the first process ended before its first page: %v: %s", err, firstErr)
	}
	pid := first.Process.Pid
	before := fileBytes(t, dir, archive)

	second, secondErr := crawlerProcess(p.URL, withDir(append([]string{"-resume"}, args...), dir)...)
	err := second.Run()
	if want := busyMessage("pageDirectory "+dir, pid); second.ProcessState.ExitCode() != exitBusy || secondErr.String() != want {
		t.Errorf("the second process: %v, stderr:\n%s\nwant exit %d and:\n%s", err, secondErr, exitBusy, want)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"new crawl", []string{"-q", "-delay", "0", zooSeed, dir, "10"}, busyMessage("pageDirectory "+dir, pid)},
		{"new crawl, same -warc", withDir(args, t.TempDir()), strings.Replace(busyMessage("WARC file "+archive, pid), "crawler: ", "crawler: -warc: ", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, stderr := crawl(t.Context(), p.getenv, tc.args...); code != exitBusy || stderr != tc.want {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and:\n%s", code, stderr, exitBusy, tc.want)
			}
		})
	}
	if after := fileBytes(t, dir, archive); !maps.Equal(after, before) {
		t.Errorf("the refused crawlers changed files: %s", sameDir(after, before))
	}

	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err = <-exited
	release()
	if exit, ok := errors.AsType[*exec.ExitError](err); !ok || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the first process: %v, want it killed: %s", err, firstErr)
	}
	p.setHook(nil)
	resumeMatches(t, p, args, dir, want)
	checkPagesArchived(t, dir, checkWARC(t, archive))
}
