package main

import (
	"bytes"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/testbed/hostile"
)

// The tests here crawl the hostile site with the cases of issue 19: what
// a hostile server, or a proxy that dies, still broke.

// wireURI is how a crawl that keeps raw bytes in a page's key (the
// reference mode does) names the page on the wire, and so in its WARC
// records: net/url escapes the path, and the crawler the query, as a
// browser does: controls, space, '"', '#', '<', '>', "'" and the bytes
// from 0x7F.
func wireURI(t *testing.T, key string) string {
	t.Helper()
	u, err := url.Parse(key)
	if err != nil {
		t.Fatalf("the key %q: %v", key, err)
	}
	var q strings.Builder
	for _, c := range []byte(u.RawQuery) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"#<>'`, c) >= 0 {
			fmt.Fprintf(&q, "%%%02X", c)
		} else {
			q.WriteByte(c)
		}
	}
	u.RawQuery = q.String()
	return u.String()
}

// TestHostileRawBytesWARC: pages whose links and redirect hold raw bytes,
// which the reference mode keeps in its keys, are crawled with -warc as
// without: same log, same pages, exit 0. Their records name each page as
// it went on the wire, escaped.
func TestHostileRawBytesWARC(t *testing.T) {
	t.Parallel()
	for _, links := range []string{"reference", "html"} {
		t.Run(links, func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			args := []string{"-delay", "0", "-links", links, hostile.RawSeed, "1"}
			plain := t.TempDir()
			code, wantLog, stderr := crawl(t.Context(), proxyEnv(s.URL), withDir(args, plain)...)
			if code != exitOK {
				t.Fatalf("without -warc: exit %d: %s", code, stderr)
			}
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), "raw.warc")
			code, log, stderr := crawl(t.Context(), proxyEnv(s.URL), withDir(append([]string{"-warc", out}, args...), dir)...)
			if code != exitOK {
				t.Fatalf("with -warc: exit %d: %s", code, stderr)
			}
			if log != wantLog {
				t.Errorf("the log with -warc differs:\n%s\nwithout:\n%s", log, wantLog)
			}
			if diff := sameDir(snapshot(t, dir), snapshot(t, plain)); diff != "" {
				t.Errorf("the pages with -warc differ: %s", diff)
			}
			caps := checkWARC(t, out)
			oks := make(map[string]int)
			for _, c := range caps {
				for i := range len(c.uri) {
					if c.uri[i] <= ' ' || c.uri[i] >= 0x7f {
						t.Errorf("WARC-Target-URI %q holds a raw byte", c.uri)
						break
					}
				}
				if c.status == 200 {
					oks[c.uri]++
				}
			}
			raw := 0
			for _, p := range readPages(t, dir) {
				if p.url != wireURI(t, p.url) || links == "html" && strings.Contains(p.url, "%") {
					raw++
				}
				if uri := wireURI(t, p.url); oks[uri] != 1 && links == "reference" {
					t.Errorf("page %d, %q, has %d responses 200 as %s, want 1", p.id, p.url, oks[uri], uri)
				}
			}
			if raw < 3 {
				t.Errorf("only %d pages hold bytes that must be escaped on the wire: the case tests nothing", raw)
			}
		})
	}
}

