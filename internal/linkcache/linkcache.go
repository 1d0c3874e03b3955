// Package linkcache keeps the outcomes of links outside a link check's
// scope between checks, in a file that -check-cache names, so that a check
// run every hour does not ask every other site every hour.
//
// The file is a JSON object, versioned, with an entry for each URL: its
// status and when it was asked. A link found fine (a 2xx, at the end of
// its redirects) less than the cache's age ago is taken as fine without
// a request; any other outcome is kept too, but never trusted.
//
// The file is written as outcomes become known, so that a check stopped
// half way, by Ctrl-C or kill -9, keeps what it learned: all of it, or
// at a kill, all but the last outcomes, about one for each [batchShare]
// entries the file holds (twice that while a write is under way), which
// the next check asks again. Waiting for those keeps the cost of writing
// a file replaced whole linear in its size: one write for each outcome
// would cost ten thousand links gigabytes of writing. It is only ever
// replaced whole: written under a temporary name beside it and renamed
// over it, so that a crawler killed at any moment leaves a whole file.
// Each write takes up the last, unless another crawler wrote the file
// meanwhile, and only the last is synced: one torn by the machine's own
// stop is set aside like any other. A file that does not parse, or is
// not one of ours, is renamed aside, never overwritten nor removed, with
// a warning, and the check goes on as if there were none. Nothing is written through a symbolic
// link: one at the file's name is refused. Several crawlers may share the
// file: each reads, merges and writes it holding the flock of a sibling
// file, FILE.lock, which stays (removing it would let two crawlers lock
// two files); the merge keeps the newer of two outcomes of a URL, so that
// what another run learned meanwhile is kept.
package linkcache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tse-crawler/internal/filelock"
)

// The file's format and version, which a file must name to be read.
const (
	Format  = "tse-crawler link cache"
	Version = 1
)

// keep is how long an entry is kept, unless the cache's age is longer:
// older, it is dropped when the file is written, so that links no page
// holds any more do not stay for good.
const keep = 30 * 24 * time.Hour

// skew is the most that the clocks of two crawlers sharing a file are
// taken to differ by.
const skew = 24 * time.Hour

// lockPoll is how often a crawler waiting for another's lock tries again:
// the other holds it only while it reads or writes the file.
const lockPoll = 20 * time.Millisecond

// An Entry is what became of one URL when it was asked.
type Entry struct {
	URL     string    `json:"url"`
	Status  string    `json:"status"` // an HTTP status, such as "200", or a reason, such as "timeout"
	Checked time.Time `json:"checked"`
	// Stylesheet says the answer was a stylesheet, and Imports, if it
	// was read for what it imports, what that is, [] for nothing: a page
	// that needs the stylesheet needs them checked too, so a stylesheet
	// not read is asked again for one.
	Stylesheet bool      `json:"stylesheet,omitempty"`
	Imports    *[]Import `json:"imports,omitempty"`
}

