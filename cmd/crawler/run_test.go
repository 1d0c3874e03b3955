package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"tse-crawler/internal/pagesave"
	"tse-crawler/internal/playground"
	"tse-crawler/internal/playgroundtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// A proxy serves a site as the playground command does: as a forward proxy,
// so the crawler fetches the site's real URLs from it. It counts requests.
type proxy struct {
	*httptest.Server
	requests atomic.Int64
}

func newProxy(t *testing.T, fsys fs.FS) *proxy {
	t.Helper()
	p := new(proxy)
	h := playground.Handler(fsys)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// getenv returns an environment in which HTTP_PROXY is the proxy.
func (p *proxy) getenv(name string) string { return proxyEnv(p.URL)(name) }

// proxyEnv returns an environment in which HTTP_PROXY is proxy, and
// nothing else is set.
func proxyEnv(proxy string) func(string) string {
	return func(name string) string {
		if name == "HTTP_PROXY" {
			return proxy
		}
		return ""
	}
}

// crawl runs the command with the given arguments and returns its exit
// code, stdout and stderr.
func crawl(ctx context.Context, getenv func(string) string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, &stdout, &stderr, getenv)
	return code, stdout.String(), stderr.String()
}

// testdataSite is the project's own playground, served by make demo.
func testdataSite(t *testing.T) fs.FS {
	root, err := os.OpenRoot(filepath.Join("..", "..", "testdata", "playground"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root.FS()
}

const letters = "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html"

func TestUsageErrors(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	seed := "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string // "DIR" is replaced by an empty directory
		code int
		msg  string // a phrase the error message must hold
	}{
		{"no arguments", nil, exitUsage, "expected 3 arguments"},
		{"one argument", []string{seed}, exitUsage, "got 1"},
		{"two arguments", []string{seed, "DIR"}, exitUsage, "got 2"},
		{"four arguments", []string{seed, "DIR", "2", "extra"}, exitUsage, "got 4"},
		{"flag after the arguments", []string{seed, "DIR", "2", "-q"}, exitUsage, "must come before the arguments"},
		{"unknown flag", []string{"-fast", seed, "DIR", "2"}, exitUsage, "-fast"},
		{"bad delay", []string{"-delay", "soon", seed, "DIR", "2"}, exitUsage, "delay"},
		{"negative delay", []string{"-delay", "-1s", seed, "DIR", "2"}, exitUsage, "negative"},
		{"bad scanner", []string{"-links", "regex", seed, "DIR", "2"}, exitUsage, "use reference or html"},
		{"bad order", []string{"-order", "random", seed, "DIR", "2"}, exitUsage, "use lifo, bfs or priority"},
		{"bad size", []string{"-max-size", "10MB", seed, "DIR", "2"}, exitUsage, "give a size such as 10MiB"},
		{"zero size", []string{"-max-size", "0", seed, "DIR", "2"}, exitUsage, "give a size"},
		{"negative retries", []string{"-retries", "-1", seed, "DIR", "2"}, exitUsage, "-retries -1 is negative"},
		{"too many retries", []string{"-retries", "1000000", seed, "DIR", "2"}, exitUsage, "at most 10"},
		{"stats file in a missing directory", []string{"-stats-json", "/no/such/dir/stats.json", seed, "DIR", "2"}, exitUsage, "-stats-json"},
		{"stats file that is a directory", []string{"-stats-json", os.TempDir(), seed, "DIR", "2"}, exitUsage, "-stats-json"},
		{"zero timeout", []string{"-timeout", "0s", seed, "DIR", "2"}, exitUsage, "not positive"},
		{"bad timeout", []string{"-timeout", "forever", seed, "DIR", "2"}, exitUsage, "give a duration"},
		{"empty user agent", []string{"-user-agent", " ", seed, "DIR", "2"}, exitUsage, "not a usable User-Agent"},
		{"user agent with a newline", []string{"-user-agent", "a\nb", seed, "DIR", "2"}, exitUsage, "not a usable User-Agent"},
		{"bad robots", []string{"-robots=maybe", seed, "DIR", "2"}, exitUsage, "-robots"},
		{"bad scope", []string{"-scope", "example.edu", seed, "DIR", "2"}, exitUsage, "give a URL prefix"},
		{"scope without a path", []string{"-scope", "http://example.edu", seed, "DIR", "2"}, exitUsage, "no path"},
		{"seed outside the scope", []string{"-scope", "http://*.example.edu/", seed, "DIR", "2"}, exitSeedURL, "not in the crawl's scope"},
		{"empty seed", []string{"", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"relative seed", []string{"letters/index.html", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"seed without a path", []string{"http://cs50tse.cs.dartmouth.edu", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"seed that is not html", []string{"http://cs50tse.cs.dartmouth.edu/tse/x.pdf", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"external seed", []string{"http://example.com/index.html", "DIR", "2"}, exitSeedURL, "not internal"},
		{"https seed", []string{"https://cs50tse.cs.dartmouth.edu/tse/", "DIR", "2"}, exitSeedURL, "not internal"},
		{"seed with a port", []string{"http://cs50tse.cs.dartmouth.edu:80/tse/", "DIR", "2"}, exitSeedURL, "not internal"},
		{"seed escaping tse", []string{"http://cs50tse.cs.dartmouth.edu/tse/%2e%2e/x.html", "DIR", "2"}, exitSeedURL, "once a server decodes"},
		{"seed outside tse", []string{"http://cs50tse.cs.dartmouth.edu/TSE/", "DIR", "2"}, exitSeedURL, "not internal"},
		{"missing directory", []string{seed, "/no/such/dir", "2"}, exitPageDir, "does not exist"},
		{"directory is a file", []string{seed, file, "2"}, exitPageDir, "not a directory"},
		{"empty directory name", []string{seed, "", "2"}, exitPageDir, "pageDirectory is empty"},
		{"fraction depth", []string{seed, "DIR", "1.5"}, exitMaxDepth, "not an integer"},
		{"depth with letters", []string{seed, "DIR", "2x"}, exitMaxDepth, "not an integer"},
		{"negative depth", []string{seed, "DIR", "-1"}, exitMaxDepth, "not an integer from 0 to 10"},
		{"depth too large", []string{seed, "DIR", "11"}, exitMaxDepth, "not an integer from 0 to 10"},
		{"empty depth", []string{seed, "DIR", ""}, exitMaxDepth, "not an integer"},
		{"signed depth", []string{seed, "DIR", "+3"}, exitMaxDepth, "not an integer"},
		{"spaced depth", []string{seed, "DIR", " 3"}, exitMaxDepth, "not an integer"},
		{"huge depth", []string{seed, "DIR", "99999999999999999999"}, exitMaxDepth, "not an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := slices.Clone(tt.args)
			for i, a := range args {
				if a == "DIR" {
					args[i] = dir
				}
			}
			before := p.requests.Load()
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.msg) || !strings.HasPrefix(stderr, "crawler: ") {
				t.Errorf("stderr %q does not hold %q", stderr, tt.msg)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if n := p.requests.Load() - before; n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%s holds %v, want nothing", dir, entries)
			}
		})
	}
}

// TestBadProxy: a proxy variable that is set but cannot be used is refused
// before anything is written or sent, rather than ignored, which would send
// the crawl straight to the web.
func TestBadProxy(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	seed := "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"
	tests := []struct {
		name, value string
		ok          bool
	}{
		{"unclosed IPv6", "http://[::1", false},
		{"port out of range", "http://127.0.0.1:99999", false},
		{"port not a number", "http://127.0.0.1:http", false},
		{"unknown scheme", "ftp://127.0.0.1:21", false},
		{"a path", "http://127.0.0.1:8080/proxy/", false},
		{"spaces", "http://127.0.0.1 8080", false},
		{"host and port alone", strings.TrimPrefix(p.URL, "http://"), true},
		{"a URL", p.URL, true},
		{"a URL with a slash", p.URL + "/", true},
	}
	for _, tt := range tests {
		for _, name := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY"} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				// The upper-case name wins where both are set, so http_proxy
				// is tried alone.
				getenv := func(v string) string {
					switch {
					case v == name:
						return tt.value
					case v == "HTTP_PROXY" && name != "http_proxy":
						return p.URL
					}
					return ""
				}
				code, _, stderr := crawl(t.Context(), getenv, "-q", "-delay", "0", seed, dir, "0")
				if tt.ok {
					if code != exitOK {
						t.Errorf("exit %d, want %d: %s", code, exitOK, stderr)
					}
					return
				}
				if code != exitUsage || !strings.Contains(stderr, name) || !strings.Contains(stderr, "is not a proxy URL") {
					t.Errorf("exit %d, stderr %q: want %d and a message naming %s", code, stderr, exitUsage, name)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 0 {
					t.Errorf("%s holds %v, want nothing", dir, entries)
				}
			})
		}
	}
}

func TestPageDirectoryRefused(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	seed := "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"

	t.Run("holds pages", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "7"), []byte("old page"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := crawl(t.Context(), p.getenv, seed, dir, "1")
		if code != exitPageDir || !strings.Contains(stderr, filepath.Join(dir, "7")) {
			t.Errorf("exit %d, stderr %q; want %d and the name of the page in the way", code, stderr, exitPageDir)
		}
		if data, _ := os.ReadFile(filepath.Join(dir, "7")); string(data) != "old page" {
			t.Errorf("page 7 was changed to %q", data)
		}
	})
	t.Run(".crawler is a directory", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".crawler"), 0o755); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := crawl(t.Context(), p.getenv, seed, dir, "1")
		if code != exitPageDir || !strings.Contains(stderr, "cannot create .crawler") || stdout != "" {
			t.Errorf("exit %d, stderr %q; want %d and a message about .crawler", code, stderr, exitPageDir)
		}
	})
	t.Run("not writable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("skipping: root can write to any directory")
		}
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		code, _, stderr := crawl(t.Context(), p.getenv, seed, dir, "1")
		if code != exitPageDir || !strings.Contains(stderr, "cannot create .crawler") {
			t.Errorf("exit %d, stderr %q; want %d and a message about .crawler", code, stderr, exitPageDir)
		}
	})
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64 // 0 for an error
	}{
		{"1", 1}, {"1000", 1000}, {"1B", 1}, {"512KiB", 512 << 10}, {"10MiB", 10 << 20}, {"2GiB", 2 << 30},
		{"", 0}, {"0", 0}, {"-5", 0}, {"10MB", 0}, {"10mib", 0}, {"1.5MiB", 0}, {"MiB", 0}, {" 10", 0},
		{"99999999999GiB", 0}, {"99999999999999999999", 0},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err != nil) != (tt.want == 0) || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := crawl(t.Context(), func(string) string { return "" }, "-h")
	if code != exitOK || stderr != "" {
		t.Errorf("-h: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	for _, want := range []string{"Usage: crawler", "-delay", "-links", "-order", "-robots", "-retries", "-timeout", "-max-size", "-user-agent", "-q", "-h", "HTTP_PROXY", "Exit status", "Example"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-h output lacks %q", want)
		}
	}
	for code := range 7 {
		if !strings.Contains(stdout, fmt.Sprintf("\n  %d ", code)) {
			t.Errorf("-h output does not explain exit status %d", code)
		}
	}
}

