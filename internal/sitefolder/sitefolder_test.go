package sitefolder

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// roundTripFunc is a RoundTripper made of a function: the network, which
// the tests never reach.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// site makes a folder of files, name to content; a content beginning
// "->" makes a symbolic link to what follows. It returns the folder's
// path, inside a parent that holds a secret file beside it.
func site(t *testing.T, files map[string]string) string {
	t.Helper()
	parent := t.TempDir()
	if err := os.WriteFile(filepath.Join(parent, "secret.html"), []byte("<p>secret</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "site")
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, p)
		} else if strings.HasSuffix(name, "/") {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

var testSite = map[string]string{
	"index.html":       "<p>home</p>",
	"a b.html":         "<p>space</p>",
	"style.css":        "p{}",
	"sub/index.html":   "<p>sub</p>",
	"sub/page.htm":     "<p>page</p>",
	"empty/":           "",
	"noindex/x.txt":    "x",
	"inside.html":      "->sub/page.htm",
	"insidedir":        "->sub",
	"out.html":         "->../secret.html",
	"outdir":           "->..",
	"self":             "->.",
	"loopa":            "->loopb",
	"loopb":            "->loopa",
	"dangling.html":    "->nowhere.html",
	"deep/er/x.html":   "<p>deep</p>",
	"deep/er/up":       "->../..",
	"UPPER.HTML":       "<p>upper</p>",
	"notes/README.txt": "not a page",
}

func TestServe(t *testing.T) {
	dir := site(t, testSite)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.html"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, url string
		code              int
		ctype, body, loc  string
		warned            bool // a warning names the path
	}{
		{"page", "GET", "http://folder.invalid/index.html", 200, "text/html", "<p>home</p>", "", false},
		{"root", "GET", "http://folder.invalid/", 200, "text/html", "<p>home</p>", "", false},
		{"space", "GET", "http://folder.invalid/a%20b.html", 200, "text/html", "<p>space</p>", "", false},
		{"stylesheet", "GET", "http://folder.invalid/style.css", 200, "text/css", "p{}", "", false},
		{"head", "HEAD", "http://folder.invalid/sub/page.htm", 200, "text/html", "", "", false},
		{"folder", "GET", "http://folder.invalid/sub/", 200, "text/html", "<p>sub</p>", "", false},
		{"two slashes", "GET", "http://folder.invalid//index.html", 200, "text/html", "<p>home</p>", "", false},
		{"two slashes in a folder", "GET", "http://folder.invalid/sub//", 200, "text/html", "<p>sub</p>", "", false},
		{"two slashes before a page", "GET", "http://folder.invalid/sub//page.htm", 200, "text/html", "<p>page</p>", "", false},
		{"two slashes on the way to a folder", "GET", "http://folder.invalid/deep//er", 301, "", "", "http://folder.invalid/deep//er/", false},
		{"folder without slash", "GET", "http://folder.invalid/sub?q=1", 301, "", "", "http://folder.invalid/sub/?q=1", false},
		{"folder without index", "GET", "http://folder.invalid/noindex/", 404, "", "", "", false},
		{"empty folder", "GET", "http://folder.invalid/empty/", 404, "", "", "", false},
		{"missing", "GET", "http://folder.invalid/nothing.html", 404, "", "", "", false},
		{"file as folder", "GET", "http://folder.invalid/index.html/", 404, "", "", "", false},
		{"under a file", "GET", "http://folder.invalid/index.html/x.html", 404, "", "", "", false},
		{"link inside", "GET", "http://folder.invalid/inside.html", 200, "text/html", "<p>page</p>", "", false},
		{"folder link inside", "GET", "http://folder.invalid/insidedir/page.htm", 200, "text/html", "<p>page</p>", "", false},
		{"link out", "GET", "http://folder.invalid/out.html", 403, "", "", "", true},
		{"folder link out", "GET", "http://folder.invalid/outdir/secret.html", 403, "", "", "", true},
		{"dot dot", "GET", "http://folder.invalid/%2E%2E/secret.html", 403, "", "", "", true},
		{"self loop", "GET", "http://folder.invalid/self/index.html", 403, "", "", "", true},
		{"self loop folder", "GET", "http://folder.invalid/self/", 403, "", "", "", true},
		{"loop up", "GET", "http://folder.invalid/deep/er/up/index.html", 403, "", "", "", true},
		{"missing under a loop", "GET", "http://folder.invalid/deep/er/up/deep/nothing.html", 403, "", "", "", true},
		{"two links in a loop", "GET", "http://folder.invalid/loopa", 403, "", "", "", true},
		{"dangling", "GET", "http://folder.invalid/dangling.html", 404, "", "", "", false},
		{"name too long", "GET", "http://folder.invalid/" + strings.Repeat("x", 300) + ".html", 404, "", "", "", false},
		{"fifo", "GET", "http://folder.invalid/fifo.html", 403, "", "", "", true},
		{"bad escape", "GET", "http://folder.invalid//%zz.html", 400, "", "", "", false},
		{"nul", "GET", "http://folder.invalid/a%00.html", 400, "", "", "", false},
		{"post", "POST", "http://folder.invalid/index.html", 405, "", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, warnings := openWarning(t, dir)
			client := &http.Client{
				Transport: f.Transport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
					t.Errorf("%s went to the network", r.URL)
					return nil, io.EOF
				})),
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			}
			target, opaque := tt.url, ""
			if strings.Contains(target, "//%") {
				// A path net/url will not parse, sent as it is.
				target, opaque = "http://folder.invalid/", target[len("http://folder.invalid/"):]
			}
			req, err := http.NewRequest(tt.method, target, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = opaque
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.code)
			}
			if tt.code == 200 {
				if got := resp.Header.Get("Content-Type"); got != tt.ctype {
					t.Errorf("Content-Type %q, want %q", got, tt.ctype)
				}
				if string(body) != tt.body {
					t.Errorf("body %q, want %q", body, tt.body)
				}
			}
			if got := resp.Header.Get("Location"); got != tt.loc {
				t.Errorf("Location %q, want %q", got, tt.loc)
			}
			if (len(*warnings) > 0) != tt.warned {
				t.Errorf("warnings %q, want some: %v", *warnings, tt.warned)
			}
		})
	}
}

