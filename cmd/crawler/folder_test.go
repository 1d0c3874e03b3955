package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// makeFolder writes a site's files under a new folder, name to content; a
// content beginning "->" makes a symbolic link to what follows. It returns
// the folder, which has a file beside it that no link may read.
func makeFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	parent := t.TempDir()
	if err := os.WriteFile(filepath.Join(parent, "secret.html"), []byte(`<a href="gone.html">x</a>`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "site")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// folderSite is a folder with every kind of link a folder check tells
// apart, good and broken. Every page is checked, orphan.html too, which no
// link reaches.
var folderSite = map[string]string{
	"index.html": `<title>home</title>
<a href="/docs/a.html#sec">root-relative</a>
<a href="docs/">a folder with an index</a>
<a href="docs">a folder without its slash</a>
<a href="empty/">a folder without an index</a>
<a href="../../etc/passwd">up and out</a>
<a href="out.html">a symbolic link out</a>
<a href="inside.html">a symbolic link inside</a>
<a href="docs/a.html#nowhere">a missing fragment</a>
<link rel="stylesheet" href="style.css">`,
	"style.css":        `body { background: url(missing.png) }`,
	"docs/index.html":  `<a href="a.html">a</a>`,
	"docs/a.html":      `<h1 id="sec">A</h1><a href="../index.html">home</a>`,
	"empty/notes.txt":  "no index here",
	"orphan.html":      `<a href="nothing.html">nothing</a>`,
	"out.html":         "->../secret.html",
	"inside.html":      "->docs/a.html",
	"sub/deep/x.htm":   `<img src="../../missing.png">`,
	"notes/README.txt": `<a href="never-read.html">`,
}

// TestCheckFolder checks a folder: every page, whether a link reaches it
// or not, links resolved as the folder would be served, the report naming
// files by their paths in it, and nothing outside it read.
func TestCheckFolder(t *testing.T) {
	dir := makeFolder(t, folderSite)
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", dir)
	if code != exitBroken {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBroken, stderr)
	}
	want := `missing.png: 404 (requisite, 2 links)
  sub/deep/x.htm:1:1
  style.css:1:20
docs/a.html#nowhere: missing-fragment (fragment, 1 link)
  index.html:9:1
empty/: 404 (page, 1 link)
  index.html:5:1
etc/passwd: 404 (page, 1 link)
  index.html:6:1
out.html: 403 (page, 1 link)
  index.html:7:1
nothing.html: 404 (page, 1 link)
  orphan.html:1:1

6 pages checked, 15 links checked: 7 broken links to 6 targets
`
	if stdout != want {
		t.Errorf("report:\n%s\nwant:\n%s", stdout, want)
	}
	if !strings.Contains(stderr, "out.html in the folder "+dir+" is not read: path escapes from parent") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr, want one warning, of out.html:\n%s", stderr)
	}
}

