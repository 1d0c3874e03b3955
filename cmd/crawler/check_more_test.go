package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
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
		"45 pages checked, 45 links checked: 1 broken link to 1 target\n", site.URL)
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
		fine  bool // nothing broken: exit 0, not 9
		// requests are how many requests the external host must have
		// got for each "METHOD /path" ("ANY /path": any method).
		requests map[string]int
	}{
		{
			name:  "slow host",
			flags: []string{"-timeout", "1s", "-retries", "0"},
			links: []string{"/slow", "/fast", "/gone", "SITE/missing.html", "/no-head"},
			serve: func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/slow", r.URL.Path == "/no-head" && r.Method == http.MethodHead:
					<-r.Context().Done() // answers only once the checker gives up
				case r.URL.Path == "/fast", r.URL.Path == "/no-head":
				default:
					http.NotFound(w, r)
				}
			},
			want: "EXT/slow: timeout (external, 1 link)\n  SITE/index.html:3:1\n" +
				"EXT/gone: 404 (external, 1 link)\n  SITE/index.html:5:1\n" +
				"SITE/missing.html: 404 (page, 1 link)\n  SITE/index.html:6:1\n\n" +
				"1 page checked, 5 links checked: 3 broken links to 3 targets\n",
			// A HEAD that times out is asked once with a GET, which a
			// server may answer where it never answers a HEAD.
			requests: map[string]int{"HEAD /slow": 1, "GET /slow": 1, "HEAD /fast": 1, "ANY /gone": 2, "HEAD /no-head": 1, "GET /no-head": 1},
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
			// Listed apart, not checked, and no link is broken.
			want: "Not checked, as robots.txt disallows them:\nEXT/private/a.html: robots (external, 1 link)\n  SITE/index.html:3:1\n\n" +
				"1 page checked, 1 link checked: 0 broken links to 0 targets; 1 link not checked (robots.txt)\n",
			fine:     true,
			requests: map[string]int{"GET /robots.txt": 1, "ANY /private/a.html": 0, "HEAD /public.html": 1},
		},
		{
			// A page too large to read is there, its fragments unknown.
			name:  "fragments",
			flags: []string{"-max-size", "1KiB"},
			links: []string{"/doc#there", "/doc#gone", "/big#x"},
			serve: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				switch r.URL.Path {
				case "/doc":
					fmt.Fprint(w, `<h2 id=there>There</h2>`)
				case "/big":
					fmt.Fprint(w, strings.Repeat("<p>big", 1000))
				default:
					http.NotFound(w, r)
				}
			},
			want: "EXT/doc#gone: missing-fragment (fragment, 1 link)\n  SITE/index.html:4:1\n\n" +
				"1 page checked, 3 links checked: 1 broken link to 1 target\n",
			requests: map[string]int{"GET /doc": 1, "HEAD /doc": 0, "GET /big": 1, "HEAD /big": 1},
		},
		{
			// As lychee's --exclude and linkinator's --skip do.
			name:  "excluded",
			flags: []string{"-exclude", "/skip/"},
			links: []string{"/skip/a.html", "/gone"},
			serve: http.NotFound,
			want: "EXT/gone: 404 (external, 1 link)\n  SITE/index.html:4:1\n\n" +
				"1 page checked, 1 link checked: 1 broken link to 1 target\n",
			requests: map[string]int{"ANY /skip/a.html": 0, "ANY /gone": 2},
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
				"1 page checked, 2 links checked: 1 broken link to 1 target\n",
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
			want := exitBroken
			if tt.fine {
				want = exitOK
			}
			if code != want {
				t.Fatalf("exit %d, want %d: %s", code, want, stderr)
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

// checkSiteFS is a site of 19 pages under /site/, three deep, with
// something broken of each kind: a missing page linked from the seed and
// from pages at maxDepth 2, a missing fragment, a missing image, a page
// robots.txt disallows, and a missing page on another host, EXT. The
// pages at maxDepth link to a page past it, which the check asks for.
func checkSiteFS(ext string) fstest.MapFS {
	page := func(body string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("<!DOCTYPE html>\n<html><body>\n" + body + "</body></html>\n")}
	}
	fsys := fstest.MapFS{
		"robots.txt":        {Data: []byte("User-agent: *\nDisallow: /site/private.html\n")},
		"site/img/logo.png": {Data: []byte("\x89PNG\r\n\x1a\n")},
		"site/beyond.html":  page("<p>beyond maxDepth</p>\n"),
	}
	index := `<img src="img/logo.png">` + "\n" + `<a href="missing.html">missing</a>` + "\n" +
		`<a href="private.html">private</a>` + "\n" + `<a href="EXT/ok">ok</a>` + "\n"
	for i := 1; i <= 6; i++ {
		index += fmt.Sprintf("<a href=\"t%d.html\">topic %d</a>\n", i, i)
		topic := fmt.Sprintf("<h1 id=\"top%d\">topic</h1>\n<a href=\"t%d-a.html\">a</a>\n<a href=\"t%d-b.html\">b</a>\n<a href=\"index.html\">home</a>\n", i, i, i)
		switch i {
		case 2:
			topic += `<img src="img/gone.png">` + "\n"
		case 3:
			topic += `<a href="t1.html#nowhere">nowhere</a>` + "\n" + `<a href="t1.html#top1">there</a>` + "\n"
		case 5:
			topic += `<a href="EXT/gone">gone</a>` + "\n"
		}
		fsys[fmt.Sprintf("site/t%d.html", i)] = page(topic)
		fsys[fmt.Sprintf("site/t%d-a.html", i)] = page(`<a href="index.html">home</a>` + "\n" + `<a href="beyond.html">beyond</a>` + "\n")
		fsys[fmt.Sprintf("site/t%d-b.html", i)] = page(`<a href="missing.html">missing</a>` + "\n" + `<a href="EXT/gone">gone</a>` + "\n")
	}
	fsys["site/index.html"] = page(index)
	for name, f := range fsys {
		f.Data = bytes.ReplaceAll(f.Data, []byte("EXT"), []byte(ext))
		fsys[name] = f
	}
	return fsys
}

// TestCheckResume stops a link check that saves its pages at every step
// of the crawl and of the check after it: while each request is in
// flight, and once each is answered, by a cancel as Ctrl-C gives, and
// with SIGKILL to a crawler process. -resume then reports exactly what an
// uninterrupted check does, links on the pages saved before the stop
// among them.
func TestCheckResume(t *testing.T) {
	ext := servePages(t, map[string]string{"/ok": "ok"})
	p := newStepProxy(t, checkSiteFS(ext.URL))
	args := []string{"-check", "-delay", "0", p.URL + "/site/index.html", "2"}

	p.setHook(nil)
	code, want, stderr := crawl(t.Context(), noProxy, withDir(args, t.TempDir())...)
	if code != exitBroken {
		t.Fatalf("uninterrupted check: exit %d: %s", code, stderr)
	}
	steps := p.n.Load()
	for _, broken := range []string{"/site/missing.html: 404 (page, 7 links)", "/site/t1.html#nowhere: missing-fragment",
		"/site/img/gone.png: 404 (requisite", "/site/private.html: robots (page", ext.URL + "/gone: 404 (external, 7 links)",
		"19 pages checked"} {
		if !strings.Contains(want, broken) {
			t.Fatalf("the uninterrupted check does not report %q:\n%s", broken, want)
		}
	}
	// reported is whether the stopped check gave its whole report before
	// it stopped, which it does before it empties its marker: resuming
	// may then find it finished.
	resume := func(t *testing.T, dir string, reported bool) {
		t.Helper()
		code, got, stderr := crawl(t.Context(), noProxy, withDir(append([]string{"-resume"}, args...), dir)...)
		if reported && code == exitOK && got == "" && strings.Contains(stderr, "nothing to resume") {
			return
		}
		if code != exitBroken || got != want {
			t.Errorf("resumed check: exit %d, report:\n%s\nwant %d and:\n%s\n%s", code, got, exitBroken, want, stderr)
		}
	}
	// finished counts the cancels the check outran: each must give the
	// whole report, and a few only, or Ctrl-C would not stop a check.
	var finished int64
	for step := int64(1); step <= steps; step++ {
		for _, answered := range []bool{false, true} {
			name := fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered])
			t.Run("cancel "+name, func(t *testing.T) {
				dir := t.TempDir()
				ctx, cancel := context.WithCancelCause(t.Context())
				defer cancel(nil)
				p.setHook(func(n int64, done bool) {
					if n == step && done == answered {
						cancel(stopSignal{syscall.SIGINT})
					}
				})
				code, got, stderr := crawl(ctx, noProxy, withDir(args, dir)...)
				sent := p.n.Load()
				p.setHook(nil)
				switch {
				// The cancel comes from the server's goroutine once it
				// has sent its answer, which on a busy machine may run
				// only after the crawler has made its last requests: the
				// check may then finish, but only with the whole report.
				case code == exitBroken && answered && sent == steps:
					finished++
					if got != want {
						t.Errorf("the check finished with another report:\n%s", got)
					}
				case code == 130:
					resume(t, dir, false)
				default:
					t.Fatalf("stopped check: exit %d: %s", code, stderr)
				}
			})
			if testing.Short() {
				continue
			}
			t.Run("kill -9 "+name, func(t *testing.T) {
				dir := t.TempDir()
				cmd, stderr := crawlerProcess("", withDir(args, dir)...)
				var stdout bytes.Buffer
				cmd.Stdout = &stdout
				err := interruptCmd(t, p, cmd, step, answered, (*os.Process).Kill)
				var exit *exec.ExitError
				switch {
				case errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL:
					resume(t, dir, stdout.String() == want)
				case answered && cmd.ProcessState.ExitCode() == exitBroken:
					if stdout.String() != want {
						t.Errorf("the check finished with another report:\n%s", stdout.String())
					}
				default:
					t.Fatalf("the crawler process: %v, want it killed: %s", err, stderr)
				}
			})
		}
	}
	if finished > steps/4 {
		t.Errorf("%d checks of %d finished though cancelled", finished, steps)
	}
}

