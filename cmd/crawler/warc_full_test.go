//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tse-crawler/internal/pagedir"
)

// fileLimit is the size limit, in 512-byte blocks, that TestWARCDiskFull
// puts on every file the crawler writes: 8 KiB. The zoo's WARC file passes
// it after a few pages, plain or gzipped; its pages, under 1 KiB each, and
// its journal stay far below it.
const fileLimit = 16

// TestWARCDiskFull runs the crawler as a process whose files may not grow
// beyond fileLimit, as on a full disk, so that writing the WARC file fails
// in the middle of the crawl with EFBIG (Go ignores SIGXFSZ). The crawl
// must stop as it does when a page cannot be saved: exit 1, with an error
// that names the WARC file. The WARC file must end with whole exchanges,
// and the pages saved must be whole, each with its response in the file.
// Once the limit is gone, -resume must finish the crawl as if nothing had
// failed, every saved page recorded exactly once.
func TestWARCDiskFull(t *testing.T) {
	sh, err := os.Stat("/bin/sh")
	if err != nil || sh.IsDir() {
		t.Skip("skipping: no /bin/sh to set the file size limit with")
	}
	p := newStepProxy(t, testdataSite(t))
	args := killCrawls[0].args // the zoo
	for _, file := range []string{"crawl.warc", "crawl.warc.gz"} {
		t.Run(file, func(t *testing.T) {
			want, _ := uninterrupted(t, p, append([]string{"-warc", filepath.Join(t.TempDir(), file)}, args...))
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), file)
			args := append([]string{"-warc", out}, args...)
			// ulimit -f counts 512-byte blocks in a POSIX shell, which
			// /bin/sh is, dash or bash alike.
			limited := append([]string{"-c", "ulimit -f " + strconv.Itoa(fileLimit) + ` && exec "$0" "$@"`, os.Args[0]}, withDir(args, dir)...)
			cmd, stderr := crawlerProcess(p.URL, limited...)
			cmd.Path, cmd.Args[0] = "/bin/sh", "sh"
			err := cmd.Run()
			if cmd.ProcessState == nil {
				t.Fatal(err)
			}
			if code := cmd.ProcessState.ExitCode(); code != exitFailure {
				t.Fatalf("the crawler process: %v, want exit %d: %s", err, exitFailure, stderr)
			}
			got := snapshot(t, dir)
			msg := stderr.String()
			for _, w := range []string{
				"writing WARC file " + out + ": " + syscall.EFBIG.Error(),
				fmt.Sprintf("The %d pages saved are whole", len(got)-1),
				" -resume http://",
			} {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr lacks %q:\n%s", w, msg)
				}
			}
			checkWhole(t, got, want)
			if len(got) < 2 || len(got) >= len(want) {
				t.Errorf("%d files in the directory, want the marker, some pages, and fewer than the %d of the finished crawl", len(got), len(want))
			}
			// checkPagesArchived reads a finished crawl's directory: it is
			// given the pages without the journal.
			pages := t.TempDir()
			for name, data := range got {
				if name != pagedir.Marker {
					if err := os.WriteFile(filepath.Join(pages, name), []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			checkPagesArchived(t, pages, checkWARC(t, out))

			resumeMatches(t, p, args, dir, want)
			checkPagesArchived(t, dir, checkWARC(t, out))
		})
	}
}