// TestHostileQueryEscaped: a query holding what a browser escapes in one
// ('<' and '>', "'", '"') goes out as a browser sends it, in either mode,
// and its records name it so; the reference mode's pages and log keep the
// link's raw bytes, which are the page's key.
func TestHostileQueryEscaped(t *testing.T) {
	t.Parallel()
	wire := map[string]string{"<lt>": "%3Clt%3E", "'sq'": "%27sq%27", `"dq"`: "%22dq%22"} // a link's query: as a browser sends it
	for _, links := range []string{"reference", "html"} {
		t.Run(links, func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), "raw.warc")
			code, log, stderr := crawl(t.Context(), proxyEnv(s.URL), "-delay", "0", "-links", links, "-warc", out, hostile.RawSeed, dir, "1")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			sent := make(map[string]bool)
			for _, r := range s.Requests() {
				if r.Decoded == "/tse/raw/q.html" {
					sent[r.Query] = true
				}
			}
			uris := make(map[string]bool)
			for _, c := range checkWARC(t, out) {
				uris[c.uri] = true
			}
			keys := make(map[string]bool)
			for _, p := range readPages(t, dir) {
				keys[p.url] = true
			}
			for query, escaped := range wire {
				if !sent[escaped] {
					t.Errorf("q.html?%s was not requested as q.html?%s: the server got the queries %q", query, escaped, slices.Collect(maps.Keys(sent)))
				}
				if uri := hostile.Site + "raw/q.html?" + escaped; !uris[uri] {
					t.Errorf("no record names %s", uri)
				}
				key := hostile.Site + "raw/q.html?" + query
				if links == "html" {
					key = hostile.Site + "raw/q.html?" + escaped // the browser's name for the page
				}
				if !keys[key] || !strings.Contains(log, " "+key+"\n") {
					t.Errorf("the page %q is not saved and logged under that name", key)
				}
			}
			for q := range sent {
				if strings.ContainsAny(q, `<>'"`) {
					t.Errorf("q.html?%s was sent with a byte a browser escapes", q)
				}
			}
		})
	}
}

// TestHostileResponseFramed: a response record holds the final response,
// from its status line to the end of its message: not the 100 Continue
// and 103 Early Hints before a 200, nor a second response the server sent
// after it, unasked, framed by Content-Length or chunked. Each saved page
// is the payload of its record, which warcio indexes by its 200.
func TestHostileResponseFramed(t *testing.T) {
	t.Parallel()
	for _, seed := range []string{hostile.InterimSeed, hostile.TrailingSeed} {
		for _, name := range []string{"crawl.warc", "crawl.warc.gz"} {
			t.Run(strings.TrimPrefix(seed, hostile.Site)+" "+name, func(t *testing.T) {
				t.Parallel()
				s := hostile.ServeTest(t, hostile.Options{})
				dir, out := t.TempDir(), filepath.Join(t.TempDir(), name)
				code, _, stderr := crawl(t.Context(), proxyEnv(s.URL), "-delay", "0", "-warc", out, seed, dir, "1")
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if strings.Contains(stderr, "Unsolicited") {
					t.Errorf("stderr tells of the unasked response in net/http's words:\n%s", stderr)
				}
				checkPagesArchived(t, dir, checkWARC(t, out))
				pages := 0
				for _, rec := range warcRecords(t, out) {
					if rec.fields["warc-type"] != "response" {
						continue
					}
					if !bytes.HasPrefix(rec.block, []byte("HTTP/1.1 200 ")) && !bytes.HasPrefix(rec.block, []byte("HTTP/1.1 404 ")) {
						t.Errorf("the record of %s begins %q", rec.fields["warc-target-uri"], rec.block[:min(len(rec.block), 40)])
					}
					if bytes.Contains(rec.block, []byte(hostile.TrailingExtra)) || bytes.Contains(rec.block, []byte(hostile.InterimPrelude)) ||
						bytes.Contains(rec.block, []byte("HTTP/1.1 103")) || bytes.Contains(rec.block, []byte("HTTP/1.1 100")) {
						t.Errorf("the record of %s holds more than its response: %q", rec.fields["warc-target-uri"], rec.block)
					}
					// The chunked page ends with its last chunk.
					chunked := bytes.HasSuffix(rec.block, []byte("\r\n0\r\n\r\n")) && bytes.Contains(rec.block, []byte("second response"))
					if bytes.HasSuffix(rec.block, []byte(hostile.InterimBody)) || bytes.HasSuffix(rec.block, []byte(hostile.TrailingBody)) || chunked {
						pages++
					}
				}
				if want := map[string]int{hostile.InterimSeed: 1, hostile.TrailingSeed: 2}[seed]; pages != want {
					t.Errorf("%d records of the hostile pages, want %d", pages, want)
				}
			})
		}
	}
}

