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
	"strings"
)

// A tempName is how the crawl names a temporary file it makes beside one
// of its outputs: a dot, the output's base name, an infix, a random
// decimal number, and a suffix, as ".links.csv.tmp-123". A crawl killed
// while the file has its name leaves it there; the run that resumes the
// crawl removes it, knowing it by that name, and no file named otherwise.
type tempName struct{ infix, suffix string }

var (
	// replacement is a -graph or -stats-json file being written, renamed
	// over the file once whole.
	replacement = tempName{".tmp-", ""}
	// packageTemp is a -warc package being written, renamed over the
	// path once whole; named as the package's temporary file always was,
	// so that one a run of an earlier release left is removed too.
	packageTemp = tempName{".", ".tmp"}
	// spoolTemp is a large response waiting for its record, beside the
	// WARC file, whose name is removed as soon as it is made.
	spoolTemp = tempName{".spool-", ""}
)

// create makes a new file beside path, named as n says, with perm less
// the umask, open for reading and writing. The exclusive create fails on
// any name that exists, a link included, so it never writes through one.
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

// is reports whether name, a base name, is one that create gives a file
// beside path.
func (n tempName) is(path, name string) bool {
	rest, ok := strings.CutPrefix(name, "."+filepath.Base(path)+n.infix)
	if !ok {
		return false
	}
	digits, ok := strings.CutSuffix(rest, n.suffix)
	return ok && digits != "" && len(digits) <= 20 && strings.Trim(digits, "0123456789") == ""
}

// removeLeft removes the regular files beside path that are named as
// create names them, which a crawl killed while it wrote them left, and
// calls failed with the path of each it cannot remove, and why.
func (n tempName) removeLeft(path string, failed func(name string, err error)) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // nothing can be found to remove
	}
	for _, e := range entries {
		if !n.is(path, e.Name()) || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if pe, ok := errors.AsType[*fs.PathError](err); ok {
				err = pe.Err // the path is named apart
			}
			failed(name, err)
		}
	}
}

// replaceFile replaces the file at path with one that holds what write
// writes: written beside it under a temporary name, made with 0666 less
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

// spoolFile makes a new file beside the WARC file at path, for a response
// to wait in for its record, and removes its name at once, so that it is
// gone once closed, or once the crawler is killed; a crawl killed between
// the two leaves it to the run that resumes it, which knows its name.
func spoolFile(path string) (*os.File, error) {
	f, err := spoolTemp.create(path, 0o600)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
