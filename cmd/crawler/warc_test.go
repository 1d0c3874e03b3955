package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tse-crawler/internal/testbed/linediff"
)

// A warcRecord is a record as read back by warcRecords, a reader written
// from the WARC 1.1 standard that shares nothing with package warc.
type warcRecord struct {
	fields map[string]string
	block  []byte
}

// warcRecords reads every record of a WARC file: "WARC/1.1", named fields
// up to an empty line, a block of Content-Length bytes, and two CRLFs. A
// .gz file is read as the concatenation of its members.
func warcRecords(t *testing.T, path string) []warcRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	br := bufio.NewReader(r)
	var recs []warcRecord
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			return recs
		}
		if line != "WARC/1.1\r\n" {
			t.Fatalf("record %d begins %q", len(recs), line)
		}
		rec := warcRecord{fields: make(map[string]string)}
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("record %d: %v", len(recs), err)
			}
			if line == "\r\n" {
				break
			}
			name, value, ok := strings.Cut(strings.TrimSuffix(line, "\r\n"), ":")
			if !ok {
				t.Fatalf("record %d: field line %q", len(recs), line)
			}
			rec.fields[strings.ToLower(name)] = strings.TrimSpace(value)
		}
		n, err := strconv.Atoi(rec.fields["content-length"])
		if err != nil {
			t.Fatalf("record %d: Content-Length %q", len(recs), rec.fields["content-length"])
		}
		rec.block = make([]byte, n+4)
		if _, err := io.ReadFull(br, rec.block); err != nil || !bytes.HasSuffix(rec.block, []byte("\r\n\r\n")) {
			t.Fatalf("record %d is not whole: %v", len(recs), err)
		}
		rec.block = rec.block[:n]
		recs = append(recs, rec)
	}
}

