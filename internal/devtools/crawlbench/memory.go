package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The pages of the memory section, each as large as a crawl may meet: the
// figures are the crawler's peak memory, so the pages must dwarf what it
// holds anyway.
const (
	bigSize = 50 << 20 // a page of 50 MiB, under -max-size 100MiB
	// A page that inflates to just under -max-size 1GiB, so that it is
	// read whole and saved rather than cut off at the limit.
	bombSize  = 1<<30 - 4<<10
	linkCount = 1_000_000
)

// The hosts of the links case, whose robots.txt disallows every link.
var linkHosts = []string{"h0.mem.test", "h1.mem.test", "h2.mem.test", "h3.mem.test"}

// A memCase is one seed crawled by several commands, whose peak memory is
// compared.
type memCase struct {
	title    string   // the table's heading
	seed     string   // the seed URL, on a host under http://*.mem.test/
	depth    string   // maxDepth
	flags    []string // the flags every command takes
	commands []memCommand
	ratios   [][2]int // pairs of commands, the first's figures over the second's
}

// A memCommand is one way of crawling a memCase.
type memCommand struct {
	name  string   // as the table shows it
	flags []string // after the case's flags
	warc  string   // the suffix of the WARC file beside the page directory, or none
}

// benchMemory measures the crawler's peak memory on a page of 50 MiB, a
// gzip bomb of a GiB and a million links that robots.txt disallows, each
// served by a proxy in this process, so that the pages cost one build per
// bench run rather than files on disk.
func benchMemory(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	site, err := newMemSite()
	if err != nil {
		return fmt.Errorf("making the memory section's pages: %w", err)
	}
	proxy, stopServer, err := serveMemSite(site)
	if err != nil {
		return err
	}
	defer stopServer()
	env := append(os.Environ(), "HTTP_PROXY="+proxy, "http_proxy="+proxy)

	noWarc := memCommand{name: "no -warc"}
	warc := memCommand{name: "-warc x.warc", warc: ".warc"}
	cases := []memCase{{
		title:    fmt.Sprintf("one page of %d MiB, maxDepth 0", bigSize>>20),
		seed:     "http://big.mem.test/tse/big.html",
		depth:    "0",
		flags:    []string{"-max-size", "100MiB"},
		commands: []memCommand{noWarc, warc, {name: "-warc x.warc.gz", warc: ".warc.gz"}},
		ratios:   [][2]int{{1, 0}, {2, 0}},
	}, {
		title: fmt.Sprintf("a gzip bomb, %.1f MB of gzip that inflates to %s bytes of HTML, sent even to -warc's Accept-Encoding: identity, maxDepth 0",
			float64(site.bombSize)/1e6, commas(bombSize)),
		seed:     "http://bomb.mem.test/tse/bomb.html",
		depth:    "0",
		flags:    []string{"-max-size", "1GiB"},
		commands: []memCommand{noWarc, warc},
		ratios:   [][2]int{{1, 0}},
	}, {
		title: fmt.Sprintf("%s links over %d hosts, all disallowed by robots.txt, on a seed page of %.1f MB, maxDepth 1",
			commas(linkCount), len(linkHosts), float64(site.linksSize)/1e6),
		seed:  "http://" + linkHosts[0] + "/tse/links.html",
		depth: "1",
		// The seed page is some 50 MB: a million links do not fit in less.
		flags: []string{"-max-size", "100MiB"},
		commands: []memCommand{
			{name: "-parallel 1", flags: []string{"-parallel", "1"}},
			{name: "-parallel 4", flags: []string{"-parallel", "4"}},
			{name: "-parallel 4 -ahead-memory 1MiB", flags: []string{"-parallel", "4", "-ahead-memory", "1MiB"}},
		},
		ratios: [][2]int{{1, 0}, {2, 0}},
	}}
	for _, c := range cases {
		samples, err := runMemCase(ctx, cfg, env, c)
		if err != nil {
			return err
		}
		printMemCase(stdout, cfg, c, samples)
	}
	return nil
}

// runMemCase runs each of the case's commands cfg.memoryRuns times, taking
// turns within a round. No round is left uncounted to warm the caches, as
// in the other sections: peak memory does not depend on them, and these
// runs are slow.
func runMemCase(ctx context.Context, cfg config, env []string, c memCase) ([][]sample, error) {
	samples := make([][]sample, len(c.commands))
	for range cfg.memoryRuns {
		for i, mc := range c.commands {
			s, err := timeMemRun(ctx, cfg.dir, env, c, mc)
			if err != nil {
				return nil, fmt.Errorf("memory, %s, %s: %w", c.title, mc.name, err)
			}
			samples[i] = append(samples[i], s)
		}
	}
	return samples, nil
}

