package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// A changingSite is a site held in memory, which a test changes between
// crawls, at http://site.test/ through a proxy. Each file is served with
// an ETag and a Last-Modified, and a conditional request is answered as
// http.ServeContent answers it, but for the paths in ignore, which are
// sent whole whatever the request asks, as some servers do.
type changingSite struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string]string    // by path
	modified map[string]time.Time // by path
	ignore   map[string]bool

	requests, conditional, notModified atomic.Int64
}

const siteRoot = "http://site.test/"

// newChangingSite serves an index, twelve pages it links to, each with
// an image, and a page whose server ignores validators.
func newChangingSite(t *testing.T) *changingSite {
	s := &changingSite{files: make(map[string]string), modified: make(map[string]time.Time), ignore: map[string]bool{"/static.html": true}}
	var index strings.Builder
	index.WriteString("<html><body>\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&index, "<a href=\"p%d.html\">page %d</a>\n", i, i)
		s.set(fmt.Sprintf("/p%d.html", i), fmt.Sprintf("<html><body><p>page %d</p><img src=\"img/%d.png\"><a href=\"index.html\">home</a></body></html>\n", i, i))
		s.set(fmt.Sprintf("/img/%d.png", i), fmt.Sprintf("\x89PNG\r\n\x1a\nimage %d", i))
	}
	index.WriteString("<a href=\"static.html\">static</a>\n</body></html>\n")
	s.set("/index.html", index.String())
	s.set("/static.html", "<html><body>the same every time</body></html>\n")
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// set puts a file on the site, modified a day after the last change.
func (s *changingSite) set(path, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = content
	s.modified[path] = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(len(s.modified)+1) * 24 * time.Hour)
}

func (s *changingSite) remove(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.files, path)
}

func (s *changingSite) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.mu.Lock()
	content, ok := s.files[r.URL.Path]
	modified := s.modified[r.URL.Path]
	ignore := s.ignore[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
		s.conditional.Add(1)
	}
	if ignore {
		r.Header.Del("If-None-Match")
		r.Header.Del("If-Modified-Since")
	}
	w.Header().Set("ETag", fmt.Sprintf(`"%x"`, sha1.Sum([]byte(content))))
	if strings.HasSuffix(r.URL.Path, ".html") {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	} else {
		w.Header().Set("Content-Type", "image/png")
	}
	rec := &statusRecorder{ResponseWriter: w}
	http.ServeContent(rec, r, r.URL.Path, modified, strings.NewReader(content))
	if rec.code == http.StatusNotModified {
		s.notModified.Add(1)
	}
}

// counts returns the site's request counters, and sets them to zero.
func (s *changingSite) counts() (requests, conditional, notModified int64) {
	return s.requests.Swap(0), s.conditional.Swap(0), s.notModified.Swap(0)
}

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.code = code
	r.ResponseWriter.WriteHeader(code)
}

// checkRevisit checks the revisit record resp, record i, the answer to
// req: a 304's, of the server-not-modified profile, with no block and no
// payload digest, or a 200's whose payload is the earlier record's, of
// the identical-payload-digest profile, with its head alone. Both name
// the earlier record.
func checkRevisit(t *testing.T, i int, resp warcRecord, req *http.Request) warcCapture {
	t.Helper()
	uri := resp.fields["warc-target-uri"]
	target, date := resp.fields["warc-refers-to-target-uri"], resp.fields["warc-refers-to-date"]
	if target == "" || date == "" {
		t.Errorf("revisit %d (%s) names no earlier record: %v", i, uri, resp.fields)
	}
	c := warcCapture{uri: uri, revisit: target}
	switch profile := resp.fields["warc-profile"]; profile {
	case "http://netpreserve.org/warc/1.1/revisit/server-not-modified":
		if len(resp.block) != 0 || resp.fields["warc-payload-digest"] != "" {
			t.Errorf("revisit %d (%s), not modified, has a block of %d bytes or a payload digest", i, uri, len(resp.block))
		}
		c.status = http.StatusNotModified
	case "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest":
		res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(resp.block)), req)
		if err != nil || resp.fields["warc-truncated"] != "length" || resp.fields["warc-payload-digest"] == "" {
			t.Fatalf("revisit %d (%s), identical payload: %v; fields %v", i, uri, err, resp.fields)
		}
		c.status = res.StatusCode
	default:
		t.Errorf("revisit %d (%s) has the profile %q", i, uri, profile)
	}
	return c
}

