// Testsum runs go test -json and prints what a person reads of a test run:
// each package's ok or FAIL line, the whole output of every test that
// failed, every skipped test with its reason, and a count of them all.
//
// Usage:
//
//	go run ./internal/testsum [-counts FILE] go test -json [flags] [packages]
//
// The arguments are the command to run; its stdout must be go test's JSON
// stream, and its stderr is passed through. The last line printed is
//
//	go test: N passed, M failed, K skipped
//
// where every test, subtest, example and fuzz seed counts once. A package
// that fails outside any test (a build error, or a crash in TestMain)
// counts as one failure, and so does a command that fails with no failed
// test to show for it. With -counts, "N M K" is written to FILE as well,
// for make test to add to testing.sh's counts.
//
// Unlike go test -v, a test that passed shows nothing, so the output stays
// short; unlike plain go test, skips are shown, so that a run which tested
// less than it should says so.
//
// Exit status is 0 if the command succeeded and no test failed, 1 if
// anything failed, and 2 for bad arguments.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	// Ctrl-C reaches go test too, which stops; testsum reads on to the
	// end of its stream, so that what ran is still summed up.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, sigs))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	fs := flag.NewFlagSet("testsum", flag.ContinueOnError)
	fs.SetOutput(stderr)
	countsFile := fs.String("counts", "", "also write \"passed failed skipped\" to `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: testsum [-counts FILE] go test -json [flags] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "testsum: no command: give the go test command to run, such as go test -json ./...")
		return exitUsage
	}

	cmd := exec.CommandContext(ctx, fs.Arg(0), fs.Args()[1:]...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(stderr, "testsum: %v\n", err)
		return exitError
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "testsum: %v: give a command that can run, such as go test -json ./...\n", err)
		return exitError
	}
	if sigs != nil {
		go func() {
			for sig := range sigs {
				cmd.Process.Signal(sig)
			}
		}()
	}
	s := newSummary(stdout)
	readErr := s.read(out)
	waitErr := cmd.Wait()
	if readErr != nil {
		fmt.Fprintf(stderr, "testsum: reading the test events: %v\n", readErr)
		s.counts.Failed++
	}
	if waitErr != nil && s.counts.Failed == 0 {
		// go test fails this way when it cannot start: no packages, a bad
		// flag. Its stderr, above, says why.
		fmt.Fprintf(stdout, "%s failed, though no test did: %v\n", fs.Arg(0), waitErr)
		s.counts.Failed++
	}
	if s.events == 0 {
		fmt.Fprintln(stdout, "testsum: no test events: give go test the -json flag")
	}
	c := s.counts
	fmt.Fprintf(stdout, "go test: %d passed, %d failed, %d skipped\n", c.Passed, c.Failed, c.Skipped)
	if *countsFile != "" {
		if err := os.WriteFile(*countsFile, fmt.Appendf(nil, "%d %d %d\n", c.Passed, c.Failed, c.Skipped), 0o644); err != nil {
			fmt.Fprintf(stderr, "testsum: %v\n", err)
			return exitError
		}
	}
	if c.Failed > 0 {
		return exitError
	}
	return exitOK
}
