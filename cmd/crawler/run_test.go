package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/manual"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/playground"
	"tse-crawler/internal/testbed/hostile"
	"tse-crawler/internal/testbed/playgroundtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden, and crawler.1 and README's tables from the manual")

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

// crawl runs the command, as "crawler", with the given arguments and
// returns its exit code, stdout and stderr.
func crawl(ctx context.Context, getenv func(string) string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(ctx, append([]string{"crawler"}, args...), &stdout, &stderr, getenv)
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
		{"bad scanner", []string{"-links", "regex", seed, "DIR", "2"}, exitUsage, "use auto, reference or html"},
		{"bad order", []string{"-order", "random", seed, "DIR", "2"}, exitUsage, "use lifo, bfs or priority"},
		{"bad size", []string{"-max-size", "10MB", seed, "DIR", "2"}, exitUsage, "give a size such as 10MiB"},
		{"zero size", []string{"-max-size", "0", seed, "DIR", "2"}, exitUsage, "give a size"},
		{"negative retries", []string{"-retries", "-1", seed, "DIR", "2"}, exitUsage, "-retries -1 is negative"},
		{"too many retries", []string{"-retries", "1000000", seed, "DIR", "2"}, exitUsage, "at most 10"},
		{"no lanes", []string{"-parallel", "0", seed, "DIR", "2"}, exitUsage, "-parallel 0 is out of range: give how many hosts to fetch from at once, from 1"},
		{"too many lanes", []string{"-parallel", "65", seed, "DIR", "2"}, exitUsage, "from 1 (one page at a time) to 64"},
		{"lanes not a number", []string{"-parallel", "four", seed, "DIR", "2"}, exitUsage, "-parallel: give a number of hosts from 1 to 64"},
		{"retries not a number", []string{"-retries", "two", seed, "DIR", "2"}, exitUsage, "-retries: give a number such as 2"},
		{"WARC file that exists", []string{"-warc", file, seed, "DIR", "2"}, exitUsage, "already exists: give the name of a new file"},
		{"WARC file that is a directory", []string{"-warc", os.TempDir(), seed, "DIR", "2"}, exitUsage, "already exists: give the name of a new file"},
		{"WARC file in a missing directory", []string{"-warc", "/no/such/dir/crawl.warc", seed, "DIR", "2"}, exitUsage, "is not a directory: create it first (mkdir -p /no/such/dir)"},
		{"no memory ahead", []string{"-ahead-memory", "0", seed, "DIR", "2"}, exitUsage, "give a size such as 10MiB"},
		{"memory ahead in MB", []string{"-ahead-memory", "64MB", seed, "DIR", "2"}, exitUsage, "give a size such as 10MiB"},
		{"stats file in a missing directory", []string{"-stats-json", "/no/such/dir/stats.json", seed, "DIR", "2"}, exitUsage, "-stats-json"},
		{"stats file that is a directory", []string{"-stats-json", os.TempDir(), seed, "DIR", "2"}, exitUsage, "-stats-json"},
		{"check cache without -check", []string{"-check-cache", "links.json", seed, "DIR", "2"}, exitUsage, "-check-cache links.json works only with -check, which checks links: add -check, or leave -check-cache out"},
		{"a folder to check with a pageDirectory", []string{"-check", "DIR", "DIR", "2"}, exitUsage, "takes the folder alone: leave out pageDirectory and maxDepth"},
		{"check cache age without the cache", []string{"-check", "-check-cache-age", "1h", seed}, exitUsage, "-check-cache-age works only with -check-cache FILE, whose links it ages: add -check -check-cache FILE"},
		{"negative check cache age", []string{"-check", "-check-cache", "links.json", "-check-cache-age", "-1h", seed}, exitUsage, "-check-cache-age -1h is negative: give how long"},
		{"check cache that is a directory", []string{"-check", "-check-cache", os.TempDir(), seed}, exitUsage, "is not a regular file"},
		{"check cache in a missing directory", []string{"-check", "-check-cache", "/no/such/dir/links.json", seed}, exitUsage, "-check-cache: open /no/such/dir/links.json.lock: no such file or directory: give a file you can read and write, in a directory you can write to"},
		{"check cache in pageDirectory", []string{"-check", "-check-cache", "DIR/links.json", seed, "DIR", "2"}, exitUsage, "/links.json is inside pageDirectory "},
		{"zero timeout", []string{"-timeout", "0s", seed, "DIR", "2"}, exitUsage, "not positive"},
		{"bad timeout", []string{"-timeout", "forever", seed, "DIR", "2"}, exitUsage, "give a duration"},
		{"empty user agent", []string{"-user-agent", " ", seed, "DIR", "2"}, exitUsage, "not a usable User-Agent"},
		{"user agent with a newline", []string{"-user-agent", "a\nb", seed, "DIR", "2"}, exitUsage, "not a usable User-Agent"},
		{"bad robots", []string{"-robots=maybe", seed, "DIR", "2"}, exitUsage, "-robots"},
		{"sitemap not a URL", []string{"-sitemap", "sitemap.xml", seed, "DIR", "2"}, exitUsage, `-sitemap "sitemap.xml" is neither auto nor an http or https URL: give auto, or the URL of a sitemap`},
		{"bad scope", []string{"-scope", "example.edu", seed, "DIR", "2"}, exitUsage, "-scope example.edu needs a scheme: give http://example.edu/\n"},
		{"scope with a port, no scheme", []string{"-scope", "127.0.0.1:8766", seed, "DIR", "2"}, exitUsage, "-scope 127.0.0.1:8766 needs a scheme: give http://127.0.0.1:8766/\n"},
		{"scope of a bare host", []string{"-scope", "localhost", seed, "DIR", "2"}, exitUsage, "-scope localhost needs a scheme: give http://localhost/\n"},
		{"scope with one slash", []string{"-scope", "http:/example.edu/", seed, "DIR", "2"}, exitUsage, "has one slash after http:, where http:// has two: give http://example.edu/\n"},
		{"robots=no", []string{"-robots=no", seed, "DIR", "2"}, exitUsage, "crawler: -robots=no: give true or false (or 1, 0, t, f)\n"},
		{"q=yes", []string{"-delay", "2s", "--q=yes", seed, "DIR", "2"}, exitUsage, "crawler: -q=yes: give true or false (or 1, 0, t, f)\n"},
		{"robots= empty", []string{"-robots=", seed, "DIR", "2"}, exitUsage, "crawler: -robots=: give true or false"},
		{"scope without a path", []string{"-links", "reference", "-scope", "http://example.edu", seed, "DIR", "2"}, exitUsage, "no path"},
		{"seed outside the scope", []string{"-scope", "http://*.example.edu/", seed, "DIR", "2"}, exitSeedURL, "is outside the crawl: it must begin with http://*.example.edu/"},
		{"empty seed", []string{"", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"relative seed", []string{"letters/index.html", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"a folder as the seed", []string{"../../testdata", "DIR", "2"}, exitSeedURL, `seedURL "../../testdata" is a folder: to check its links, give -check before it`},
		{"seed without a path", []string{"http://cs50tse.cs.dartmouth.edu", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"seed that is not html", []string{"http://cs50tse.cs.dartmouth.edu/tse/x.pdf", "DIR", "2"}, exitSeedURL, "cannot be normalized"},
		{"external seed", []string{"http://example.com/index.html", "DIR", "2"}, exitSeedURL,
			"seedURL http://example.com/index.html is outside the crawl: it must begin with http://cs50tse.cs.dartmouth.edu/tse/; to crawl another site, add -scope http://example.com/\n"},
		{"seed that escapes the scope", []string{"http://cs50tse.cs.dartmouth.edu/tse/%2E%2E/x.html", "DIR", "2"}, exitSeedURL,
			"it begins with http://cs50tse.cs.dartmouth.edu/tse/, but leaves it once a server decodes the %2E (.) and %2F (/) in its path; to crawl it, add -scope http://cs50tse.cs.dartmouth.edu/\n"},
		{"https seed", []string{"https://cs50tse.cs.dartmouth.edu/tse/", "DIR", "2"}, exitSeedURL, "not internal: it is https, and the crawl's scope is http"},
		{"misspelt scheme", []string{"htp://cs50tse.cs.dartmouth.edu/tse/", "DIR", "2"}, exitSeedURL, "use http://cs50tse.cs.dartmouth.edu/tse/"},
		{"no scheme", []string{"cs50tse.cs.dartmouth.edu/tse/", "DIR", "2"}, exitSeedURL, "has no scheme: use http://cs50tse.cs.dartmouth.edu/tse/"},
		{"another site, no scheme", []string{"www.example.org/index.html", "DIR", "2"}, exitSeedURL,
			`seedURL "www.example.org/index.html" has no scheme: to crawl that site, give -scope http://www.example.org/ and the seed http://www.example.org/index.html`},
		{"a host alone, no scheme", []string{"example.org", "DIR", "2"}, exitSeedURL, "give -scope http://example.org/ and the seed http://example.org"},
		{"another site, misspelt", []string{"htp://example.org/a.html", "DIR", "2"}, exitSeedURL, "has the scheme htp, not http: to crawl that site, give -scope http://example.org/"},
		{"boolean flag and its value", []string{"-robots", "false", seed, "DIR", "2"}, exitUsage, `-robots false: a boolean flag takes its value after "=": write -robots=false`},
		{"boolean flag and no", []string{"-robots", "no", seed, "DIR", "2"}, exitUsage, `-robots no: a boolean flag takes true or false after "=": write -robots=false`},
		{"boolean flag and On", []string{"-stats", "On", seed, "DIR", "2"}, exitUsage, `-stats On: a boolean flag takes true or false after "=": write -stats=true`},
		{"boolean flag and TRUE", []string{"-q", "TRUE", seed, "DIR", "2"}, exitUsage, "write -q=TRUE"},
		{"boolean flag with two dashes", []string{"-delay", "0", "--stats", "False", seed, "DIR", "2"}, exitUsage, "write --stats=False"},
		{"-resume and true, three arguments", []string{"-resume", "true", seed, "DIR"}, exitUsage, "write -resume=true"},
		{"true as a flag's value", []string{"-links-from", "-q", "true", seed, "DIR", "2"}, exitUsage, "got 4"},
		{"boolean flag and 1", []string{"-q", "1", seed, "DIR", "2"}, exitUsage, "got 4"},
		{"seed with a port", []string{"http://cs50tse.cs.dartmouth.edu:80/tse/", "DIR", "2"}, exitSeedURL, "is outside the crawl"},
		{"seed escaping tse", []string{"http://cs50tse.cs.dartmouth.edu/tse/%2e%2e/x.html", "DIR", "2"}, exitSeedURL, "once a server decodes"},
		{"seed outside tse", []string{"http://cs50tse.cs.dartmouth.edu/TSE/", "DIR", "2"}, exitSeedURL, "is outside the crawl: it must begin with http://cs50tse.cs.dartmouth.edu/tse/; to crawl it, add"},
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
				if a == "DIR" || strings.HasPrefix(a, "DIR/") {
					args[i] = dir + a[len("DIR"):]
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

// TestHelp: -h prints a short usage, made from the table of flags: the
// synopses, a line for each flag, an example of each use, and where the
// whole manual is.
func TestHelp(t *testing.T) {
	code, stdout, stderr := crawl(t.Context(), func(string) string { return "" }, "-h")
	if code != exitOK || stderr != "" {
		t.Errorf("-h: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if n := strings.Count(stdout, "\n"); n > 60 {
		t.Errorf("-h prints %d lines, more than 60", n)
	}
	for _, want := range []string{
		"Usage: crawler [flags] seedURL pageDirectory maxDepth\n",
		"crawler -check [flags] seedURL [pageDirectory maxDepth]\n",
		"crawler -h | -help-all | -version\n",
		"./crawler http://cs50tse.cs.dartmouth.edu/tse/letters/index.html data/letters 10\n",
		`./crawler -scope http://127.0.0.1:8765/ http://127.0.0.1:8765/tse/zoo/index.html "$dir" 2` + "\n",
		`./crawler -scope http://127.0.0.1:8765/ -warc "$dir.warc.gz" http://127.0.0.1:8765/tse/zoo/index.html "$dir" 2` + "\n",
		"./crawler -check -delay 0 http://127.0.0.1:8765/tse/town/index.html\n",
		"'man crawler'", "'crawler -help-all'",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-h output lacks %q", want)
		}
	}
	for _, f := range flags {
		line := "\n  " + f.entry().Syntax + " "
		i := strings.Index(stdout, line)
		if i < 0 {
			t.Errorf("-h output has no line for %s", f.entry().Syntax)
			continue
		}
		got, _, _ := strings.Cut(stdout[i+len(line):], "\n")
		want := strings.ReplaceAll(manual.Plain(f.short), "\x00", " ")
		if f.arg != "" && f.def != "" {
			want += " (default " + f.def + ")"
		}
		if strings.TrimLeft(got, " ") != want {
			t.Errorf("-h explains %s as %q, want %q", f.entry().Syntax, strings.TrimLeft(got, " "), want)
		}
	}
}

// TestHelpAll: -help-all prints the whole manual, whatever else the
// command line holds, and sends nothing.
func TestHelpAll(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	for _, args := range [][]string{
		{"-help-all"},
		{"--help-all"},
		{"-q", "-help-all", zooSeed, "DIR", "2"},
		{"-fast", "-help-all"},
		{"-h", "-help-all"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			if code != exitOK || stdout != theManual().Text() || stderr != "" {
				t.Errorf("exit %d, stderr %q; want %d, the whole manual, and nothing on stderr", code, stderr, exitOK)
			}
		})
	}
	if n := p.requests.Load(); n != 0 {
		t.Errorf("-help-all sent %d requests", n)
	}
	code, stdout, stderr := crawl(t.Context(), p.getenv, "-help-all")
	if code != exitOK || stderr != "" {
		t.Errorf("-help-all: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	for _, want := range []string{"Usage: crawler [flags] seedURL pageDirectory maxDepth", "Flags:", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "Exit status:", "Examples:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-help-all output lacks %q", want)
		}
	}
	for _, f := range flags {
		if !strings.Contains(stdout, "\n  "+f.entry().Syntax+"\n") && !strings.Contains(stdout, "\n  "+f.entry().Syntax+" ") {
			t.Errorf("-help-all output does not explain %s", f.entry().Syntax)
		}
	}
	for code := range exitOutage + 1 {
		if !strings.Contains(stdout, fmt.Sprintf("\n  %d ", code)) {
			t.Errorf("-help-all output does not explain exit status %d", code)
		}
	}
	t.Run("-help-all=false", func(t *testing.T) {
		code, stdout, _ := crawl(t.Context(), p.getenv, "-help-all=false")
		if code != exitUsage || stdout != "" {
			t.Errorf("exit %d, stdout %q; want %d: -help-all=false asks for a crawl", code, stdout, exitUsage)
		}
	})
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
	if len(entries) != 1 || entries[0].Name() != pagedir.Marker {
		t.Errorf("%s holds %v, want only %s", dir, entries, pagedir.Marker)
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

// nonLoopbackServer serves h on one of this machine's addresses that is
// not loopback, and returns the address and the server; it skips the test
// if there is none to listen on.
func nonLoopbackServer(t *testing.T, h http.HandlerFunc) (string, *httptest.Server) {
	t.Helper()
	ip := nonLoopbackIP(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("skipping: cannot listen on %s: %v", ip, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return ip, srv
}

// TestDelayNeedsLoopback checks that a pause under a second is refused as
// soon as a connection would go to an address that is not loopback: here,
// a proxy on one of this machine's other addresses.
func TestDelayNeedsLoopback(t *testing.T) {
	var requests atomic.Int64
	ip, srv := nonLoopbackServer(t, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprint(w, "<html>hello</html>")
	})
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
			checkGolden(t, tt.name, got)
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
		if name == pagedir.Marker {
			if fi, err := e.Info(); err != nil || fi.Size() != 0 {
				t.Errorf(".crawler is not empty")
			}
			continue
		}
		id, ok := pagedir.DocID(name)
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

const zooSeed = "http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html"

// TestResumeArgs checks the arguments a resume hint gives for a command
// line: the flags that differ from their defaults, in one form whatever
// form they were given in, then -resume and the three arguments.
func TestResumeArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string // before seedURL pageDirectory maxDepth
		want []string // before -resume and the arguments
	}{
		{"no flags", nil, nil},
		{"resume given", []string{"-resume"}, nil},
		{"resume given twice", []string{"-resume", "--resume=true"}, nil},
		{"resume=false", []string{"-resume=false", "-delay", "0"}, []string{"-delay=0s"}},
		{"defaults given", []string{"-delay", "1s", "-robots=true", "-retries", "2", "-links", "auto", "-max-size", "10485760", "-q=false",
			"-parallel", "4", "-ahead-memory", "64MiB"}, nil},
		{"a flag given twice", []string{"-order", "bfs", "-order", "priority"}, []string{"-order=priority"}},
		{"scope twice", []string{"-scope", "http://cs50tse.cs.dartmouth.edu/tse/zoo/", "-scope", "http://*.example.edu/"},
			[]string{"-scope=http://cs50tse.cs.dartmouth.edu/tse/zoo/", "-scope=http://*.example.edu/"}},
		{"every flag", []string{
			"-ahead-memory", "100MiB", "-parallel", "1",
			"-q", "-user-agent", "my bot/1.0", "-max-size", "512KiB", "-timeout", "90s", "-retries", "0",
			"-robots", "-robots=false", "-stats-json", "s.json", "-stats", "-links-until", "<!-- /C -->",
			"-links-from", "<!-- C -->", "-order", "bfs", "-links", "html", "-delay", "1.5s",
		}, []string{
			"-delay=1.5s", "-links=html", "-order=bfs", "-links-from=<!-- C -->", "-links-until=<!-- /C -->",
			"-stats", "-stats-json=s.json", "-robots=false", "-retries=0", "-timeout=1m30s", "-max-size=512KiB",
			"-user-agent=my bot/1.0", "-parallel=1", "-ahead-memory=100MiB", "-q",
		}},
		{"odd size", []string{"-max-size", "1000"}, []string{"-max-size=1000"}},
		{"size in GiB", []string{"-max-size", "2048MiB"}, []string{"-max-size=2GiB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseArgs(append(slices.Clone(tt.args), zooSeed, "my pages", "3"))
			if err != nil {
				t.Fatal(err)
			}
			got := resumeArgs(cfg)
			want := append(slices.Clone(tt.want), "-resume", zooSeed, "my pages", "3")
			if !slices.Equal(got, want) {
				t.Errorf("resumeArgs(%q) =\n%q, want\n%q", tt.args, got, want)
			}
		})
	}
}

// TestResumeArgsEveryFlag gives each flag a resume carries a value other
// than its default, and checks that the arguments that resume the crawl
// parse back into the same crawl: so a flag whose value the resume
// command does not write as it reads fails.
func TestResumeArgsEveryFlag(t *testing.T) {
	for _, f := range flags {
		v, ok := otherValues[f.name]
		if f.rule == notCarried {
			// Not part of a crawl: -resume is what the command adds,
			// and -version and -h stop before any crawl.
			continue
		}
		if !ok {
			t.Errorf("-%s is not in this test: give it a value here", f.name)
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			cfg, err := parseArgs(append(slices.Clone(alongside[f.name]), "-"+f.name+"="+v, zooSeed, "DIR", "2"))
			if err != nil {
				t.Fatal(err)
			}
			args := resumeArgs(cfg)
			again, err := parseArgs(args)
			if err != nil {
				t.Fatalf("resumeArgs gives %q, which does not parse: %v", args, err)
			}
			cfg.Resume = true
			if !reflect.DeepEqual(again, cfg) {
				t.Errorf("resumeArgs gives %q, which parses to\n%+v, want\n%+v", args, again, cfg)
			}
		})
	}
}

func TestResumeCommand(t *testing.T) {
	tests := []struct {
		name   string
		argv0  string
		getenv func(string) string
		args   []string
		want   string
	}{
		{"bare name", "crawler", envOf(), []string{zooSeed, "data", "2"},
			"crawler -resume " + zooSeed + " data 2"},
		{"path", "./crawler", envOf("HTTP_PROXY", "http://127.0.0.1:41234"), []string{"-delay", "0", zooSeed, "data", "2"},
			"HTTP_PROXY=http://127.0.0.1:41234 ./crawler -delay=0s -resume " + zooSeed + " data 2"},
		{"every proxy variable", "/usr/local/bin/crawler",
			envOf("http_proxy", "127.0.0.1:8080", "HTTPS_PROXY", "http://[::1]:8443", "no_proxy", "localhost, .example.edu", "NO_PROXY", "*"),
			[]string{zooSeed, "data", "2"},
			"http_proxy=127.0.0.1:8080 HTTPS_PROXY='http://[::1]:8443' NO_PROXY='*' no_proxy='localhost, .example.edu' /usr/local/bin/crawler -resume " + zooSeed + " data 2"},
		{"odd names", "/opt/my tools/crawler", envOf(), []string{"-links-from", "<!-- it's here -->", "HTTP://cs50tse.cs.dartmouth.edu/tse/zoo/", "Bob's pages", "2"},
			`'/opt/my tools/crawler' '-links-from=<!-- it'\''s here -->' -resume HTTP://cs50tse.cs.dartmouth.edu/tse/zoo/ 'Bob'\''s pages' 2`},
		{"name like an assignment", "a=b/crawler", envOf(), []string{zooSeed, "data", "2"},
			"'a=b/crawler' -resume " + zooSeed + " data 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseArgs(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if got := resumeCommand(tt.argv0, cfg, tt.getenv); got != tt.want {
				t.Errorf("resumeCommand =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// buildCrawler builds the command into dir, with go build, and returns
// the binary's path.
func buildCrawler(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping: builds the command")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("skipping: no go command to build the crawler with: %v", err)
	}
	bin := filepath.Join(dir, "crawler")
	if out, err := exec.Command(gotool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// withoutProxy returns env without the variables that choose a proxy.
func withoutProxy(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(proxyVars, name)
	})
}

// pastedHint finds the command that stderr says finishes the crawl, after
// lead, and runs it as a user who pastes it would: with sh, in the
// directory the crawl was started from, in an environment with no proxy
// variables, so that the command must set them itself.
func pastedHint(t *testing.T, stderr, lead, dir string) {
	t.Helper()
	i := strings.Index(stderr, lead)
	if i < 0 {
		t.Fatalf("stderr has no %q:\n%s", lead, stderr)
	}
	hint, _, _ := strings.Cut(stderr[i+len(lead):], "\n")
	t.Logf("pasting %s", hint)
	sh := exec.Command("sh", "-c", hint)
	sh.Dir = dir
	sh.Env = withoutProxy(os.Environ())
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("the pasted hint: %v\n%s", err, out)
	}
}

// TestResumeHintPasted interrupts a built crawler, given odd arguments,
// with SIGINT, and pastes the command it prints into a shell: that
// command must finish the crawl as if it had never stopped. The same goes
// for the command printed when the proxy is down from the start.
func TestResumeHintPasted(t *testing.T) {
	work := t.TempDir()
	bin := buildCrawler(t, work)
	site := testdataSite(t)
	p := newStepProxy(t, site)
	// Pages are a directory whose name needs quoting, relative to where the
	// crawler runs; the zoo's pages have links after "<a href", not before.
	flags := []string{"-resume=false", "-delay", "0", "-q",
		"-scope", "http://cs50tse.cs.dartmouth.edu/tse/zoo/", "-scope", "http://cs50tse.cs.dartmouth.edu/tse/syntax/",
		"-links-from", "<a href", "-user-agent", "test bot/1.0 (it's me)"}
	want, steps := uninterrupted(t, p, append(slices.Clone(flags), zooSeed, "10"))
	const pages = `Bob's "zoo" pages`
	start := func(t *testing.T, proxy string) (*exec.Cmd, *bytes.Buffer) {
		t.Helper()
		if err := os.Mkdir(filepath.Join(work, pages), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(filepath.Join(work, pages)) })
		cmd := exec.Command(bin)
		cmd.Args = append(append([]string{"./crawler"}, flags...), zooSeed, pages, "10")
		cmd.Dir = work
		cmd.Env = append(withoutProxy(os.Environ()), "HTTP_PROXY="+proxy)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		return cmd, &stderr
	}

	t.Run("interrupted", func(t *testing.T) {
		cmd, stderr := start(t, p.URL)
		started := make(chan struct{})
		p.setHook(func(n int64, done bool) {
			if n == steps/2 && !done {
				<-started
				cmd.Process.Signal(os.Interrupt)
			}
		})
		defer p.setHook(nil)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		close(started)
		cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Fatalf("exit %d, want 130: %s", code, stderr)
		}
		if lead := "To finish the crawl, run: HTTP_PROXY=" + p.URL + " ./crawler "; !strings.Contains(stderr.String(), lead) {
			t.Errorf("stderr lacks %q:\n%s", lead, stderr)
		}
		pastedHint(t, stderr.String(), "To finish the crawl, run: ", work)
		if diff := sameDir(snapshot(t, filepath.Join(work, pages)), want); diff != "" {
			t.Errorf("the crawl finished by the pasted hint is not the uninterrupted one: %s", diff)
		}
	})

	t.Run("outage", func(t *testing.T) {
		addr, err := hostile.FreeAddr()
		if err != nil {
			t.Fatal(err)
		}
		cmd, stderr := start(t, "http://"+addr)
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != exitOutage {
			t.Fatalf("exit %d, want %d: %s", code, exitOutage, stderr)
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("skipping: cannot listen on %s again: %v", addr, err)
		}
		back := httptest.NewUnstartedServer(playground.Handler(site))
		back.Listener = ln
		back.Start()
		defer back.Close()
		pastedHint(t, stderr.String(), "Once the network is back, run: ", work)
		if diff := sameDir(snapshot(t, filepath.Join(work, pages)), want); diff != "" {
			t.Errorf("the crawl finished by the pasted hint is not the uninterrupted one: %s", diff)
		}
	})
}

// TestVersion: -version prints what built the crawler and exits 0,
// whatever else the command line holds, and sends nothing.
func TestVersion(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	want := buildinfo.String("crawler") + "\n"
	for _, args := range [][]string{
		{"-version"},
		{"--version"},
		{"-version=true"},
		{"-q", "-version", zooSeed, "DIR", "2"},
		{zooSeed, "DIR", "2", "-version"},
		{"-fast", "-version"},
		{"-h", "-version"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			if code != exitOK || stdout != want || stderr != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q and nothing", code, stdout, stderr, exitOK, want)
			}
		})
	}
	if n := p.requests.Load(); n != 0 {
		t.Errorf("-version sent %d requests", n)
	}
	t.Run("-version=false", func(t *testing.T) {
		code, stdout, _ := crawl(t.Context(), p.getenv, "-version=false")
		if code != exitUsage || stdout != "" {
			t.Errorf("exit %d, stdout %q; want %d: -version=false asks for a crawl", code, stdout, exitUsage)
		}
	})
}

// TestVersionBuilt: a crawler built by go build names the Go release that
// built it.
func TestVersionBuilt(t *testing.T) {
	bin := buildCrawler(t, t.TempDir())
	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatalf("crawler -version: %v", err)
	}
	if line := string(out); !strings.HasPrefix(line, "crawler "+buildinfo.Version+" (go1.") || strings.Count(line, "\n") != 1 {
		t.Errorf("crawler -version = %q, want one line: crawler %s (go1.…)", line, buildinfo.Version)
	}
}

// TestSeedSchemeHints gives seeds whose scheme is wrong, misspelt or
// missing, in both -links modes, and checks that the message names the
// trouble and a seed that works.
func TestSeedSchemeHints(t *testing.T) {
	const (
		letters = "cs50tse.cs.dartmouth.edu/tse/letters/index.html"
		fixed   = "use http://" + letters
	)
	tests := []struct {
		name  string
		args  []string // the flags, then the seed
		msg   string   // what the message must say
		scope string   // the -scope the message suggests, if any
	}{
		{"https", []string{"https://" + letters}, "it is https, and the crawl's scope is http (http://cs50tse.cs.dartmouth.edu/tse/): " + fixed,
			"https://cs50tse.cs.dartmouth.edu/tse/"},
		{"HTTPS", []string{"HTTPS://" + letters}, "seedURL https://" + letters + " is not internal: it is https",
			"https://cs50tse.cs.dartmouth.edu/tse/"},
		{"https with -scope", []string{"-scope", "http://www.example.edu/", "-scope", "http://cs50tse.cs.dartmouth.edu/tse/letters/", "https://" + letters},
			fixed + ", or add -scope https://cs50tse.cs.dartmouth.edu/tse/letters/ to crawl over https", "https://cs50tse.cs.dartmouth.edu/tse/letters/"},
		{"https outside the scope", []string{"https://example.com/index.html"}, "is outside the crawl: it must begin with", ""},
		{"htp", []string{"htp://" + letters}, `has the scheme htp, not http: ` + fixed, ""},
		{"hhtp", []string{"hhtp://" + letters}, `has the scheme hhtp, not http: ` + fixed, ""},
		{"ftp", []string{"ftp://" + letters}, `has the scheme ftp, not http: ` + fixed, ""},
		{"one slash", []string{"http:/" + letters}, "has one slash after http:, where http:// has two: " + fixed, ""},
		{"no slash", []string{"http:" + letters}, "has no slashes after http:, where http:// has two: " + fixed, ""},
		{"three slashes", []string{"http:///" + letters}, "has 3 slashes after http:, where http:// has two: " + fixed, ""},
		{"no colon", []string{"http//" + letters}, "has no colon after http: " + fixed, ""},
		{"no scheme", []string{letters}, `seedURL "` + letters + `" has no scheme: ` + fixed, ""},
		{"no scheme, two slashes", []string{"//" + letters}, "has no scheme: " + fixed, ""},
		{"relative", []string{"letters/index.html"}, "cannot be normalized", ""},
	}
	// Where a browser reads past the mistake, so does html mode.
	browserReads := map[string]bool{"one slash": true, "no slash": true, "three slashes": true}
	for _, tt := range tests {
		for _, mode := range []string{"reference", "html"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				args := append([]string{"-links", mode}, tt.args...)
				args = append(args, t.TempDir(), "2")
				cfg, err := parseArgs(args)
				if mode == "html" && browserReads[tt.name] {
					if err != nil || cfg.Seed != "http://"+letters {
						t.Errorf("parseArgs(%q) = %v; want the seed http://%s, as a browser reads it", args, err, letters)
					}
					return
				}
				var ue *usageError
				if !errors.As(err, &ue) || ue.code != exitSeedURL || !strings.Contains(ue.msg, tt.msg) {
					t.Fatalf("parseArgs(%q) = %v; want exit %d and %q", args, err, exitSeedURL, tt.msg)
				}
				// The seed and -scope the message suggests are taken.
				if _, after, ok := strings.Cut(ue.msg, ": use "); ok {
					seed, _, _ := strings.Cut(after, ",")
					fixed := append(slices.Clone(args[:len(args)-3]), seed, args[len(args)-2], "2")
					if _, err := parseArgs(fixed); err != nil {
						t.Errorf("the suggested seed %s is refused: %v", seed, err)
					}
				}
				if tt.scope != "" {
					fixed := append([]string{"-scope", tt.scope}, args...)
					if _, err := parseArgs(fixed); err != nil {
						t.Errorf("the seed with the suggested -scope %s is refused: %v", tt.scope, err)
					}
				}
			})
		}
	}
}

// TestResumeHintNoName: a process started with an empty argv[0] still
// gets a command it can run.
func TestResumeHintNoName(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(stopSignal{syscall.SIGINT})
	var stdout, stderr bytes.Buffer
	dir := t.TempDir()
	code := run(ctx, []string{"", "-delay", "0", zooSeed, dir, "2"}, &stdout, &stderr, p.getenv)
	if want := "run: HTTP_PROXY=" + p.URL + " crawler -delay=0s -resume "; code != 130 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want 130 and %q", code, &stderr, want)
	}
}