func sha1Label(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// A warcCapture is a response as a WARC file holds it.
type warcCapture struct {
	uri    string
	status int
	body   []byte // the entity body, chunks joined
	// revisit, for a revisit record, is the earlier record it names:
	// its WARC-Refers-To-Target-URI, and body is then nil.
	revisit string
}

// checkWARC reads a crawl's WARC file back and checks it: a warcinfo
// record first, then request and response records in pairs that name each
// other, with the right digests, and no IP address, as they went through
// the proxy. It returns the responses, in order.
func checkWARC(t *testing.T, path string) []warcCapture {
	t.Helper()
	recs := warcRecords(t, path)
	if len(recs) == 0 || recs[0].fields["warc-type"] != "warcinfo" {
		t.Fatalf("%s does not begin with a warcinfo record", path)
	}
	var caps []warcCapture
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if got, want := rec.fields["warc-block-digest"], sha1Label(rec.block); got != want {
			t.Errorf("record %d: block digest %s, want %s", i, got, want)
		}
		switch rec.fields["warc-type"] {
		case "warcinfo":
			if !bytes.Contains(rec.block, []byte("software: tse-crawler/")) {
				t.Errorf("warcinfo record %d: %q", i, rec.block)
			}
			// The robots policy once, and the file by its name alone.
			if n := bytes.Count(rec.block, []byte("\r\nrobots: ")); n != 1 ||
				!bytes.Contains(rec.block, []byte("\r\nrobots: obey\r\n")) && !bytes.Contains(rec.block, []byte("\r\nrobots: ignore\r\n")) {
				t.Errorf("warcinfo record %d says robots %d times, or neither obey nor ignore: %q", i, n, rec.block)
			}
			// (A package's WARC file is its data.warc.gz, named by the
			// -warc the crawl was given: the .wacz.)
			_, named, _ := bytes.Cut(rec.block, []byte("\r\nwarc: "))
			named, _, _ = bytes.Cut(named, []byte("\r\n"))
			if len(named) == 0 || bytes.ContainsRune(named, filepath.Separator) || bytes.Contains(rec.block, []byte(filepath.Dir(path))) {
				t.Errorf("warcinfo record %d does not name %s by its base name alone: %q", i, path, rec.block)
			}
			continue
		case "request":
		default:
			t.Fatalf("record %d is a %s record, where a request should be", i, rec.fields["warc-type"])
		}
		if i+1 == len(recs) || recs[i+1].fields["warc-type"] != "response" && recs[i+1].fields["warc-type"] != "revisit" {
			t.Fatalf("request %d has no response after it", i)
		}
		resp := recs[i+1]
		i++
		if rec.fields["warc-concurrent-to"] != resp.fields["warc-record-id"] || resp.fields["warc-concurrent-to"] != rec.fields["warc-record-id"] {
			t.Errorf("records %d and %d do not name each other", i-1, i)
		}
		uri := resp.fields["warc-target-uri"]
		if rec.fields["warc-target-uri"] != uri || !strings.HasPrefix(uri, "http://") {
			t.Errorf("records %d and %d: target URIs %q and %q", i-1, i, rec.fields["warc-target-uri"], uri)
		}
		// Through the proxy, the address connected to is the proxy's,
		// not the server's.
		if ip, ok := rec.fields["warc-ip-address"]; ok {
			t.Errorf("request %d, sent through a proxy, has WARC-IP-Address %q", i-1, ip)
		}
		if ip, ok := resp.fields["warc-ip-address"]; ok {
			t.Errorf("response %d, received through a proxy, has WARC-IP-Address %q", i, ip)
		}
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(rec.block)))
		if err != nil {
			t.Fatalf("request %d: %v", i-1, err)
		}
		if req.URL.String() != uri {
			t.Errorf("request %d asks for %s, recorded as %s", i-1, req.URL, uri)
		}
		if resp.fields["warc-type"] == "revisit" {
			caps = append(caps, checkRevisit(t, i, resp, req))
			continue
		}
		res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(resp.block)), req)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		body, err := io.ReadAll(res.Body)
		truncated := resp.fields["warc-truncated"] != ""
		if err != nil && !truncated {
			t.Errorf("response %d (%s) is cut short, with no WARC-Truncated: %v", i, uri, err)
		}
		if !truncated {
			if got, want := resp.fields["warc-payload-digest"], sha1Label(body); got != want {
				t.Errorf("response %d (%s): payload digest %s, want %s", i, uri, got, want)
			}
		}
		caps = append(caps, warcCapture{uri: uri, status: res.StatusCode, body: body})
	}
	return caps
}

// checkPagesArchived checks that each page saved in dir is the payload of
// exactly one 200 response for its URL, or, in a crawl with -since, the
// one revisit of an earlier record of it, and returns the responses
// summed up, one "status URI" line each.
func checkPagesArchived(t *testing.T, dir string, caps []warcCapture) string {
	t.Helper()
	oks := make(map[string][][]byte)
	var sum strings.Builder
	for _, c := range caps {
		fmt.Fprintf(&sum, "%d %s\n", c.status, c.uri)
		switch {
		case c.revisit != "":
			oks[c.uri] = append(oks[c.uri], nil) // the earlier record's payload
		case c.status == http.StatusOK:
			oks[c.uri] = append(oks[c.uri], c.body)
		}
	}
	pages := readPages(t, dir)
	if len(pages) == 0 {
		t.Fatal("no page saved")
	}
	for _, p := range pages {
		switch got := oks[p.url]; {
		case len(got) != 1:
			t.Errorf("page %d, %s, has %d responses 200 in the WARC file, want 1", p.id, p.url, len(got))
		case got[0] != nil && !bytes.Equal(got[0], p.html):
			t.Errorf("page %d, %s, is not the payload of its response", p.id, p.url)
		}
	}
	return sum.String()
}