// TestHostileKilledProxy: the proxy is killed in the middle of a crawl of
// four hosts, with the answer it was sending cut short and its kept-alive
// connections reset, at each of several points, with no retries, one
// host at a time and four at once. The crawl stops as an outage (exit 8)
// without marking a page FAILED, and -resume through a new proxy finishes
// it as the crawl never stopped would have.
func TestHostileKilledProxy(t *testing.T) {
	t.Parallel()
	for _, parallel := range []string{"1", "4"} {
		t.Run("parallel "+parallel, func(t *testing.T) {
			t.Parallel()
			args := []string{"-delay", "0", "-retries", "0", "-parallel", parallel}
			for _, sc := range hostile.HostsScopes {
				args = append(args, "-scope", sc)
			}
			args = append(args, hostile.HostsSeed, fmt.Sprint(hostile.HostsDepth))
			full := hostile.ServeTest(t, hostile.Options{})
			wantDir := t.TempDir()
			if code, _, stderr := crawl(t.Context(), proxyEnv(full.URL), withDir(args, wantDir)...); code != exitOK {
				t.Fatalf("uninterrupted crawl: exit %d: %s", code, stderr)
			}
			want := snapshot(t, wantDir)
			if n := len(readPages(t, wantDir)); n != hostile.HostsPages {
				t.Fatalf("the uninterrupted crawl saved %d pages, want %d", n, hostile.HostsPages)
			}
			for _, after := range []int{1, 2, 5, 13, 30, 51} {
				t.Run(fmt.Sprint("killed at answer ", after), func(t *testing.T) {
					s := hostile.ServeTest(t, hostile.Options{KillAfter: after})
					dir := t.TempDir()
					code, stdout, stderr := crawl(t.Context(), proxyEnv(s.URL), withDir(args, dir)...)
					if code != exitOutage {
						t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOutage, stderr)
					}
					if lines := failedLines(stdout); len(lines) > 0 {
						t.Errorf("the outage marked pages FAILED: %q", lines)
					}
					checkWhole(t, snapshot(t, dir), want)
					<-s.Killed()
					back := hostile.ServeTest(t, hostile.Options{Addr: s.Addr})
					code, _, stderr = crawl(t.Context(), proxyEnv(back.URL), withDir(append([]string{"-resume"}, args...), dir)...)
					if code != exitOK {
						t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
					}
					if diff := sameDir(snapshot(t, dir), want); diff != "" {
						t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
					}
				})
			}
		})
	}
}

// TestHostileNeverConnects: a seed that no connection can ever be made
// to, for what the user typed, is a bad seed or a seed that fails, not an
// outage to resume: a port out of range exits 3 before any request, and a
// -timeout of 1ns exits 6, saying it is too short.
func TestHostileNeverConnects(t *testing.T) {
	t.Parallel()
	s := hostile.ServeTest(t, hostile.Options{})
	for _, port := range []string{"99999", "0", "65536"} {
		// In every mode: -links auto reads a -scope as a browser does,
		// and a browser refuses such a port, but the seed is to blame.
		for _, links := range []string{"auto", "reference", "html"} {
			dir := t.TempDir()
			seed := "http://127.0.0.1:" + port + "/tse/index.html"
			code, _, stderr := crawl(t.Context(), proxyEnv(s.URL), "-delay", "0", "-links", links, "-scope", "http://127.0.0.1:"+port+"/", seed, dir, "1")
			if code != exitSeedURL || !strings.Contains(stderr, "port "+port) {
				t.Errorf("-links %s, seed on port %s: exit %d, want %d, naming the port: %s", links, port, code, exitSeedURL, stderr)
			}
			if names, _ := os.ReadDir(dir); len(names) != 0 {
				t.Errorf("-links %s, seed on port %s: the page directory holds %v", links, port, names)
			}
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests for seeds that cannot be connected to", n)
	}
	for _, timeout := range []string{"1ns", "1us"} {
		dir := t.TempDir()
		code, _, stderr := crawl(t.Context(), proxyEnv(s.URL), "-delay", "0", "-timeout", timeout, hostile.PlainSeed, dir, "1")
		if code != exitSeedFetch || !strings.Contains(stderr, "-timeout "+strings.Replace(timeout, "us", "µs", 1)+" too short") {
			t.Errorf("-timeout %s: exit %d, want %d, asking whether it is too short: %s", timeout, code, exitSeedFetch, stderr)
		}
		if strings.Contains(stderr, "-resume") {
			t.Errorf("-timeout %s: a seed that fails is no crawl to resume: %s", timeout, stderr)
		}
	}
}