// timeMemRun times one crawl, which must exit 0 having saved the seed
// alone, and removes its page directory and WARC file whatever the file
// system: the page of a GiB would otherwise be left on a disk once per run.
func timeMemRun(ctx context.Context, parent string, env []string, c memCase, mc memCommand) (sample, error) {
	var dir string
	var cmd *exec.Cmd
	s, pages, err := timeRun(parent, func(d string) *exec.Cmd {
		dir = d
		// -links reference, which a -scope no longer implies, as when
		// BENCHMARKS.md's figures were measured.
		args := append([]string{"-q", "-delay", "0", "-links", "reference", "-scope", "http://*.mem.test/"}, c.flags...)
		args = append(args, mc.flags...)
		if mc.warc != "" {
			args = append(args, "-warc", dir+mc.warc)
		}
		cmd = exec.CommandContext(ctx, "./crawler", append(args, c.seed, dir, c.depth)...)
		cmd.Env = env
		return cmd
	})
	if dir != "" {
		if rmErr := removeRun(dir); rmErr != nil {
			err = errors.Join(err, rmErr)
		}
	}
	if err != nil {
		return sample{}, err
	}
	// timeRun lets exit status 8 pass, for wget; from the crawler it would
	// mean it lost the proxy.
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		return sample{}, fmt.Errorf("%s exited %d", strings.Join(cmd.Args, " "), code)
	}
	if pages != 1 {
		return sample{}, fmt.Errorf("%s saved %d pages, not the seed alone", strings.Join(cmd.Args, " "), pages)
	}
	return s, nil
}

// removeRun removes a run's page directory and the WARC files beside it.
func removeRun(dir string) error {
	var errs []error
	for _, path := range []string{dir, dir + ".warc", dir + ".warc.gz"} {
		if err := os.RemoveAll(path); err != nil {
			errs = append(errs, fmt.Errorf("removing a run: %w", err))
		}
	}
	return errors.Join(errs...)
}

func printMemCase(stdout io.Writer, cfg config, c memCase, samples [][]sample) {
	runs := "runs"
	if cfg.memoryRuns == 1 {
		runs = "run"
	}
	fmt.Fprintf(stdout, "## memory: %s, %s -delay 0, from a proxy in crawlbench on loopback, into %s, %d %s each\n\n",
		c.title, strings.Join(c.flags, " "), filepath.Dir(cfg.dir), cfg.memoryRuns, runs)
	fmt.Fprintf(stdout, "| command | median peak RSS | least – most peak RSS | median wall | median CPU (user + sys) |\n|---|---|---|---|---|\n")
	for i, mc := range c.commands {
		_, med := summarize(samples[i])
		least := slices.MinFunc(samples[i], func(a, b sample) int { return int(a.rss - b.rss) })
		most := slices.MaxFunc(samples[i], func(a, b sample) int { return int(a.rss - b.rss) })
		fmt.Fprintf(stdout, "| %s | %.1f MB | %.1f – %.1f MB | %.2f s | %.2f s (%.2f + %.2f) |\n", mc.name,
			float64(med.rss)/1024, float64(least.rss)/1024, float64(most.rss)/1024,
			med.wall.Seconds(), med.cpu().Seconds(), med.user.Seconds(), med.sys.Seconds())
	}
	fmt.Fprintln(stdout)
	for _, r := range c.ratios {
		_, a := summarize(samples[r[0]])
		_, b := summarize(samples[r[1]])
		fmt.Fprintf(stdout, "%s / %s: median peak RSS %.2f, median wall %.2f\n", c.commands[r[0]].name, c.commands[r[1]].name,
			float64(a.rss)/float64(b.rss), a.wall.Seconds()/b.wall.Seconds())
	}
	fmt.Fprintln(stdout)
}

// A memPage is one answer of the memory section's proxy, written as it
// is sent: a page held in this process would count in every crawler's
// peak memory, which Linux takes to include the memory of the process it
// was started from (its rusage keeps the high-water mark of the memory it
// had before it ran the crawler).
type memPage struct {
	size   int64
	write  func(io.Writer) error
	ctype  string
	coding string // Content-Encoding, if any
}