// TestCheckFolderBadInput checks folders a check must get through: a
// symbolic link in a loop, which would give the site endless URLs, links
// that loop in two, and files that are not UTF-8, by their content or by
// their name, and a page larger than -max-size, whose links are unknown.
func TestCheckFolderBadInput(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		flags []string
		want  string // the report
	}{
		{"symbolic link loop", map[string]string{
			"index.html": `<a href="self/index.html">again</a><a href="loop/">loop</a><a href="sub/up/sub/">up</a>`,
			"self":       "->.",
			"loop":       "->loop2",
			"loop2":      "->loop",
			"sub/x.html": `<a href="up/index.html">up</a>`,
			"sub/up":     "->..",
		}, nil, `self/index.html: 403 (page, 1 link)
  index.html:1:1
loop/: 403 (page, 1 link)
  index.html:1:36
sub/up/sub/: 403 (page, 1 link)
  index.html:1:60
sub/up/index.html: 403 (page, 1 link)
  sub/x.html:1:1

2 pages checked, 4 links checked: 4 broken links to 4 targets
`},
		{"not UTF-8", map[string]string{
			"latin1.html": "<meta charset=iso-8859-1><a href=\"caf\xe9.html\">ok</a><a href=\"na\xefve.html\">gone</a>",
			"café.html":   "<p>caf\xc3\xa9</p>",
			// No charset: read as windows-1252, as a browser does, so
			// that its link is to "ÿ2.html".
			"\xff.html": "<p>\xff\xfe</p><a href=\"\xff2.html\">gone</a>",
		}, nil, `ÿ2.html: 404 (page, 1 link)
  \xff.html:1:10
naïve.html: 404 (page, 1 link)
  latin1.html:1:52

3 pages checked, 3 links checked: 2 broken links to 2 targets
`},
		{"over -max-size", map[string]string{
			"index.html":     `<a href="big.html">big</a><a href="gone.html">gone</a>`,
			"big.html":       `<a href="gone2.html">unknown</a>` + strings.Repeat("x", 2000),
			"sub/large.html": strings.Repeat("y", 2000),
		}, []string{"-max-size", "1KiB"}, `gone.html: 404 (page, 1 link)
  index.html:1:27

Not read for their links, as they are larger than -max-size (a larger -max-size reads them):
  big.html
  sub/large.html

1 page checked, 2 links checked: 1 broken link to 1 target; 2 pages not read (-max-size)
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := makeFolder(t, tt.files)
			code, stdout, stderr := crawl(t.Context(), noProxy, append(append([]string{"-check"}, tt.flags...), dir)...)
			if code != exitBroken {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBroken, stderr)
			}
			if stdout != tt.want {
				t.Errorf("report:\n%s\nwant:\n%s", stdout, tt.want)
			}
		})
	}
}

// TestCheckFolderAsServed checks links that a static web server answers
// from the same file as another: each file is one page, checked once,
// and its links are reported from it alone.
func TestCheckFolderAsServed(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // the report
	}{
		{"a query names the file", map[string]string{
			"index.html": `<a href="a.html?x=1#sec">in</a>
<a href="a.html?v=2#gone">missing</a>
<a href="sub?q=1">a folder</a>
<a href="index.html?again">itself</a>`,
			"a.html":         `<h1 id="sec">A</h1><a href="gone.html">gone</a>`,
			"sub/index.html": `<a href="../gone.html">gone</a>`,
		}, `gone.html: 404 (page, 2 links)
  a.html:1:20
  sub/index.html:1:1
a.html?v=2#gone: missing-fragment (fragment, 1 link)
  index.html:2:1

3 pages checked, 6 links checked: 3 broken links to 2 targets
`},
		{"however its name is escaped", map[string]string{
			"index.html": `<a href="%C3%A9/">1</a><a href="%c3%a9/">2</a><a href="é/index.html">3</a>` +
				`<a href="%65.html">4</a><a href="it's (1)!.html">5</a><a href="it%27s%20(1)%21.html">6</a>`,
			"é/index.html":   `<a href="gone.html">gone</a>`,
			"e.html":         `<a href="gone.html">gone</a>`,
			"it's (1)!.html": `<a href="gone.html">gone</a>`,
		}, `gone.html: 404 (page, 2 links)
  e.html:1:1
  it's (1)!.html:1:1
é/gone.html: 404 (page, 1 link)
  é/index.html:1:1

4 pages checked, 9 links checked: 3 broken links to 2 targets
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := makeFolder(t, tt.files)
			code, stdout, stderr := crawl(t.Context(), noProxy, "-check", dir)
			if code != exitBroken {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBroken, stderr)
			}
			if stdout != tt.want {
				t.Errorf("report:\n%s\nwant:\n%s", stdout, tt.want)
			}
		})
	}
}

// TestCheckFolderUnreadJSON: -stats-json names the pages too large to
// read for their links, by their paths in the folder.
func TestCheckFolderUnreadJSON(t *testing.T) {
	dir := makeFolder(t, map[string]string{"index.html": "ok", "sub/big.html": strings.Repeat("x", 2000)})
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", "-max-size", "1KiB", "-stats-json", statsFile, dir)
	if code != exitOK {
		t.Fatalf("exit %d, want %d: %s\n%s", code, exitOK, stdout, stderr)
	}
	var r struct {
		Unread []string `json:"unread"`
	}
	if err := json.Unmarshal([]byte(readFile(t, statsFile)), &r); err != nil {
		t.Fatal(err)
	}
	if want := []string{"sub/big.html"}; !slices.Equal(r.Unread, want) {
		t.Errorf("unread %q, want %q", r.Unread, want)
	}
}

