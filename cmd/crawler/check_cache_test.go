package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// cachedCount is the part of a report's last line that says how many
// links the cache answered.
var cachedCount = regexp.MustCompile(` \(\d+ from the cache\)`)

// logged serves h on 127.0.0.1, noting each request in log.
func logged(t *testing.T, log *hostLog, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCheckCache checks a site twice with one -check-cache file: the
// second check sends no request at all to a host outside the scope whose
// links were all fine, and to another none for its fine link, but asks
// again its broken one, and every link inside the scope; its report is
// the first's, but for how many links the cache answered.
func TestCheckCache(t *testing.T) {
	var fineLog, mixedLog, siteLog hostLog
	fine := logged(t, &fineLog, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a.html", "/b.html":
			w.Header().Set("Content-Type", "text/html")
		case "/s.css":
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, "@import 'i.css';\n")
		case "/i.css":
			w.Header().Set("Content-Type", "text/css")
		default:
			http.NotFound(w, r)
		}
	})
	mixed := logged(t, &mixedLog, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ok" {
			http.NotFound(w, r)
		}
	})
	page := "<!DOCTYPE html>\n<html><head><link rel=stylesheet href=\"" + fine.URL + "/s.css\"></head><body>\n" +
		linkPage(fine.URL+"/a.html", fine.URL+"/b.html", fine.URL+"/a.html", mixed.URL+"/ok", mixed.URL+"/gone", "missing.html", "in.pdf")
	site := logged(t, &siteLog, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case "/in.pdf":
			w.Header().Set("Content-Type", "application/pdf")
		default:
			http.NotFound(w, r)
		}
	})
	cache := filepath.Join(t.TempDir(), "links.json")
	args := []string{"-check", "-delay", "0", "-check-cache", cache, site.URL + "/index.html"}

	code, first, stderr := crawl(t.Context(), noProxy, args...)
	if code != exitBroken {
		t.Fatalf("the first check: exit %d, want %d: %s", code, exitBroken, stderr)
	}
	if !strings.Contains(first, " (0 from the cache): ") {
		t.Errorf("the first check's report does not say the cache answered none:\n%s", first)
	}
	for _, l := range []*hostLog{&fineLog, &mixedLog, &siteLog} {
		l.reset()
	}
	code, second, stderr := crawl(t.Context(), noProxy, args...)
	if code != exitBroken {
		t.Fatalf("the second check: exit %d, want %d: %s", code, exitBroken, stderr)
	}
	if len(fineLog.reqs) != 0 {
		t.Errorf("the second check sent %q to a host whose links were all fine, want nothing", fineLog.reqs)
	}
	for _, tt := range []struct {
		log        *hostLog
		path       string
		atLeastOne bool
	}{
		{&mixedLog, "/ok", false},
		{&mixedLog, "/gone", true},
		{&siteLog, "/missing.html", true},
		{&siteLog, "/in.pdf", true},
	} {
		if n := tt.log.count("", tt.path); (n > 0) != tt.atLeastOne {
			t.Errorf("the second check sent %d requests for %s; want some: %v", n, tt.path, tt.atLeastOne)
		}
	}
	// a.html twice, b.html, s.css, what it imports, and /ok.
	if !strings.Contains(second, " (6 from the cache): ") {
		t.Errorf("the second check's report does not say the cache answered 6 links:\n%s", second)
	}
	if cachedCount.ReplaceAllString(first, "") != cachedCount.ReplaceAllString(second, "") {
		t.Errorf("the second check reports\n%s\nthe first\n%s", second, first)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("stderr: %s", stderr)
	}

	t.Run("with -check-external=false", func(t *testing.T) {
		unused := filepath.Join(t.TempDir(), "links.json")
		code, _, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", "-check-external=false", "-check-cache", unused, site.URL+"/index.html")
		if code != exitBroken || !strings.Contains(stderr, "warning: -check-cache "+unused+" keeps links outside the scope, which -check-external=false leaves unchecked") {
			t.Errorf("exit %d, stderr:\n%s\nwant a warning that the cache keeps nothing", code, stderr)
		}
		if _, err := os.Stat(unused); err == nil {
			t.Errorf("%s was written", unused)
		}
	})
	t.Run("without -check-cache", func(t *testing.T) {
		code, out, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", site.URL+"/index.html")
		if code != exitBroken {
			t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
		}
		if out != cachedCount.ReplaceAllString(first, "") {
			t.Errorf("report\n%s\nwant the first check's, without the cache's count", out)
		}
	})
}

