package job

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestReplaceFile: the file is replaced once whole, by one made with the
// umask's mode or the one given; a write that fails leaves what was
// there, and no temporary file.
func TestReplaceFile(t *testing.T) {
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	if err := os.WriteFile(probe, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(probe)
	if err != nil {
		t.Fatal(err)
	}
	umasked := fi.Mode().Perm()
	own := fs.FileMode(0o640)
	tests := []struct {
		name string
		mode *fs.FileMode
		fail bool
		want fs.FileMode
	}{
		{"the umask's mode", nil, false, umasked},
		{"a mode given", &own, false, own},
		{"a write that fails", nil, true, 0o600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.wacz")
			if err := os.WriteFile(path, []byte("before"), 0o600); err != nil {
				t.Fatal(err)
			}
			err := replaceFile(path, packageTemp, tc.mode, func(w io.Writer) error {
				io.WriteString(w, "after")
				if tc.fail {
					return errors.New("disk full")
				}
				return nil
			})
			if (err != nil) != tc.fail {
				t.Fatalf("replaceFile: %v", err)
			}
			data, _ := os.ReadFile(path)
			if want := map[bool]string{false: "after", true: "before"}[tc.fail]; string(data) != want {
				t.Errorf("the file holds %q, want %q", data, want)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != tc.want {
				t.Errorf("the file's mode is %v (%v), want %v", fi.Mode().Perm(), err, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("left in the directory: %v", entries)
			}
		})
	}
}
