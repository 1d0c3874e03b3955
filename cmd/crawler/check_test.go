package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"tse-crawler/internal/crawler"
	"tse-crawler/internal/playground"
)

// A checkSite serves the project's playground on 127.0.0.1 as README's
// server does, with the town's links to other hosts on loopback made to
// point at hosts of the test's own: localhost on the site's port, which
// answers 404 for the state's page, and a port that was just closed, for
// the library's host that is down.
type checkSite struct {
	*httptest.Server
	down string // host:port of nothing
}

func newCheckSite(t *testing.T) *checkSite {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close()
	srv := httptest.NewUnstartedServer(nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	files := fstest.MapFS{}
	err = fs.WalkDir(testdataSite(t), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		b, err := fs.ReadFile(testdataSite(t), name)
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte("localhost:8765"), []byte("localhost:"+strconv.Itoa(port)))
		b = bytes.ReplaceAll(b, []byte("127.0.0.1:9/"), []byte(down+"/"))
		files[name] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = playground.Handler(files)
	srv.Start()
	t.Cleanup(srv.Close)
	return &checkSite{srv, down}
}

// anonymous replaces the site's and the closed port's addresses in s with
// names that stay from run to run.
func (s *checkSite) anonymous(s2 string) string {
	port := s.Listener.Addr().(*net.TCPAddr).Port
	s2 = strings.ReplaceAll(s2, s.URL, "http://SITE")
	s2 = strings.ReplaceAll(s2, "localhost:"+strconv.Itoa(port), "localhost:SITEPORT")
	return strings.ReplaceAll(s2, s.down, "DOWN")
}

func noProxy(string) string { return "" }

// TestCheck checks the town's links with -check: the report on stdout,
// every broken link of every kind with where it is, the JSON, exit 9, the
// same report twice, and with a page directory and maxDepth too.
func TestCheck(t *testing.T) {
	site := newCheckSite(t)
	seed := site.URL + "/tse/town/index.html"
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", "-stats", "-stats-json", statsFile, seed)
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s", code, exitBroken, stderr)
	}
	town := site.URL + "/tse/town/"
	if line := "broken:    " + town + "parking.html (404): 2 pages link to it: " + town + "index.html, " + town + "news.html\n"; !strings.Contains(stderr, line) {
		t.Errorf("-stats does not say\n%s\nit says:\n%s", line, stderr)
	}
	checkGolden(t, "town-check", site.anonymous(stdout))
	var r struct {
		Broken     []json.RawMessage `json:"broken_links"`
		NotChecked []json.RawMessage `json:"not_checked"`
	}
	if err := json.Unmarshal([]byte(readFile(t, statsFile)), &r); err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	for _, b := range r.Broken {
		json.Indent(&pretty, b, "", " ")
		pretty.WriteString("\n")
	}
	pretty.WriteString("not_checked:\n")
	for _, b := range r.NotChecked {
		json.Indent(&pretty, b, "", " ")
		pretty.WriteString("\n")
	}
	checkGolden(t, "town-check-json", site.anonymous(pretty.String()))

	t.Run("again", func(t *testing.T) {
		code, again, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", seed)
		if code != exitBroken || again != stdout {
			t.Errorf("exit %d, and the report differs from the first: %s\n%s", code, again, stderr)
		}
	})
	t.Run("with a page directory", func(t *testing.T) {
		dir := t.TempDir()
		code, out, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", seed, dir, "1")
		if code != exitBroken || !strings.Contains(out, "/tse/town/parking.html: 404 (page") {
			t.Errorf("exit %d: %s\n%s", code, out, stderr)
		}
		if _, err := fs.Stat(os.DirFS(dir), "1"); err != nil {
			t.Errorf("no page saved: %v", err)
		}
	})
	t.Run("no external links", func(t *testing.T) {
		code, out, stderr := crawl(t.Context(), noProxy, "-check", "-check-external=false", "-delay", "0", seed)
		if code != exitBroken || strings.Contains(out, "localhost") || strings.Contains(out, site.down) {
			t.Errorf("exit %d: %s\n%s", code, out, stderr)
		}
	})
	t.Run("stopped with no directory, it is run again", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp) // where the check makes its directory
		ctx, cancel := context.WithCancelCause(t.Context())
		cancel(stopSignal{syscall.SIGINT})
		code, _, stderr := crawl(ctx, noProxy, "-check", "-delay", "0", seed)
		if code != 128+int(syscall.SIGINT) || !strings.HasSuffix(stderr, "\nTo check again, run: crawler -check -delay 0 "+seed+"\n") ||
			!strings.Contains(stderr, "which this run removed") {
			t.Errorf("exit %d: %s", code, stderr)
		}
		// The directory is gone: its name, or -resume, would be a lie.
		if strings.Contains(stderr, "crawler-check-") || strings.Contains(stderr, tmp) || strings.Contains(stderr, "-resume") {
			t.Errorf("stderr names the directory gone, or resuming:\n%s", stderr)
		}
		if entries, err := os.ReadDir(tmp); err != nil || len(entries) != 0 {
			t.Errorf("%s holds %v, %v; want nothing", tmp, entries, err)
		}
	})
	t.Run("nothing broken", func(t *testing.T) {
		about := site.URL + "/tse/town/about/"
		code, out, stderr := crawl(t.Context(), noProxy, "-check", "-check-external=false", "-scope", about, "-delay", "0", about+"index.html")
		if code != exitOK || !strings.HasSuffix(out, ": 0 broken links to 0 targets\n") {
			t.Errorf("exit %d: %s\n%s", code, out, stderr)
		}
	})
}

// TestFinishCheckRunAgain: a check given no directory that stops short,
// by a signal, an outage or a failure, says the command that runs it
// again, and that its pages' temporary directory is removed, only when
// it is: never the directory's name, which is gone, nor -resume, nor that
// the pages saved are whole.
func TestFinishCheckRunAgain(t *testing.T) {
	const dir = "/tmp/crawler-check-123"
	res := crawler.Result{Last: "http://s/3.html", Current: "http://s/4.html", Pending: 6}
	res.Saved = 3
	tests := []struct {
		name string
		err  error
		code int
	}{
		{"signal", stopSignal{syscall.SIGINT}, 130},
		{"outage", fmt.Errorf("%w: the proxy is down", crawler.ErrOutage), exitOutage},
		{"failure", errors.New("saving page 4: no space left on device"), exitFailure},
	}
	for _, tt := range tests {
		for _, removed := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, removed %v", tt.name, removed), func(t *testing.T) {
				cfg := new(config)
				cfg.Dir = dir
				next := sequel{command: "crawler -check http://s/", again: true, removed: removed}
				var stderr strings.Builder
				// No job: none of these errors asks it for a hint.
				if code := finish(cfg, nil, next, res, tt.err, nil, &stderr); code != tt.code {
					t.Errorf("exit %d, want %d", code, tt.code)
				}
				got := stderr.String()
				if !strings.HasSuffix(got, "run: crawler -check http://s/\n") {
					t.Errorf("stderr does not end with the command that checks again:\n%s", got)
				}
				for _, lie := range []string{dir, "-resume", "finish the crawl", "whole"} {
					if strings.Contains(got, lie) {
						t.Errorf("stderr says %q:\n%s", lie, got)
					}
				}
				if strings.Contains(got, "which this run removed") != removed {
					t.Errorf("stderr says the directory is removed, or not, where removed is %v:\n%s", removed, got)
				}
			})
		}
	}
}
