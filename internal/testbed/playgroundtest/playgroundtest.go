// Package playgroundtest gives tests the shared CS50 playground: the copy of
// the course's web site and the course's reference crawls, which live
// beside the project in ../shared/playground and are never copied into it.
//
// When the shared folder is missing, a test that needs it is skipped with a
// message saying so, except under CI (CI=true), where a missing playground
// is a failure: CI must never pass by testing nothing.
package playgroundtest

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// Dir returns the path of the shared playground folder, or skips (fails,
// under CI) the test if there is none.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := find()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared playground is required under CI: %v", err)
		}
		t.Skipf("skipping: the shared playground is not here (%v); put the shared folder beside the project to run this test", err)
	}
	return dir
}

// find looks for ../shared/playground beside the module root, which it
// finds by walking up from the working directory to go.mod.
func find() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dir := filepath.Join(filepath.Dir(d), "shared", "playground")
			if _, err := os.Stat(filepath.Join(dir, "cs50tse-site.tar.gz")); err != nil {
				return "", fmt.Errorf("no %s", filepath.Join(dir, "cs50tse-site.tar.gz"))
			}
			return dir, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no go.mod above the working directory")
		}
	}
}

// The site is 190 MB; it is unpacked once per test binary, however many
// tests ask for it.
var site struct {
	once sync.Once
	fs   fstest.MapFS
	err  error
}

// Site returns the playground's web site, the folder that holds tse/, as an
// in-memory file system.
func Site(t testing.TB) fs.FS {
	t.Helper()
	dir := Dir(t)
	site.once.Do(func() {
		site.fs, site.err = untar(filepath.Join(dir, "cs50tse-site.tar.gz"))
	})
	if site.err != nil {
		t.Fatalf("reading the playground site: %v", site.err)
	}
	return site.fs
}

func untar(name string) (fstest.MapFS, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, wait, err := gunzip(f)
	if err != nil {
		return nil, err
	}
	fsys, err := readTar(zr)
	if err != nil {
		io.Copy(io.Discard, zr) // let gzip finish, or wait would never return
	}
	if werr := wait(); err == nil && werr != nil {
		err = fmt.Errorf("gzip: %w", werr)
	}
	return fsys, err
}

// gunzip decompresses r. It prefers the system's gzip, because compress/
// flate built with the race detector takes ten times as long over the
// site's 43 MB; it falls back to compress/gzip where there is none. The
// caller must call wait once it has read everything.
func gunzip(r io.Reader) (_ io.Reader, wait func() error, _ error) {
	if exe, err := exec.LookPath("gzip"); err == nil {
		cmd := exec.Command(exe, "-dc")
		cmd.Stdin = r
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, nil, err
		}
		return bufio.NewReaderSize(out, 1<<20), cmd.Wait, nil
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(r, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	return zr, func() error { return nil }, nil
}

func readTar(r io.Reader) (fstest.MapFS, error) {
	fsys := make(fstest.MapFS)
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return fsys, nil
		}
		if err != nil {
			return nil, err
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if h.Typeflag != tar.TypeReg || !fs.ValidPath(name) {
			continue
		}
		data := make([]byte, h.Size)
		if _, err := io.ReadFull(tr, data); err != nil {
			return nil, fmt.Errorf("%s: %w", h.Name, err)
		}
		fsys[name] = &fstest.MapFile{Data: data, Mode: 0o444, ModTime: h.ModTime}
	}
}

// A Crawl is one of the course's reference crawls.
type Crawl struct {
	Name     string
	Seed     string
	MaxDepth int
	Pages    int
}

// Crawls returns the reference crawls listed in expected/crawls.tsv.
func Crawls(t testing.TB) []Crawl {
	t.Helper()
	var crawls []Crawl
	for _, f := range readTSV(t, "crawls.tsv") {
		if len(f) != 4 {
			t.Fatalf("crawls.tsv: want 4 fields, got %q", f)
		}
		depth, err1 := strconv.Atoi(f[2])
		pages, err2 := strconv.Atoi(f[3])
		if err := errors.Join(err1, err2); err != nil {
			t.Fatalf("crawls.tsv: %q: %v", f, err)
		}
		crawls = append(crawls, Crawl{Name: f[0], Seed: f[1], MaxDepth: depth, Pages: pages})
	}
	return crawls
}

// A Page is one page of a reference crawl.
type Page struct {
	ID    int
	Depth int
	URL   string
}

// Pages returns the pages of the named reference crawl, in docID order.
func Pages(t testing.TB, name string) []Page {
	t.Helper()
	var pages []Page
	for _, f := range readTSV(t, name+".tsv") {
		if len(f) != 3 {
			t.Fatalf("%s.tsv: want 3 fields, got %q", name, f)
		}
		id, err1 := strconv.Atoi(f[0])
		depth, err2 := strconv.Atoi(f[1])
		if err := errors.Join(err1, err2); err != nil {
			t.Fatalf("%s.tsv: %q: %v", name, f, err)
		}
		pages = append(pages, Page{ID: id, Depth: depth, URL: f[2]})
	}
	return pages
}

// readTSV returns the tab-separated fields of each line of an expected/
// file, skipping blank lines and comments.
func readTSV(t testing.TB, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(t), "expected", name))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}

// Log returns the reference crawler's log of the named crawl, if the
// playground has one (expected/NAME.log).
func Log(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(t), "expected", name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Body returns the bytes a server of fsys sends for rawURL: the file its
// percent-decoded path names, or the index.html of a directory.
func Body(fsys fs.FS, rawURL string) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	return fs.ReadFile(fsys, name)
}
