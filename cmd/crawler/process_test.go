package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMain lets the tests run this test binary as the crawler itself, to
// send real signals to a real process: with TSE_CRAWLER_TEST_MAIN=1 it is
// the command, run with the umask TSE_CRAWLER_TEST_UMASK gives in octal,
// if any.
func TestMain(m *testing.M) {
	if os.Getenv("TSE_CRAWLER_TEST_MAIN") == "1" {
		setUmask(os.Getenv("TSE_CRAWLER_TEST_UMASK"))
		main()
	}
	os.Exit(m.Run())
}

// crawlerProcess returns the crawler as a process of its own, fetching
// through proxy.
func crawlerProcess(proxy string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TSE_CRAWLER_TEST_MAIN=1", "HTTP_PROXY="+proxy, "http_proxy=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// interruptProcess runs the crawler as a process, with args, and does act
// to it when the proxy gets request step: while it is in flight, or once
// it is answered. It returns the finished command, its stderr, and what
// Wait said.
func interruptProcess(t *testing.T, p *stepProxy, args []string, step int64, answered bool, act func(*os.Process) error) (*exec.Cmd, *bytes.Buffer, error) {
	t.Helper()
	cmd, stderr := crawlerProcess(p.URL, args...)
	return cmd, stderr, interruptCmd(t, p, cmd, step, answered, act)
}

// interruptCmd runs cmd, the crawler as a process, and does act to it as
// interruptProcess does. It returns what Wait said.
func interruptCmd(t *testing.T, p *stepProxy, cmd *exec.Cmd, step int64, answered bool, act func(*os.Process) error) error {
	t.Helper()
	// The hook is in place before the process starts, which may send its
	// first request before Start returns, and waits for the process.
	started := make(chan struct{})
	p.setHook(func(n int64, done bool) {
		if n == step && done == answered {
			<-started
			act(cmd.Process)
		}
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	close(started)
	err := cmd.Wait()
	p.setHook(nil)
	return err
}

// killCrawls are the crawls the process tests stop: one host, and three
// hosts fetched four at a time, which may have as many requests in flight
// when the process dies.
var killCrawls = []struct {
	name string
	args []string
}{
	{"zoo", []string{"-q", "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "10"}},
	{"university parallel 4", []string{"-q", "-delay", "0", "-parallel", "4", "-scope", "http://*.example.edu/", universitySeed, "10"}},
}

// TestKill9 kills the crawler process with SIGKILL at every step of a
// crawl: while each request is in flight, and the moment each has been
// answered, when the crawler is reading, saving, scanning or journaling.
// Whatever the moment, the directory holds only whole pages, and -resume
// finishes the crawl byte for byte as if it had never been killed.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	for _, kc := range killCrawls {
		t.Run(kc.name, func(t *testing.T) { kill9EveryStep(t, p, kc.args, "", nil) })
	}
}

// TestKill9WARC kills the crawler process with SIGKILL at every step of a
// crawl that writes a WARC file, plain and gzipped: while each request is
// in flight, and the moment each has been answered. The process may die
// in the middle of a record. Whatever the moment, the directory holds
// only whole pages. -resume, given the same file, cuts off what the
// journal does not account for and appends. So the resumed crawl ends as
// if it had never been killed, the file reads back whole, and every saved
// page is the payload of exactly one 200 response: none lost, none
// recorded twice. A .wacz package holds such a file, and a page line for
// each page saved.
func TestKill9WARC(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	for _, kc := range killCrawls {
		for _, file := range []string{"crawl.warc", "crawl.warc.gz", "crawl.wacz"} {
			t.Run(kc.name+" "+file, func(t *testing.T) { kill9EveryStep(t, p, kc.args, file, nil) })
		}
	}
}

// TestKill9Since kills the crawler process with SIGKILL at every step of a
// crawl with -since an earlier crawl's archive, which writes a WARC file of
// its own: -resume finishes the crawl as if it had never been killed, and
// each saved page is recorded exactly once, as a revisit of the earlier
// record, since the site has not changed.
func TestKill9Since(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	kc := killCrawls[0]
	earlier := filepath.Join(t.TempDir(), "earlier.warc.gz")
	uninterrupted(t, p, append([]string{"-warc", earlier}, kc.args...))
	again := filepath.Join(t.TempDir(), "again.warc.gz")
	uninterrupted(t, p, append([]string{"-since", earlier, "-warc", again}, kc.args...))
	// Every page is a revisit; robots.txt, which is not revalidated,
	// and the 404s are recorded whole.
	revisits := 0
	for _, c := range checkWARC(t, again) {
		switch {
		case c.revisit != "":
			revisits++
		case c.status == http.StatusOK && !strings.HasSuffix(c.uri, "/robots.txt"):
			t.Errorf("%s, unchanged, is recorded whole", c.uri)
		}
	}
	if revisits == 0 {
		t.Fatal("a crawl of the unchanged site with -since made no revisit records")
	}
	kill9EveryStep(t, p, append([]string{"-since", earlier}, kc.args...), "crawl.warc.gz", nil)
}

// TestKill9Requisites kills the crawler process with SIGKILL at every step
// of a crawl of the museum, whose WARC file holds its pages' requisites:
// while each request, a page's or a requisite's, is in flight, and the
// moment each has been answered. -resume finishes the crawl as if it had
// never been killed, and the file holds every page and every requisite
// exactly once, each record whole.
func TestKill9Requisites(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range []struct{ parallel, file string }{{"1", "crawl.warc"}, {"4", "crawl.warc.gz"}} {
		args := []string{"-q", "-delay", "0", "-parallel", tc.parallel, "-scope", "http://www.example.net/", museumSeed, "2"}
		t.Run("parallel "+tc.parallel+" "+tc.file, func(t *testing.T) { kill9EveryStep(t, p, args, tc.file, museumRequisites) })
	}
}

// kill9EveryStep kills the crawl of args at each step, checks what it
// left, and resumes it. With warcFile, each run also writes a WARC file
// of that name, which must end up holding each saved page once, and each
// of requisites once, with its status.
func kill9EveryStep(t *testing.T, p *stepProxy, args []string, warcFile string, requisites map[string]int) {
	withWARC := func(args []string) ([]string, string) {
		if warcFile == "" {
			return args, ""
		}
		out := filepath.Join(t.TempDir(), warcFile)
		return append([]string{"-warc", out}, args...), out
	}
	first, _ := withWARC(args)
	want, steps := uninterrupted(t, p, first)
	for step := int64(1); step <= steps; step++ {
		for _, answered := range []bool{false, true} {
			t.Run(fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered]), func(t *testing.T) {
				dir := t.TempDir()
				args, out := withWARC(args)
				_, stderr, err := interruptProcess(t, p, withDir(args, dir), step, answered, (*os.Process).Kill)
				checkKilled(t, err, stderr, answered, dir, want)
				resumeMatches(t, p, args, dir, want)
				if strings.HasSuffix(out, ".wacz") {
					var pages []string
					out, pages = openWACZ(t, out)
					if saved := readPages(t, dir); len(pages) != len(saved) {
						t.Errorf("pages.jsonl has %d pages, the crawl saved %d", len(pages), len(saved))
					}
				}
				if out != "" {
					caps := checkWARC(t, out)
					checkPagesArchived(t, dir, caps)
					if requisites != nil {
						checkRequisitesArchived(t, caps, requisites)
					}
				}
			})
		}
	}
}

// checkKilled checks what a crawler process killed at a step left: that
// Wait's err says it was killed, which it must have been in the middle of
// a request, though it may have finished once the request was answered;
// and that dir holds only whole pages of want.
func checkKilled(t *testing.T, err error, stderr *bytes.Buffer, answered bool, dir string, want map[string]string) {
	t.Helper()
	var exit *exec.ExitError
	killed := errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL
	if err != nil && !killed || !answered && !killed {
		t.Fatalf("the crawler process: %v, want it killed: %s", err, stderr)
	}
	// A page being written when the process died is left under its
	// temporary name, which the next run removes.
	got := snapshot(t, dir)
	for name := range got {
		if strings.HasPrefix(name, ".page-") {
			delete(got, name)
		}
	}
	checkWhole(t, got, want)
}

// TestSignals sends SIGINT and SIGTERM to the crawler process in the
// middle of a request: it stops at once with 130 or 143, says how far it
// got and how to resume, and -resume finishes the crawl.
func TestSignals(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, kc := range killCrawls {
		t.Run(kc.name, func(t *testing.T) { signals(t, p, kc.args) })
	}
}

func signals(t *testing.T, p *stepProxy, args []string) {
	want, _ := uninterrupted(t, p, args)
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			p.hold.Store(5)
			cmd, stderr, err := interruptProcess(t, p, withDir(args, dir), 5, false, func(p *os.Process) error { return p.Signal(tt.sig) })
			p.hold.Store(0)
			if cmd.ProcessState.ExitCode() != tt.code {
				t.Fatalf("exit %v, want %d: %s", err, tt.code, stderr)
			}
			msg := stderr.String()
			for _, want := range []string{"stopped by", "pages in " + dir, " -resume http://"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the summary lacks %q:\n%s", want, msg)
				}
			}
			checkWhole(t, snapshot(t, dir), want)
			resumeMatches(t, p, args, dir, want)
		})
	}
}
