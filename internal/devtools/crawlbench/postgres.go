package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
)

// The PostgreSQL 15 docs that postgresql-doc-15 installs
// (/usr/share/doc/postgresql-doc-15/html, 1,173 files), link checked by
// crawler -check and by wget --spider. They link to some fifty other
// hosts, postgr.es 1,467 times and en.wikipedia.org 55, and no request
// may leave the machine, nor a DNS lookup: crawlbench serves the docs
// itself, from memory, with every link to another host pointed at one of
// three loopback servers of its own, which answer 200 to any path but
// those with "404" in them (a few postgr.es commit links have).

// benchPostgres times crawler -check on the PostgreSQL docs against wget
// --spider -r -p, or alone if there is no wget.
func benchPostgres(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	docs := cfg.postgres
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		fmt.Fprintf(stdout, "(skipping the PostgreSQL docs: no %s; apt-get install postgresql-doc-15 puts them there)\n\n", filepath.Join(docs, "index.html"))
		return nil
	}
	var tally requestTally
	var ext externals
	for i := range ext {
		origin, stop, err := serveLoopback(tally.count(1, http.HandlerFunc(serveExternal)))
		if err != nil {
			return err
		}
		defer stop()
		ext[i] = origin
	}
	site, err := loadDocs(docs, ext.origin)
	if err != nil {
		return err
	}
	origin, stop, err := serveLoopback(tally.count(0, site))
	if err != nil {
		return err
	}
	defer stop()
	seed := origin + "/index.html"
	commands := []docCommand{
		{"crawler -check", tally.before(0, func(dir string) *exec.Cmd {
			return exec.CommandContext(ctx, "./crawler", "-q", "-check", "-delay", "0", seed)
		}), []int{9}}, // 9: a broken link, as the five with "404" are
	}
	wget, err := exec.LookPath("wget")
	if err == nil {
		commands = append(commands, docCommand{"wget --spider -r -p", tally.before(1, func(dir string) *exec.Cmd {
			return exec.CommandContext(ctx, wget, "--spider", "-r", "-p", "-l", "inf", "-nd", "-q", "-P", dir, seed)
		}), wgetExits})
	} else {
		fmt.Fprintf(stdout, "(no wget here: the PostgreSQL docs are checked by the crawler alone)\n\n")
	}
	samples, _, err := timeDocs(cfg, cfg.docsRuns, commands, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## the PostgreSQL 15 docs (%s files) link checked, -delay 0, from crawlbench on 127.0.0.1, links to other hosts pointed at three loopback servers on other ports; "+
		"wget does not span hosts, but takes those servers for the docs' host (it compares names, not ports) and checks those links too\n\n",
		commas(int64(len(site.files))))
	fmt.Fprintf(stdout, "| command | requests to the docs | requests to other hosts | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|---|\n")
	for c, cmd := range commands {
		fmt.Fprintf(stdout, "| %s | %d | %d | %s |\n", cmd.name, tally.n[c][0].Load(), tally.n[c][1].Load(), timings(samples[c]))
	}
	fmt.Fprintln(stdout)
	if wget != "" {
		_, crawler := summarize(samples[0])
		_, w := summarize(samples[1])
		fmt.Fprintf(stdout, "crawler -check / wget --spider: median wall %.2f, median CPU %.2f\n",
			crawler.wall.Seconds()/w.wall.Seconds(), crawler.cpu().Seconds()/w.cpu().Seconds())
	}
	fmt.Fprintln(stdout)
	return nil
}

// externals are the origins of the three servers that stand in for the
// hosts the docs link to.
type externals [3]string

// origin returns the origin that stands in for host: the first server's
// for postgr.es, the second's for en.wikipedia.org, and the third's, with
// host for a first step of the path, for any other, so that links to
// different hosts stay different links.
func (e externals) origin(host string) string {
	switch strings.ToLower(host) {
	case "postgr.es":
		return e[0]
	case "en.wikipedia.org":
		return e[1]
	}
	return e[2] + "/" + host
}

// A docSite serves a folder's files from memory, by path.
type docSite struct {
	files map[string][]byte // "/index.html"
}

func (s *docSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, ok := s.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	// The type by the name's extension; HEAD, Range and the rest as for a file.
	http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(body))
}

// loadDocs reads every file under dir into memory, with each link of an
// HTML file to http://HOST or https://HOST rewritten to origin(HOST).
func loadDocs(dir string, origin func(host string) string) (*docSite, error) {
	site := &docSite{files: map[string][]byte{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(path)); ext == ".html" || ext == ".htm" {
			body = rewriteLinks(body, origin)
		}
		site.files["/"+filepath.ToSlash(rel)] = body
		return nil
	})
	return site, err
}

// linkToHost finds the start of an href or src attribute's value that is
// an absolute http or https URL: the attribute up to the value (1) and the
// value's host, with its port if it has one (2). The attribute's name
// follows a space, or the quote that ends the one before it.
var linkToHost = regexp.MustCompile(`(?i)([\s"'](?:href|src)\s*=\s*["']?)https?://([^/?#"'\s>]*)`)

// rewriteLinks returns page with each link's http://HOST or https://HOST
// replaced by origin(HOST).
func rewriteLinks(page []byte, origin func(host string) string) []byte {
	var out []byte
	last := 0
	for _, m := range linkToHost.FindAllSubmatchIndex(page, -1) {
		out = append(out, page[last:m[3]]...)
		out = append(out, origin(string(page[m[4]:m[5]]))...)
		last = m[1]
	}
	return append(out, page[last:]...)
}

// serveExternal stands in for every host outside the docs: 200 and no
// body for any path, but 404 for a path with "404" in it.
func serveExternal(w http.ResponseWriter, r *http.Request) {
	if strings.Contains(r.URL.Path, "404") {
		http.NotFound(w, r)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// serveLoopback serves h on a free port of 127.0.0.1 and returns its
// origin, http://127.0.0.1:PORT, and a way to stop it.
func serveLoopback(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// A requestTally counts the requests of the last run of each of two
// commands, which run one at a time: those to the docs, kind 0, and those
// to the other hosts, kind 1.
type requestTally struct {
	cur atomic.Int32
	n   [2][2]atomic.Int64 // [command][kind]
}

// before returns make, after it has made command c the one whose requests
// are counted, from 0.
func (t *requestTally) before(c int, make func(dir string) *exec.Cmd) func(dir string) *exec.Cmd {
	return func(dir string) *exec.Cmd {
		t.cur.Store(int32(c))
		t.n[c][0].Store(0)
		t.n[c][1].Store(0)
		return make(dir)
	}
}

// count returns h, counting each request as one of kind.
func (t *requestTally) count(kind int, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.n[t.cur.Load()][kind].Add(1)
		h.ServeHTTP(w, r)
	})
}
