package earlier

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/wacz"
	"tse-crawler/internal/warc"
)

// t0 is when the test's first crawl began.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// An exchange is one the test writes to a WARC file.
type exchange struct {
	url, resp string
	at        time.Duration // after t0
	revisit   *warc.Revisit
	truncated string
}

// writeWARC writes the exchanges to a WARC file at path, as this crawler
// does: a .warc.gz of a gzip member for each record, or a plain .warc.
func writeWARC(t testing.TB, path string, xs []exchange) string {
	t.Helper()
	w, err := warc.Create(path, warc.Info{Software: "test/1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		err := w.WriteExchange(warc.Exchange{
			TargetURI: x.url,
			Date:      t0.Add(x.at),
			Request:   []byte("GET / HTTP/1.1\r\nHost: example.test\r\n\r\n"),
			Response:  strings.NewReader(x.resp),
			Revisit:   x.revisit,
			Truncated: x.truncated,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// packWACZ packs the .warc.gz at src into a WACZ package at path.
func packWACZ(t testing.TB, src, path string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := wacz.Package{WARC: src, Software: "test/1", Now: func() time.Time { return t0 }}
	if err := p.Pack(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// ok200 is a response of an HTTP 200 with the given header lines and body.
func ok200(head, body string) string {
	return fmt.Sprintf("HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n\r\n%s", head, len(body), body)
}

func digest(body string) string {
	sum := sha1.Sum([]byte(body))
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

func deflated(s string) string {
	var b bytes.Buffer
	z, _ := flate.NewWriter(&b, flate.BestSpeed)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

const site = "http://example.test/"

// week1 is the first crawl; week2, which revisits it, the second.
var week1 = []exchange{
	{url: site, resp: ok200("ETag: \"1\"\r\nLast-Modified: Sat, 01 Mar 2025 11:00:00 GMT\r\n", "<p>home</p>")},
	{url: site + "gone", resp: ok200("ETag: \"g\"\r\n", "soon gone"), at: time.Second},
	{url: site + "back", resp: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", at: time.Second},
	{url: site + "gz", resp: ok200("Content-Encoding: gzip\r\nETag: \"z\"\r\n", gzipped("<p>zipped</p>")), at: 2 * time.Second},
	{url: site + "deflate", resp: ok200("Content-Encoding: deflate\r\n", deflated("<p>deflated</p>")), at: 2 * time.Second},
	{url: site + "chunked", resp: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"c\"\r\n\r\n3\r\n<p>\r\n5\r\nhi</p\r\n1\r\n>\r\n0\r\n\r\n", at: 3 * time.Second},
	{url: site + "same", resp: ok200("ETag: \"s1\"\r\n", "same body"), at: 3 * time.Second},
	{url: site + "br", resp: ok200("Content-Encoding: br\r\n", "??"), at: 4 * time.Second},
	{url: site + "cut", resp: ok200("", "cut short"), at: 4 * time.Second, truncated: "length"},
	{url: site + "big", resp: ok200("", strings.Repeat("x", 1000)), at: 5 * time.Second},
}

var week = 7 * 24 * time.Hour

var week2 = []exchange{
	// 304s, recorded as revisits of the server-not-modified profile.
	{url: site, resp: "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n", at: week,
		revisit: &warc.Revisit{TargetURI: site, Date: wdate(t0), PayloadDigest: digest("<p>home</p>")}},
	{url: site + "chunked", resp: "HTTP/1.1 304 Not Modified\r\n\r\n", at: week,
		revisit: &warc.Revisit{TargetURI: site + "chunked", Date: wdate(t0.Add(3 * time.Second))}},
	// An identical payload, under new validators.
	{url: site + "same", resp: ok200("ETag: \"s2\"\r\n", "same body"), at: week,
		revisit: &warc.Revisit{TargetURI: site + "same", Date: wdate(t0.Add(3 * time.Second)), PayloadDigest: digest("same body")}},
	// A revisit of a response that is in no file given.
	{url: site + "elsewhere", resp: "HTTP/1.1 304 Not Modified\r\n\r\n", at: week,
		revisit: &warc.Revisit{TargetURI: site + "elsewhere", Date: wdate(t0)}},
	{url: site + "gone", resp: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", at: week},
	{url: site + "back", resp: ok200("ETag: \"b\"\r\n", "back again"), at: week},
}

// want is what Lookup and Response give for a URL.
type want struct {
	date            time.Duration // of the payload record, after t0
	etag, modified  string
	body            string
	responseErrLike string
}

// wants are the captures of week1 and week2 together.
var wants = map[string]*want{
	site:               {date: 0, etag: `"1"`, modified: "Sat, 01 Mar 2025 11:00:00 GMT", body: "<p>home</p>"},
	site + "gone":      nil,
	site + "back":      {date: week, etag: `"b"`, body: "back again"},
	site + "gz":        {date: 2 * time.Second, etag: `"z"`, body: "<p>zipped</p>"},
	site + "deflate":   {date: 2 * time.Second, body: "<p>deflated</p>"},
	site + "chunked":   {date: 3 * time.Second, etag: `"c"`, body: "<p>hi</p>"},
	site + "same":      {date: 3 * time.Second, etag: `"s2"`, body: "same body"},
	site + "elsewhere": nil,
	site + "br":        {date: 4 * time.Second, responseErrLike: `content coding "br"`},
	site + "cut":       nil,
	site + "big":       {date: 5 * time.Second, body: strings.Repeat("x", 100)},
	site + "never":     nil,
}

// check looks up every URL of wants in a, and reads its response. The
// index of a WACZ package (coarse) does not know that a record is cut
// short, and Len counts it.
func check(t *testing.T, a *Archive, coarse bool, payloadArchive func(time.Duration) string) {
	t.Helper()
	n := 0
	for url, w := range wants {
		c, found, err := a.Lookup(url)
		if err != nil {
			t.Fatalf("Lookup(%s): %v", url, err)
		}
		if found != (w != nil) {
			t.Errorf("Lookup(%s) found %v, want %v: %+v", url, found, w != nil, c)
			continue
		}
		if !found {
			continue
		}
		n++
		d, err := time.Parse(time.RFC3339Nano, c.Date)
		if err != nil || !d.Equal(t0.Add(w.date)) || c.URI != url || c.ETag != w.etag || c.LastModified != w.modified ||
			!strings.HasPrefix(c.RecordID, "<urn:uuid:") || !strings.HasPrefix(c.PayloadDigest, "sha1:") || c.Archive != payloadArchive(w.date) {
			t.Errorf("Lookup(%s) = %+v, want %+v", url, c, w)
		}
		code, h, body, err := a.Response(c, 100)
		if w.responseErrLike != "" {
			if err == nil || !strings.Contains(err.Error(), w.responseErrLike) {
				t.Errorf("Response(%s) error %v, want one like %q", url, err, w.responseErrLike)
			}
			continue
		}
		if err != nil || code != 200 || string(body) != w.body || h.Get("Content-Encoding") != "" || h.Get("Transfer-Encoding") != "" {
			t.Errorf("Response(%s) = %d %v %q %v, want 200 %q", url, code, h, body, err, w.body)
		}
	}
	if coarse {
		n++ // site + "cut"
	}
	if a.Len() != n {
		t.Errorf("Len() = %d, want %d", a.Len(), n)
	}
	if ws := a.Warnings(); len(ws) != 1 || !strings.Contains(ws[0], "1 URLs were last recorded by a revisit") {
		t.Errorf("Warnings() = %q, want one of a revisit of a response not held", ws)
	}
}

// TestOwnArchives reads two crawls written by this crawler, the second
// revisiting the first, as WARC files, plain and gzipped, and as WACZ
// packages, given in either order.
func TestOwnArchives(t *testing.T) {
	dir := t.TempDir()
	gz1 := writeWARC(t, filepath.Join(dir, "week1.warc.gz"), week1)
	gz2 := writeWARC(t, filepath.Join(dir, "week2.warc.gz"), week2)
	plain1 := writeWARC(t, filepath.Join(dir, "week1.warc"), week1)
	plain2 := writeWARC(t, filepath.Join(dir, "week2.warc"), week2)
	wacz1 := packWACZ(t, gz1, filepath.Join(dir, "week1.wacz"))
	wacz2 := packWACZ(t, gz2, filepath.Join(dir, "week2.wacz"))
	// A file named as another kind is read as what it is.
	odd := filepath.Join(dir, "week1.warc.bin")
	if err := os.Link(wacz1, odd); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		first, second string
		reversed      bool
	}{
		{"warc.gz", gz1, gz2, false},
		{"warc.gz, later first", gz1, gz2, true},
		{"warc", plain1, plain2, false},
		{"wacz", wacz1, wacz2, false},
		{"wacz, later first", wacz1, wacz2, true},
		{"mixed", odd, plain2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := []string{tc.first, tc.second}
			if tc.reversed {
				paths = []string{tc.second, tc.first}
			}
			a, err := Open(t.Context(), paths...)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			check(t, a, strings.HasSuffix(tc.first, ".warc.bin") || strings.HasSuffix(tc.first, ".wacz"), func(d time.Duration) string {
				if d >= week {
					return tc.second
				}
				return tc.first
			})
		})
	}
}

// TestWget reads a .warc.gz that wget 1.21 wrote, WARC/1.0, of a site
// served on loopback: a chunked page fetched twice, a gzipped one, and
// pages that answered 404 and 301.
func TestWget(t *testing.T) {
	a, err := Open(t.Context(), "testdata/wget.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const host = "http://127.0.0.1:45957/"
	for _, tc := range []struct {
		url            string
		etag, modified string
		id             string
		body           string
	}{
		{host, `"v1-index"`, "Mon, 02 Jan 2006 15:04:05 GMT", "<urn:uuid:7db92cfa-d3ad-4d5b-813a-de82d138e90d>",
			`<html><title>index</title><a href="chunked.html">c</a> <a href="gzip.html">g</a> <a href="missing.html">m</a> <a href="moved.html">r</a></html>` + "\n"},
		// The later of two captures in the same second.
		{host + "chunked.html", `W/"v1-chunked"`, "", "<urn:uuid:818ab159-ad33-4e0e-a4c1-8b81d3edd3dc>",
			"<html><title>chunked</title><p>sent in chunks</p></html>\n"},
		{host + "gzip.html", "", "Tue, 03 Jan 2006 15:04:05 GMT", "<urn:uuid:dcdc5a8d-f936-4db0-a3ad-21c498f155ba>",
			"<html><title>gzip</title><p>coded with gzip</p></html>\n"},
		{url: host + "missing.html"},
		{url: host + "moved.html"},
		{url: host + "robots.txt"},
		{url: "<" + host + ">"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			c, found, err := a.Lookup(tc.url)
			if err != nil || found != (tc.id != "") {
				t.Fatalf("Lookup = %+v, %v, %v", c, found, err)
			}
			if !found {
				return
			}
			if c.URI != tc.url || c.Date != "2026-12-02T04:57:28Z" || c.RecordID != tc.id || c.ETag != tc.etag || c.LastModified != tc.modified {
				t.Errorf("Lookup = %+v", c)
			}
			code, _, body, err := a.Response(c, 1<<20)
			if err != nil || code != 200 || string(body) != tc.body {
				t.Errorf("Response = %d, %q, %v; want %q", code, body, err, tc.body)
			}
		})
	}
	if a.Len() != 3 || len(a.Warnings()) != 0 {
		t.Errorf("Len() = %d, Warnings() = %q; want 3 and none", a.Len(), a.Warnings())
	}
}

// TestTorn reads WARC files whose last record a crash cut short: the
// records before it are read, and a warning says so.
func TestTorn(t *testing.T) {
	dir := t.TempDir()
	xs := []exchange{
		{url: site, resp: ok200("", "first")},
		{url: site + "b", resp: ok200("", "b")},
		{url: site, resp: ok200("", "second, torn"), at: time.Second},
	}
	for _, name := range []string{"torn.warc.gz", "torn.warc"} {
		t.Run(name, func(t *testing.T) {
			path := writeWARC(t, filepath.Join(dir, name), xs)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()-10); err != nil {
				t.Fatal(err)
			}
			a, err := Open(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			c, found, err := a.Lookup(site)
			if err != nil || !found {
				t.Fatalf("Lookup = %v, %v", found, err)
			}
			if _, _, body, err := a.Response(c, 100); err != nil || string(body) != "first" {
				t.Errorf("Response = %q, %v; want the first capture", body, err)
			}
			if ws := a.Warnings(); len(ws) != 1 || !strings.Contains(ws[0], "is cut short") || !strings.Contains(ws[0], path) {
				t.Errorf("Warnings() = %q", ws)
			}
			if a.Len() != 2 {
				t.Errorf("Len() = %d, want 2", a.Len())
			}
		})
	}
}

// TestRefused opens files that cannot be read as an earlier archive: each
// is refused with an error that names the fix.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	plain := writeWARC(t, filepath.Join(dir, "a.warc"), week1)
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	oneStream := filepath.Join(dir, "one.warc.gz")
	os.WriteFile(oneStream, []byte(gzipped(string(data))), 0o644)
	damaged := filepath.Join(dir, "damaged.warc")
	os.WriteFile(damaged, bytes.Replace(data, []byte("WARC/1.1\r\nWARC-Type: response"), []byte("WARC/9.9\r\nWARC-Type: response"), 1), 0o644)
	other := filepath.Join(dir, "notes.warc")
	os.WriteFile(other, []byte("just some notes\n"), 0o644)
	// A WACZ whose WARC file is deflated in the zip.
	deflatedWACZ := filepath.Join(dir, "deflated.wacz")
	{
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, _ := zw.Create("archive/data.warc.gz")
		w.Write([]byte(gzipped("x")))
		w, _ = zw.Create("indexes/index.cdxj")
		io.WriteString(w, `com,example)/ 20250301120000 {"url":"http://example.com/","status":"200","offset":"0","length":"10","filename":"data.warc.gz"}`+"\n")
		zw.Close()
		os.WriteFile(deflatedWACZ, b.Bytes(), 0o644)
	}
	for _, tc := range []struct {
		name, path, like string
	}{
		{"one gzip stream", oneStream, "recompress it a record to a member"},
		{"damaged", damaged, "repair it or leave it out"},
		{"not WARC", other, "name the .wacz, .warc.gz or .warc"},
		{"missing", filepath.Join(dir, "none.warc"), "no such file"},
		{"directory", dir, "not a regular file"},
		{"compressed in the zip", deflatedWACZ, "pack it again with its WARC files stored"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Open(t.Context(), plain, tc.path)
			if err == nil {
				a.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.like) {
				t.Errorf("error %q, want one like %q", err, tc.like)
			}
		})
	}
}

// TestOtherWACZ reads WACZ packages as other writers make them: an index
// whose numbers are strings, in a gzipped index.cdx.gz, and a package
// with no index at all, whose WARC files are read through.
func TestOtherWACZ(t *testing.T) {
	dir := t.TempDir()
	gz1 := writeWARC(t, filepath.Join(dir, "week1.warc.gz"), week1)
	gz2 := writeWARC(t, filepath.Join(dir, "week2.warc.gz"), week2)
	ours := packWACZ(t, gz1, filepath.Join(dir, "ours.wacz"))
	zr, err := zip.OpenReader(ours)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var index, warcData []byte
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		switch zf.Name {
		case "indexes/index.cdxj":
			index = b
		case "archive/data.warc.gz":
			warcData = b
		}
	}
	// As py-wacz writes its numbers: strings.
	var stringy bytes.Buffer
	for line := range strings.Lines(string(index)) {
		l, err := parseCDXJ([]byte(strings.TrimSuffix(line, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		key, _, _ := strings.Cut(line, " ")
		fmt.Fprintf(&stringy, "%s %s {\"url\": %q, \"status\": \"%d\", \"offset\": \"%d\", \"length\": \"%d\", \"filename\": %q}\n",
			key, l.when.Format("20060102150405"), l.url, l.status, l.offset, l.length, l.filename)
		if l.revisit {
			t.Fatal("week1 has no revisit")
		}
	}
	mk := func(name string, files map[string][]byte) string {
		path := filepath.Join(dir, name)
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for _, n := range []string{"archive/data.warc.gz", "indexes/index.cdx.gz", "indexes/index.idx", "archive/week2.warc.gz"} {
			data, ok := files[n]
			if !ok {
				continue
			}
			w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
		}
		zw.Close()
		os.WriteFile(path, b.Bytes(), 0o644)
		return path
	}
	week2Data, err := os.ReadFile(gz2)
	if err != nil {
		t.Fatal(err)
	}
	zipNum := mk("zipnum.wacz", map[string][]byte{
		"archive/data.warc.gz": warcData,
		"indexes/index.cdx.gz": []byte(gzipped(stringy.String())),
		"indexes/index.idx":    []byte("!meta 0 {}\n"),
	})
	noIndex := mk("noindex.wacz", map[string][]byte{
		"archive/data.warc.gz":  warcData,
		"archive/week2.warc.gz": week2Data,
	})
	for _, tc := range []struct {
		name  string
		paths []string
	}{
		{"zipnum", []string{zipNum, gz2}},
		{"no index", []string{noIndex}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Open(t.Context(), tc.paths...)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			check(t, a, tc.name == "zipnum", func(d time.Duration) string {
				if d >= week {
					return tc.paths[len(tc.paths)-1]
				}
				return tc.paths[0]
			})
		})
	}
}

// TestConcurrent looks up and reads captures from many goroutines, as a
// crawl does; run with -race.
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	gz1 := writeWARC(t, filepath.Join(dir, "week1.warc.gz"), week1)
	a, err := Open(t.Context(), packWACZ(t, gz1, filepath.Join(dir, "week1.wacz")))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				c, found, err := a.Lookup(site + "chunked")
				if err != nil || !found {
					t.Errorf("Lookup = %v, %v", found, err)
					return
				}
				if _, _, body, err := a.Response(c, 100); err != nil || string(body) != "<p>hi</p>" {
					t.Errorf("Response = %q, %v", body, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestRevisitChain reads three crawls, each revisiting the one before as
// this crawler does: the third's revisits name the response of the
// first, which holds the payload, by its record ID as well. A revisit
// whose record ID names another record has no capture.
func TestRevisitChain(t *testing.T) {
	dir := t.TempDir()
	gz1 := writeWARC(t, filepath.Join(dir, "week1.warc.gz"), week1)
	a, err := Open(t.Context(), gz1)
	if err != nil {
		t.Fatal(err)
	}
	home, _, err := a.Lookup(site)
	if err != nil {
		t.Fatal(err)
	}
	same, _, err := a.Lookup(site + "same")
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	gz2 := writeWARC(t, filepath.Join(dir, "week2.warc.gz"), week2)
	gz3 := writeWARC(t, filepath.Join(dir, "week3.warc.gz"), []exchange{
		{url: site, resp: "HTTP/1.1 304 Not Modified\r\n\r\n", at: 2 * week,
			revisit: &warc.Revisit{TargetURI: site, Date: wdate(t0), RecordID: home.RecordID}},
		{url: site + "same", resp: ok200("ETag: \"s3\"\r\n", "same body"), at: 2 * week,
			revisit: &warc.Revisit{TargetURI: site + "same", Date: wdate(t0.Add(3 * time.Second)), RecordID: same.RecordID, PayloadDigest: digest("same body")}},
		{url: site + "chunked", resp: "HTTP/1.1 304 Not Modified\r\n\r\n", at: 2 * week,
			revisit: &warc.Revisit{TargetURI: site + "chunked", Date: wdate(t0.Add(3 * time.Second)), RecordID: home.RecordID}},
	})
	for _, tc := range []struct {
		name  string
		paths []string
	}{
		{"warc.gz", []string{gz1, gz2, gz3}},
		{"wacz", []string{packWACZ(t, gz1, filepath.Join(dir, "week1.wacz")), packWACZ(t, gz2, filepath.Join(dir, "week2.wacz")), packWACZ(t, gz3, filepath.Join(dir, "week3.wacz"))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Open(t.Context(), tc.paths...)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			for _, w := range []struct {
				url, etag, id string
			}{
				{site, `"1"`, home.RecordID},
				{site + "same", `"s3"`, same.RecordID},
				{url: site + "chunked"}, // it names the record of another URL
			} {
				c, found, err := a.Lookup(w.url)
				if err != nil || found != (w.id != "") || found && (c.RecordID != w.id || c.ETag != w.etag || c.Archive != tc.paths[0]) {
					t.Errorf("Lookup(%s) = %+v, %v, %v; want %s with ETag %s", w.url, c, found, err, w.id, w.etag)
				}
			}
		})
	}
}

// wdate is a WARC-Date as this crawler writes it, for a revisit's
// WARC-Refers-To-Date.
func wdate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// TestHeadTooLong: a record whose HTTP head is longer than headMax is no
// capture, and reading it stops at headMax rather than holding it all.
// (Without the limit, a head of gigabytes would be held whole.)
func TestHeadTooLong(t *testing.T) {
	long := "X-Big: " + strings.Repeat("a", 2*headMax) + "\r\n"
	path := writeWARC(t, filepath.Join(t.TempDir(), "big.warc.gz"), []exchange{
		{url: "http://example.test/big.html", resp: ok200(long, "<p>big</p>")},
		{url: "http://example.test/small.html", resp: ok200("ETag: \"s\"\r\n", "<p>small</p>"), at: time.Second},
	})
	a, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, ok, err := a.Lookup("http://example.test/big.html"); ok || err != nil {
		t.Errorf("Lookup of a record with a head of 2 MiB: %v, %v; want no capture, which is fetched whole", ok, err)
	}
	c, ok, err := a.Lookup("http://example.test/small.html")
	if err != nil || !ok {
		t.Fatalf("Lookup of the small record: %v, %v", ok, err)
	}
	if _, _, body, err := a.Response(c, 100); err != nil || string(body) != "<p>small</p>" {
		t.Errorf("Response: %q, %v", body, err)
	}
}

// TestOpenCanceled: indexing stops when its context ends, with the
// context's cause, as a signal to a crawl whose archive is large ends it.
func TestOpenCanceled(t *testing.T) {
	cause := errors.New("stopped")
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(cause)
	a, err := Open(ctx, "testdata/wget.warc.gz")
	if !errors.Is(err, cause) {
		if a != nil {
			a.Close()
		}
		t.Fatalf("Open: %v, want %v", err, cause)
	}
}
