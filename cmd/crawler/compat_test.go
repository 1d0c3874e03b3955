package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tse-crawler/internal/testbed/linediff"
	"tse-crawler/internal/testbed/playgroundtest"
)

// TestReferenceCrawls runs every crawl the course publishes a reference
// output for, against the shared copy of the playground, and checks that
// the page directory is byte for byte the reference's: the same pages,
// docIDs, depths, URLs and HTML, an empty .crawler and nothing else.
func TestReferenceCrawls(t *testing.T) {
	site := playgroundtest.Site(t)
	p := newProxy(t, site)
	for _, c := range playgroundtest.Crawls(t) {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			code, _, stderr := crawl(t.Context(), p.getenv, "-q", "-delay", "0", c.Seed, dir, strconv.Itoa(c.MaxDepth))
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			want := playgroundtest.Pages(t, c.Name)
			if len(want) != c.Pages {
				t.Fatalf("%s.tsv lists %d pages, crawls.tsv says %d", c.Name, len(want), c.Pages)
			}
			got := readPages(t, dir)
			for i := range max(len(got), len(want)) {
				switch {
				case i >= len(got):
					t.Fatalf("page %d missing: want depth %d %s", want[i].ID, want[i].Depth, want[i].URL)
				case i >= len(want):
					t.Fatalf("page %d (depth %d %s) is one too many", got[i].id, got[i].depth, got[i].url)
				}
				g, w := got[i], want[i]
				if g.id != w.ID || g.depth != w.Depth || g.url != w.URL {
					t.Fatalf("page %d is depth %d %s, want page %d depth %d %s", g.id, g.depth, g.url, w.ID, w.Depth, w.URL)
				}
				body, err := playgroundtest.Body(site, w.URL)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(g.html, body) {
					t.Fatalf("page %d (%s): the HTML differs from the site's", g.id, g.url)
				}
			}
		})
	}
}

// TestReferenceLog checks the progress log, line for line, against the
// reference crawler's log of letters at depth 10.
func TestReferenceLog(t *testing.T) {
	site := playgroundtest.Site(t)
	p := newProxy(t, site)
	code, stdout, stderr := crawl(t.Context(), p.getenv, "-delay", "0", letters, t.TempDir(), "10")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if want := string(playgroundtest.Log(t, "letters-10")); stdout != want {
		t.Errorf("log differs from the reference's letters-10.log:\n%s", linediff.First(want, stdout))
	}
}

// TestOrderBFS checks that a breadth-first crawl of letters records every
// page at its shortest distance from the seed, and finds every page within
// maxDepth. The distances come from a search of the site's own links.
func TestOrderBFS(t *testing.T) {
	site := playgroundtest.Site(t)
	p := newProxy(t, site)
	dist := shortestDepths(t, site, letters)
	for maxDepth := range 6 {
		t.Run(fmt.Sprint("depth ", maxDepth), func(t *testing.T) {
			dir := t.TempDir()
			code, _, stderr := crawl(t.Context(), p.getenv, "-q", "-delay", "0", "-order", "bfs", letters, dir, strconv.Itoa(maxDepth))
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			got := make(map[string]int)
			for _, pg := range readPages(t, dir) {
				got[pg.url] = pg.depth
			}
			for url, d := range dist {
				if d > maxDepth {
					continue
				}
				if gd, ok := got[url]; !ok {
					t.Errorf("%s (distance %d) was not saved", url, d)
				} else if gd != d {
					t.Errorf("%s saved at depth %d, want its distance %d", url, gd, d)
				}
			}
			for url := range got {
				if d, ok := dist[url]; !ok || d > maxDepth {
					t.Errorf("%s saved, but it is not within %d links", url, maxDepth)
				}
			}
		})
	}
}

// shortestDepths returns the distance of every page of a flat site from its
// seed, by a breadth-first search over the site's links. It reads links
// with a regular expression rather than the crawler's scanners, so that the
// test does not grade the crawler against itself; that is enough for
// letters, whose links are all plain relative names or external URLs.
func shortestDepths(t *testing.T, site fs.FS, seed string) map[string]int {
	t.Helper()
	link := regexp.MustCompile(`(?i)<a\s+href=["']?([^"'\s>]+)`)
	dir := seed[:strings.LastIndexByte(seed, '/')+1]
	dist := map[string]int{seed: 0}
	for queue := []string{seed}; len(queue) > 0; queue = queue[1:] {
		u := queue[0]
		body, err := playgroundtest.Body(site, u)
		if err != nil {
			continue // a missing page has no links
		}
		for _, m := range link.FindAllSubmatch(body, -1) {
			ref := string(m[1])
			if strings.Contains(ref, ":") {
				continue // external
			}
			if v := dir + ref; !seen(dist, v) {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	if len(dist) < 9 {
		t.Fatalf("found only %d letters pages: %v", len(dist), dist)
	}
	return dist
}

func seen(dist map[string]int, url string) bool {
	_, ok := dist[url]
	return ok
}