// TestCheckFolderBase checks a folder published at -base: absolute links
// to it are checked in the folder, and links out of it, on its host or
// another, on the web (a proxy here), robots.txt first, unless
// -check-external=false.
func TestCheckFolderBase(t *testing.T) {
	dir := makeFolder(t, map[string]string{
		"index.html": `<a href="http://example.org/docs/a.html#sec">in</a>
<a href="http://EXAMPLE.org/docs/missing.html">missing</a>
<a href="/other.html">on the host, out of the folder</a>
<a href="http://example.net/gone.html">another host</a>`,
		"a.html": `<h1 id="sec">A</h1>`,
	})
	var mu sync.Mutex
	var asked []string
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL.String())
		mu.Unlock()
		if r.URL.Path == "/other.html" {
			return
		}
		http.NotFound(w, r)
	}))
	defer web.Close()
	tests := []struct {
		name   string
		flags  []string
		report string
		asked  []string
	}{
		{"external", nil, `missing.html: 404 (page, 1 link)
  index.html:2:1
http://example.net/gone.html: 404 (external, 1 link)
  index.html:4:1

2 pages checked, 4 links checked: 2 broken links to 2 targets
`, []string{"GET http://example.org/robots.txt", "HEAD http://example.org/other.html", "GET http://example.net/robots.txt", "HEAD http://example.net/gone.html", "GET http://example.net/gone.html"}},
		{"no external", []string{"-check-external=false"}, `missing.html: 404 (page, 1 link)
  index.html:2:1

2 pages checked, 2 links checked: 1 broken link to 1 target
`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked = nil
			args := append(append([]string{"-check", "-delay", "0", "-base", "http://example.org/docs"}, tt.flags...), dir)
			code, stdout, stderr := crawl(t.Context(), proxyEnv(web.URL), args...)
			if code != exitBroken {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBroken, stderr)
			}
			if stdout != tt.report {
				t.Errorf("report:\n%s\nwant:\n%s", stdout, tt.report)
			}
			slices.Sort(asked)
			slices.Sort(tt.asked)
			if !slices.Equal(asked, tt.asked) {
				t.Errorf("the web was asked %q, want %q", asked, tt.asked)
			}
		})
	}
}

// TestCheckFolderRefused refuses what a folder check cannot do, and a
// folder that cannot be checked, each with what to do instead.
func TestCheckFolderRefused(t *testing.T) {
	empty := t.TempDir()
	noPages := makeFolder(t, map[string]string{"a.txt": "text"})
	twoPages := makeFolder(t, map[string]string{"a.html": "a", "b/c.html": "c"})
	file := filepath.Join(noPages, "a.txt")
	unreadable := makeFolder(t, map[string]string{"out.html": "->../secret.html", "notes.txt": "text"})
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing folder", []string{"-check", filepath.Join(empty, "nothing")}, exitSeedURL, "is no folder: give a folder of HTML files, or a site's URL with its scheme"},
		{"host without a scheme", []string{"-check", "example.org/docs/"}, exitSeedURL, "such as https://example.org/docs/"},
		{"a file", []string{"-check", file}, exitSeedURL, "is no folder"},
		{"an empty argument", []string{"-check", ""}, exitSeedURL, `crawler: "" is no folder: give a folder`},
		{"blanks", []string{"-check", " "}, exitSeedURL, `crawler: " " is no folder: give a folder`},
		{"no pages", []string{"-check", noPages}, exitSeedURL, "holds no .html or .htm file to check"},
		{"empty", []string{"-check", empty}, exitSeedURL, "holds no .html or .htm file to check"},
		{"a file: URL", []string{"-check", "file://" + twoPages + "/"}, exitSeedURL, `is a file: URL, which the crawler does not fetch: to check a folder's links, give its path after -check, "` + twoPages + `"; to crawl it`},
		{"a file: URL of a page", []string{"-check", "file://" + twoPages + "/a.html"}, exitSeedURL, `give its path after -check, "` + twoPages + `";`},
		{"a folder without -check", []string{twoPages}, exitUsage, "but got 1: to check the links of the folder " + twoPages + ", give -check before it"},
		{"a folder with a flag of -check", []string{"-check-external=false", twoPages}, exitUsage, "give -check before it"},
		{"no page readable", []string{"-check", unreadable}, exitSeedURL, "holds 1 .html or .htm file, and none it can read: see the warning above of each for what to do"},
		{"every page excluded", []string{"-check", "-exclude", `\.html$`, twoPages}, exitSeedURL, "-exclude leaves none of the folder's 2 pages to check: give patterns that match fewer of them"},
		{"-base without a folder", []string{"-check", "-base", "http://example.org/", "http://example.org/"}, exitUsage, "-base works only with -check DIR"},
		{"bad -base", []string{"-check", "-base", "ftp://example.org/", empty}, exitUsage, "-base \"ftp://example.org/\" is not an http or https URL"},
		{"-base with a query", []string{"-check", "-base", "http://example.org/?q", empty}, exitUsage, "has a user, a query or a fragment"},
		{"-scope", []string{"-check", "-scope", "http://example.org/", empty}, exitUsage, "give -base URL to say where it is published"},
		{"-warc", []string{"-check", "-warc", filepath.Join(empty, "x.warc"), empty}, exitUsage, "-warc and -since archive a crawl of a site, not a folder"},
		{"-resume", []string{"-check", "-resume", empty}, exitUsage, "a check of a folder keeps nothing to resume"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := crawl(t.Context(), noProxy, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and %q", code, stdout, stderr, tt.code, tt.msg)
			}
		})
	}
}

