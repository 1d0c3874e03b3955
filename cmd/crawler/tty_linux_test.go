package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"tse-crawler/internal/hostile"
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
	s := hostileServer(t, hostile.Options{})
	cmd, stderr := crawlerProcess(s.URL, "-delay", "0", hostile.ControlSeed, t.TempDir(), "1")
	cmd.Stdout = term
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close() // the crawler holds it now; once it exits, ctl reads EIO
	var out bytes.Buffer
	read := make(chan error, 1)
	go func() {
		_, err := io.Copy(&out, ctl)
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