// TestCheckReportsBeforeFinishing checks that a check with a page
// directory gives its report while its journal is still there: a check
// killed between the two is then either resumed, and reports, or has
// reported already.
func TestCheckReportsBeforeFinishing(t *testing.T) {
	ext := servePages(t, map[string]string{"/ok": "ok"})
	p := newStepProxy(t, checkSiteFS(ext.URL))
	dir := t.TempDir()
	stdout := &journalWatch{marker: filepath.Join(dir, ".crawler")}
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"crawler", "-check", "-delay", "0", p.URL + "/site/index.html", dir, "2"}, stdout, &stderr, noProxy)
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr.String())
	}
	if stdout.writes == 0 || stdout.emptyAt > 0 {
		t.Errorf("%d writes of the report, the journal empty at write %d", stdout.writes, stdout.emptyAt)
	}
	if fi, err := os.Stat(stdout.marker); err != nil || fi.Size() != 0 {
		t.Errorf("the finished check's marker: %v, %v; want it empty", fi, err)
	}
}

// A journalWatch is a writer that notes whether a marker was empty when
// it was written to.
type journalWatch struct {
	marker          string
	writes, emptyAt int
}

func (w *journalWatch) Write(p []byte) (int, error) {
	w.writes++
	if fi, err := os.Stat(w.marker); (err != nil || fi.Size() == 0) && w.emptyAt == 0 {
		w.emptyAt = w.writes
	}
	return len(p), nil
}

