package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// linkPage is a page with one link to each of hrefs, the link to
// hrefs[i] at line 3+i, column 1.
func linkPage(hrefs ...string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><body>\n")
	for _, h := range hrefs {
		fmt.Fprintf(&b, "<a href=\"%s\">link</a>\n", h)
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// servePages serves pages, by path, as text/html on 127.0.0.1; any other
// path, robots.txt among them, is a 404.
func servePages(t *testing.T, pages map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCheckDeepChain checks with the seed alone a site that is a chain of
// 45 pages, each linking to the next, the last to a page that is missing:
// with no depth limit, the whole chain is checked, and the missing page
// found at its end.
func TestCheckDeepChain(t *testing.T) {
	const n = 45
	pages := make(map[string]string)
	for i := range n - 1 {
		pages[fmt.Sprintf("/page%d.html", i)] = linkPage(fmt.Sprintf("page%d.html", i+1))
	}
	pages[fmt.Sprintf("/page%d.html", n-1)] = linkPage("missing.html")
	site := servePages(t, pages)
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", site.URL+"/page0.html")
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
	}
	want := fmt.Sprintf("%[1]s/missing.html: 404 (page, 1 link)\n  %[1]s/page44.html:3:1\n\n"+
		"45 pages checked, 45 links checked: 1 broken links to 1 targets\n", site.URL)
	if stdout != want {
		t.Errorf("report:\n%s\nwant:\n%s", stdout, want)
	}
}

// A hostLog is the requests a host got, each as "METHOD /path".
type hostLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *hostLog) add(r *http.Request) {
	l.mu.Lock()
	l.reqs = append(l.reqs, r.Method+" "+r.URL.Path)
	l.mu.Unlock()
}

// count returns how many requests the host got for path, by method, or by
// any method if method is "".
func (l *hostLog) count(method, path string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.reqs {
		m, p, _ := strings.Cut(r, " ")
		if p == path && (method == "" || m == method) {
			n++
		}
	}
	return n
}

// TestCheckExternalHosts checks a page whose links lead to a host of the
// test's own outside the scope, which answers as each case says. In the
// reports, SITE is the site's origin and EXT the external host's.
func TestCheckExternalHosts(t *testing.T) {
	tests := []struct {
		name  string
		flags []string
		links []string // paths on the external host, or "SITE/..." for the site's
		serve func(w http.ResponseWriter, r *http.Request)
		want  string
		// requests are how many requests the external host must have
		// got for each "METHOD /path" ("ANY /path": any method).
		requests map[string]int
	}{
		{
			name:  "slow host",
			flags: []string{"-timeout", "1s", "-retries", "0"},
			links: []string{"/slow", "/fast", "/gone", "SITE/missing.html"},
			serve: func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/slow":
					<-r.Context().Done() // answers only once the checker gives up
				case "/fast":
				default:
					http.NotFound(w, r)
				}
			},
			want: "EXT/slow: timeout (external, 1 link)\n  SITE/index.html:3:1\n" +
				"EXT/gone: 404 (external, 1 link)\n  SITE/index.html:5:1\n" +
				"SITE/missing.html: 404 (page, 1 link)\n  SITE/index.html:6:1\n\n" +
				"1 pages checked, 4 links checked: 3 broken links to 3 targets\n",
			requests: map[string]int{"HEAD /slow": 1, "GET /slow": 0, "HEAD /fast": 1, "ANY /gone": 2},
		},
		{
			name:  "robots.txt disallows",
			links: []string{"/private/a.html", "/public.html"},
			serve: func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
				case "/public.html":
					w.Header().Set("Content-Type", "text/html")
				default:
					http.NotFound(w, r)
				}
			},
			want: "EXT/private/a.html: robots (external, 1 link)\n  SITE/index.html:3:1\n\n" +
				"1 pages checked, 2 links checked: 1 broken links to 1 targets\n",
			requests: map[string]int{"GET /robots.txt": 1, "ANY /private/a.html": 0, "HEAD /public.html": 1},
		},
		{
			name:  "HEAD refused",
			links: []string{"/ok", "/gone"},
			serve: func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path != "/ok" && r.URL.Path != "/gone":
					http.NotFound(w, r)
				case r.Method == http.MethodHead:
					w.Header().Set("Allow", "GET")
					w.WriteHeader(http.StatusMethodNotAllowed)
				case r.URL.Path == "/gone":
					http.NotFound(w, r)
				}
			},
			want: "EXT/gone: 404 (external, 1 link)\n  SITE/index.html:4:1\n\n" +
				"1 pages checked, 2 links checked: 1 broken links to 1 targets\n",
			requests: map[string]int{"HEAD /ok": 1, "GET /ok": 1, "HEAD /gone": 1, "GET /gone": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log hostLog
			ext := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				log.add(r)
				tt.serve(w, r)
			}))
			t.Cleanup(ext.Close)
			var hrefs []string
			for _, l := range tt.links {
				if p, ok := strings.CutPrefix(l, "SITE"); ok {
					hrefs = append(hrefs, p)
				} else {
					hrefs = append(hrefs, ext.URL+l)
				}
			}
			site := servePages(t, map[string]string{"/index.html": linkPage(hrefs...)})
			args := append(append([]string{"-check", "-delay", "0"}, tt.flags...), site.URL+"/index.html")
			code, stdout, stderr := crawl(t.Context(), noProxy, args...)
			if code != exitBroken {
				t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
			}
			got := strings.ReplaceAll(strings.ReplaceAll(stdout, ext.URL, "EXT"), site.URL, "SITE")
			if got != tt.want {
				t.Errorf("report:\n%s\nwant:\n%s", got, tt.want)
			}
			for req, want := range tt.requests {
				method, path, _ := strings.Cut(req, " ")
				if method == "ANY" {
					method = ""
				}
				if n := log.count(method, path); n != want {
					t.Errorf("%d requests %s, want %d; the host got %q", n, req, want, log.reqs)
				}
			}
		})
	}
}

// TestCheckUsage: a link check takes the seed alone, or all three
// arguments, and -resume needs the page directory of the check it
// finishes.
func TestCheckUsage(t *testing.T) {
	var log hostLog
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { log.add(r) }))
	t.Cleanup(site.Close)
	seed := site.URL + "/index.html"
	tests := []struct {
		name string
		args []string // "DIR" is replaced by an empty directory
		msg  string
	}{
		{"two arguments", []string{"-check", seed, "DIR"}, "expected seedURL, or seedURL pageDirectory maxDepth, but got 2 arguments"},
		{"four arguments", []string{"-check", seed, "DIR", "2", "3"}, "seedURL, or seedURL pageDirectory maxDepth"},
		{"-resume with the seed alone", []string{"-check", "-resume", seed}, "-resume needs the pageDirectory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := slices.Clone(tt.args)
			if i := slices.Index(args, "DIR"); i >= 0 {
				args[i] = dir
			}
			code, stdout, stderr := crawl(t.Context(), noProxy, append([]string{"-delay", "0"}, args...)...)
			if code != exitUsage || !strings.Contains(stderr, tt.msg) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, stdout, stderr, exitUsage, tt.msg)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%s holds %v, want nothing", dir, entries)
			}
		})
	}
	if len(log.reqs) != 0 {
		t.Errorf("requests sent: %q", log.reqs)
	}
}
