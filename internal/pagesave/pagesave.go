// Package pagesave writes a crawl's page directory: the empty .crawler
// marker and one file per page, named by its docID, that holds the page's
// URL, its depth and its HTML.
//
// A page file appears whole or not at all. It is written under a temporary
// name that starts with a dot, so no later stage mistakes it for a page,
// and then linked into place. The link fails if the name is taken, so an
// existing page is never overwritten, even by a file that appears while the
// crawl runs.
package pagesave

import (
	"errors"
	"fmt"
	"io/fs"
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

// A Dir is a page directory.
type Dir struct {
	path string
}

// Open checks that path is an existing, writable directory holding no
// pages yet, and creates the empty marker file in it. Each failure gets a
// message that says what to do about it.
func Open(path string) (*Dir, error) {
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
	if name, err := firstPage(path); err != nil {
		return nil, fmt.Errorf("pageDirectory %s: %w", path, err)
	} else if name != "" {
		return nil, fmt.Errorf("pageDirectory %s already holds pages (%s is in the way): use an empty directory", path, filepath.Join(path, name))
	}
	if err := os.WriteFile(filepath.Join(path, Marker), nil, 0o644); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the message already
		}
		return nil, fmt.Errorf("cannot create %s in pageDirectory %s: %w: choose a directory you can write to", Marker, path, err)
	}
	return &Dir{path: path}, nil
}

// firstPage returns the name of a page file in dir, if there is one: a
// file whose name is a docID.
func firstPage(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if _, ok := DocID(e.Name()); ok {
			return e.Name(), nil
		}
	}
	return "", nil
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
	f, err := os.CreateTemp(d.path, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// CreateTemp makes files readable by their owner alone; pages are for
	// the indexer and the grader too.
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	head := make([]byte, 0, len(url)+24)
	head = append(head, url...)
	head = append(head, '\n')
	head = strconv.AppendInt(head, int64(depth), 10)
	head = append(head, '\n')
	for _, b := range [][]byte{head, html, {'\n'}} {
		if _, err := f.Write(b); err != nil {
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