// TestCheckRateLimited checks links to a host that answers 429 with a
// Retry-After of an hour: the first is asked once, with HEAD alone, and
// it and the host's other links, not asked, are reported rate-limited
// with the wait asked for, at once; stderr says so once, and the JSON
// gives the wait in seconds.
func TestCheckRateLimited(t *testing.T) {
	var log hostLog
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	ext := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path != "/a" || r.Method != http.MethodHead {
			// Asked again, after a wait, where it asked for an hour:
			// the check is stopped rather than waited for.
			cancel(errors.New("asked again"))
		}
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	t.Cleanup(ext.Close)
	site := servePages(t, map[string]string{"/index.html": linkPage(ext.URL+"/a", ext.URL+"/b", ext.URL+"/c")})
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	code, stdout, stderr := crawl(ctx, noProxy, "-check", "-delay", "0", "-stats-json", statsFile, site.URL+"/index.html")
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
	}
	want := "EXT/a: rate-limited, Retry-After 1h0m0s (external, 1 link)\n  SITE/index.html:3:1\n" +
		"EXT/b: rate-limited, Retry-After 1h0m0s (external, 1 link)\n  SITE/index.html:4:1\n" +
		"EXT/c: rate-limited, Retry-After 1h0m0s (external, 1 link)\n  SITE/index.html:5:1\n\n" +
		"1 page checked, 3 links checked: 3 broken links to 3 targets\n"
	if got := strings.ReplaceAll(strings.ReplaceAll(stdout, ext.URL, "EXT"), site.URL, "SITE"); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	log.mu.Lock()
	if asked := strings.Join(log.reqs, ", "); asked != "GET /robots.txt, HEAD /a" {
		t.Errorf("the host was asked %q, want robots.txt and one HEAD", asked)
	}
	log.mu.Unlock()
	warning := "crawler: warning: " + strings.TrimPrefix(ext.URL, "http://") + " answered 429 Too Many Requests asking for no request for 1h0m0s"
	if strings.Count(stderr, warning) != 1 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr does not say once, in one line, %q:\n%s", warning, stderr)
	}
	if got := readFile(t, statsFile); strings.Count(got, "\"status\": \"rate-limited\",\n      \"retry_after\": 3600,\n") != 3 {
		t.Errorf("-stats-json does not give the three links rate-limited, with retry_after 3600:\n%s", got)
	}
}

