package wacz

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tse-crawler/internal/warc"
)

// exchanges are those of the test's WARC file, by URL: the response, and
// whether the URL is a page the crawl saved.
var exchanges = []struct {
	url, resp string
	page      bool
}{
	{"http://www.example.test/robots.txt", "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n", false},
	{"http://www.example.test/", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 52\r\n\r\n<html><title> Home\n page </title><a href=b>b</a>\n\n\n", true},
	{"http://www.example.test/style.css", "HTTP/1.1 200 OK\r\nContent-Type: text/css\r\nContent-Length: 3\r\n\r\np{}", false},
	{"http://www.example.test/b?z=1&a=2", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>b<\r\n3\r\n/p>\r\n0\r\n\r\n", true},
	{"http://example.test:8080/a", "HTTP/1.1 301 Moved\r\nLocation: /\r\nContent-Length: 0\r\n\r\n", false},
	{"http://www.example.test/", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 30\r\n\r\n<title>Again</title>, fetched again", true},
}

// makeWARC writes the exchanges to a .warc.gz in dir, in two runs, as a
// crawl that resumed does.
func makeWARC(t *testing.T, dir string) string {
	path := filepath.Join(dir, "crawl.warc.gz")
	date := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for run, xs := range [][]int{{0, 1, 2}, {3, 4, 5}} {
		open := warc.Create
		if run > 0 {
			open = warc.Reopen
		}
		w, err := open(path, warc.Info{Software: "test/1"})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range xs {
			x := exchanges[i]
			err := w.WriteExchange(warc.Exchange{
				TargetURI: x.url,
				Date:      date.Add(time.Duration(i) * time.Second),
				Request:   []byte("GET / HTTP/1.1\r\nHost: example.test\r\n\r\n"),
				Response:  strings.NewReader(x.resp),
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// pack packs p into a file at path.
func pack(t *testing.T, p Package, path string) error {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return p.Pack(f)
}

func TestPack(t *testing.T) {
	dir := t.TempDir()
	src := makeWARC(t, dir)
	var pages []string
	for _, x := range exchanges {
		if x.page && !slices.Contains(pages, x.url) {
			pages = append(pages, x.url)
		}
	}
	now := time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)
	path := filepath.Join(dir, "site.wacz")
	p := Package{WARC: src, Pages: pages, Software: "tse-crawler/test", Now: func() time.Time { return now }}
	if err := pack(t, p, path); err != nil {
		t.Fatal(err)
	}
	files := check(t, path)
	if want, _ := os.ReadFile(src); !bytes.Equal(files[warcPath], want) {
		t.Errorf("%s is not the WARC file", warcPath)
	}

	lines := strings.Split(strings.TrimSuffix(string(files[indexPath]), "\n"), "\n")
	if len(lines) != len(exchanges) {
		t.Errorf("index has %d lines, want one for each response, %d:\n%s", len(lines), len(exchanges), files[indexPath])
	}
	for _, want := range []string{
		`test,example)/ 20250301120001 {"url":"http://www.example.test/","mime":"text/html","status":"200","digest":"sha1:`,
		`test,example)/b?a=2&z=1 20250301120003 {"url":"http://www.example.test/b?z=1&a=2","mime":"text/html","status":"200"`,
		`test,example:8080)/a 20250301120004 {"url":"http://example.test:8080/a","mime":"unk","status":"301"`,
	} {
		if !strings.Contains(string(files[indexPath]), want) {
			t.Errorf("index has no line that begins %s:\n%s", want, files[indexPath])
		}
	}

	wantPages := `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}
{"url":"http://www.example.test/","ts":"2025-03-01T12:00:01.000000Z","title":"Home page"}
{"url":"http://www.example.test/b?z=1&a=2","ts":"2025-03-01T12:00:03.000000Z","title":""}
`
	if got := string(files[pagesPath]); got != wantPages {
		t.Errorf("pages.jsonl:\n%s\nwant:\n%s", got, wantPages)
	}
	var dp struct {
		Created  string `json:"created"`
		Software string `json:"software"`
	}
	json.Unmarshal(files[dataPath], &dp)
	if dp.Created != "2025-03-02T00:00:00Z" || dp.Software != "tse-crawler/test" {
		t.Errorf("datapackage.json: %s", files[dataPath])
	}
}

// TestPackRefused: a WARC file that is not whole is refused before
// anything is written.
func TestPackRefused(t *testing.T) {
	dir := t.TempDir()
	src := makeWARC(t, dir)
	data, _ := os.ReadFile(src)
	os.WriteFile(src, data[:len(data)-5], 0o666)
	var out bytes.Buffer
	p := Package{WARC: src, Software: "tse-crawler/test", Now: time.Now}
	if err := p.Pack(&out); err == nil {
		t.Fatal("Pack of a torn WARC file succeeded")
	}
	if out.Len() > 0 {
		t.Errorf("Pack of a torn WARC file wrote %d bytes", out.Len())
	}
}

// check opens the package at path and checks it as a reader would: its
// entries, the WARC file stored, each index line against the record it
// points at, the order of the index, the pages' header line, and every
// digest and size. It returns the entries' contents by name.
func check(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := make(map[string][]byte)
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Name == warcPath && f.Method != zip.Store {
			t.Errorf("%s is compressed with method %d, not stored", f.Name, f.Method)
		}
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
	slices.Sort(names)
	if want := []string{warcPath, digestPath, dataPath, indexPath, pagesPath}; !slices.Equal(names, want) {
		t.Fatalf("entries %q, want %q", names, want)
	}

	data := files[warcPath]
	index := strings.Split(strings.TrimSuffix(string(files[indexPath]), "\n"), "\n")
	if !slices.IsSorted(index) {
		t.Errorf("index not sorted:\n%s", files[indexPath])
	}
	for _, l := range index {
		key, js, _ := strings.Cut(l, " {")
		var e struct {
			URL, Digest, Filename string
			Offset, Length        int64
		}
		if err := json.Unmarshal([]byte("{"+js), &e); err != nil {
			t.Errorf("index line %s: %v", l, err)
			continue
		}
		if e.Filename != "data.warc.gz" || e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > int64(len(data)) {
			t.Errorf("index line %s points nowhere", l)
			continue
		}
		if f := strings.Fields(key); len(f) != 2 || len(f[1]) != 14 {
			t.Errorf("index line %s: key %q", l, key)
		}
		zr, err := gzip.NewReader(bytes.NewReader(data[e.Offset : e.Offset+e.Length]))
		if err != nil {
			t.Errorf("index line %s: %v", l, err)
			continue
		}
		zr.Multistream(false)
		rec, err := io.ReadAll(zr)
		if err != nil {
			t.Errorf("index line %s: %v", l, err)
			continue
		}
		head, _, _ := bytes.Cut(rec, []byte("\r\n\r\n"))
		fields := map[string]string{}
		for _, hl := range strings.Split(string(head), "\r\n")[1:] {
			k, v, _ := strings.Cut(hl, ": ")
			fields[k] = v
		}
		if fields["WARC-Target-URI"] != e.URL || fields["WARC-Payload-Digest"] != e.Digest {
			t.Errorf("index line %s: record of %q, digest %q", l, fields["WARC-Target-URI"], fields["WARC-Payload-Digest"])
		}
		if typ := fields["WARC-Type"]; typ != "response" && typ != "resource" && typ != "revisit" {
			t.Errorf("index line %s: a %s record", l, typ)
		}
	}

	sc := bufio.NewScanner(bytes.NewReader(files[pagesPath]))
	if !sc.Scan() || sc.Text() != `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` {
		t.Errorf("pages.jsonl begins %q", sc.Text())
	}

	var dp struct {
		Profile   string `json:"profile"`
		Version   string `json:"wacz_version"`
		Resources []struct {
			Name, Path, Hash string
			Bytes            int
		}
	}
	if err := json.Unmarshal(files[dataPath], &dp); err != nil {
		t.Fatal(err)
	}
	if dp.Profile != "data-package" || dp.Version != "1.1.1" || len(dp.Resources) != 3 {
		t.Errorf("datapackage.json: %s", files[dataPath])
	}
	for _, r := range dp.Resources {
		b, ok := files[r.Path]
		if !ok || r.Path == dataPath || r.Path == digestPath || r.Name != filepath.Base(r.Path) {
			t.Errorf("datapackage.json lists %+v", r)
			continue
		}
		if h := sha256.Sum256(b); r.Hash != "sha256:"+hex.EncodeToString(h[:]) || r.Bytes != len(b) {
			t.Errorf("datapackage.json: %s has %d bytes, %s", r.Path, r.Bytes, r.Hash)
		}
	}
	h := sha256.Sum256(files[dataPath])
	if want := fmt.Sprintf(`{"path":"datapackage.json","hash":"sha256:%x"}`, h); string(files[digestPath]) != want {
		t.Errorf("datapackage-digest.json: %s, want %s", files[digestPath], want)
	}
	return files
}

// TestPagesListed: every page the crawl saved has its line in
// pages.jsonl, however its key differs from its record's target URI,
// which names it as it went on the wire, and whatever HTML Content-Type,
// or none, its response has.
func TestPagesListed(t *testing.T) {
	const (
		html  = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\n\r\n<title>page</title>\n"
		xhtml = "HTTP/1.1 200 OK\r\nContent-Type: application/xhtml+xml; charset=utf-8\r\nContent-Length: 20\r\n\r\n<title>page</title>\n"
		none  = "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n<title>page</title>\n"
		odd   = "HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; charset=utf-8; charset=latin1\r\nContent-Length: 20\r\n\r\n<title>page</title>\n"
		png   = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\n\x89PNG"
	)
	type rec struct{ uri, resp string }
	tests := []struct {
		name  string
		recs  []rec
		pages []string // keys, as the crawl saved them
		want  []string // the URLs pages.jsonl lists, in order
	}{
		{"raw UTF-8 in the path", []rec{{"http://h.test/caf%C3%A9.html", html}}, []string{"http://h.test/caf\xc3\xa9.html"}, []string{"http://h.test/caf%C3%A9.html"}},
		{"backslash in the path", []rec{{"http://h.test/a%5Cb.html", html}}, []string{`http://h.test/a\b.html`}, []string{"http://h.test/a%5Cb.html"}},
		{"raw bytes in the query", []rec{{"http://h.test/q.html?x%20y%FF%3Clt%3E", html}}, []string{"http://h.test/q.html?x y\xff<lt>"}, []string{"http://h.test/q.html?x%20y%FF%3Clt%3E"}},
		{"backslash in the query", []rec{{`http://h.test/q.html?x\y`, html}}, []string{`http://h.test/q.html?x\y`}, []string{`http://h.test/q.html?x\y`}},
		{"html mode's key, sent as it is", []rec{{"http://h.test/x|y.html", html}}, []string{"http://h.test/x|y.html"}, []string{"http://h.test/x|y.html"}},
		{"no path", []rec{{"http://h.test/", html}}, []string{"http://h.test"}, []string{"http://h.test/"}},
		{"XHTML", []rec{{"http://h.test/x.html", xhtml}}, []string{"http://h.test/x.html"}, []string{"http://h.test/x.html"}},
		{"no Content-Type", []rec{{"http://h.test/x.html", none}}, []string{"http://h.test/x.html"}, []string{"http://h.test/x.html"}},
		{"a Content-Type package mime rejects", []rec{{"http://h.test/x.html", odd}}, []string{"http://h.test/x.html"}, []string{"http://h.test/x.html"}},
		{"two keys, one URL on the wire", []rec{{"http://h.test/p%7Cq.html", html}, {"http://h.test/p%7Cq.html", html}}, []string{"http://h.test/p|q.html", "http://h.test/p%7Cq.html"}, []string{"http://h.test/p%7Cq.html", "http://h.test/p%7Cq.html"}},
		{"not HTML, then the page", []rec{{"http://h.test/x.html", png}, {"http://h.test/x.html", html}}, []string{"http://h.test/x.html"}, []string{"http://h.test/x.html"}},
		{"a requisite, no page", []rec{{"http://h.test/x.html", html}, {"http://h.test/frame.html", html}}, []string{"http://h.test/x.html"}, []string{"http://h.test/x.html"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "crawl.warc.gz")
			w, err := warc.Create(src, warc.Info{Software: "test/1"})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range tc.recs {
				x := warc.Exchange{TargetURI: r.uri, Date: time.Date(2025, 3, 1, 12, 0, i, 0, time.UTC), Request: []byte("GET / HTTP/1.1\r\nHost: h.test\r\n\r\n"), Response: strings.NewReader(r.resp)}
				if err := w.WriteExchange(x); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "site.wacz")
			if err := pack(t, Package{WARC: src, Pages: tc.pages, Software: "tse-crawler/test", Now: time.Now}, path); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(string(check(t, path)[pagesPath])), "\n")[1:] {
				var pg struct{ URL, Title string }
				if err := json.Unmarshal([]byte(l), &pg); err != nil {
					t.Fatalf("%s: %v", l, err)
				}
				if pg.Title != "page" {
					t.Errorf("%s: title %q, want page", pg.URL, pg.Title)
				}
				got = append(got, pg.URL)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("pages.jsonl lists %q, want %q", got, tc.want)
			}
		})
	}
}

// TestIndexSorted: the index is sorted by bytes, line by line, as
// LC_ALL=C sort -c checks, though two captures of one URL in one second
// lie in the file in the other order.
func TestIndexSorted(t *testing.T) {
	tests := []struct {
		name  string
		resps []string // of one URL, in one second, in the order of the file
	}{
		{"redirect, then the page", []string{
			"HTTP/1.1 302 Found\r\nLocation: /\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\n\r\n<title>page</title>\n",
		}},
		{"not HTML, then HTML", []string{
			"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\npage",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\n\r\n<title>page</title>\n",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "crawl.warc.gz")
			w, err := warc.Create(src, warc.Info{Software: "test/1"})
			if err != nil {
				t.Fatal(err)
			}
			for i, resp := range tc.resps {
				x := warc.Exchange{TargetURI: "http://h.test/", Date: time.Date(2025, 3, 1, 12, 0, 0, i*1000, time.UTC), Request: []byte("GET / HTTP/1.1\r\nHost: h.test\r\n\r\n"), Response: strings.NewReader(resp)}
				if err := w.WriteExchange(x); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "site.wacz")
			if err := pack(t, Package{WARC: src, Pages: []string{"http://h.test/"}, Software: "tse-crawler/test", Now: time.Now}, path); err != nil {
				t.Fatal(err)
			}
			index := strings.Split(strings.TrimSuffix(string(check(t, path)[indexPath]), "\n"), "\n")
			if len(index) != len(tc.resps) {
				t.Fatalf("index has %d lines, want %d", len(index), len(tc.resps))
			}
			for i := 1; i < len(index); i++ {
				if index[i-1] > index[i] {
					t.Errorf("index lines %d and %d are out of order:\n%s\n%s", i, i+1, index[i-1], index[i])
				}
			}
		})
	}
}

// TestPackRevisits packs the WARC file of a crawl made since an earlier
// package: its revisit records are indexed as revisits, the pages they
// stand for are listed, and datapackage.json names the earlier package.
func TestPackRevisits(t *testing.T) {
	dir := t.TempDir()
	earlier := filepath.Join(dir, "week1.wacz")
	os.WriteFile(earlier, []byte("the earlier package"), 0o644)
	src := filepath.Join(dir, "week2.warc.gz")
	w, err := warc.Create(src, warc.Info{Software: "test/1"})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	body := "<title>Home</title>"
	for i, x := range []struct{ url, resp string }{
		{"http://www.example.test/", "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n"},
		{"http://www.example.test/b", fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)},
		{"http://www.example.test/c", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 7\r\n\r\nchanged"},
	} {
		sum := sha1.Sum([]byte(body))
		err := w.WriteExchange(warc.Exchange{
			TargetURI: x.url,
			Date:      before.AddDate(0, 0, 7).Add(time.Duration(i) * time.Second),
			Request:   []byte("GET / HTTP/1.1\r\nHost: www.example.test\r\n\r\n"),
			Response:  strings.NewReader(x.resp),
			Revisit: &warc.Revisit{TargetURI: x.url, Date: before, PayloadDigest: "sha1:" + base32.StdEncoding.EncodeToString(sum[:]),
				Container: "week1.wacz"},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "week2.wacz")
	p := Package{WARC: src, Pages: []string{"http://www.example.test/", "http://www.example.test/b", "http://www.example.test/c"},
		Requires: []string{earlier}, Software: "tse-crawler/test", Now: time.Now}
	if err := pack(t, p, path); err != nil {
		t.Fatal(err)
	}
	files := check(t, path)
	for _, want := range []string{
		`test,example)/ 20250308120000 {"url":"http://www.example.test/","mime":"warc/revisit","length"`,
		`test,example)/b 20250308120001 {"url":"http://www.example.test/b","mime":"warc/revisit","status":"200","digest":"sha1:`,
		`test,example)/c 20250308120002 {"url":"http://www.example.test/c","mime":"text/html","status":"200"`,
	} {
		if !strings.Contains(string(files[indexPath]), want) {
			t.Errorf("index has no line that begins %s:\n%s", want, files[indexPath])
		}
	}
	for _, page := range p.Pages {
		if !strings.Contains(string(files[pagesPath]), `"url":"`+page+`"`) {
			t.Errorf("pages.jsonl does not list %s:\n%s", page, files[pagesPath])
		}
	}
	var dp struct {
		Relation struct {
			Requires []struct {
				Filename, Hash string
				Bytes          int64
			}
		}
	}
	json.Unmarshal(files[dataPath], &dp)
	h := sha256.Sum256([]byte("the earlier package"))
	want := "sha256:" + hex.EncodeToString(h[:])
	if r := dp.Relation.Requires; len(r) != 1 || r[0].Filename != "week1.wacz" || r[0].Hash != want || r[0].Bytes != 19 {
		t.Errorf("datapackage.json requires %+v, want week1.wacz, %s, 19 bytes:\n%s", r, want, files[dataPath])
	}
}