// An Import is a URL a stylesheet refers to, and where.
type Import struct {
	URL    string `json:"url"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// Fine says whether an outcome is one a later check may take without a
// request: a 2xx.
func Fine(status string) bool {
	n, err := strconv.Atoi(status)
	return err == nil && n >= 200 && n < 300 && len(status) == 3
}

// The file, as JSON.
type file struct {
	Format  string  `json:"format"`
	Version int     `json:"version"`
	Links   []Entry `json:"links"`
}

// A Cache is the outcomes a file holds, and those a check learns. Its
// methods are safe for concurrent use.
type Cache struct {
	path   string
	maxAge time.Duration
	now    func() time.Time
	warn   func(msg string)

	mu      sync.Mutex
	read    map[string]Entry // as Load found them
	learned map[string]Entry // by Put
	// fresh are the entries Put learned that the file does not hold yet;
	// writing says one Put, or Flush, is writing the file, which writes
	// it again, once done, with what others put meanwhile; idle is told
	// when it is done.
	fresh   []Entry
	held    int // entries the file held as last written
	writes  int // times the file was written, for tests of the cost
	writing bool
	idle    *sync.Cond
	err     error // the first error of writing, told once

	// What the file holds as this cache last wrote it, which the next
	// write takes up with what is fresh, unless another crawler wrote the
	// file meanwhile. Only the one writing uses them.
	disk  map[string]Entry
	lines map[string][]byte // each entry of disk as JSON
	keys  []string          // of disk, sorted
	wrote fs.FileInfo       // the file written, or nil
}

// New returns the cache of the file at path, which Load reads: entries
// found fine less than maxAge ago, by now, are trusted. warn is told of
// a file set aside, and of one that cannot be written. New checks that
// the file can be read and written (a regular file, or none yet, in a
// directory where FILE.lock can be made), so that a bad path is told
// before a check begins.
func New(path string, maxAge time.Duration, now func() time.Time, warn func(msg string)) (*Cache, error) {
	if fi, err := os.Lstat(path); err == nil {
		if err := checkRegular(path, fi); err != nil {
			return nil, err
		}
		f, err := openFile(path)
		if err != nil {
			return nil, err
		}
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	lock, err := openLock(path)
	if err != nil {
		return nil, err
	}
	lock.Close()
	c := &Cache{path: path, maxAge: maxAge, now: now, warn: warn, read: map[string]Entry{}, learned: map[string]Entry{}}
	c.idle = sync.NewCond(&c.mu)
	return c, nil
}

// checkRegular refuses anything at path but a regular file, and says what
// to give instead.
func checkRegular(path string, fi fs.FileInfo) error {
	switch mode := fi.Mode(); {
	case mode.IsRegular():
		return nil
	case mode&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, which the cache is never written through: give the file it links to, or another name", path)
	default:
		return fmt.Errorf("%s is not a regular file (%v): give the name of a file, which is replaced whole", path, mode.Type())
	}
}

// openFile opens the regular file at path for reading, never through a
// symbolic link.
func openFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow|oNonblock, 0)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && checkRegular(path, fi) != nil {
			return nil, checkRegular(path, fi)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openLock opens FILE.lock, the file whose flock is the file's, making it
// if need be, never through a symbolic link.
func openLock(path string) (*os.File, error) {
	name := path + ".lock"
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		what := "not a regular file"
		if fi.Mode()&fs.ModeSymlink != 0 {
			what = "a symbolic link, which a check never writes through"
		}
		return nil, fmt.Errorf("%s, the lock of %s, is %s: remove it, and the next check makes it anew", name, path, what)
	}
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|oNoFollow|oNonblock, 0o666)
}

// Load reads the file, holding its lock, which it waits for while ctx
// lets it, and removes what a crawler killed while it wrote the file
// left. A file that is not the cache's is set aside, and Load returns
// nil: the check goes on with no entries.
func (c *Cache) Load(ctx context.Context) error {
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	c.removeLeft()
	entries, err := c.readFile("this check asks every link again")
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.read = entries
	c.mu.Unlock()
	return nil
}

// Fine returns the entry of u if it may be taken without a request: a
// fine one, asked less than the cache's age ago.
func (c *Cache) Fine(u string) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.read[u]
	if !ok || !Fine(e.Status) {
		return Entry{}, false
	}
	age := c.now().Sub(e.Checked)
	return e, age >= 0 && age < c.maxAge
}

// Put notes what came of asking e.URL, now, and writes the file once a
// batch of outcomes is waiting (see batchShare), unless another Put is
// writing it, which then writes it again if a batch waits: a batch is in
// the file by the time the Put that wrote it returns, so that a crawler
// killed then keeps it; fewer wait for a later Put, or Flush. A file
// that cannot be written is told once, and written again by the next
// Put, or Flush.
func (c *Cache) Put(ctx context.Context, e Entry) {
	e.Checked = c.now().UTC().Truncate(time.Second)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.learned[e.URL] = e
	c.fresh = append(c.fresh, e)
	if c.writing || len(c.fresh) < c.batch() {
		return
	}
	if err := c.drain(ctx, false); err != nil && c.err == nil && ctx.Err() == nil {
		c.err = err
		c.warn(fmt.Sprintf("-check-cache: cannot write %s: %v; the check goes on, and what it learns is written at its end if it can be", c.path, err))
	}
}

// Flush writes the file once more, synced, if Put learned anything, and
// returns the error of writing it. A check calls it once done, or
// stopped, with a ctx of its own, since Put gives up once the check's is
// done.
func (c *Cache) Flush(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.writing {
		c.idle.Wait()
	}
	if len(c.learned) == 0 {
		return nil
	}
	if err := c.drain(ctx, true); err != nil {
		return fmt.Errorf("-check-cache: cannot write %s: %w: what this check learned is lost, and the next check asks it again", c.path, err)
	}
	return nil
}

// batchShare is how many entries of the file each outcome not yet
// written may stand for: Put writes the file once the outcomes waiting
// are as many as a batchShare-th of the entries it holds, or one.
const batchShare = 50

// batch is how many outcomes Put waits for before it writes. c.mu is
// held.
func (c *Cache) batch() int { return 1 + c.held/batchShare }

// drain writes the file, c.mu held, as the one writer, until the entries
// Put learned that it does not hold are fewer than a batch, or, if sync,
// until it holds every one, and syncs it.
func (c *Cache) drain(ctx context.Context, sync bool) error {
	c.writing = true
	defer func() {
		c.writing = false
		c.idle.Broadcast()
	}()
	for {
		fresh := c.fresh
		c.fresh = nil
		c.mu.Unlock()
		err := c.save(ctx, fresh, sync)
		c.mu.Lock()
		if err != nil {
			c.fresh = append(fresh, c.fresh...)
			c.wrote = nil // read again, and everything merged, next time
			return err
		}
		c.held = len(c.disk)
		c.writes++
		if len(c.fresh) == 0 || !sync && len(c.fresh) < c.batch() {
			return nil
		}
	}
}

// save writes the file, holding its lock, which it waits for while ctx
// lets it, and syncs it if sync: what it held as this cache last wrote
// it, with fresh; or if another crawler wrote it meanwhile, or this
// cache never did, the entries it holds now, those Load read and those
// Put learned, the newer of two for a URL, less those older than the
// cache keeps.
func (c *Cache) save(ctx context.Context, fresh []Entry, sync bool) error {
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	// An entry dated further ahead than any clock of a crawler sharing
	// the file is wrong: it would win every merge, and stay.
	future := c.now().Add(skew)
	if fi, err := os.Lstat(c.path); err != nil || c.wrote == nil || !os.SameFile(fi, c.wrote) ||
		fi.Size() != c.wrote.Size() || !fi.ModTime().Equal(c.wrote.ModTime()) {
		entries, err := c.readFile("what this check learned replaces it")
		if err != nil {
			return err
		}
		c.mu.Lock()
		for _, from := range []map[string]Entry{c.read, c.learned} {
			for u, e := range from {
				if e.Checked.After(future) {
					continue // Load's, wrong: another's outcome must not lose to it
				}
				if old, ok := entries[u]; !ok || !old.Checked.After(e.Checked) || old.Checked.After(future) {
					entries[u] = e
				}
			}
		}
		c.mu.Unlock()
		horizon := c.now().Add(-max(keep, c.maxAge))
		c.disk, c.lines, c.keys = make(map[string]Entry), make(map[string][]byte), nil
		for _, e := range entries {
			if !e.Checked.Before(horizon) && !e.Checked.After(future) {
				c.set(e)
			}
		}
	} else {
		for _, e := range fresh {
			if old, ok := c.disk[e.URL]; !ok || !old.Checked.After(e.Checked) || old.Checked.After(future) {
				c.set(e)
			}
		}
	}
	fi, err := c.replace(c.encode(), sync)
	c.wrote = fi
	return err
}

// set puts e in what the file holds.
func (c *Cache) set(e Entry) {
	line, err := json.Marshal(e)
	if err != nil {
		return // a time out of JSON's range: not kept
	}
	if _, ok := c.disk[e.URL]; !ok {
		i, _ := slices.BinarySearch(c.keys, e.URL)
		c.keys = slices.Insert(c.keys, i, e.URL)
	}
	c.disk[e.URL] = e
	c.lines[e.URL] = line
}

// encode returns the file: JSON, with a line for each link, sorted, so
// that a person can read it and grep it.
func (c *Cache) encode() []byte {
	n := 100
	for _, l := range c.lines {
		n += len(l) + 2
	}
	b := make([]byte, 0, n)
	b = fmt.Appendf(b, "{\"format\": %q, \"version\": %d, \"links\": [", Format, Version)
	for i, u := range c.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, c.lines[u]...)
	}
	return append(b, "\n]}\n"...)
}

// lock takes the file's lock, waiting while another crawler holds it and
// ctx lets it, and returns how to release it. Where there is no flock, it
// goes on without, as crawls do.
func (c *Cache) lock(ctx context.Context) (unlock func(), err error) {
	f, err := openLock(c.path)
	if err != nil {
		return nil, err
	}
	name := "link cache " + c.path
	for {
		err := filelock.LockFile(f, name)
		if err == nil || errors.Is(err, errors.ErrUnsupported) {
			return func() { f.Close() }, nil
		}
		if _, busy := errors.AsType[*filelock.BusyError](err); !busy {
			f.Close()
			return nil, err
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, fmt.Errorf("%w (%w)", err, context.Cause(ctx))
		case <-t.C:
		}
	}
}

// readFile reads the file's entries, under its lock: none if there is no
// file, or if it is not the cache's, which is then set aside with a
// warning that ends saying what comes of it, then.
func (c *Cache) readFile(then string) (map[string]Entry, error) {
	entries := make(map[string]Entry)
	f, err := openFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return entries, nil
	}
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	parsed, why := parse(data)
	if why != "" {
		aside, err := setAside(c.path)
		if err != nil {
			return nil, fmt.Errorf("%s %s, and could not be set aside: %w: move it away", c.path, why, err)
		}
		c.warn(fmt.Sprintf("-check-cache %s %s: set aside as %s, not trusted, and %s; look into %s, then remove it", c.path, why, aside, then, aside))
		return entries, nil
	}
	for _, e := range parsed.Links {
		if old, ok := entries[e.URL]; !ok || e.Checked.After(old.Checked) {
			entries[e.URL] = e
		}
	}
	return entries, nil
}

// parse reads a file's data, or says why it is no cache of ours.
func parse(data []byte) (*file, string) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Sprintf("is not a link cache, or was cut short (%v)", err)
	}
	if f.Format != Format {
		return nil, fmt.Sprintf("is not a link cache of this crawler (its format is %q, not %q)", f.Format, Format)
	}
	if f.Version != Version {
		return nil, fmt.Sprintf("is a link cache of version %d, which this crawler, of version %d, does not read", f.Version, Version)
	}
	for i, e := range f.Links {
		if e.URL == "" || e.Status == "" || e.Checked.IsZero() {
			return nil, fmt.Sprintf("has a link, number %d, without its url, status or time", i+1)
		}
	}
	return &f, ""
}

// setAside renames the file at path to path.bad, or path.bad.1 and so on,
// never over a file, and returns its new name.
func setAside(path string) (string, error) {
	for i := range 100 {
		aside := path + ".bad"
		if i > 0 {
			aside += "." + strconv.Itoa(i)
		}
		// A hard link fails on a name that exists, as a rename does not.
		err := os.Link(path, aside)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// No hard links here: a check, then a rename.
			if _, lerr := os.Lstat(aside); lerr == nil {
				continue
			}
			err = os.Rename(path, aside)
		} else {
			err = os.Remove(path) // its data stays, under the new name
		}
		return aside, err
	}
	return "", fmt.Errorf("%s.bad to %s.bad.99 are all taken", path, path)
}

// tempInfix names the file being written, beside the file, as
// ".FILE.tmp-123", as the crawl names the temporary files of its other
// outputs.
const tempInfix = ".tmp-"

// replace replaces the file with one that holds data, under the lock:
// written under a temporary name beside it, with the file's mode, synced
// if sync, and renamed over it; it returns what was written, or nil. The
// exclusive create fails on any name that exists, a link included, so it
// never writes through one. A file not synced is whole all the same
// unless the machine itself stops, and one torn then is set aside.
func (c *Cache) replace(data []byte, sync bool) (fs.FileInfo, error) {
	dir, base := filepath.Split(c.path)
	var tmp *os.File
	var err error
	for range 100 {
		name := filepath.Join(dir, "."+base+tempInfix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if tmp, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	_, err = tmp.Write(data)
	if fi, serr := os.Lstat(c.path); serr == nil && err == nil {
		if err = checkRegular(c.path, fi); err == nil {
			err = tmp.Chmod(fi.Mode().Perm()) // the user's, if they changed it
		}
	}
	if err == nil && sync {
		err = tmp.Sync()
	}
	var fi fs.FileInfo
	if err == nil {
		fi, err = tmp.Stat()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path)
	}
	if err != nil {
		os.Remove(tmp.Name()) // made above
		return nil, err
	}
	return fi, nil
}

// removeLeft removes, under the lock, the regular files beside the file
// named as replace names them: no crawler is writing one, so they are
// what a crawler killed while it wrote left.
func (c *Cache) removeLeft() {
	dir, base := filepath.Split(c.path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		digits, ok := strings.CutPrefix(e.Name(), "."+base+tempInfix)
		if ok && digits != "" && len(digits) <= 10 && strings.Trim(digits, "0123456789") == "" && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
