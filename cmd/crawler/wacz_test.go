package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// openWACZ opens the package at path, checks that it holds the files a
// WACZ package does, and that the WARC file it made it from is gone; it
// writes the package's WARC file to a file of its own, and returns the
// path of that file and the lines of pages.jsonl.
func openWACZ(t *testing.T, path string) (warcFile string, pages []string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := make(map[string][]byte)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	for _, name := range []string{"archive/data.warc.gz", "indexes/index.cdxj", "pages/pages.jsonl", "datapackage.json", "datapackage-digest.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("%s has no %s", path, name)
		}
	}
	if _, err := os.Lstat(path + ".warc.gz"); err == nil {
		t.Errorf("%s.warc.gz is left beside the package", path)
	}
	warcFile = filepath.Join(t.TempDir(), "data.warc.gz")
	if err := os.WriteFile(warcFile, files["archive/data.warc.gz"], 0o666); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(files["pages/pages.jsonl"]))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Errorf("pages.jsonl: %q: %v", sc.Text(), err)
		}
		pages = append(pages, sc.Text())
	}
	if len(pages) == 0 {
		t.Fatalf("%s: pages.jsonl is empty", path)
	}
	return warcFile, pages[1:]
}

// TestWACZ crawls the zoo with -warc x.wacz: the package opens, its WARC
// file holds each saved page once, and pages.jsonl has a line for each.
func TestWACZ(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "x.wacz")
	if code, _, stderr := crawl(t.Context(), proxyEnv(p.URL), "-q", "-delay", "0", "-warc", out, zooSeed, dir, "3"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	warcFile, pages := openWACZ(t, out)
	checkPagesArchived(t, dir, checkWARC(t, warcFile))
	saved := readPages(t, dir)
	if len(pages) != len(saved) {
		t.Errorf("pages.jsonl has %d pages, the crawl saved %d", len(pages), len(saved))
	}
	for _, pg := range saved {
		want := fmt.Sprintf(`{"url":%q,`, pg.url)
		if !slices.ContainsFunc(pages, func(l string) bool { return bytes.HasPrefix([]byte(l), []byte(want)) }) {
			t.Errorf("pages.jsonl has no line for %s", pg.url)
		}
	}

	// A new crawl refuses the package, and the WARC file beside it.
	for _, taken := range []string{out, filepath.Join(t.TempDir(), "y.wacz")} {
		if taken != out {
			os.WriteFile(taken+".warc.gz", nil, 0o666)
		}
		if code, _, _ := crawl(t.Context(), proxyEnv(p.URL), "-q", "-delay", "0", "-warc", taken, zooSeed, t.TempDir(), "3"); code != 2 {
			t.Errorf("-warc %s, taken: exit %d, want 2", taken, code)
		}
	}
}

// records returns the type and target URI of each request and response
// record of a WARC file, sorted; robots.txt once, which each run of a
// crawl that resumes fetches again, as a new exchange.
func records(t *testing.T, path string) []string {
	t.Helper()
	var recs []string
	for _, r := range warcRecords(t, path) {
		if typ := r.fields["warc-type"]; typ != "warcinfo" {
			recs = append(recs, typ+" "+r.fields["warc-target-uri"])
		}
	}
	slices.Sort(recs)
	return slices.CompactFunc(recs, func(a, b string) bool { return a == b && strings.HasSuffix(a, "/robots.txt") })
}

// TestWACZResume stops a crawl with -warc x.wacz at every request, and
// resumes it: the package's WARC file holds the records of an
// uninterrupted crawl, each once.
func TestWACZResume(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	args := []string{"-q", "-delay", "0", zooSeed, "3"}
	whole := filepath.Join(t.TempDir(), "whole.warc.gz")
	_, steps := uninterrupted(t, p, append([]string{"-warc", whole}, args...))
	want := records(t, whole)
	for step := int64(1); step <= steps; step++ {
		t.Run(fmt.Sprint("request ", step), func(t *testing.T) {
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), "x.wacz")
			args := append([]string{"-warc", out}, args...)
			if code, _, _ := interruptAt(t, p, withDir(args, dir), step, true); code == exitOK {
				return
			}
			if _, err := os.Lstat(out); err == nil {
				t.Errorf("a crawl stopped short made %s", out)
			}
			if code, _, stderr := crawl(t.Context(), p.getenv, withDir(append([]string{"-resume"}, args...), dir)...); code != exitOK {
				t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
			}
			warcFile, pages := openWACZ(t, out)
			checkPagesArchived(t, dir, checkWARC(t, warcFile))
			if got := records(t, warcFile); !slices.Equal(got, want) {
				t.Errorf("records:\n%q\nwant:\n%q", got, want)
			}
			if len(pages) != len(readPages(t, dir)) {
				t.Errorf("pages.jsonl has %d pages, the crawl saved %d", len(pages), len(readPages(t, dir)))
			}
		})
	}
}
