package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The site that crawler -check checks twice with one -check-cache file:
// checkPages pages on site.test, each with checkLinks links to pages of
// its own site and checkLinks to checkHosts other hosts, ext0.test and
// on, each such URL linked from two pages, one in twenty a 404. Every
// host is served by crawlbench itself, as an HTTP proxy on loopback, so
// that no request leaves the machine, nor a DNS lookup.
const (
	checkPages = 100
	checkLinks = 20
	checkHosts = 10
)

// checkPage is page i of the site: its links to its own site and to
// the other hosts.
func checkPage(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><title>page %d</title></head><body>\n", i)
	for k := range checkLinks {
		fmt.Fprintf(&b, "<a href=\"/p%d.html\">p</a>\n", (i*checkLinks+k)%checkPages)
		// URL n is linked from pages n/checkLinks*2 and the next.
		n := (i/2)*checkLinks + k
		fmt.Fprintf(&b, "<a href=\"%s\">x</a>\n", checkExternal(n))
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// checkExternal is the URL of external link n: one in twenty of each
// host's a 404.
func checkExternal(n int) string {
	name := "ok"
	if (n/checkHosts)%20 == 0 {
		name = "gone"
	}
	return fmt.Sprintf("http://ext%d.test/%s/%d.html", n%checkHosts, name, n)
}

// A checkSite serves the site and the other hosts, as a proxy, and counts
// the requests of a run: to the site, and to the other hosts by URL.
type checkSite struct {
	mu       sync.Mutex
	site     int
	external map[string]int // by URL, robots.txt included
}

func (s *checkSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if r.Host == "site.test" {
		s.site++
	} else {
		s.external["http://"+r.Host+r.URL.Path]++
	}
	s.mu.Unlock()
	switch {
	case r.URL.Path == "/robots.txt", strings.Contains(r.URL.Path, "/gone/"):
		http.NotFound(w, r)
	case r.Host != "site.test":
		w.Header().Set("Content-Type", "text/html")
	default:
		num, ok := strings.CutPrefix(r.URL.Path, "/p")
		num, html := strings.CutSuffix(num, ".html")
		i, err := strconv.Atoi(num)
		if !ok || !html || err != nil || i < 0 || i >= checkPages || strconv.Itoa(i) != num {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, checkPage(i))
	}
}

// take returns the counts of the run that ended, and starts anew.
func (s *checkSite) take() (site int, external map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	site, external = s.site, s.external
	s.site, s.external = 0, make(map[string]int)
	return site, external
}

// cachedLine finds how many links the cache answered, in a report.
var cachedLine = regexp.MustCompile(`links checked \((\d+) from the cache\)`)

// benchCheckCache checks the site without -check-cache, then twice with
// one, and prints the requests to the other hosts each run sent, which in
// the second must be none for a link found fine in the first.
func benchCheckCache(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	s := &checkSite{external: make(map[string]int)}
	proxy, stop, err := serveLoopback(s)
	if err != nil {
		return err
	}
	defer stop()
	cache := filepath.Join(cfg.dir, "links.json")
	env := append(os.Environ(), "HTTP_PROXY="+proxy, "http_proxy="+proxy)
	runs := []struct {
		name  string
		flags []string
	}{
		{"crawler -check", nil},
		{"crawler -check -check-cache FILE, first run", []string{"-check-cache", cache}},
		{"crawler -check -check-cache FILE, second run", []string{"-check-cache", cache}},
	}
	fmt.Fprintf(stdout, "## -check-cache on a site of %d pages with %s links to %s URLs on %d other hosts (one in twenty a 404), -delay 0, every host served by crawlbench as a proxy on loopback; the cache in %s\n\n",
		checkPages, commas(checkPages*checkLinks), commas(checkPages*checkLinks/2), checkHosts, filepath.Dir(cfg.dir))
	fmt.Fprintf(stdout, "| command | requests to the site | requests to other hosts | of them for a link fine in the first run | links the cache answered | wall | CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|---|---|\n")
	var fine map[string]bool // the URLs fine in the first run with the cache
	for r, run := range runs {
		var report strings.Builder
		sm, _, err := timeRun(cfg.dir, func(string) *exec.Cmd {
			args := append([]string{"-q", "-check", "-delay", "0"}, run.flags...)
			cmd := exec.CommandContext(ctx, "./crawler", append(args, "http://site.test/p0.html")...)
			cmd.Env = env
			cmd.Stdout = &report
			return cmd
		}, 9) // 9: a broken link, as the 404s are
		if err != nil {
			return fmt.Errorf("%s: %w", run.name, err)
		}
		site, external := s.take()
		asked, again := 0, 0
		for u, n := range external {
			asked += n
			if fine[u] {
				again += n
			}
		}
		cached := "-"
		if m := cachedLine.FindStringSubmatch(report.String()); m != nil {
			cached = m[1]
		}
		againCell := "-"
		if fine != nil {
			againCell = fmt.Sprint(again)
		}
		fmt.Fprintf(stdout, "| %s | %d | %d | %s | %s | %.2f s | %.2f s (%.2f + %.2f) | %.1f MB |\n", run.name, site, asked, againCell, cached,
			sm.wall.Seconds(), sm.cpu().Seconds(), sm.user.Seconds(), sm.sys.Seconds(), float64(sm.rss)/1024)
		if r == 1 {
			fine = make(map[string]bool)
			for u := range external {
				if strings.Contains(u, "/ok/") {
					fine[u] = true
				}
			}
		}
		if r == 2 && again > 0 {
			return fmt.Errorf("the second run with -check-cache asked %d times for links the first found fine", again)
		}
	}
	fmt.Fprintln(stdout)
	return nil
}
