package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"tse-crawler/internal/testbed/hostile"
)

// openPTY returns the two ends of a new pseudo-terminal: what is written
// to term, a terminal as far as the crawler can tell, is read from ctl.
func openPTY(t *testing.T) (ctl, term *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	fd := int(ctl.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("naming the pseudo-terminal: %v", err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// No output processing: what the crawler writes is what ctl reads.
	tio, err := unix.IoctlGetTermios(int(term.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(term.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	return ctl, term
}

// TestLogOnTerminal: links full of terminal controls reach a terminal
// escaped. The same crawl's log redirected to a file keeps the raw bytes,
// as TestHostileControlBytes checks.
func TestLogOnTerminal(t *testing.T) {
	t.Parallel()
	ctl, term := openPTY(t)
	defer ctl.Close()
	s := hostile.ServeTest(t, hostile.Options{})
	cmd, stderr := crawlerProcess(s.URL, "-delay", "0", hostile.ControlSeed, t.TempDir(), "1")
	cmd.Stdout = term
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := readTerminal(t, ctl, term, cmd)
	if code := cmd.ProcessState.ExitCode(); code != exitOK {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
	}
	if bad := rawControls(out.Bytes()); bad != nil {
		t.Errorf("the terminal got raw control bytes %q:\n%q", bad, out.String())
	}
	if !strings.Contains(out.String(), `\x1b`) || strings.Count(out.String(), " FAILED: ") != len(hostile.ControlLinks) {
		t.Errorf("the log on the terminal does not show the escaped links:\n%s", out.String())
	}
}

// TestCheckReportOnTerminal: -check's report on a terminal shows the
// terminal controls of its links escaped, as it does in a file
// (TestCheckReportEscaped).
func TestCheckReportOnTerminal(t *testing.T) {
	seed := serveHostileCheck(t)
	ctl, term := openPTY(t)
	defer ctl.Close()
	var out bytes.Buffer
	read := make(chan error, 1)
	go func() {
		_, err := io.Copy(&out, ctl)
		read <- err
	}()
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"crawler", "-check", "-delay", "0", seed}, term, &stderr, noProxy)
	term.Close()
	if err := <-read; err != nil && !errors.Is(err, syscall.EIO) {
		t.Fatalf("reading the terminal: %v", err)
	}
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr.String())
	}
	checkEscapedReport(t, seed, out.String())
}

// TestStatusLineNarrow runs the crawler with stderr on a terminal 30
// columns wide and stdout elsewhere, so that it draws its status line:
// every drawing of the line leaves the last column free, so it never
// wraps, and the line is there, cut at a field.
func TestStatusLineNarrow(t *testing.T) {
	t.Parallel()
	const cols = 30
	ctl, term := openPTY(t)
	defer ctl.Close()
	if err := unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: cols}); err != nil {
		t.Fatalf("setting the terminal's size: %v", err)
	}
	p := newProxy(t, testdataSite(t))
	// The zoo's 404s are written through the line, which draws it again
	// after each, however fast the crawl.
	cmd, _ := crawlerProcess(p.URL, "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", t.TempDir(), "10")
	cmd.Stderr = term
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := readTerminal(t, ctl, term, cmd)
	if code := cmd.ProcessState.ExitCode(); code != exitOK {
		t.Errorf("exit %d, want %d; the terminal:\n%q", code, exitOK, out.String())
	}
	draws := regexp.MustCompile("\r([^\r\n\x1b]*)\x1b\\[K").FindAllStringSubmatch(out.String(), -1)
	drawn := 0
	for _, d := range draws {
		if n := utf8.RuneCountInString(d[1]); n >= cols {
			t.Errorf("a status line of %d columns on a terminal of %d: %q", n, cols, d[1])
		}
		if d[1] != "" {
			drawn++
			if !strings.HasPrefix(d[1], "saved ") || !strings.HasSuffix(d[1], " waiting") {
				t.Errorf("status line %q, want it cut after the pages waiting", d[1])
			}
		}
	}
	if drawn == 0 {
		t.Errorf("the status line was never drawn:\n%q", out.String())
	}
}

// readTerminal closes the child's side of a pseudo-terminal, which the
// started cmd holds now, and returns all it wrote there once it has
// exited: then the controlling side reads EIO.
func readTerminal(t *testing.T, ctl, term *os.File, cmd *exec.Cmd) *bytes.Buffer {
	t.Helper()
	term.Close()
	out := new(bytes.Buffer)
	read := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, ctl)
		read <- err
	}()
	waitAtMost(t, cmd, 10*time.Second)
	select {
	case err := <-read:
		if err != nil && !errors.Is(err, syscall.EIO) {
			t.Fatalf("reading the terminal: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal never closed")
	}
	return out
}

// TestSummaryOnTerminal: a crawl that finishes with stderr on a terminal
// ends with one line there that sums it up, pages saved and failed, time,
// bytes and the page directory, after the status line is erased; with -q
// it does not, and redirected, stderr has no such line.
func TestSummaryOnTerminal(t *testing.T) {
	t.Parallel()
	p := newProxy(t, testdataSite(t))
	for _, quiet := range []bool{false, true} {
		ctl, term := openPTY(t)
		dir := t.TempDir()
		args := []string{"-delay", "0", zooSeed, dir, "2"}
		if quiet {
			args = append([]string{"-q"}, args...)
		}
		cmd, _ := crawlerProcess(p.URL, args...)
		cmd.Stderr = term
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		out := readTerminal(t, ctl, term, cmd).String()
		ctl.Close()
		if code := cmd.ProcessState.ExitCode(); code != exitOK {
			t.Fatalf("-q %v: exit %d; the terminal:\n%q", quiet, code, out)
		}
		pages := len(readPages(t, dir))
		summary := regexp.MustCompile(`crawler: finished in [0-9.]+m?s: ([0-9]+) pages saved in (.*), [0-9,]+ bytes \([0-9.]+ KiB\); ([0-9]+) failed\r?\n$`)
		m := summary.FindStringSubmatch(out)
		switch {
		case quiet && strings.Contains(out, "finished"):
			t.Errorf("-q: the terminal shows a summary:\n%q", out)
		case quiet:
		case m == nil:
			t.Errorf("the terminal does not end with the summary:\n%q", out)
		case m[1] != strconv.Itoa(pages) || m[2] != dir || m[3] != "1":
			t.Errorf("summary %q, want %d pages saved in %s, 1 failed (yak.html)", m[0], pages, dir)
		}
	}
	code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", zooSeed, t.TempDir(), "2")
	if code != exitOK || strings.Contains(stderr, "finished") {
		t.Errorf("redirected: exit %d, stderr with a summary:\n%s", code, stderr)
	}
}
