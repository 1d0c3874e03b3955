package job

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOutsideDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pages")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		inside     bool
	}{
		{"beside", filepath.Join(root, "crawl.warc.gz"), false},
		{"in it", filepath.Join(dir, "crawl.warc.gz"), true},
		{"named as a page", filepath.Join(dir, "1"), true},
		{"below it", filepath.Join(dir, "sub", "x.json"), true},
		{"in a folder not made yet below it", filepath.Join(dir, "new", "x.json"), true},
		{"through another name", filepath.Join(root, "alias", "x.warc"), true},
		{"dot-dot out of it", filepath.Join(dir, "..", "x.warc"), false},
		{"none", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := outsideDir(dir, map[string]string{"warc": tt.path})
			if (err != nil) != tt.inside {
				t.Fatalf("outsideDir(%q) = %v, want inside %t", tt.path, err, tt.inside)
			}
			if err != nil && !strings.Contains(err.Error(), "outside") {
				t.Errorf("the message does not say what to do: %v", err)
			}
		})
	}
}
