package warc

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var info = Info{
	Software: "tse-crawler/test",
	Fields:   [][2]string{{"robots", "classic"}, {"maxDepth", "2"}, {"order", "lifo"}},
	Date:     time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
}

// when is an exchange's date, in a zone other than UTC and finer than a
// microsecond, and stamp is how WARC-Date gives it.
var (
	when  = time.Date(2025, 1, 2, 4, 4, 5, 123456789, time.FixedZone("CET", 3600))
	stamp = "2025-01-02T03:04:05.123456Z"
)

func get(path string) string {
	return "GET " + path + " HTTP/1.1\r\nHost: example.test\r\nUser-Agent: tse-crawler/test\r\nAccept-Encoding: gzip\r\n\r\n"
}

// response makes a response with the given head, a Content-Length that
// fits body, and body.
func response(head, body string) string {
	return fmt.Sprintf("%s\r\nContent-Length: %d\r\n\r\n%s", head, len(body), body)
}

func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

var (
	page   = "<html><body><a href=\"a.html\">a</a></body></html>\n"
	zipped = gzipped(page)
	binary = func() string {
		b := make([]byte, 512)
		for i := range b {
			b[i] = byte(i * 7)
		}
		return string(b) + "\r\n\r\nWARC/1.1\r\n\x00"
	}()
	chunked = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"5;name=value\r\nhello\r\n7 \r\n, world\r\n0\r\nExpires: never\r\n\r\n"
	chunkedZipped = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" +
		fmt.Sprintf("%x\r\n%s\r\n%X\r\n%s\r\n0\r\n\r\n", 10, zipped[:10], len(zipped)-10, zipped[10:])
)

const none = "\x00none" // no payload digest

// extra is a response that a server sent unasked, after the one asked for.
const extra = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra"