// responseIDs returns the WARC-Record-ID and WARC-Date of each response
// record in the WARC file at path, by its target URI.
func responseIDs(t *testing.T, path string) map[string][2]string {
	t.Helper()
	ids := make(map[string][2]string)
	for _, r := range warcRecords(t, path) {
		if r.fields["warc-type"] == "response" {
			ids[r.fields["warc-target-uri"]] = [2]string{r.fields["warc-record-id"], r.fields["warc-date"]}
		}
	}
	return ids
}

// revisitsOf returns the revisit records of the WARC file at path by
// target URI.
func revisitsOf(t *testing.T, path string) map[string]warcRecord {
	t.Helper()
	revisits := make(map[string]warcRecord)
	for _, r := range warcRecords(t, path) {
		if r.fields["warc-type"] == "revisit" {
			revisits[r.fields["warc-target-uri"]] = r
		}
	}
	return revisits
}

// warcOf returns the WARC file of a crawl's -warc output: the file
// itself, or a package's data.warc.gz.
func warcOf(t *testing.T, out string) string {
	t.Helper()
	if strings.HasSuffix(out, ".wacz") {
		file, _ := openWACZ(t, out)
		return file
	}
	return out
}

// TestSince crawls a site, then again with -since the first crawl's
// archive, as a package, a .warc.gz and a .warc: every page and image is
// asked for with its validators, every one comes back 304, and the page
// directory and the log are the first crawl's, byte for byte; the new
// archive holds a revisit record for each, naming the earlier record.
// Then the site changes: two pages change, one goes, one is added, and a
// crawl with -since both earlier archives saves and logs what a fresh
// crawl of the changed site does, records the changed and new pages
// whole and the gone one as its 404, and revisits the rest, each revisit
// naming the first crawl's record, which holds the payload.
func TestSince(t *testing.T) {
	for _, ext := range []string{".wacz", ".warc.gz", ".warc"} {
		t.Run(ext, func(t *testing.T) {
			site := newChangingSite(t)
			env := proxyEnv(site.URL)
			tmp := t.TempDir()
			crawlTo := func(name string, extra ...string) (dir, out, stdout, stderr string) {
				t.Helper()
				dir, out = filepath.Join(tmp, name), filepath.Join(tmp, name+ext)
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				args := append([]string{"-delay", "0", "-scope", siteRoot, "-warc", out}, extra...)
				code, stdout, stderr := crawl(t.Context(), env, append(args, siteRoot+"index.html", dir, "2")...)
				if code != exitOK {
					t.Fatalf("%s: exit %d: %s", name, code, stderr)
				}
				return dir, out, stdout, stderr
			}

			dir1, out1, log1, _ := crawlTo("first")
			site.counts()
			dir2, out2, log2, stderr2 := crawlTo("second", "-since", out1)
			requests, conditional, notModified := site.counts()
			if !strings.Contains(stderr2, "crawler: -since: 26 URLs to revalidate\n") {
				t.Errorf("stderr does not say how many URLs -since revalidates:\n%s", stderr2)
			}
			if diff := sameDir(snapshot(t, dir2), snapshot(t, dir1)); diff != "" {
				t.Errorf("the crawl with -since saved other pages: %s", diff)
			}
			if log2 != log1 {
				t.Errorf("the crawl with -since logged\n%s\nthe first crawl\n%s", log2, log1)
			}
			// robots.txt, a 404, is asked whole; the 26 pages and images
			// are asked with their validators, and all but the page whose
			// server ignores them are not modified.
			if requests != 27 || conditional != 26 || notModified != 25 {
				t.Errorf("the second crawl made %d requests, %d conditional, %d not modified; want 27, 26, 25", requests, conditional, notModified)
			}
			warc1, warc2 := warcOf(t, out1), warcOf(t, out2)
			earlierIDs := responseIDs(t, warc1)
			caps := checkWARC(t, warc2)
			revisits := revisitsOf(t, warc2)
			for _, c := range caps {
				if c.uri == siteRoot+"robots.txt" {
					continue
				}
				want := http.StatusNotModified
				if c.uri == siteRoot+"static.html" {
					want = http.StatusOK
				}
				if c.revisit != c.uri || c.status != want {
					t.Errorf("%s is recorded with status %d, revisiting %q; want a revisit of itself with status %d", c.uri, c.status, c.revisit, want)
					continue
				}
				r := revisits[c.uri]
				if id := earlierIDs[c.uri]; r.fields["warc-refers-to"] != id[0] || r.fields["warc-refers-to-date"] != id[1] {
					t.Errorf("%s revisits record %s of %s, want %s of %s", c.uri, r.fields["warc-refers-to"], r.fields["warc-refers-to-date"], id[0], id[1])
				}
				if container, want := r.fields["warc-refers-to-container"], "file://first.wacz"; ext == ".wacz" && container != want || ext != ".wacz" && container != "" {
					t.Errorf("%s names the container %q", c.uri, container)
				}
			}
			if len(revisits) != 26 {
				t.Errorf("%d revisit records, want 26", len(revisits))
			}

			// The site changes.
			site.set("/p1.html", "<html><body><p>page 1, changed</p><a href=\"p13.html\">new</a></body></html>\n")
			site.set("/p5.html", "<html><body><p>page 5, changed</p></body></html>\n")
			site.remove("/p2.html")
			site.set("/p13.html", "<html><body><p>page 13</p></body></html>\n")
			dir3, out3, log3, _ := crawlTo("third", "-since", out2, "-since", out1)
			dir4, _, log4, _ := crawlTo("fresh")
			if diff := sameDir(snapshot(t, dir3), snapshot(t, dir4)); diff != "" {
				t.Errorf("the crawl of the changed site with -since saved other pages than a fresh crawl: %s", diff)
			}
			if log3 != log4 {
				t.Errorf("the crawl of the changed site with -since logged\n%s\na fresh crawl\n%s", log3, log4)
			}
			whole := map[string]int{"p1.html": 200, "p5.html": 200, "p13.html": 200, "p2.html": 404, "robots.txt": 404}
			warc3 := warcOf(t, out3)
			for _, c := range checkWARC(t, warc3) {
				path := strings.TrimPrefix(c.uri, siteRoot)
				if code, ok := whole[path]; ok {
					if c.revisit != "" || c.status != code {
						t.Errorf("%s is recorded with status %d, revisiting %q; want it whole with status %d", path, c.status, c.revisit, code)
					}
					delete(whole, path)
				} else if c.revisit != c.uri {
					t.Errorf("%s, unchanged, is recorded whole with status %d", path, c.status)
				}
			}
			if len(whole) != 0 {
				t.Errorf("not recorded: %v", whole)
			}
			for uri, r := range revisitsOf(t, warc3) {
				// The payload is the first crawl's, which the second
				// only revisited.
				if id := earlierIDs[uri]; r.fields["warc-refers-to"] != id[0] {
					t.Errorf("%s revisits record %s, want the first crawl's, %s", uri, r.fields["warc-refers-to"], id[0])
				}
			}
			if ext == ".wacz" {
				checkRequires(t, out3, "second.wacz", "first.wacz")
			}
		})
	}
}