// TestServeBase serves the folder where -base says it is published: its
// URLs are answered from it, any other goes to the network.
func TestServeBase(t *testing.T) {
	dir := site(t, testSite)
	f, err := Open(dir, "HTTPS://Example.ORG:443/docs")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Base() != "https://example.org/docs/" || f.Host() != "example.org" {
		t.Fatalf("base %q, host %q", f.Base(), f.Host())
	}
	tests := []struct {
		url     string
		network bool
		code    int
	}{
		{"https://example.org/docs/index.html", false, 200},
		{"https://example.org/docs/", false, 200},
		{"https://example.org/docs/nothing.html", false, 404},
		{"https://example.org/robots.txt", true, 0},
		{"https://example.org/docsx/index.html", true, 0},
		{"http://example.org/docs/index.html", true, 0},
		{"https://example.com/docs/index.html", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			network := false
			client := &http.Client{Transport: f.Transport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
				network = true
				return &http.Response{StatusCode: 599, Body: http.NoBody, Header: make(http.Header)}, nil
			}))}
			resp, err := client.Get(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if network != tt.network {
				t.Errorf("to the network: %v, want %v", network, tt.network)
			}
			if !tt.network && resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.code)
			}
		})
	}
}

// TestRequestTarget reads the path a request sends byte for byte, in
// Opaque, as the crawler's html mode does.
func TestRequestTarget(t *testing.T) {
	dir := site(t, testSite)
	f, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, opaque := range []string{"/a%20b.html", "//folder.invalid/a%20b.html?x"} {
		t.Run(opaque, func(t *testing.T) {
			req, err := http.NewRequest("GET", "http://folder.invalid/", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = opaque
			resp, err := f.Transport(nil).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(body) != "<p>space</p>" {
				t.Errorf("body %q", body)
			}
		})
	}
}

func TestPages(t *testing.T) {
	dir := site(t, testSite)
	f, warnings := openWarning(t, dir)
	got, err := f.Pages()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"http://folder.invalid/UPPER.HTML",
		"http://folder.invalid/a%20b.html",
		"http://folder.invalid/deep/er/x.html",
		"http://folder.invalid/index.html",
		"http://folder.invalid/inside.html",
		"http://folder.invalid/sub/index.html",
		"http://folder.invalid/sub/page.htm",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// out.html leads out, dangling.html nowhere.
	if len(*warnings) != 2 || !strings.Contains((*warnings)[0]+(*warnings)[1], "out.html") {
		t.Errorf("warnings %q, want out.html's and dangling.html's", *warnings)
	}
}

func TestName(t *testing.T) {
	tests := []struct{ base, url, want string }{
		{"", "http://folder.invalid/a%20b.html", "a b.html"},
		{"", "http://folder.invalid/sub/x.html#frag", "sub/x.html#frag"},
		{"", "http://folder.invalid/", "./"},
		{"", "http://folder.invalid/q.html?x=1", "q.html?x=1"},
		{"", "https://example.org/a.html", "https://example.org/a.html"},
		{"https://example.org/docs/", "https://example.org/docs/caf%C3%A9.html", "café.html"},
		{"https://example.org/docs/", "https://example.org/other.html", "https://example.org/other.html"},
		{"https://example.org/docs/", "https://example.org/docs/%E9.html", "\xe9.html"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			f, err := Open(dir, tt.base)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got := f.Name(tt.url); got != tt.want {
				t.Errorf("Name = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseBase(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"", Reserved, true},
		{"https://example.org", "https://example.org/", true},
		{"https://example.org/docs", "https://example.org/docs/", true},
		{"HTTP://Example.org:80/a b/", "http://example.org/a%20b/", true},
		{"https://example.org/docs/?q", "", false},
		{"https://example.org/docs/#x", "", false},
		{"https://u:p@example.org/", "", false},
		{"ftp://example.org/", "", false},
		{"example.org/docs/", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBase(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("ParseBase = %q, %v; want %q, ok %v", got, err, tt.want, tt.ok)
			}
		})
	}
}

// openWarning opens the folder dir, at the reserved origin, closed when
// the test ends, with its warnings kept in the slice returned.
func openWarning(t *testing.T, dir string) (*Folder, *[]string) {
	t.Helper()
	f, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	warnings := new([]string)
	f.Warn = func(msg string) { *warnings = append(*warnings, msg) }
	return f, warnings
}

// TestWarnFix checks that the warning of a path that cannot be read says
// what to do about its own reason: a file the crawler may not read needs
// permission, not moving.
func TestWarnFix(t *testing.T) {
	dir := site(t, testSite)
	f, warnings := openWarning(t, dir)
	_, escape := f.root.Open("../secret.html")
	if escape == nil {
		t.Fatal("the root let ../secret.html be read")
	}
	tests := []struct {
		name string
		err  error
		fix  string
	}{
		{"permission", &os.PathError{Op: "open", Path: "a.html", Err: syscall.EACCES}, "give the crawler's user permission to read it"},
		{"permission of a folder", &os.PathError{Op: "openat", Path: "sub", Err: os.ErrPermission}, "give the crawler's user permission to read it"},
		{"out of the folder", escape, "make it a file or folder inside " + dir},
		{"loop", &os.PathError{Op: "open", Path: "self", Err: errLoop}, "make it a file or folder inside " + dir},
		{"no regular file", &os.PathError{Op: "open", Path: "fifo.html", Err: errNotFile}, "make it a regular file"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.warn(strings.Repeat("x", i+1), tt.err)
			got := (*warnings)[len(*warnings)-1]
			if !strings.HasSuffix(got, "links to it are reported broken (403): "+tt.fix) {
				t.Errorf("warning %q, want it to end with the fix %q", got, tt.fix)
			}
		})
	}
}

// TestFileKey checks that every URL of a file has the file's key, as
// Pages gives it, and that the URLs of other files do not.
func TestFileKey(t *testing.T) {
	const p = "http://folder.invalid/docs/"
	tests := []struct{ key, want string }{
		{p + "a.html", p + "a.html"},
		{p + "a.html?x=1", p + "a.html"},
		{p + "sub/", p + "sub/index.html"},
		{p + "sub/?q", p + "sub/index.html"},
		{p, p + "index.html"},
		{p + "%C3%A9.html", p + "%C3%A9.html"},
		{p + "%c3%a9.html", p + "%C3%A9.html"},
		{p + "%65.html", p + "e.html"},
		{p + "it's%20(1)!.html", p + "it%27s%20%281%29%21.html"},
		{p + "it%27s%20%281%29%21.html", p + "it%27s%20%281%29%21.html"},
		{p + "100%25.html", p + "100%25.html"},
		{p + "100%.html", p + "100%.html"},       // refused (400): as it is
		{p + "sub%2Fa.html", p + "sub%2Fa.html"}, // no folder to a browser
		{p + "sub%2fa%20b.html", p + "sub%2fa%20b.html"},
		{"http://folder.invalid/other.html?x", "http://folder.invalid/other.html?x"},
		{"https://example.org/docs/a.html?x", "https://example.org/docs/a.html?x"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if got := FileKey(p, tt.key); got != tt.want {
				t.Errorf("FileKey = %q, want %q", got, tt.want)
			}
		})
	}
	f, err := Open(site(t, map[string]string{"it's (1)!.html": "x", "é/index.html": "x"}), p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pages, err := f.Pages()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range pages {
		if k := FileKey(p, u); k != u {
			t.Errorf("page %s has the key %s", u, k)
		}
	}
	if want := []string{p + "%C3%A9/index.html", p + "it%27s%20%281%29%21.html"}; !slices.Equal(pages, want) {
		t.Errorf("pages %q, want %q", pages, want)
	}
}

// TestAbsoluteLink checks the warning of a symbolic link whose target is
// an absolute path: one that leads back into the folder is to be made
// relative, which the folder follows, and one that leads out, moved in.
// A link out of the folder is the reason, whatever links lie beyond it,
// which are not read.
func TestAbsoluteLink(t *testing.T) {
	dir := site(t, testSite)
	for link, target := range map[string]string{
		"abs.html": filepath.Join(dir, "index.html"),
		"absdir":   filepath.Join(dir, "sub"),
		"absout":   filepath.Dir(dir),
		"../absin": filepath.Join(dir, "sub"), // beside the folder, reached by outdir -> ..
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ url, fix string }{
		{"http://folder.invalid/abs.html", "abs.html is a symbolic link to an absolute path: make it relative, such as with ln -sr, to have it followed"},
		{"http://folder.invalid/absdir/page.htm", "absdir is a symbolic link to an absolute path: make it relative, such as with ln -sr, to have it followed"},
		{"http://folder.invalid/absout/secret.html", "make it a file or folder inside " + dir},
		{"http://folder.invalid/outdir/absin/page.htm", "make it a file or folder inside " + dir},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			f, warnings := openWarning(t, dir)
			req, err := http.NewRequest("GET", tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.Transport(nil).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 403 || len(*warnings) != 1 || !strings.HasSuffix((*warnings)[0], "(403): "+tt.fix) {
				t.Errorf("status %d, warnings %q, want 403 and one that ends %q", resp.StatusCode, *warnings, tt.fix)
			}
		})
	}
}