// TestWARC crawls sites with a 404, a page robots.txt disallows, a
// redirect and several hosts, one page at a time and four hosts at once,
// and reads the WARC file back: every exchange is in it, in the same
// order whatever -parallel, and every saved page is its 200's payload.
func TestWARC(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	crawls := []struct {
		name string
		args []string
		want []string // in the summary of responses
	}{
		{"zoo", []string{zooSeed, "3"}, []string{"404 http://cs50tse.cs.dartmouth.edu/tse/zoo/", "200 http://cs50tse.cs.dartmouth.edu/robots.txt"}},
		{"syntax", []string{"http://cs50tse.cs.dartmouth.edu/tse/syntax/index.html", "2"}, []string{"301 http://"}},
		{"university", []string{"-scope", "http://*.example.edu/", universitySeed, "10"}, []string{"robots.txt"}},
	}
	for _, tc := range crawls {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, file := range []string{"crawl.warc", "crawl.warc.gz"} {
				for _, parallel := range []string{"1", "4"} {
					dir, out := t.TempDir(), filepath.Join(t.TempDir(), file)
					args := append([]string{"-q", "-delay", "0", "-parallel", parallel, "-warc", out}, withDir(tc.args, dir)...)
					if code, _, stderr := crawl(t.Context(), p.getenv, args...); code != exitOK {
						t.Fatalf("%s -parallel %s: exit %d: %s", file, parallel, code, stderr)
					}
					sum := checkPagesArchived(t, dir, checkWARC(t, out))
					for _, w := range tc.want {
						if !strings.Contains(sum, w) {
							t.Errorf("%s -parallel %s: no response %q in:\n%s", file, parallel, w, sum)
						}
					}
					if first == "" {
						first = sum
					} else if sum != first {
						t.Errorf("%s -parallel %s records other exchanges than the first crawl:\n%s", file, parallel, linediff.First(first, sum))
					}
				}
			}
		})
	}
}

// TestWARCResume interrupts a crawl with a WARC file at every step, tears
// its journal and its WARC file as kill -9 can leave them, and resumes
// it: the file must still hold exactly one 200 response for every saved
// page, and every record whole.
func TestWARCResume(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range resumeCrawls[:4] {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-q", "-delay", "0"}, tc.args...)
			_, steps := uninterrupted(t, p, args)
			for step := int64(1); step <= steps; step++ {
				for _, torn := range []bool{false, true} {
					t.Run(fmt.Sprintf("request %d torn %t", step, torn), func(t *testing.T) {
						dir, out := t.TempDir(), filepath.Join(t.TempDir(), "crawl.warc")
						args := append([]string{"-warc", out}, args...)
						code, _, _ := interruptAt(t, p, withDir(args, dir), step, true)
						if code == exitOK {
							return
						}
						if torn {
							tearJournal(t, dir)
							f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
							if err != nil {
								t.Fatal(err)
							}
							f.WriteString("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 100\r\n\r\nHTTP/1.1 200")
							f.Close()
						}
						if code, _, stderr := crawl(t.Context(), p.getenv, withDir(append([]string{"-resume"}, args...), dir)...); code != exitOK {
							t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
						}
						checkPagesArchived(t, dir, checkWARC(t, out))
					})
				}
			}
		})
	}
}

// TestWARCRefused: a WARC file that exists is refused before the first
// request, unless the crawl resumes, and so is a resume without -warc, or
// with another file.
func TestWARCRefused(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	out := filepath.Join(t.TempDir(), "crawl.warc")
	if err := os.WriteFile(out, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-warc", out, zooSeed, t.TempDir(), "1"); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	if code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-warc", filepath.Join(t.TempDir(), "no", "such", "dir.warc"), zooSeed, t.TempDir(), "1"); code != exitUsage {
		t.Errorf("an unwritable path: exit %d, want %d: %s", code, exitUsage, stderr)
	}
	// A page directory that is refused leaves no WARC file behind.
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "1"), []byte("a page\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	made := filepath.Join(t.TempDir(), "made.warc")
	if code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-warc", made, zooSeed, full, "1"); code != exitPageDir {
		t.Errorf("a page directory that holds pages: exit %d, want %d: %s", code, exitPageDir, stderr)
	}
	if _, err := os.Lstat(made); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused crawl left its WARC file: %v", err)
	}
	// A WARC file that cannot be made, in a directory that exists, leaves
	// the page directory unmarked.
	if _, err := os.Stat("/proc/self"); err == nil {
		dir := t.TempDir()
		if code, _, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "-warc", "/proc/self/crawl.warc", zooSeed, dir, "1"); code != exitUsage {
			t.Errorf("a WARC file that cannot be made: exit %d, want %d: %s", code, exitUsage, stderr)
		}
		if names, _ := os.ReadDir(dir); len(names) != 0 {
			t.Errorf("the page directory holds %v, want nothing", names)
		}
	}
	if n := p.requests.Load(); n != 0 {
		t.Errorf("%d requests made", n)
	}
	if data, _ := os.ReadFile(out); string(data) != "mine" {
		t.Errorf("the existing file was changed")
	}
}

