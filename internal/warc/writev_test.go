//go:build darwin || linux || openbsd

package warc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteParts: writeParts puts every part in a real file, in order,
// empty parts included, with writev.
func TestWriteParts(t *testing.T) {
	many := make([][]byte, 3000) // more than one writev takes
	for i := range many {
		many[i] = []byte{byte('a' + i%26)}
	}
	for _, parts := range [][][]byte{
		many,
		nil,
		{{}},
		{[]byte("WARC/1.1\r\n"), {}, bytes.Repeat([]byte("x"), 1<<20), []byte("\r\n\r\n")},
		{{}, []byte("a"), {}, []byte("b"), {}},
	} {
		f, err := os.Create(filepath.Join(t.TempDir(), "f"))
		if err != nil {
			t.Fatal(err)
		}
		want := bytes.Join(parts, nil)
		n, err := writeParts(f, parts)
		if err != nil || n != int64(len(want)) {
			t.Errorf("writeParts: %d bytes, %v; want %d", n, err, len(want))
		}
		f.Close()
		got, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("the file holds %d bytes, want the %d of the parts in order", len(got), len(want))
		}
	}
}

// TestAdvance: after a short writev, what is left to write is the rest of
// the parts, whatever the count written falls on.
func TestAdvance(t *testing.T) {
	parts := func() [][]byte { return [][]byte{[]byte("ab"), {}, []byte("cde"), []byte("f")} }
	all := "abcdef"
	for n := 0; n <= len(all); n++ {
		got := string(bytes.Join(advance(parts(), n), nil))
		if got != all[n:] {
			t.Errorf("advance by %d leaves %q, want %q", n, got, all[n:])
		}
	}
	if left := advance(parts(), len(all)); len(left) != 0 {
		t.Errorf("advance past the end leaves %d parts, want none", len(left))
	}
}

// TestWritevFullDisk: a real write that fails, to /dev/full, is the error
// of that exchange and of every later one, and leaves the size where the
// last whole exchange ended.
func TestWritevFullDisk(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full to fill: %v", err)
	}
	defer f.Close()
	for _, name := range fileNames {
		w := newWriter(name, f, 0)
		for i := range 2 {
			err := w.WriteExchange(fill(exchanges[i].x, i))
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("%s: exchange %d: %v, want ENOSPC", name, i, err)
			}
		}
		if w.Size() != 0 {
			t.Errorf("%s: size %d after failed writes, want 0", name, w.Size())
		}
	}
}
