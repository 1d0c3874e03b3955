package pagefetch

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSpool: a spool keeps the first MiB in memory and the rest in a file
// with no name, reads back whole from any offset, across the two, and can
// be emptied and filled again.
func TestSpool(t *testing.T) {
	want := make([]byte, 3*spoolMemory+12345)
	for i := range want {
		want[i] = byte(i*7 + i>>11)
	}
	fill := func(s *spool) {
		// Writes of every size, one of them across the memory's end.
		for rest, n := want, 1; len(rest) > 0; n = n*3 + 1 {
			k := min(n, len(rest))
			s.write(rest[:k])
			rest = rest[k:]
		}
	}
	check := func(t *testing.T, s *spool) {
		t.Helper()
		if s.failed() != nil || s.Size() != int64(len(want)) {
			t.Fatalf("spool of %d bytes, error %v; want %d", s.Size(), s.failed(), len(want))
		}
		got, err := io.ReadAll(io.NewSectionReader(s, 0, s.Size()))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("read back %d bytes, %v; want the %d written", len(got), err, len(want))
		}
		for _, off := range []int64{0, spoolMemory - 3, spoolMemory, int64(len(want)) - 5} {
			p := make([]byte, 10)
			n, err := s.ReadAt(p, off)
			end := min(off+10, int64(len(want)))
			if !bytes.Equal(p[:n], want[off:end]) || (end-off < 10) != (err == io.EOF) {
				t.Errorf("ReadAt(%d) = %d bytes, %v", off, n, err)
			}
		}
	}
	dir := t.TempDir()
	s := &spool{open: unnamedIn(dir)}
	fill(s)
	check(t, s)
	if len(s.mem) > spoolMemory || s.f == nil {
		t.Errorf("%d bytes in memory, file %v: want at most %d, then a file", len(s.mem), s.f, spoolMemory)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("the spool's directory shows %v, want nothing", names)
	}
	s.reset()
	if s.Size() != 0 {
		t.Errorf("%d bytes after reset", s.Size())
	}
	fill(s)
	check(t, s)
	if err := s.Close(); err != nil || s.f != nil || s.mem != nil {
		t.Errorf("Close = %v, and the spool still holds its file or memory", err)
	}

	// Without a file to go to, everything stays in memory.
	s = &spool{}
	fill(s)
	check(t, s)
	if s.f != nil {
		t.Error("a spool with nothing to open made a file")
	}

	// A file that cannot be made: the first MiB is kept, the rest
	// dropped, and the failure told.
	s = &spool{open: unnamedIn(filepath.Join(dir, "missing"))}
	fill(s)
	if s.failed() == nil || s.Size() > spoolMemory {
		t.Errorf("spool into a missing directory: %d bytes, error %v", s.Size(), s.failed())
	}
}

// unnamedIn returns a function that makes a new file in dir, and removes
// its name.
func unnamedIn(dir string) func() (*os.File, error) {
	return func() (*os.File, error) {
		f, err := os.CreateTemp(dir, ".spool-*")
		if err != nil {
			return nil, err
		}
		if err := os.Remove(f.Name()); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
}