// checkRequires checks that the package at path names the packages want
// in datapackage.json's relation.requires.
func checkRequires(t *testing.T, path string, want ...string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	f, err := zr.Open("datapackage.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var dp struct {
		Relation struct {
			Requires []struct {
				Filename string `json:"filename"`
				Hash     string `json:"hash"`
			} `json:"requires"`
		} `json:"relation"`
	}
	if err := json.NewDecoder(f).Decode(&dp); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range dp.Relation.Requires {
		if !strings.HasPrefix(r.Hash, "sha256:") {
			t.Errorf("%s is required with the hash %q", r.Filename, r.Hash)
		}
		got = append(got, r.Filename)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s requires %q, want %q", path, got, want)
	}
}

// TestSinceEmpty: an archive with nothing to revalidate, such as a zip
// that is no WACZ package, is warned of, and the crawl goes on whole.
func TestSinceEmpty(t *testing.T) {
	site := newChangingSite(t)
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty.zip")
	f, err := os.Create(empty)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, _ := zw.Create("notes.txt")
	w.Write([]byte("no archive here\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr := crawl(t.Context(), proxyEnv(site.URL), "-q", "-delay", "0", "-scope", siteRoot, "-since", empty, siteRoot+"index.html", t.TempDir(), "0")
	if code != exitOK || !strings.Contains(stderr, "holds no page or requisite answered 200") {
		t.Errorf("exit %d, stderr %q; want 0 and a warning", code, stderr)
	}
	if _, conditional, _ := site.counts(); conditional != 0 {
		t.Errorf("%d conditional requests", conditional)
	}
}

// TestSinceRefused: -since must name an archive that can be read, and
// not the file the crawl writes.
func TestSinceRefused(t *testing.T) {
	site := newChangingSite(t)
	tmp := t.TempDir()
	notWARC := filepath.Join(tmp, "notes.txt")
	if err := os.WriteFile(notWARC, []byte("not an archive\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out.warc.gz")
	// Packages that can be read, of names that clash.
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	w, _ := zw.Create("notes.txt")
	w.Write([]byte("no archive here\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"old", "a", "b"} {
		if err := os.MkdirAll(filepath.Join(tmp, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, dir, "site.wacz"), zipped.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing", []string{"-since", filepath.Join(tmp, "missing.wacz")}, "-since: "},
		{"not an archive", []string{"-since", notWARC}, "-since: "},
		{"the output", []string{"-since", out, "-warc", out}, "is the file -warc writes"},
		{"the output's name", []string{"-since", filepath.Join(tmp, "old", "site.wacz"), "-warc", filepath.Join(tmp, "site.wacz")}, "has the name of the package -warc writes"},
		{"one name", []string{"-since", filepath.Join(tmp, "a", "site.wacz"), "-since", filepath.Join(tmp, "b", "site.wacz"), "-warc", out}, "have one name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"-delay", "0", "-scope", siteRoot}, tt.args...)
			code, _, stderr := crawl(t.Context(), proxyEnv(site.URL), append(args, siteRoot+"index.html", dir, "1")...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tt.want)
			}
			if requests, _, _ := site.counts(); requests != 0 {
				t.Errorf("%d requests sent", requests)
			}
		})
	}
}

// TestSinceInterrupted: a signal while the -since archive is indexed,
// which for a large one takes minutes, stops the run there, before the
// crawl begins: nothing is asked of the site nor written in the page
// directory, and the command is to be run again, not resumed.
func TestSinceInterrupted(t *testing.T) {
	site := newChangingSite(t)
	tmp := t.TempDir()
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: \"v1\"\r\nContent-Length: 14\r\n\r\n<p>earlier</p>"
	record := fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0b0e5a1c-9c2e-4c5f-8d3a-2f1e4b6a7c80>\r\nWARC-Date: 2025-03-01T12:00:00Z\r\n"+
		"WARC-Target-URI: %sindex.html\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", siteRoot, len(resp), resp)
	archive := filepath.Join(tmp, "earlier.warc")
	if err := os.WriteFile(archive, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "pages")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(stopSignal{syscall.SIGINT})
	code, _, stderr := crawl(ctx, proxyEnv(site.URL), "-delay", "0", "-scope", siteRoot, "-since", archive, siteRoot+"index.html", dir, "1")
	if code != 130 || !strings.Contains(stderr, "while indexing the -since archive") || strings.Contains(stderr, "-resume") {
		t.Errorf("exit %d, stderr %q; want 130, and to run the command again", code, stderr)
	}
	if requests, _, _ := site.counts(); requests != 0 {
		t.Errorf("%d requests sent", requests)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("the page directory holds %v", names)
	}
}