// exchanges cover the responses a crawl meets, each with the payload its
// record must digest and the WARC-Truncated it must have.
var exchanges = []struct {
	name      string
	x         tx
	payload   string
	truncated string
}{
	{"200", tx{Request: get("/"), Response: response("HTTP/1.1 200 OK\r\nContent-Type: text/html", page)}, page, ""},
	{"chunked, with an extension and a trailer", tx{Response: chunked}, "hello, world", ""},
	{"gzip content coding", tx{Response: response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip", zipped)}, zipped, ""},
	{"gzip content coding, chunked", tx{Response: chunkedZipped}, zipped, ""},
	{"404", tx{Response: response("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain", "no such page\n")}, "no such page\n", ""},
	{"301 with Location", tx{Response: response("HTTP/1.1 301 Moved Permanently\r\nLocation: http://example.test/dir/", "")}, "", ""},
	{"304, no body", tx{Response: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"}, "", ""},
	{"HEAD", tx{Request: "HEAD / HTTP/1.1\r\nHost: example.test\r\n\r\n", Response: "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n"}, "", ""},
	{"binary body", tx{Response: response("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream", binary)}, binary, ""},
	{"to the end of the connection", tx{Response: "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + page}, page, ""},
	// The record holds the final response, from its status line to the
	// end of its message, and nothing else the connection gave.
	{"after 100 Continue", tx{Response: "HTTP/1.1 100 Continue\r\n\r\n" + response("HTTP/1.1 200 OK", "ok"), Record: response("HTTP/1.1 200 OK", "ok")}, "ok", ""},
	{"after 100 Continue and 103 Early Hints", tx{
		Response: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n" + response("HTTP/1.1 200 OK", "ok"),
		Record:   response("HTTP/1.1 200 OK", "ok"),
	}, "ok", ""},
	{"bytes after the end", tx{Response: response("HTTP/1.1 200 OK", "ok") + extra, Record: response("HTTP/1.1 200 OK", "ok")}, "ok", ""},
	{"bytes after a chunked end", tx{Response: chunked + extra, Record: chunked}, "hello, world", ""},
	{"bytes after a 304", tx{Response: "HTTP/1.1 304 Not Modified\r\n\r\n" + extra, Record: "HTTP/1.1 304 Not Modified\r\n\r\n"}, "", ""},
	{"101 ends with its head", tx{Response: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n\x00\x01another protocol", Record: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n"}, "", ""},
	{"HEAD answered with a body", tx{
		Request:  "HEAD / HTTP/1.1\r\nHost: example.test\r\n\r\n",
		Response: "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody",
		Record:   "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n",
	}, "", ""},
	{"POST", tx{
		Request:  "POST /form HTTP/1.1\r\nHost: example.test\r\nContent-Length: 3\r\n\r\na=b",
		Response: response("HTTP/1.1 200 OK", "thanks"),
	}, "thanks", ""},
	{"body cut short", tx{Response: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + page[:10]}, page[:10], "unspecified"},
	{"cut short by the crawler", tx{Response: chunked[:len(chunked)-27], Truncated: "length"}, "hello, w", "length"},
	{"chunk cut short", tx{Response: chunked[:len(chunked)-27]}, "hello, w", "unspecified"},
	{"trailer cut short", tx{Response: chunked[:len(chunked)-5]}, "hello, world", "unspecified"},
	{"head cut short", tx{Response: "HTTP/1.1 200 OK\r\nContent-Le"}, none, "unspecified"},
	{"malformed chunk", tx{Response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"}, none, ""},
	{"not HTTP", tx{Response: "SSH-2.0-OpenSSH_9.6\r\n\r\n"}, none, ""},
	{"IPv6", tx{IP: "2001:DB8:0:0::1", Response: response("HTTP/1.1 200 OK", "v6")}, "v6", ""},
	{"IPv4 in IPv6", tx{IP: "::ffff:192.0.2.7", Response: response("HTTP/1.1 200 OK", "v4")}, "v4", ""},
	{"no IP", tx{IP: "-", Response: response("HTTP/1.1 200 OK", "?")}, "?", ""},
}

// ips are the WARC-IP-Address each exchange's records must have, by the
// IP given: "-" means none, "" the default.
var ips = map[string]string{"": "192.0.2.1", "2001:DB8:0:0::1": "2001:db8::1", "::ffff:192.0.2.7": "192.0.2.7", "-": ""}

// A tx is an exchange of the table, to be completed by fill. Record is
// what the response record holds, if not the whole Response.
type tx struct {
	Request, Response, Record, IP, Truncated string
}

// fill completes the ith exchange of the table.
func fill(t tx, i int) Exchange {
	x := Exchange{
		TargetURI: fmt.Sprintf("http://example.test/page%d.html", i),
		Date:      when,
		IP:        t.IP,
		Request:   []byte(t.Request),
		Response:  strings.NewReader(t.Response),
		Truncated: t.Truncated,
	}
	if t.Request == "" {
		x.Request = []byte(get(fmt.Sprintf("/page%d.html", i)))
	}
	switch x.IP {
	case "":
		x.IP = "192.0.2.1"
	case "-":
		x.IP = ""
	}
	return x
}

// fileNames are the files a test writes: one plain, one gzipped.
var fileNames = []string{"crawl.warc", "crawl.warc.gz"}

// create creates a WARC file at path, with info.
func create(t testing.TB, path string) *Writer {
	t.Helper()
	w, err := Create(path, info)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// readFile reads and checks a WARC file, and returns its records.
func readFile(t *testing.T, path string) []rec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := parseWARC(data, strings.HasSuffix(path, ".gz"))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	checkRecords(t, recs)
	return recs
}

func TestWriteExchange(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), name)
			w := create(t, path)
			for i, tt := range exchanges {
				if err := w.WriteExchange(fill(tt.x, i)); err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readFile(t, path)
			if len(recs) != 1+2*len(exchanges) {
				t.Fatalf("%d records, want %d", len(recs), 1+2*len(exchanges))
			}
			checkInfo(t, recs[0], name)
			for i, tt := range exchanges {
				t.Run(tt.name, func(t *testing.T) {
					x := fill(tt.x, i)
					req, resp := recs[1+2*i], recs[2+2*i]
					record := cmp.Or(tt.x.Record, tt.x.Response)
					if !bytes.Equal(req.block, x.Request) || string(resp.block) != record {
						t.Errorf("blocks %q and %q, want the request as given and %q", req.block, resp.block, record)
					}
					for _, r := range []rec{req, resp} {
						if got := r.must(t, "WARC-Target-URI"); got != x.TargetURI {
							t.Errorf("WARC-Target-URI %q, want %q", got, x.TargetURI)
						}
						if got := r.must(t, "WARC-Date"); got != stamp {
							t.Errorf("WARC-Date %q, want %q", got, stamp)
						}
						if got, _ := r.get(t, "WARC-IP-Address"); got != ips[tt.x.IP] {
							t.Errorf("WARC-IP-Address %q, want %q", got, ips[tt.x.IP])
						}
					}
					got, ok := resp.get(t, "WARC-Payload-Digest")
					switch {
					case tt.payload == none && ok:
						t.Errorf("WARC-Payload-Digest %s, want none", got)
					case tt.payload != none && got != sha1b32([]byte(tt.payload)):
						t.Errorf("WARC-Payload-Digest %q, want %s, of %q", got, sha1b32([]byte(tt.payload)), tt.payload)
					}
					if got, _ := resp.get(t, "WARC-Truncated"); got != tt.truncated {
						t.Errorf("WARC-Truncated %q, want %q", got, tt.truncated)
					}
				})
			}
		})
	}
}

// checkInfo checks the warcinfo record of a file named name written with
// info.
func checkInfo(t *testing.T, r rec, name string) {
	t.Helper()
	if got := r.must(t, "WARC-Filename"); got != name {
		t.Errorf("WARC-Filename %q, want %q", got, name)
	}
	if got, want := r.must(t, "WARC-Date"), "2025-01-02T03:04:05.000000Z"; got != want {
		t.Errorf("warcinfo WARC-Date %q, want %q", got, want)
	}
	want := "software: tse-crawler/test\r\n" +
		"format: WARC File Format 1.1\r\n" +
		"conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n" +
		"robots: classic\r\nmaxDepth: 2\r\norder: lifo\r\n"
	if string(r.block) != want {
		t.Errorf("warcinfo block %q, want %q", r.block, want)
	}
}

// TestConcurrent: exchanges written at once from many goroutines come out
// whole, each request next to its response.
func TestConcurrent(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), name)
			w := create(t, path)
			const n = 40
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					if err := w.WriteExchange(fill(exchanges[i%len(exchanges)].x, i)); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readFile(t, path)
			var uris []string
			for _, r := range recs[1:] {
				if r.must(t, "WARC-Type") == "response" {
					uris = append(uris, r.must(t, "WARC-Target-URI"))
				}
			}
			slices.Sort(uris)
			if len(uris) != n || len(slices.Compact(uris)) != n {
				t.Errorf("%d responses for %d distinct URIs, want %d of each", len(recs[1:])/2, len(uris), n)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	infos := []struct {
		name string
		info Info
	}{
		{"no software", Info{}},
		{"software of two lines", Info{Software: "a\r\nb"}},
		{"field name not a token", Info{Software: "s", Fields: [][2]string{{"max depth", "2"}}}},
		{"field value of two lines", Info{Software: "s", Fields: [][2]string{{"seed", "a\nWARC-Type: response"}}}},
		{"field value not UTF-8", Info{Software: "s", Fields: [][2]string{{"seed", "\xff"}}}},
		{"field the package writes", Info{Software: "s", Fields: [][2]string{{"Format", "mine"}}}},
	}
	for _, tt := range infos {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "x.warc")
			for _, open := range []func(string, Info) (*Writer, error){Create, Reopen} {
				if _, err := open(path, tt.info); err == nil {
					t.Fatalf("%+v: no error", tt.info)
				}
				if _, err := os.Lstat(path); err == nil {
					t.Fatalf("%+v: refused, but made %s", tt.info, path)
				}
			}
		})
	}

	path := filepath.Join(dir, "crawl.warc")
	w := create(t, path)
	good := fill(tx{Response: response("HTTP/1.1 200 OK", "ok")}, 0)
	xs := []struct {
		name string
		edit func(*Exchange)
	}{
		{"no target URI", func(x *Exchange) { x.TargetURI = "" }},
		{"relative target URI", func(x *Exchange) { x.TargetURI = "/a.html" }},
		{"target URI with a space", func(x *Exchange) { x.TargetURI = "http://example.test/a b" }},
		{"target URI with a newline", func(x *Exchange) { x.TargetURI = "http://example.test/\r\nWARC-Type: x" }},
		{"no date", func(x *Exchange) { x.Date = time.Time{} }},
		{"bad IP", func(x *Exchange) { x.IP = "example.test" }},
		{"no response", func(x *Exchange) { x.Response = nil }},
		{"bad truncation reason", func(x *Exchange) { x.Truncated = "too long" }},
	}
	for _, tt := range xs {
		t.Run(tt.name, func(t *testing.T) {
			x := good
			tt.edit(&x)
			if err := w.WriteExchange(x); err == nil {
				t.Errorf("%+v: no error", x)
			}
		})
	}
	if err := w.WriteExchange(good); err != nil {
		t.Errorf("a good exchange after bad ones: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(readFile(t, path)); got != 3 {
		t.Errorf("%d records, want 3: the bad exchanges must write nothing", got)
	}
	if err := w.WriteExchange(good); err == nil {
		t.Error("WriteExchange after Close: no error")
	}
	if err := w.Close(); err == nil {
		t.Error("second Close: no error")
	}
}

// TestGzipSuffix: a name that ends in .gz in any case makes a gzipped
// file, which Read and Reopen read as one; any other name a plain file.
func TestGzipSuffix(t *testing.T) {
	tests := []struct {
		name string
		gzip bool
	}{
		{"crawl.warc", false},
		{"CRAWL.WARC", false},
		{"crawl.warc.gz", true},
		{"CRAWL.WARC.GZ", true},
		{"crawl.warc.Gz", true},
		{"crawl.gzip", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name)
			w := create(t, path)
			if err := w.WriteExchange(fill(exchanges[0].x, 0)); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if w, err := Reopen(path, info); err != nil {
				t.Fatalf("Reopen: %v", err)
			} else {
				w.Close()
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.HasPrefix(data, []byte{0x1f, 0x8b}); got != tc.gzip {
				t.Errorf("gzipped: %v, want %v", got, tc.gzip)
			}
			n := 0
			if err := Read(path, func(Record, io.Reader) error { n++; return nil }); err != nil {
				t.Fatalf("Read: %v", err)
			}
			if n != 4 {
				t.Errorf("Read read %d records, want 4", n)
			}
		})
	}
}