func TestSeedFails(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	dir := t.TempDir()
	code, stdout, stderr := crawl(t.Context(), p.getenv, "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/zoo/missing.html", dir, "2")
	if code != exitSeedFetch {
		t.Errorf("exit %d, want %d", code, exitSeedFetch)
	}
	if !strings.Contains(stderr, "cannot fetch the seed page") || !strings.Contains(stderr, "404") {
		t.Errorf("stderr = %q, want the seed's failure and its reason", stderr)
	}
	if want := " 0    FAILED: http://cs50tse.cs.dartmouth.edu/tse/zoo/missing.html\n"; stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	assertOnlyMarker(t, dir)
}

func assertOnlyMarker(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != pagesave.Marker {
		t.Errorf("%s holds %v, want only %s", dir, entries, pagesave.Marker)
	}
}

func TestInterrupted(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(stopSignal{syscall.SIGINT})
	code, _, stderr := crawl(ctx, p.getenv, "-delay", "0", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", dir, "2")
	if code != 130 || !strings.Contains(stderr, "interrupt") {
		t.Errorf("exit %d, stderr %q; want 130 and a word about the interrupt", code, stderr)
	}
	assertOnlyMarker(t, dir)
}

// TestDelayNeedsLoopback checks that a pause under a second is refused as
// soon as a connection would go to an address that is not loopback: here,
// a proxy on one of this machine's other addresses.
func TestDelayNeedsLoopback(t *testing.T) {
	ip := nonLoopbackIP(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("skipping: cannot listen on %s: %v", ip, err)
	}
	var requests atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprint(w, "<html>hello</html>")
	}))
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	getenv := proxyEnv(srv.URL)
	for _, delay := range []string{"0", "999ms"} {
		t.Run(delay, func(t *testing.T) {
			dir := t.TempDir()
			code, _, stderr := crawl(t.Context(), getenv, "-delay", delay, letters, dir, "1")
			if code != exitFailure || !strings.Contains(stderr, "loopback") || !strings.Contains(stderr, ip) {
				t.Errorf("exit %d, stderr %q; want %d and a message naming the rule and %s", code, stderr, exitFailure, ip)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("the server got %d requests, want none", n)
			}
			assertOnlyMarker(t, dir)
		})
	}
}