// cacheEntries reads a -check-cache file: each URL's status.
func cacheEntries(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Format string
		Links  []struct{ URL, Status string }
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Format != "tse-crawler link cache" {
		t.Fatalf("%s is no link cache (%v):\n%s", path, err, data)
	}
	m := make(map[string]string)
	for _, l := range f.Links {
		m[l.URL] = l.Status
	}
	return m
}

// reset forgets the requests the host got.
func (l *hostLog) reset() {
	l.mu.Lock()
	l.reqs = nil
	l.mu.Unlock()
}

// holdingHost is a host outside the scope whose first /hold request
// closes held and waits until its client gives up, and later ones are a
// 404; its other paths are fine.
func holdingHost(t *testing.T, log *hostLog) (srv *httptest.Server, held <-chan struct{}) {
	h := make(chan struct{})
	var once sync.Once
	srv = logged(t, log, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hold":
			first := false
			once.Do(func() { first = true })
			if first {
				close(h)
				<-r.Context().Done()
				return
			}
			http.NotFound(w, r)
		case "/robots.txt":
			http.NotFound(w, r)
		}
	})
	return srv, h
}

// TestCheckCacheKilled stops a check, with kill -9 and with a cancel, as
// it asks a host outside the scope for a link, one at a time: the cache
// holds the links it learned before, fine, and not the one it was
// asking, and the next check asks only that one again.
func TestCheckCacheKilled(t *testing.T) {
	for _, how := range []string{"kill -9", "cancel"} {
		t.Run(how, func(t *testing.T) {
			var log hostLog
			ext, held := holdingHost(t, &log)
			site := servePages(t, map[string]string{"/index.html": linkPage(ext.URL+"/a", ext.URL+"/b", ext.URL+"/hold")})
			dir := t.TempDir()
			cache := filepath.Join(dir, "links.json")
			args := []string{"-check", "-delay", "0", "-parallel", "1", "-check-cache", cache, site.URL + "/index.html"}
			if how == "kill -9" {
				// With a pageDirectory of the test's, which the process
				// killed leaves.
				cmd, stderr := crawlerProcess("", append(slices.Clone(args), t.TempDir(), "5")...)
				exited := startHeld(t, cmd, stderr, held)
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				checkKilled9(t, <-exited, stderr)
			} else {
				ctx, cancel := context.WithCancel(t.Context())
				go func() {
					<-held
					cancel()
				}()
				if code, _, stderr := crawl(ctx, noProxy, args...); code == exitOK || code == exitBroken {
					t.Fatalf("the check ended (exit %d), though stopped: %s", code, stderr)
				}
			}
			want := map[string]string{ext.URL + "/a": "200", ext.URL + "/b": "200"}
			if got := cacheEntries(t, cache); !mapsEqual(got, want) {
				t.Errorf("the cache holds %v, want %v", got, want)
			}
			if names := slices.Sorted(slices.Values(dirNames(t, dir))); !slices.Equal(names, []string{"links.json", "links.json.lock"}) {
				t.Errorf("the cache's directory holds %q", names)
			}

			log.reset()
			code, out, stderr := crawl(t.Context(), noProxy, args...)
			if code != exitBroken {
				t.Fatalf("the next check: exit %d: %s", code, stderr)
			}
			if log.count("", "/a")+log.count("", "/b") != 0 || log.count("", "/hold") == 0 {
				t.Errorf("the next check sent %q, want /hold alone asked again", log.reqs)
			}
			if !strings.Contains(out, "/hold: 404") || !strings.Contains(out, " (2 from the cache): ") {
				t.Errorf("the next check's report:\n%s", out)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// dirNames returns the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
