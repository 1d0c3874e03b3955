package job

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTempName: the names the crawl gives its temporary files are known
// again, and no other name is taken for one.
func TestTempName(t *testing.T) {
	tests := []struct {
		name string
		temp tempName
		path string
		file string
		is   bool
	}{
		{"package", packageTemp, "x.wacz", ".x.wacz.123.tmp", true},
		{"package, longest number", packageTemp, "x.wacz", ".x.wacz.4294967295.tmp", true},
		{"package, no number", packageTemp, "x.wacz", ".x.wacz..tmp", false},
		{"package, not a number", packageTemp, "x.wacz", ".x.wacz.12a.tmp", false},
		{"package, another's", packageTemp, "x.wacz", ".y.wacz.123.tmp", false},
		{"package, more after", packageTemp, "x.wacz", ".x.wacz.123.tmp.keep", false},
		{"package, no dot", packageTemp, "x.wacz", "x.wacz.123.tmp", false},
		{"package, its WARC file's spool", packageTemp, "x.wacz", ".x.wacz.warc.gz.spool-123", false},
		{"package, a file of its name", packageTemp, "x.wacz", "x.wacz", false},
		{"replacement", replacement, "dir/links.csv", ".links.csv.tmp-123", true},
		{"replacement, no number", replacement, "dir/links.csv", ".links.csv.tmp-", false},
		{"replacement, signed", replacement, "dir/links.csv", ".links.csv.tmp--1", false},
		{"replacement, a package's", replacement, "dir/links.csv", ".links.csv.123.tmp", false},
		{"spool", spoolTemp, "x.wacz.warc.gz", ".x.wacz.warc.gz.spool-9", true},
		{"spool, an earlier release's", spoolTemp, "x.wacz.warc.gz", ".crawler-spool-9", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.temp.is(tc.path, tc.file); got != tc.is {
				t.Errorf("is(%q, %q) = %v, want %v", tc.path, tc.file, got, tc.is)
			}
		})
	}
	for _, temp := range []tempName{packageTemp, replacement, spoolTemp} {
		path := filepath.Join(t.TempDir(), "out.file")
		f, err := temp.create(path, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if !temp.is(path, filepath.Base(f.Name())) || filepath.Dir(f.Name()) != filepath.Dir(path) {
			t.Errorf("create made %s, which is does not know beside %s", f.Name(), path)
		}
	}
}

// TestRemoveLeft: removeLeft removes the regular files named as the
// crawl names its temporary files beside an output, and nothing else.
func TestRemoveLeft(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.wacz")
	for _, name := range []string{".x.wacz.1.tmp", ".x.wacz.4294967295.tmp", ".x.wacz.12a.tmp", ".y.wacz.1.tmp", ".x.wacz.1.tmp.keep", "x.wacz", ".x.wacz.warc.gz.spool-1", "target"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("torn"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("target", filepath.Join(dir, ".x.wacz.2.tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".x.wacz.3.tmp"), 0o777); err != nil {
		t.Fatal(err)
	}
	packageTemp.removeLeft(path, func(name string, err error) { t.Errorf("cannot remove %s: %v", name, err) })
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{".x.wacz.1.tmp.keep", ".x.wacz.12a.tmp", ".x.wacz.2.tmp", ".x.wacz.3.tmp", ".x.wacz.warc.gz.spool-1", ".y.wacz.1.tmp", "target", "x.wacz"}
	if !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
}

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