// A memSite answers by host and path, such as big.mem.test/tse/big.html,
// as a forward proxy is asked; anything else is a 404.
type memSite struct {
	pages     map[string]memPage
	bombSize  int64 // the gzip bomb's, as sent
	linksSize int64 // the page of a million links
}

func newMemSite() (*memSite, error) {
	bomb, err := gzipBomb(bombSize)
	if err != nil {
		return nil, err
	}
	var links countWriter
	writeLinks(&links, linkCount, linkHosts)
	site := &memSite{bombSize: int64(len(bomb)), linksSize: links.n}
	site.pages = map[string]memPage{
		"big.mem.test/tse/big.html": {
			size: bigSize,
			write: func(w io.Writer) error {
				return fillPage(w, bigSize, "<p>All work and no play makes Jack a dull boy.</p>\n")
			},
			ctype: "text/html",
		},
		"bomb.mem.test/tse/bomb.html": {
			size:   int64(len(bomb)),
			write:  func(w io.Writer) error { _, err := w.Write(bomb); return err },
			ctype:  "text/html",
			coding: "gzip",
		},
		linkHosts[0] + "/tse/links.html": {
			size:  links.n,
			write: func(w io.Writer) error { return writeLinks(w, linkCount, linkHosts) },
			ctype: "text/html",
		},
	}
	robots := []byte("User-agent: *\nDisallow: /tse/no/\n")
	for _, h := range linkHosts {
		site.pages[h+"/robots.txt"] = memPage{
			size:  int64(len(robots)),
			write: func(w io.Writer) error { _, err := w.Write(robots); return err },
			ctype: "text/plain",
		}
	}
	return site, nil
}

// ServeHTTP sends every page with its Content-Length, and the bomb coded
// whatever Accept-Encoding asks for: that is what makes it a bomb.
func (m *memSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	p, ok := m.pages[host+r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", p.ctype)
	if p.coding != "" {
		w.Header().Set("Content-Encoding", p.coding)
	}
	w.Header().Set("Content-Length", strconv.FormatInt(p.size, 10))
	p.write(w) // a crawler that stops reading is no error here
}

// A countWriter counts what is written to it, and keeps none of it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// serveMemSite serves site on a free loopback port and returns the proxy
// URL and a way to stop it.
func serveMemSite(site *memSite) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("the memory section's proxy: %w", err)
	}
	srv := &http.Server{Handler: site}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// fillPage writes an HTML page of exactly size bytes to w: a head, unit
// over and over, spaces to make up the size, and a tail. It writes a MiB
// at a time, so that a page of a GiB takes no more memory than one of a
// MiB.
func fillPage(w io.Writer, size int64, unit string) error {
	const head = "<!DOCTYPE html>\n<html><head><title>memory</title></head><body>\n"
	const tail = "</body></html>\n"
	n := size - int64(len(head)+len(tail))
	block := []byte(strings.Repeat(unit, (1<<20)/len(unit)))
	units := n / int64(len(unit))
	spaces := bytes.Repeat([]byte(" "), int(n%int64(len(unit))))
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	for units > 0 {
		k := min(units, int64(len(block)/len(unit)))
		if _, err := w.Write(block[:k*int64(len(unit))]); err != nil {
			return err
		}
		units -= k
	}
	if _, err := w.Write(spaces); err != nil {
		return err
	}
	_, err := io.WriteString(w, tail)
	return err
}

// gzipBomb returns one gzip stream that inflates to a page of size bytes,
// nearly all spaces. BestSpeed takes under a second for a GiB, and makes
// some 1.3 MB of it; the best compression saves a fifth of that and takes
// four times as long.
func gzipBomb(size int64) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := fillPage(zw, size, " "); err != nil {
		return nil, fmt.Errorf("compressing the gzip bomb: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("compressing the gzip bomb: %w", err)
	}
	return buf.Bytes(), nil
}

// writeLinks writes a page that links to n distinct URLs, /tse/no/0.html
// to /tse/no/(n-1).html, spread round-robin over hosts.
func writeLinks(w io.Writer, n int, hosts []string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("<!DOCTYPE html>\n<html><head><title>links</title></head><body>\n")
	for i := range n {
		fmt.Fprintf(bw, "<a href=\"http://%s/tse/no/%d.html\"></a>\n", hosts[i%len(hosts)], i)
	}
	bw.WriteString("</body></html>\n")
	return bw.Flush()
}

// commas writes n with a comma between each group of three digits, as the
// other sections' headings write their counts.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
