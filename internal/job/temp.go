package job

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// A tempName is how the crawl names a temporary file it makes beside one
// of its outputs: a dot, the output's base name, an infix, a random
// decimal number, and a suffix, as ".links.csv.tmp-123".
type tempName struct{ infix, suffix string }

var (
	// replacement is a -graph or -stats-json file being written, renamed
	// over the file once whole.
	replacement = tempName{".tmp-", ""}
	// packageTemp is a -warc package being written, renamed over the
	// path once whole, named as the package's temporary file always was.
	packageTemp = tempName{".", ".tmp"}
)

// create makes a new file beside path, named as n says, with perm less
// the umask. The exclusive create fails on any name that exists, a link
// included, so it never writes through one.
func (n tempName) create(path string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+n.infix+strconv.FormatUint(uint64(rand.Uint32()), 10)+n.suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot find a free temporary name beside %s", path)
}

// replaceFile replaces the file at path with one that holds what write
// writes: written beside it under a temporary name, made with perm less
// the umask, synced, and renamed over it, so that path holds the whole
// file or what it held before, whoever reads it, whatever happens. A
// symbolic link at path is replaced, never written through. If mode is
// not nil, the file is given that mode.
func replaceFile(path string, n tempName, mode *fs.FileMode, write func(io.Writer) error) error {
	tmp, err := n.create(path, 0o666)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tmp, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && mode != nil {
		err = tmp.Chmod(*mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name()) // made above
	}
	return err
}
