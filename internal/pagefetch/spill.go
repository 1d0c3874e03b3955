package pagefetch

import (
	"fmt"
	"os"
)

// spillAt is how large the buffer of a body whose length is not known
// (one that inflates, or comes without a Content-Length) grows before
// what follows goes to a file from Fetcher.Scratch. Growing a buffer
// copies it into one larger by a quarter or more, and the two coexist, so
// a page of a GiB that inflated into one took twice that; through the
// file it takes what the buffer held, plus one array of its exact size
// once its end is known. Nearly every page is smaller, and never spills.
const spillAt = 8 << 20

// A spill is the file that a body which outgrew its buffer goes on in:
// the body is the file's bytes, then what the buffer holds.
type spill struct {
	f    *os.File // nil until the body spills
	size int64    // bytes written to f
}

// write appends b to the file. If it fails, the file holds what it held
// before, as far as gather reads it.
func (s *spill) write(b []byte) error {
	if _, err := s.f.WriteAt(b, s.size); err != nil {
		return err
	}
	s.size += int64(len(b))
	return nil
}

// gather returns the body, the file's bytes followed by tail, in a new
// array of capacity c, which must hold them, and closes the file.
func (s *spill) gather(tail []byte, c int64) ([]byte, error) {
	n := s.size
	b := make([]byte, n+int64(len(tail)), c)
	_, err := s.f.ReadAt(b[:n], 0)
	s.close()
	if err != nil {
		return nil, fmt.Errorf("reading back the body from its file: %w", err)
	}
	copy(b[n:], tail)
	return b, nil
}

// close closes the file, if there is one, which has no name: what it
// held is gone.
func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
		s.f, s.size = nil, 0
	}
}