// TestCheckUnreachableHost: a host that cannot be reached is one entry,
// its origin, with every link to it and the URL each names, whether the
// check connects to it directly or through a proxy that answers 502 or
// closes the connection; it is never blamed on its robots.txt.
func TestCheckUnreachableHost(t *testing.T) {
	tests := []struct {
		name  string
		proxy http.HandlerFunc // nil: no proxy, and HOST is a closed port
	}{
		{name: "direct"},
		{name: "proxy answers 502", proxy: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "cannot reach the host", http.StatusBadGateway)
		}},
		{name: "proxy closes the connection", proxy: func(w http.ResponseWriter, r *http.Request) {
			if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
				c.Close()
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, host := noProxy, newCheckSite(t).down
			if tt.proxy != nil {
				proxy := httptest.NewServer(tt.proxy)
				t.Cleanup(proxy.Close)
				env, host = envOf("HTTP_PROXY", proxy.URL), "far.test"
			}
			site := servePages(t, map[string]string{"/index.html": linkPage("http://"+host+"/a", "index.html", "http://"+host+"/b")})
			code, stdout, stderr := crawl(t.Context(), env, "-check", "-delay", "0", "-retries", "0", site.URL+"/index.html")
			if code != exitBroken {
				t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
			}
			got := strings.ReplaceAll(strings.ReplaceAll(stdout, host, "HOST"), site.URL, "SITE")
			want := "http://HOST: host-unreachable (external, 2 links)\n  SITE/index.html:3:1 -> http://HOST/a\n  SITE/index.html:5:1 -> http://HOST/b\n\n" +
				"1 page checked, 3 links checked: 2 broken links to 1 target\n"
			if got != want || strings.Contains(stderr, "robots") {
				t.Errorf("report:\n%s\nwant:\n%s\nstderr:\n%s", got, want, stderr)
			}
		})
	}
}

// TestCheckWhatNoBrowserLoads: a check checks every candidate of an
// srcset and of an image-set(), not only those a browser picks at 1× and
// 2×, and the href of a <link> whatever its rel, as other link checkers
// do.
func TestCheckWhatNoBrowserLoads(t *testing.T) {
	site := servePages(t, map[string]string{
		"/index.html": "<!DOCTYPE html>\n<link rel=canonical href=gone.html><link rev=made href=made.html>\n" +
			"<img srcset='index.html 1x, big.png 1.5x, index.html 2x'>\n<p style=\"b: image-set('index.html' 1x, 'set.png' 3x)\">\n",
	})
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", site.URL+"/index.html")
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
	}
	want := "SITE/gone.html: 404 (page, 1 link)\n  SITE/index.html:2:1\n" +
		"SITE/made.html: 404 (page, 1 link)\n  SITE/index.html:2:36\n" +
		"SITE/big.png: 404 (requisite, 1 link)\n  SITE/index.html:3:1\n" +
		"SITE/set.png: 404 (requisite, 1 link)\n  SITE/index.html:4:1\n\n" +
		"1 page checked, 7 links checked: 4 broken links to 4 targets\n"
	if got := strings.ReplaceAll(stdout, site.URL, "SITE"); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}
