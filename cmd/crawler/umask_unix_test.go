//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// setUmask sets the process's umask to mask, in octal, if it is one, for
// the crawler process a test runs: before it runs, so no other goroutine
// makes a file meanwhile.
func setUmask(mask string) {
	if m, err := strconv.ParseUint(mask, 8, 32); err == nil && mask != "" {
		syscall.Umask(int(m))
	}
}

// TestOutputModes: every file a crawl writes, its pages, its WARC file,
// its package, its -graph and -stats-json files, has the mode the umask
// leaves of 0666, as files a program makes do.
func TestOutputModes(t *testing.T) {
	t.Parallel()
	p := newProxy(t, testdataSite(t))
	for _, umask := range []fs.FileMode{0o022, 0o002, 0o077} {
		for _, warcFile := range []string{"x.wacz", "x.warc.gz"} {
			t.Run(fmt.Sprintf("umask %03o %s", umask, warcFile), func(t *testing.T) {
				t.Parallel()
				dir, outDir := t.TempDir(), t.TempDir()
				out := func(name string) string { return filepath.Join(outDir, name) }
				cmd, stderr := crawlerProcess(p.URL, "-q", "-delay", "0", "-warc", out(warcFile), "-graph", out("links.csv"), "-stats-json", out("stats.json"), zooSeed, dir, "1")
				cmd.Env = append(cmd.Env, "TSE_CRAWLER_TEST_UMASK="+strconv.FormatUint(uint64(umask), 8))
				if err := cmd.Run(); err != nil {
					t.Fatalf("crawler: %v: %s", err, stderr)
				}
				want := 0o666 &^ umask
				for _, path := range []string{out(warcFile), out("links.csv"), out("stats.json"), filepath.Join(dir, "1")} {
					fi, err := os.Stat(path)
					if err != nil {
						t.Error(err)
						continue
					}
					if got := fi.Mode().Perm(); got != want {
						t.Errorf("%s: mode %v, want %v", filepath.Base(path), got, want)
					}
				}
			})
		}
	}
}
