package pagedir

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
// use, but for [Dir.Scratch].
type Dir struct {
	path   string   // as given to Open, for messages: the directory may have moved since
	root   *root    // the directory itself, in which every name is looked up
	marker *os.File // open for reading the journal and appending to it
	resume bool     // as given to Open: Begin may go on with the crawl in the directory
	// tornTail is set while a journal kept for a resumed crawl may end in
	// a line torn by a crash, which the first Record cuts off.
	tornTail bool
	// unsaved is set while the journal's last whole line is that of a
	// page never saved, which the first Record cuts off too (see Begin).
	unsaved bool
	buf     []byte // a page file's header, reused from page to page
	// createTemp makes a temporary file and returns it with its name in
	// the directory; tests replace it to make writes fail as a full disk
	// does.
	createTemp func() (tempFile, string, error)
}

// tempFile is the part of *os.File that Save uses.
type tempFile interface {
	io.Writer
	Close() error
}

// Open opens the page directory at path, as [Claim] and [Claimed.Open] do
// one after the other.
func Open(path string, resume bool) (*Dir, error) {
	c, err := Claim(path)
	if err != nil {
		return nil, err
	}
	return c.Open(resume)
}

// A Claimed is a page directory open and locked for one crawl, in which
// nothing is written yet.
type Claimed struct {
	path string
	root *root // nil once Open or Release has run
}

// Claim opens the page directory at path, an existing directory, and
// takes its lock, which keeps any other crawler out until the [Dir] that
// [Claimed.Open] makes is closed, or the process ends. It writes nothing,
// so a crawl can claim its directory before it makes any other file. A
// directory another crawler holds is refused at once, with a
// [*filelock.BusyError] that names the directory and, where the system
// says, the process. Each other failure gets a message that says what to
// do about the directory.
func Claim(path string) (*Claimed, error) {
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
	r, err := openRoot(path)
	if err != nil {
		return nil, fmt.Errorf("pageDirectory %s: %w", path, err)
	}
	if err := r.lock(); err != nil {
		r.close()
		return nil, err
	}
	return &Claimed{path: path, root: r}, nil
}

// Open checks the claimed directory: that the marker, if there is one, is
// a regular file that the crawler may write to. It then removes temporary
// files a killed crawl may have left, and creates the marker if it is
// missing. Unless resume is set, the directory must hold no page yet
// ([HoldsPagesError]), and the marker is emptied; with resume, [Dir.Begin]
// decides what to go on with. Each other failure gets a message that says
// what to do about the directory. The Dir keeps the lock; after an error
// the lock is released.
func (c *Claimed) Open(resume bool) (*Dir, error) {
	r := c.root
	if r == nil {
		return nil, fmt.Errorf("pageDirectory %s: %w", c.path, fs.ErrClosed)
	}
	c.root = nil
	d, err := open(r, c.path, resume)
	if err != nil {
		r.close()
		return nil, err
	}
	return d, nil
}

// Release releases the directory, for a crawl that stops before it opens
// it. It does nothing once Open has run.
func (c *Claimed) Release() {
	if c.root != nil {
		c.root.close()
		c.root = nil
	}
}

// open is Open once the directory is open.
func open(r *root, path string, resume bool) (*Dir, error) {
	entries, err := r.readDir()
	if err != nil {
		return nil, fmt.Errorf("pageDirectory %s: %w", path, err)
	}
	var hasMarker bool
	var page string // the first page file, if there is one
	first := 0
	for _, e := range entries {
		name := e.Name()
		if id, ok := DocID(name); ok && (page == "" || id < first) {
			page, first = filepath.Join(path, name), id
		}
		hasMarker = hasMarker || name == Marker
	}
	switch {
	case page != "" && !resume:
		return nil, &HoldsPagesError{Dir: path, Page: page}
	case page != "" && !hasMarker:
		return nil, fmt.Errorf("pageDirectory %s holds pages (%s) but no %s, so no crawler made it: use an empty directory", path, page, Marker)
	}
	marker, err := openMarker(r, path)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		// Left by a crawl that was killed while writing a page. What is
		// not a file or a link is not the crawler's, and stays.
		if t := e.Type(); strings.HasPrefix(e.Name(), tempPrefix) && (t.IsRegular() || t&fs.ModeSymlink != 0) {
			if err := r.remove(e.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
				marker.Close()
				return nil, fmt.Errorf("removing a leftover temporary file: %w", err)
			}
		}
	}
	if !resume {
		if err := marker.Truncate(0); err != nil {
			marker.Close()
			return nil, fmt.Errorf("emptying %s in pageDirectory %s: %w", Marker, path, err)
		}
	}
	d := &Dir{path: path, root: r, marker: marker, resume: resume, tornTail: resume && hasMarker}
	d.createTemp = d.newTemp
	return d, nil
}

