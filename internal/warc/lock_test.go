//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package warc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"tse-crawler/internal/filelock"
)

// TestLocked reopens, every way, a WARC file that a Writer has open,
// which ends in a torn record that reopening would cut off: each is
// refused, naming the file, and leaves it as it was. Once the Writer is
// closed, the file reopens; with KeepLock, only once the lock is
// released.
func TestLocked(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(path string) (*Writer, error)
	}{
		{"Reopen", func(path string) (*Writer, error) { return Reopen(path, info) }},
		{"ReopenAt", func(path string) (*Writer, error) { return ReopenAt(path, 0, info) }},
	} {
		for _, keep := range []bool{false, true} {
			name := tc.name
			if keep {
				name += " after KeepLock"
			}
			t.Run(name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "crawl.warc")
				w := create(t, path)
				if err := w.WriteExchange(fill(exchanges[0].x, 0)); err != nil {
					t.Fatal(err)
				}
				appendTo(t, path, "WARC/1.1\r\nWARC-Type: res")
				before := readAll(t, path)
				var release func()
				if keep {
					var err error
					if release, err = w.KeepLock(); err != nil {
						t.Fatal(err)
					}
					w.Close()
				}
				_, err := tc.open(path)
				be, ok := errors.AsType[*filelock.BusyError](err)
				if !ok || be.Name != "WARC file "+path {
					t.Fatalf("got %v, want a *filelock.BusyError naming WARC file %s", err, path)
				}
				if after := readAll(t, path); after != before {
					t.Errorf("the refused Writer changed the file: %d bytes, were %d", len(after), len(before))
				}
				if keep {
					release()
				} else {
					w.Close()
				}
				w2, err := tc.open(path)
				if err != nil {
					t.Fatalf("once the first is done with it: %v", err)
				}
				w2.Close()
			})
		}
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