// TestCheckFolderNoNetwork checks a folder where there is no network at
// all, in a network namespace of its own (unshare -n), as root can: a
// folder check needs no socket, no port and no DNS.
func TestCheckFolderNoNetwork(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare command")
	}
	if err := exec.Command(unshare, "-n", "true").Run(); err != nil {
		t.Skipf("cannot make a network namespace: %v", err)
	}
	dir := makeFolder(t, folderSite)
	cmd := exec.Command(unshare, "-n", os.Args[0], "-check", "-check-external=false", dir)
	cmd.Env = append(withoutProxy(os.Environ()), "TSE_CRAWLER_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBroken {
		t.Fatalf("%v, want exit %d; stderr:\n%s", err, exitBroken, stderr.String())
	}
	if !strings.HasSuffix(stdout.String(), "6 pages checked, 15 links checked: 7 broken links to 6 targets\n") {
		t.Errorf("report:\n%s", stdout.String())
	}
}

// TestCheckFolderHostDown: a link on the -base host but out of the folder
// that cannot be reached is reported alone; the folder, on the same host,
// is not given up with it.
func TestCheckFolderHostDown(t *testing.T) {
	dir := makeFolder(t, map[string]string{
		"index.html": `<a href="/out.html">out of the folder</a><img src="b.png">`,
		"b.png":      "png",
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	code, stdout, stderr := crawl(t.Context(), proxyEnv(down), "-check", "-delay", "0", "-retries", "0", "-base", "http://example.org/docs/", dir)
	want := `http://example.org: host-unreachable (external, 1 link)
  index.html:1:1 -> http://example.org/out.html

1 page checked, 2 links checked: 1 broken link to 1 target
`
	if code != exitBroken || stdout != want {
		t.Errorf("exit %d, report:\n%s\nwant exit %d and:\n%s\nstderr:\n%s", code, stdout, exitBroken, want, stderr)
	}
}

// TestCheckFolderNotChecked: a link that robots.txt keeps the check from
// asking is reported apart, its referrer named by its file in the folder,
// as a broken link's is.
func TestCheckFolderNotChecked(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /\n"))
			return
		}
		t.Errorf("%s asked for, which robots.txt disallows", r.URL)
	}))
	defer srv.Close()
	dir := makeFolder(t, map[string]string{"docs/index.html": `<a href="` + srv.URL + `/private.html">private</a>`})
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", dir)
	if code != exitOK {
		t.Errorf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "\n  docs/index.html:1:1") || strings.Contains(stdout, "://docs") || strings.Contains(stdout, "/docs/index.html") {
		t.Errorf("report, want the referrer named docs/index.html:1:1:\n%s", stdout)
	}
}