// openMarker opens the marker, creating it if it is missing, and checks
// that it is a regular file with no other name before anything is written
// to it: a link, or a file with another name, would carry the writes to a
// file that is not the crawler's. Opening never blocks, so a FIFO is
// refused rather than waited on.
func openMarker(r *root, path string) (*os.File, error) {
	// Checked before opening too, for opening a device can itself act.
	if mode, err := r.lstat(Marker); err == nil && !mode.IsRegular() {
		return nil, refusal(path, mode)
	}
	f, err := r.openFile(Marker, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		// Refused because it became a link, or a directory, since.
		if mode, lerr := r.lstat(Marker); lerr == nil && !mode.IsRegular() {
			return nil, refusal(path, mode)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the message already
		}
		return nil, fmt.Errorf("cannot create %s in pageDirectory %s: %w: choose a directory you can write to", Marker, path, err)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		err = fmt.Errorf("cannot create %s in pageDirectory %s: %w", Marker, path, err)
	case !fi.Mode().IsRegular():
		err = refusal(path, fi.Mode().Type())
	case links(fi) > 1:
		name := filepath.Join(path, Marker)
		err = fmt.Errorf("cannot create %s in pageDirectory %s: %s has %d hard links, and emptying it would empty the file under its other names too: remove it (rm %s) or use another directory", Marker, path, name, links(fi), name)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// refusal says why a marker of the given type is not the crawler's to
// write to, and what to do about it.
func refusal(path string, mode fs.FileMode) error {
	name := filepath.Join(path, Marker)
	what, fix := "is not a regular file", "rm "+name
	switch {
	case mode&fs.ModeSymlink != 0:
		what = "is a symbolic link, and the crawler never writes through a link it did not make"
	case mode.IsDir():
		what, fix = "is a directory, not a regular file", "rmdir "+name
	case mode&fs.ModeNamedPipe != 0:
		what = "is a named pipe (FIFO), not a regular file"
	case mode&fs.ModeSocket != 0:
		what = "is a socket, not a regular file"
	case mode&fs.ModeDevice != 0:
		what = "is a device, not a regular file"
	}
	return fmt.Errorf("cannot create %s in pageDirectory %s: %s %s: remove it (%s) or use another directory", Marker, path, name, what, fix)
}

// newTemp creates a new temporary file. Unlike os.CreateTemp it gives the
// file the permissions of any file the crawler creates (0666 less the
// umask, as C's fopen in the reference and os.WriteFile do), so no chmod is
// needed before the file becomes a page.
func (d *Dir) newTemp() (tempFile, string, error) {
	f, name, err := d.openTemp(os.O_WRONLY, 0o666)
	if err != nil {
		return nil, "", err
	}
	return f, name, nil
}

// openTemp creates a new temporary file, opened with flag (O_WRONLY or
// O_RDWR), and returns it and its name. The exclusive create fails on any
// name that exists, a link included, so it never writes through one.
func (d *Dir) openTemp(flag int, perm fs.FileMode) (*os.File, string, error) {
	for range 100 {
		name := tempPrefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := d.root.openFile(name, flag|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return f, name, nil
	}
	return nil, "", fmt.Errorf("cannot find a free temporary name in %s", d.path)
}

// Scratch returns a new, empty file in the directory, open for reading and
// writing, that has no name: it is made as a page's temporary file is, and
// its name removed at once, so that what it holds is gone once it is
// closed, or the crawler killed ([Open] removes a file a kill left between
// the two). The caller closes it. Unlike the other methods, Scratch may be
// called from any goroutine, while they run too, until the Dir is closed.
func (d *Dir) Scratch() (*os.File, error) {
	f, name, err := d.openTemp(os.O_RDWR, 0o600)
	if err == nil {
		if err = d.root.remove(name); err != nil {
			f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("making a scratch file: %w", err)
	}
	return f, nil
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

// Save writes page id: the URL, the depth and the HTML, each followed by a
// newline. It fails, writing nothing, if page id already exists.
func (d *Dir) Save(id int, url string, depth int, html []byte) (err error) {
	f, tmp, err := d.createTemp()
	if err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			d.root.remove(tmp)
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
	if err := d.place(tmp, strconv.Itoa(id)); err != nil {
		return fmt.Errorf("saving page %d: %w", id, err)
	}
	return nil
}

// place gives the finished temporary file tmp its final name, unless that
// name is taken.
func (d *Dir) place(tmp, name string) error {
	err := d.root.link(tmp, name)
	if err == nil {
		return d.root.remove(tmp)
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists", filepath.Join(d.path, name))
	}
	// Some file systems (FAT, some FUSE and network mounts) have no hard
	// links. There a check and a rename is the best that can be done; it
	// leaves a window in which a file that appears would be replaced.
	if _, err := d.root.lstat(name); err == nil {
		return fmt.Errorf("%s already exists", filepath.Join(d.path, name))
	}
	return d.root.rename(tmp, name)
}

// Load reads page id back. Its error wraps fs.ErrNotExist if there is no
// such page. A page that is a link, or not a regular file, is not one the
// crawler saved, and is an error too.
func (d *Dir) Load(id int) (url string, depth int, html []byte, err error) {
	name := strconv.Itoa(id)
	f, err := d.root.openFile(name, os.O_RDONLY, 0)
	if err != nil {
		if mode, lerr := d.root.lstat(name); lerr == nil && mode&fs.ModeSymlink != 0 {
			return "", 0, nil, fmt.Errorf("page %d is a symbolic link, which the crawler never makes", id)
		}
		return "", 0, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", 0, nil, err
	}
	if !fi.Mode().IsRegular() {
		return "", 0, nil, fmt.Errorf("page %d is not a regular file", id)
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead) // so that one read reaches the end
	if _, err := buf.ReadFrom(f); err != nil {
		return "", 0, nil, err
	}
	data := buf.Bytes()
	u, rest, ok1 := bytes.Cut(data, []byte{'\n'})
	ds, rest, ok2 := bytes.Cut(rest, []byte{'\n'})
	depth, err = strconv.Atoi(string(ds))
	if !ok1 || !ok2 || err != nil || !bytes.HasSuffix(rest, []byte{'\n'}) {
		return "", 0, nil, fmt.Errorf("page %d is not a page file (URL, depth and HTML, each ending in a newline)", id)
	}
	return string(u), depth, rest[:len(rest)-1], nil
}

// count returns how many pages the directory holds. The pages must be
// numbered 1 to the count, with no gap.
func (d *Dir) count() (int, error) {
	entries, err := d.root.readDir()
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

// readJournal returns what the marker holds: the journal of an unfinished
// crawl, or nothing.
func (d *Dir) readJournal() ([]byte, error) {
	fi, err := d.marker.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	data := make([]byte, fi.Size())
	n, err := d.marker.ReadAt(data, 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	return data[:n], nil
}

// begin starts a new journal for crawl p in the marker, replacing
// whatever was there, and labels the marker with its header.
func (d *Dir) begin(p Params) error {
	if err := d.marker.Truncate(0); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	d.tornTail = false
	header := JournalHeader(p)
	if err := d.write(header); err != nil {
		return err
	}
	d.setLabel(header)
	return nil
}

// Record appends what came of a page to the journal, in one write, so that
// a crawl killed at any moment leaves at most a torn last line. The page,
// if saved, must be saved first, unless the entry has a Charset: then it
// must be recorded first (see the package doc). The first Record of a
// resumed crawl cuts a torn line off, for a line appended to it would run
// into it and make an entry that the next resume could not read, and the
// line of a page that Begin found never saved.
func (d *Dir) Record(e Line) error {
	return d.write(JournalLine(e))
}

// RecordSeeds appends to the journal the crawl's more seeds, in one
// write, before the first page's line: a crawl that resumes goes on with
// them ([Replay.Seeds]).
func (d *Dir) RecordSeeds(seeds []string) error {
	return d.write(JournalLine(Line{Seeds: seeds}))
}

// write appends to the journal.
func (d *Dir) write(line []byte) error {
	if d.tornTail {
		if err := d.cutTornLine(); err != nil {
			return fmt.Errorf("writing the journal: %w", err)
		}
		d.tornTail = false
	}
	if _, err := d.marker.Write(line); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// cutTornLine cuts off whatever follows the journal's last newline, and
// the last whole line too if it is that of a page never saved. It is done
// at the first Record, not when the directory is opened, so that a resume
// refused for its arguments leaves the marker as it found it.
func (d *Dir) cutTornLine() error {
	data, err := d.readJournal()
	if err != nil {
		return err
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	if d.unsaved && whole > 0 {
		whole = bytes.LastIndexByte(data[:whole-1], '\n') + 1
	}
	if whole < len(data) {
		return d.marker.Truncate(int64(whole))
	}
	return nil
}

// Finish empties the marker, as a finished crawl leaves it, and closes the
// directory.
func (d *Dir) Finish() error {
	err := d.marker.Truncate(0)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("emptying %s: %w", Marker, err)
	}
	return nil
}

// Close closes the directory, leaving the journal to resume from.
func (d *Dir) Close() error {
	err := d.marker.Close()
	if rerr := d.root.close(); err == nil {
		err = rerr
	}
	return err
}
