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
	"slices"
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

// startHeld starts cmd, the crawler as a process, and returns once the
// proxy holds its request, as held says: it returns what Wait will say.
func startHeld(t *testing.T, cmd *exec.Cmd, stderr fmt.Stringer, held <-chan struct{}) <-chan error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-held:
	case err := <-exited:
		t.Fatalf("the crawler process ended before the request held: %v: %s", err, stderr)
	}
	return exited
}

// checkKilled9 checks that err, from Wait, says the process was killed
// with SIGKILL.
func checkKilled9(t *testing.T, err error, stderr fmt.Stringer) {
	t.Helper()
	if exit, ok := errors.AsType[*exec.ExitError](err); !ok || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the crawler process: %v, want it killed: %s", err, stderr)
	}
}

// checkDirs returns the names in dir of the directories that link checks
// make for their pages.
func checkDirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "crawler-check-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestCheckLeftover kills a link check given no directory, with SIGKILL,
// which leaves the directory it made for its pages in TMPDIR: the next
// link check removes it, and nothing else, neither a directory named like
// it that holds a file of someone else's, nor that of a link check that
// runs meanwhile.
func TestCheckLeftover(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	p := newStepProxy(t, testdataSite(t))
	decoy := filepath.Join(tmp, "crawler-check-4242")
	if err := os.Mkdir(decoy, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{".crawler": "", "1": "http://x/\n0\n<html>\n", "notes.txt": "mine"} {
		if err := os.WriteFile(filepath.Join(decoy, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"-check", "-delay", "0", zooSeed}

	held, release := holdAt(t, p, 4)
	killed, stderr := crawlerProcess(p.URL, args...)
	exited := startHeld(t, killed, stderr, held)
	if err := killed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	checkKilled9(t, <-exited, stderr)
	release()
	left := checkDirs(t, tmp)
	if len(left) != 2 {
		t.Fatalf("the killed check left %q in TMPDIR, want its directory beside the decoy", left)
	}
	if names := snapshot(t, filepath.Join(tmp, left[0])); len(names) < 2 {
		t.Fatalf("the killed check left %q, want its marker and a page at least", slices.Sorted(maps.Keys(names)))
	}

	held, release = holdAt(t, p, 2)
	running, stderr := crawlerProcess(p.URL, args...)
	exited = startHeld(t, running, stderr, held)
	var ours string
	for _, name := range checkDirs(t, tmp) {
		if !slices.Contains(left, name) {
			ours = name
		}
	}
	if code, _, out := crawl(t.Context(), p.getenv, args...); code != exitOK && code != exitBroken {
		t.Fatalf("the next check: exit %d: %s", code, out)
	}
	got := checkDirs(t, tmp)
	release()
	if err := <-exited; err != nil && running.ProcessState.ExitCode() != exitBroken {
		t.Errorf("the check that ran meanwhile: %v: %s", err, stderr)
	}
	if want := []string{"crawler-check-4242", ours}; !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("TMPDIR holds %q once the next check ended, want %q: the decoy and the directory of the check that runs", got, want)
	}
	if data := readFile(t, filepath.Join(decoy, "notes.txt")); data != "mine" {
		t.Errorf("the decoy's file holds %q", data)
	}
	if got := checkDirs(t, tmp); !slices.Equal(got, []string{"crawler-check-4242"}) {
		t.Errorf("TMPDIR holds %q once every check ended, want the decoy alone", got)
	}
}
