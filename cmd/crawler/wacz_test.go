package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
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
	// Sorted as LC_ALL=C sort sorts, byte by byte, for readers' binary
	// search.
	if index := strings.Split(string(files["indexes/index.cdxj"]), "\n"); !slices.IsSorted(index[:len(index)-1]) {
		t.Errorf("%s: index.cdxj is not sorted by bytes:\n%s", path, files["indexes/index.cdxj"])
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

// jsonlSite serves pages under /tse/jsonl/ whose URLs and Content-Types
// a crawl saves, and pages.jsonl once left out: a path holding a raw é
// and a backslash, a query holding both, a page with no Content-Type,
// which the crawler sniffs, and an XHTML page.
func jsonlSite() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := "<!DOCTYPE html>\n<html><head><title>" + html.EscapeString(r.URL.Path) + "</title></head><body><p>a page</p></body></html>\n"
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
			return
		case "/tse/jsonl/index.html":
			body = "<!DOCTYPE html>\n<html><head><title>index</title></head><body>\n" +
				"<a href=\"caf\xc3\xa9.html\">1</a> <a href=\"a\\b.html\">2</a> <a href=\"q.html?x\\y\">3</a> " +
				"<a href=\"q.html?caf\xc3\xa9\">4</a> <a href=\"none.html\">5</a> <a href=\"xhtml.html\">6</a> <a href=\"plain.html\">7</a>\n</body></html>\n"
		case "/tse/jsonl/none.html":
			w.Header()["Content-Type"] = nil // nor one net/http sniffs
			io.WriteString(w, body)
			return
		case "/tse/jsonl/xhtml.html":
			w.Header().Set("Content-Type", "application/xhtml+xml")
			body = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>xhtml</title></head><body><p>a page</p></body></html>` + "\n"
			io.WriteString(w, body)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	})
}

// TestWACZPagesListed: pages.jsonl has a line for every page the crawl
// saved, in either mode, whatever bytes its URL holds and whatever
// Content-Type its response has, and each line names the page as its
// record does, as it went on the wire.
func TestWACZPagesListed(t *testing.T) {
	t.Parallel()
	for _, links := range []string{"reference", "html"} {
		t.Run(links, func(t *testing.T) {
			t.Parallel()
			p := newTargetProxy(t, jsonlSite())
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), "x.wacz")
			code, _, stderr := crawl(t.Context(), proxyEnv(p.URL), "-q", "-delay", "0", "-links", links, "-warc", out, "http://cs50tse.cs.dartmouth.edu/tse/jsonl/index.html", dir, "1")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			warcFile, lines := openWACZ(t, out)
			checkWARC(t, warcFile)
			saved := readPages(t, dir)
			if len(saved) < 8 {
				for _, pg := range saved {
					t.Log(pg.url)
				}
				t.Fatalf("the crawl saved %d pages, want 8: the case tests less than it should", len(saved))
			}
			listed := make(map[string]int)
			for _, l := range lines {
				var pg struct{ URL string }
				json.Unmarshal([]byte(l), &pg)
				listed[pg.URL]++
			}
			for _, pg := range saved {
				if uri := wireURI(t, pg.url); listed[uri] != 1 {
					t.Errorf("pages.jsonl lists page %d, %q, %d times as %s, want once:\n%s", pg.id, pg.url, listed[uri], uri, strings.Join(lines, "\n"))
				}
			}
			if len(lines) != len(saved) {
				t.Errorf("pages.jsonl has %d pages, the crawl saved %d", len(lines), len(saved))
			}
		})
	}
}

// TestWARCSuffixCase: -warc's suffix is read in any case: X.WACZ is a
// package, X.WARC.GZ a gzipped WARC file, X.WARC a plain one.
func TestWARCSuffixCase(t *testing.T) {
	t.Parallel()
	p := newProxy(t, testdataSite(t))
	tests := []struct {
		name string
		want []byte // what the file begins with
	}{
		{"X.WACZ", []byte("PK\x03\x04")},
		{"x.Wacz", []byte("PK\x03\x04")},
		{"X.WARC.GZ", []byte{0x1f, 0x8b}},
		{"X.WARC", []byte("WARC/1.1\r\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), tc.name)
			if code, _, stderr := crawl(t.Context(), proxyEnv(p.URL), "-q", "-delay", "0", "-warc", out, zooSeed, dir, "1"); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(data, tc.want) {
				t.Fatalf("%s begins %q, want %q", tc.name, data[:min(len(data), 10)], tc.want)
			}
			if bytes.HasPrefix(tc.want, []byte("PK")) {
				warcFile, pages := openWACZ(t, out)
				checkPagesArchived(t, dir, checkWARC(t, warcFile))
				if len(pages) != len(readPages(t, dir)) {
					t.Errorf("pages.jsonl has %d pages, the crawl saved %d", len(pages), len(readPages(t, dir)))
				}
			}
		})
	}
}

// TestWACZFilename: the warcinfo records in a package's WARC file, that
// of the run that began the crawl and that of the run that resumed it,
// name the file as the package holds it, data.warc.gz, not the file the
// crawl wrote beside the package; a WARC file of its own is named by its
// own name.
func TestWACZFilename(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range []struct{ file, want string }{{"x.wacz", "data.warc.gz"}, {"x.warc.gz", "x.warc.gz"}} {
		t.Run(tc.file, func(t *testing.T) {
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), tc.file)
			args := withDir([]string{"-q", "-delay", "0", "-warc", out, zooSeed, "3"}, dir)
			if code, _, _ := interruptAt(t, p, args, 4, false); code != 130 {
				t.Fatalf("interrupted crawl: exit %d, want 130", code)
			}
			if code, _, stderr := crawl(t.Context(), p.getenv, append([]string{"-resume"}, args...)...); code != exitOK {
				t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
			}
			warcFile := out
			if strings.HasSuffix(out, ".wacz") {
				warcFile, _ = openWACZ(t, out)
			}
			infos := 0
			for _, r := range warcRecords(t, warcFile) {
				if r.fields["warc-type"] != "warcinfo" {
					continue
				}
				infos++
				if got := r.fields["warc-filename"]; got != tc.want {
					t.Errorf("warcinfo record %d: WARC-Filename %q, want %q", infos, got, tc.want)
				}
			}
			if infos != 2 {
				t.Errorf("%d warcinfo records, want one for each run", infos)
			}
		})
	}
}

// TestResumeRemovesTorn: the temporary files a crawl killed while it
// wrote its outputs leaves beside them, a package, a -graph or
// -stats-json file half written, or a response spooled for its record,
// are gone once the crawl is resumed and finished; files named otherwise
// are left as they are.
func TestResumeRemovesTorn(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	tests := []struct {
		warc string
		torn []string // named as the crawl names its temporary files
	}{
		{"x.wacz", []string{".x.wacz.1234567890.tmp", ".x.wacz.7.tmp", ".links.csv.tmp-42", ".stats.json.tmp-3141592653", ".x.wacz.warc.gz.spool-99"}},
		{"x.warc.gz", []string{".links.csv.tmp-42", ".x.warc.gz.spool-99"}},
	}
	// Not the crawl's to remove: another output's, a name that only
	// looks like one, the last crawler's shared spool name.
	others := []string{".y.wacz.1234.tmp", ".x.wacz.12a4.tmp", ".x.wacz.1234.tmp.keep", "x.wacz.1234.tmp", ".links.csv.tmp-", ".links.csv.tmp-1x", ".crawler-spool-12"}
	for _, tc := range tests {
		t.Run(tc.warc, func(t *testing.T) {
			dir, outDir := t.TempDir(), t.TempDir()
			out := func(name string) string { return filepath.Join(outDir, name) }
			args := withDir([]string{"-q", "-delay", "0", "-warc", out(tc.warc), "-graph", out("links.csv"), "-stats-json", out("stats.json"), zooSeed, "3"}, dir)
			if code, _, _ := interruptAt(t, p, args, 4, false); code != 130 {
				t.Fatalf("interrupted crawl: exit %d, want 130", code)
			}
			for _, name := range append(slices.Clone(tc.torn), others...) {
				if err := os.WriteFile(out(name), []byte("PK\x03\x04torn"), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			code, _, stderr := crawl(t.Context(), p.getenv, append([]string{"-resume"}, args...)...)
			if code != exitOK {
				t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
			}
			if strings.HasSuffix(tc.warc, ".wacz") {
				openWACZ(t, out(tc.warc))
			}
			for _, name := range tc.torn {
				if _, err := os.Lstat(out(name)); err == nil {
					t.Errorf("%s is left", name)
				}
			}
			for _, name := range others {
				if _, err := os.Lstat(out(name)); err != nil {
					t.Errorf("%s, not the crawl's, is gone: %v", name, err)
				}
			}
		})
	}
}