func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil {
			return ipn.IP.String()
		}
	}
	t.Skip("skipping: this machine has no IPv4 address but loopback")
	return ""
}

// TestGolden crawls the project's own test sites and compares the result
// with golden files: which pages were saved, at which depth, in what order,
// and the whole log. go test -update rewrites them.
func TestGolden(t *testing.T) {
	fsys := testdataSite(t)
	p := newProxy(t, fsys)
	tests := []struct {
		name string
		args []string
	}{
		{"zoo-lifo", []string{"http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "10"}},
		{"zoo-bfs", []string{"-order", "bfs", "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "10"}},
		{"zoo-depth-2", []string{"http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html", "2"}},
		{"zoo-from-eel", []string{"http://cs50tse.cs.dartmouth.edu/tse/zoo/eel.html", "10"}},
		{"syntax-reference", []string{"http://cs50tse.cs.dartmouth.edu/tse/syntax/index.html", "2"}},
		{"syntax-html", []string{"-links", "html", "http://cs50tse.cs.dartmouth.edu/tse/syntax/index.html", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"-delay", "0"}, tt.args...)
			args = slices.Insert(args, len(args)-1, dir)
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			got := fmt.Sprintf("# crawler %s\nexit %d\n\n## pages\n%s\n## stdout\n%s\n## stderr\n%s",
				strings.Join(slices.Replace(args, len(args)-2, len(args)-1, "DIR"), " "),
				code, dumpDir(t, dir, fsys), stdout, stderr)
			golden := filepath.Join("..", "..", "testdata", "golden", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("crawl differs from %s (go test -update to accept):\n%s", golden, lineDiff(string(want), got))
			}
		})
	}
}

// dumpDir lists a page directory, one line per page in docID order, and
// checks that each page is whole: its URL, its depth and exactly the bytes
// the site serves for the URL.
func dumpDir(t *testing.T, dir string, site fs.FS) string {
	t.Helper()
	pages := readPages(t, dir)
	var b strings.Builder
	for _, p := range pages {
		fmt.Fprintf(&b, "%d %d %s\n", p.id, p.depth, p.url)
		want, err := playgroundtest.Body(site, p.url)
		if err != nil {
			t.Errorf("page %d: %s is not in the site: %v", p.id, p.url, err)
		} else if !bytes.Equal(p.html, want) {
			t.Errorf("page %d: html differs from the site's %s", p.id, p.url)
		}
	}
	return b.String()
}

type page struct {
	id, depth int
	url       string
	html      []byte
}

// readPages reads every page of a page directory, in docID order, and
// checks that the directory holds an empty .crawler, pages numbered 1..N
// with no gap, and nothing else.
func readPages(t *testing.T, dir string) []page {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var pages []page
	for _, e := range entries {
		name := e.Name()
		if name == pagesave.Marker {
			if fi, err := e.Info(); err != nil || fi.Size() != 0 {
				t.Errorf(".crawler is not empty")
			}
			continue
		}
		id, ok := pagesave.DocID(name)
		if !ok {
			t.Errorf("unexpected file %s in the page directory", name)
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		url, rest, ok1 := strings.Cut(string(data), "\n")
		depth, html, ok2 := strings.Cut(rest, "\n")
		d, err := strconv.Atoi(depth)
		if !ok1 || !ok2 || err != nil || !strings.HasSuffix(html, "\n") {
			t.Errorf("page %s is not URL\\ndepth\\nHTML\\n: %.80q", name, data)
			continue
		}
		pages = append(pages, page{id, d, url, []byte(html[:len(html)-1])})
	}
	slices.SortFunc(pages, func(a, b page) int { return a.id - b.id })
	for i, p := range pages {
		if p.id != i+1 {
			t.Errorf("docIDs have a gap: page %d where %d should be", p.id, i+1)
			break
		}
	}
	return pages
}

// lineDiff shows the first lines at which want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n-%s\n+%s", i+1, wl, gl)
		}
	}
	return "(no difference in lines)"
}
