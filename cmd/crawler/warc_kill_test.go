package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestKill9WARC kills the crawler process with SIGKILL at every step of a
// crawl that writes a WARC file, plain and gzipped: while each request is
// in flight, and the moment each has been answered. The process may die
// in the middle of a record. Whatever the moment, the directory holds
// only whole pages. -resume, given the same file, cuts off what the
// journal does not account for and appends. So the resumed crawl ends as
// if it had never been killed, the file reads back whole, and every saved
// page is the payload of exactly one 200 response: none lost, none
// recorded twice.
func TestKill9WARC(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	for _, kc := range killCrawls {
		for _, file := range []string{"crawl.warc", "crawl.warc.gz"} {
			t.Run(kc.name+" "+file, func(t *testing.T) { kill9WARCEveryStep(t, p, kc.args, file) })
		}
	}
}

func kill9WARCEveryStep(t *testing.T, p *stepProxy, args []string, file string) {
	want, steps := uninterrupted(t, p, append([]string{"-warc", filepath.Join(t.TempDir(), file)}, args...))
	for step := int64(1); step <= steps; step++ {
		for _, answered := range []bool{false, true} {
			t.Run(fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered]), func(t *testing.T) {
				dir, out := t.TempDir(), filepath.Join(t.TempDir(), file)
				args := append([]string{"-warc", out}, args...)
				_, stderr, err := interruptProcess(t, p, withDir(args, dir), step, answered, (*os.Process).Kill)
				var exit *exec.ExitError
				killed := errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL
				if err != nil && !killed || !answered && !killed {
					// Killed in the middle of a request, it cannot have finished.
					t.Fatalf("the crawler process: %v, want it killed: %s", err, stderr)
				}
				got := snapshot(t, dir)
				for name := range got {
					if strings.HasPrefix(name, ".page-") {
						delete(got, name)
					}
				}
				checkWhole(t, got, want)
				resumeMatches(t, p, args, dir, want)
				checkPagesArchived(t, dir, checkWARC(t, out))
			})
		}
	}
}
