package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutsideDirRefused checks that the command refuses a -warc or
// -stats-json file inside pageDirectory before it writes or sends
// anything.
func TestOutsideDirRefused(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	for _, flag := range []string{"-warc", "-stats-json"} {
		for _, name := range []string{"1", "crawl.out"} {
			t.Run(flag+" "+name, func(t *testing.T) {
				dir := t.TempDir()
				code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", flag, filepath.Join(dir, name), zooSeed, dir, "1")
				if code != exitUsage || !strings.Contains(stderr, "inside pageDirectory") {
					t.Errorf("exit %d, want %d: %s", code, exitUsage, stderr)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 0 {
					t.Errorf("pageDirectory holds %d files, want none", len(entries))
				}
			})
		}
	}
	if n := p.requests.Load(); n != 0 {
		t.Errorf("%d requests made", n)
	}
}