// TestInfoFilename: Info.Filename names the file in the warcinfo record
// of each run, for a file written under another name first; "" names it
// by its own base name, and a name that is no base name is refused.
func TestInfoFilename(t *testing.T) {
	tests := []struct {
		filename, want string
		ok             bool
	}{
		{"", "x.wacz.warc.gz", true},
		{"data.warc.gz", "data.warc.gz", true},
		{"dir/data.warc.gz", "", false},
		{`dir\data.warc.gz`, "", false},
		{"data\r\n.warc.gz", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.filename, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.wacz.warc.gz")
			in := info
			in.Filename = tc.filename
			w, err := Create(path, in)
			if !tc.ok {
				if err == nil {
					t.Fatal("Create: no error")
				}
				if _, err := os.Lstat(path); err == nil {
					t.Error("Create refused the info, but made the file")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			if w, err = Reopen(path, in); err != nil {
				t.Fatal(err)
			}
			w.Close()
			recs := readFile(t, path)
			if len(recs) != 2 {
				t.Fatalf("%d records, want the warcinfo of each run", len(recs))
			}
			for _, r := range recs {
				if got := r.must(t, "WARC-Filename"); got != tc.want {
					t.Errorf("WARC-Filename %q, want %q", got, tc.want)
				}
			}
		})
	}
}