// TestWARCProxyScheme: with -warc, an https proxy that is not an http://
// one is refused before the first request, as the crawler could not
// record through it; without -warc it is taken.
func TestWARCProxyScheme(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	for _, tt := range []struct {
		https string
		warc  bool
		want  int
	}{
		{"socks5://127.0.0.1:1080", true, exitUsage},
		{"https://127.0.0.1:3128", true, exitUsage},
		{"socks5://127.0.0.1:1080", false, exitOK},
		{"http://127.0.0.1:3128", true, exitOK},
		{"127.0.0.1:3128", true, exitOK},
	} {
		t.Run(fmt.Sprintf("%s warc %v", tt.https, tt.warc), func(t *testing.T) {
			getenv := func(name string) string {
				if name == "HTTPS_PROXY" {
					return tt.https
				}
				return p.getenv(name)
			}
			args := []string{"-q", "-delay", "0"}
			if tt.warc {
				args = append(args, "-warc", filepath.Join(t.TempDir(), "crawl.warc"))
			}
			args = append(args, zooSeed, t.TempDir(), "0")
			code, _, stderr := crawl(t.Context(), getenv, args...)
			if code != tt.want {
				t.Fatalf("exit %d, want %d: %s", code, tt.want, stderr)
			}
			if code == exitUsage && !strings.Contains(stderr, "only an http:// proxy") {
				t.Errorf("the message does not say what proxy to give: %s", stderr)
			}
		})
	}
}

// TestWARCResumeMissing: a crawl whose WARC file was deleted after it had
// saved pages is refused on -resume (exit 7), with no request and nothing
// written, since a new file would lack those pages' records; put back, it
// resumes.
func TestWARCResumeMissing(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "crawl.warc")
	args := withDir([]string{"-q", "-delay", "0", "-warc", out, zooSeed, "2"}, dir)
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	p.setHook(func(n int64, done bool) {
		if n == 4 && done {
			cancel(stopSignal{syscall.SIGINT})
		}
	})
	if code, _, stderr := crawl(ctx, p.getenv, args...); code != 130 {
		t.Fatalf("interrupted crawl: exit %d, want 130: %s", code, stderr)
	}
	p.setHook(nil) // and counts requests from 0
	aside := out + ".aside"
	if err := os.Rename(out, aside); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	resume := append([]string{"-resume"}, args...)
	code, _, stderr := crawl(t.Context(), p.getenv, resume...)
	if code != exitResume || !strings.Contains(stderr, out+" is missing") {
		t.Errorf("resumed without its WARC file: exit %d, want %d: %s", code, exitResume, stderr)
	}
	if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused resume made %s: %v", out, err)
	}
	if diff := sameDir(snapshot(t, dir), before); diff != "" {
		t.Errorf("the refused resume changed the page directory: %s", diff)
	}
	if n := p.n.Load(); n != 0 {
		t.Errorf("the refused resume sent %d requests", n)
	}
	if err := os.Rename(aside, out); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := crawl(t.Context(), p.getenv, resume...); code != exitOK {
		t.Fatalf("resumed with its WARC file back: exit %d: %s", code, stderr)
	}
	checkPagesArchived(t, dir, checkWARC(t, out))
}
