package playground

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// newSite writes a small site into a temporary directory, with a secret
// file beside it that must never be served, and returns a handler for it
// rooted as cmd/playground roots it.
func newSite(t *testing.T) http.Handler {
	t.Helper()
	top := t.TempDir()
	files := map[string]string{
		"secret":                          "the secret",
		"site/tse/letters/index.html":     "letters index",
		"site/tse/letters/A.html":         "page A",
		"site/tse/wikipedia/R+_tree.html": "R+ tree",
		"site/tse/wikipedia/OS/2.html":    "OS/2",
		"site/tse/a b.html":               "a space",
		"site/tse/notes.txt":              "plain text",
		"site/tse/picture.png":            "\x89PNG",
		"site/index.html":                 "top index",
	}
	for name, data := range files {
		path := filepath.Join(top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(top, "site", "tse", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"site/tse/escape.html": "../../secret",            // out of the site
		"site/tse/inside.html": "letters/A.html",          // within it
		"site/tse/up":          filepath.Join("..", ".."), // a directory out of the site
	} {
		if err := os.Symlink(target, filepath.Join(top, filepath.FromSlash(link))); err != nil {
			t.Skipf("skipping: cannot make symbolic links here: %v", err)
		}
	}
	root, err := os.OpenRoot(filepath.Join(top, "site"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return Handler(root.FS())
}

func TestHandler(t *testing.T) {
	h := newSite(t)
	tests := []struct {
		name     string
		method   string // GET if empty
		target   string // a path, or an absolute URL for a proxy request
		host     string // the Host header, if target is a path
		status   int
		body     string // checked for 200s
		location string // checked for 301s
		ctype    string // checked for 200s
	}{
		{name: "file", target: "/tse/letters/A.html", status: 200, body: "page A", ctype: "text/html"},
		{name: "index.html by name, no redirect", target: "/tse/letters/index.html", status: 200, body: "letters index", ctype: "text/html"},
		{name: "directory with slash", target: "/tse/letters/", status: 200, body: "letters index", ctype: "text/html"},
		{name: "root", target: "/", status: 200, body: "top index", ctype: "text/html"},
		{name: "directory without slash", target: "/tse/letters", host: "example.edu", status: 301, location: "http://example.edu/tse/letters/"},
		{name: "directory without slash keeps the query", target: "/tse/letters?x=1", host: "example.edu:8080", status: 301, location: "http://example.edu:8080/tse/letters/?x=1"},
		{name: "query ignored", target: "/tse/letters/A.html?page=2&x=y", status: 200, body: "page A", ctype: "text/html"},
		{name: "percent-decoded plus", target: "/tse/wikipedia/R%2b_tree.html", status: 200, body: "R+ tree", ctype: "text/html"},
		{name: "percent-decoded slash", target: "/tse/wikipedia/OS%2f2.html", status: 200, body: "OS/2", ctype: "text/html"},
		{name: "percent-decoded space", target: "/tse/a%20b.html", status: 200, body: "a space", ctype: "text/html"},
		{name: "repeated slashes", target: "//tse//letters///A.html", status: 200, body: "page A", ctype: "text/html"},
		{name: "dot segments", target: "/tse/wikipedia/../letters/./A.html", status: 200, body: "page A", ctype: "text/html"},
		{name: "text type", target: "/tse/notes.txt", status: 200, body: "plain text", ctype: "text/plain"},
		{name: "image type", target: "/tse/picture.png", status: 200, body: "\x89PNG", ctype: "image/png"},
		{name: "missing file", target: "/tse/letters/Z.html", status: 404},
		{name: "missing directory", target: "/tse/nowhere/", status: 404},
		{name: "file with a slash", target: "/tse/letters/A.html/", status: 404},
		{name: "directory without index", target: "/tse/empty/", status: 403},
		{name: "climbing above the root", target: "/tse/../../secret", status: 400},
		{name: "climbing by escapes", target: "/tse/%2e%2e/%2e%2e/secret", status: 400},
		{name: "link out of the site", target: "/tse/escape.html", status: 404},
		{name: "directory link out of the site", target: "/tse/up/secret", status: 404},
		{name: "link within the site", target: "/tse/inside.html", status: 200, body: "page A", ctype: "text/html"},
		{name: "proxy request", target: "http://cs50tse.cs.dartmouth.edu/tse/letters/A.html", status: 200, body: "page A", ctype: "text/html"},
		{name: "proxy request for a directory", target: "http://cs50tse.cs.dartmouth.edu/tse/letters", status: 301, location: "http://cs50tse.cs.dartmouth.edu/tse/letters/"},
		{name: "proxy request with no path", target: "http://cs50tse.cs.dartmouth.edu", status: 200, body: "top index", ctype: "text/html"},
		{name: "POST", method: "POST", target: "/tse/letters/A.html", status: 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = http.MethodGet
			}
			r := httptest.NewRequest(method, tt.target, nil)
			if tt.host != "" {
				r.Host = tt.host
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			res := w.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.status {
				t.Fatalf("%s %s: status %d, want %d (body %q)", method, tt.target, res.StatusCode, tt.status, body)
			}
			if strings.Contains(string(body), "the secret") {
				t.Errorf("%s %s: served the file outside the site", method, tt.target)
			}
			if res.Header.Get("Content-Type") == "" || res.Header.Get("Content-Length") == "" {
				t.Errorf("%s %s: Content-Type %q, Content-Length %q; want both", method, tt.target,
					res.Header.Get("Content-Type"), res.Header.Get("Content-Length"))
			}
			if n, err := strconv.Atoi(res.Header.Get("Content-Length")); err != nil || n != len(body) {
				t.Errorf("%s %s: Content-Length %q for a body of %d bytes", method, tt.target, res.Header.Get("Content-Length"), len(body))
			}
			switch tt.status {
			case 200:
				if string(body) != tt.body {
					t.Errorf("%s %s: body %q, want %q", method, tt.target, body, tt.body)
				}
				if ct := res.Header.Get("Content-Type"); ct != tt.ctype {
					t.Errorf("%s %s: Content-Type %q, want %q", method, tt.target, ct, tt.ctype)
				}
			case 301:
				if loc := res.Header.Get("Location"); loc != tt.location {
					t.Errorf("%s %s: Location %q, want %q", method, tt.target, loc, tt.location)
				}
			}
		})
	}
}

func TestHandlerHEAD(t *testing.T) {
	h := newSite(t)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodHead, "/tse/letters/A.html", nil))
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != "6" {
		t.Errorf("HEAD: status %d, body %q, Content-Length %q; want 200, no body, 6", w.Code, w.Body, w.Header().Get("Content-Length"))
	}
}

// TestProxy fetches through the handler as an HTTP client uses a forward
// proxy: the request line carries the absolute URL of a made-up host.
func TestProxy(t *testing.T) {
	srv := httptest.NewServer(newSite(t))
	defer srv.Close()
	proxyURL, _ := url.Parse(srv.URL)
	client := &http.Client{
		Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	res, err := client.Get("http://cs50tse.cs.dartmouth.edu/tse/wikipedia/OS%2f2.html")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "OS/2" {
		t.Errorf("through the proxy: %s %q, want 200 %q", res.Status, body, "OS/2")
	}
	res, err = client.Get("http://cs50tse.cs.dartmouth.edu/tse/letters")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != 301 || loc != "http://cs50tse.cs.dartmouth.edu/tse/letters/" {
		t.Errorf("directory through the proxy: %s, Location %q; want 301 to the requested host", res.Status, loc)
	}
}

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	h := Log(&buf, newSite(t))
	var wg sync.WaitGroup
	const n = 50
	for i := range n {
		wg.Go(func() {
			target := "/tse/letters/A.html"
			if i%2 == 1 {
				target = "http://cs50tse.cs.dartmouth.edu/tse/missing.html"
			}
			r := httptest.NewRequest(http.MethodGet, target, nil)
			r.Header.Set("User-Agent", fmt.Sprintf("tester/%d", i))
			h.ServeHTTP(httptest.NewRecorder(), r)
		})
	}
	wg.Wait()
	line := regexp.MustCompile(`^(\d+)\.(\d{6}) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z) (\d+\.\d{6})s (200|404) GET (\S+) "tester/(\d+)"$`)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d log lines for %d requests:\n%s", len(lines), n, &buf)
	}
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("log line %q is not in the documented format", l)
			continue
		}
		i, _ := strconv.Atoi(m[7])
		wantURL, wantStatus := "http://example.com/tse/letters/A.html", "200"
		if i%2 == 1 {
			wantURL, wantStatus = "http://cs50tse.cs.dartmouth.edu/tse/missing.html", "404"
		}
		if m[6] != wantURL || m[5] != wantStatus {
			t.Errorf("request %d logged as %s %s, want %s %s", i, m[5], m[6], wantStatus, wantURL)
		}
	}
}

func TestVirtualHosts(t *testing.T) {
	top := t.TempDir()
	for name, data := range map[string]string{
		"www.example.edu/index.html": "www index",
		"ir.example.edu/00300.html":  "ir 300",
		"secret":                     "not a host",
	} {
		path := filepath.Join(top, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(data), 0o644)
	}
	h := VirtualHosts(os.DirFS(top))
	tests := []struct {
		target, host string
		status       int
		body         string
	}{
		{"http://www.example.edu/index.html", "", 200, "www index"},
		{"http://WWW.Example.EDU:8080/", "", 200, "www index"},
		{"/index.html", "www.example.edu", 200, "www index"},
		{"http://ir.example.edu/00300.html", "", 200, "ir 300"},
		{"http://ir.example.edu/index.html", "", 404, ""},
		{"http://staff.example.edu/index.html", "", 404, ""},
		{"http://secret/", "", 404, ""},
		{"/", "..", 404, ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, tt.target, nil)
		if tt.host != "" {
			r.Host = tt.host
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || tt.status == 200 && w.Body.String() != tt.body {
			t.Errorf("GET %s (Host %s): %d %q, want %d %q", tt.target, r.Host, w.Code, w.Body, tt.status, tt.body)
		}
	}
}
