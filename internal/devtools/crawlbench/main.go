// Crawlbench times whole crawls, as processes, and prints a table of the
// figures: the crawler, with and without a WARC file or a link graph, against GNU wget on
// the CS50 playground's wikipedia at depth 2, the crawler alone on a synthetic site of a hundred
// thousand pages, and one of a million with and without -stats, for the
// memory the statistics take, html mode against reference mode on a
// link-heavy site shaped like javadoc's, the Python docs archived with
// -warc, and again with -since from nginx (since.go), the Python docs
// link checked as a folder, crawler -check DIR, against linkinator
// (folder.go), the OpenJDK API docs in either mode against wget (docs.go), the
// PostgreSQL docs link checked with -check against wget --spider, served
// by crawlbench itself with their links to other hosts pointed at loopback
// (postgres.go), and a polite crawl of a synthetic site spread over four
// hosts, one page at a time against four hosts at once, a link check of a
// site with links to ten other hosts, without -check-cache and twice with
// one (checkcache.go), and last the
// crawler's peak memory on a page of 50 MiB, a gzip bomb of a GiB and a million links that robots.txt
// disallows, served by crawlbench itself. `make bench` runs it after the
// micro-benchmarks. With -baseline, another crawler binary, such as an
// older build, is timed beside ./crawler on the docs.
//
// Usage:
//
//	crawlbench [-runs 5] [-shared ../shared/playground] [-dir /tmp] [-synthetic 100000] [-stats-pages 1000000] [-stats-runs 1] [-heavy 4000] [-python DIR] [-javadoc DIR] [-postgres DIR] [-docs-runs 3] [-baseline FILE] [-hosts 4] [-hosts-pages 400] [-hosts-delay 20ms] [-checkcache=false] [-memory=false] [-memory-runs 3] [-since=false] [-folder=false]
//
// It needs ./crawler and ./playground (make builds them), tar, and wget
// for the comparison (without wget, the crawler is timed alone). Each run
// writes into a new directory under -dir, with a sync before each run so
// that one run's writing back does not slow the next. On a disk the
// directories are removed only at the end: on a file system mounted with
// discard, deleting 190 MB between runs slows the next run by as much as
// it takes. On a tmpfs each is removed after its run, and in the memory
// section wherever it is, since a run there leaves a page of up to a GiB,
// as in the section on -stats, whose runs leave gigabytes.
// The figures are what the kernel reports for the finished process
// (wait4's rusage, as /usr/bin/time prints): wall, user and system time,
// and peak resident memory. The crawler and wget take turns, and the
// table gives the best and the median of the runs.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type config struct {
	runs      int
	shared    string
	dir       string
	synthetic int
	// The synthetic site crawled with and without -stats, and how many
	// times each: a run of a million pages takes minutes.
	statsPages int
	statsRuns  int
	// Classes in each of the link-heavy site's packages, timed in html
	// mode and in reference mode.
	heavyClasses int
	// The docs of Debian packages ("" skips them), the runs of the
	// OpenJDK docs, which wget takes a minute to crawl, and a crawler to
	// time beside ./crawler on them.
	pythonDocs, javadoc string
	docsRuns            int
	baseline            string
	// The PostgreSQL docs ("" skips them), link checked against wget
	// --spider, docsRuns times.
	postgres string
	// The crawl of several hosts: how many, how many pages in all, and
	// the pause, short enough to be timed in seconds, long enough that
	// pauses and not requests make the time.
	hosts      int
	hostsPages int
	hostsDelay time.Duration
	// The link check with -check-cache.
	checkCache bool
	// The crawler's peak memory on pages as large as a crawl may meet,
	// with runs of its own, since each takes seconds.
	memory     bool
	memoryRuns int
	// The Python docs crawled again with -since, from nginx.
	since bool
	// The Python docs link checked as a folder, against linkinator.
	folder bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("crawlbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.runs, "runs", 5, "timed runs of each command")
	fs.StringVar(&cfg.shared, "shared", filepath.Join("..", "shared", "playground"), "the shared playground folder")
	fs.StringVar(&cfg.dir, "dir", os.TempDir(), "where the crawls write their pages")
	fs.IntVar(&cfg.synthetic, "synthetic", 100_000, "pages of the synthetic site; 0 to skip it")
	fs.IntVar(&cfg.statsPages, "stats-pages", 1_000_000, "pages of the synthetic site crawled with and without -stats, to depth 6; 0 to skip it")
	fs.IntVar(&cfg.statsRuns, "stats-runs", 1, "runs of each crawl with and without -stats")
	heavyPages := fs.Int("heavy", 4000, "pages, about, of the link-heavy site that html and reference modes crawl; 0 to skip it")
	fs.StringVar(&cfg.pythonDocs, "python", "/usr/share/doc/python3.11/html", `the Python docs, crawled with -warc; "" to skip them`)
	fs.StringVar(&cfg.javadoc, "javadoc", "/usr/share/doc/openjdk-17-jre-headless/api", `the OpenJDK API docs, crawled against wget; "" to skip them`)
	fs.IntVar(&cfg.docsRuns, "docs-runs", 3, "timed runs of each command on the OpenJDK and PostgreSQL docs; 0 to skip them")
	fs.StringVar(&cfg.postgres, "postgres", "/usr/share/doc/postgresql-doc-15/html", `the PostgreSQL docs, link checked with -check against wget --spider; "" to skip them`)
	fs.StringVar(&cfg.baseline, "baseline", "", "another crawler binary, such as an older commit's, to time beside ./crawler on the docs")
	fs.IntVar(&cfg.hosts, "hosts", 4, "hosts of the polite crawl of several hosts; 0 to skip it")
	fs.IntVar(&cfg.hostsPages, "hosts-pages", 400, "pages of the site of several hosts, in all")
	fs.DurationVar(&cfg.hostsDelay, "hosts-delay", 20*time.Millisecond, "the pause of the crawl of several hosts")
	fs.BoolVar(&cfg.checkCache, "checkcache", true, "check a site with links to other hosts without -check-cache, then twice with one; -checkcache=false to skip it")
	fs.BoolVar(&cfg.memory, "memory", true, "measure peak memory on a page of 50 MiB, a gzip bomb and a million links; -memory=false to skip it")
	fs.IntVar(&cfg.memoryRuns, "memory-runs", 3, "runs of each command of the memory section")
	fs.BoolVar(&cfg.since, "since", true, "crawl the Python docs again with -since, from nginx, unchanged and changed; -since=false to skip it")
	fs.BoolVar(&cfg.folder, "folder", true, "link check the Python docs as a folder, against linkinator (with npx); -folder=false to skip it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *heavyPages > 0 {
		cfg.heavyClasses = max(1, *heavyPages/heavyPackages-1)
	}
	if cfg.statsPages > 0 && cfg.statsRuns < 1 {
		fmt.Fprintf(stderr, "crawlbench: -stats-runs must be at least 1 (-stats-pages 0 skips the section)\n")
		return 2
	}
	if cfg.memory && cfg.memoryRuns < 1 {
		fmt.Fprintf(stderr, "crawlbench: -memory-runs must be at least 1 (-memory=false skips the section)\n")
		return 2
	}
	if err := bench(ctx, cfg, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "crawlbench: %v\n", err)
		return 1
	}
	return 0
}

// A sample is one finished run.
type sample struct {
	wall, user, sys time.Duration
	rss             int64 // KiB
}

func (s sample) cpu() time.Duration { return s.user + s.sys }

func bench(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	work, err := os.MkdirTemp(cfg.dir, "crawlbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	cfg.dir = work
	for _, exe := range []string{"./crawler", "./playground"} {
		if _, err := os.Stat(exe); err != nil {
			return fmt.Errorf("%s is missing: run make first", exe)
		}
	}
	fmt.Fprintf(stdout, "# Whole crawls, %s, %d CPUs, %s\n\n", time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), cpuModel())

	tarball := filepath.Join(cfg.shared, "cs50tse-site.tar.gz")
	if _, err := os.Stat(tarball); err != nil {
		fmt.Fprintf(stdout, "(skipping wikipedia: no %s)\n\n", tarball)
	} else if err := benchWikipedia(ctx, cfg, tarball, stdout, stderr); err != nil {
		return err
	}
	if cfg.synthetic > 0 {
		if err := benchSynthetic(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.statsPages > 0 {
		if err := benchStats(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.heavyClasses > 0 {
		if err := benchModes(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.pythonDocs != "" {
		if err := benchPythonDocs(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.pythonDocs != "" && cfg.since {
		if err := benchSince(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.pythonDocs != "" && cfg.folder && cfg.docsRuns > 0 {
		if err := benchFolder(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.javadoc != "" && cfg.docsRuns > 0 {
		if err := benchJavadoc(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.postgres != "" && cfg.docsRuns > 0 {
		if err := benchPostgres(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.hosts > 0 {
		if err := benchHosts(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.checkCache {
		if err := benchCheckCache(ctx, cfg, stdout, stderr); err != nil {
			return err
		}
	}
	if cfg.memory {
		return benchMemory(ctx, cfg, stdout, stderr)
	}
	return nil
}

func benchWikipedia(ctx context.Context, cfg config, tarball string, stdout, stderr io.Writer) error {
	site, err := os.MkdirTemp("", "crawlbench-site-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(site)
	if out, err := exec.CommandContext(ctx, "tar", "-xzf", tarball, "-C", site).CombinedOutput(); err != nil {
		return fmt.Errorf("unpacking %s: %v: %s", tarball, err, out)
	}
	proxy, stopServer, err := startPlayground(ctx, site)
	if err != nil {
		return err
	}
	defer stopServer()

	const seed = "http://cs50tse.cs.dartmouth.edu/tse/wikipedia/index.html"
	env := append(os.Environ(), "HTTP_PROXY="+proxy, "http_proxy="+proxy)
	// crawler makes the command of a crawl into dir, with, if flag is
	// not empty, the file it names beside dir, named by suffix, and more
	// flags.
	crawler := func(flag, suffix string, more ...string) func(dir string) *exec.Cmd {
		return func(dir string) *exec.Cmd {
			args := []string{"-q", "-delay", "0"}
			if flag != "" {
				args = append(args, flag, dir+suffix)
			}
			args = append(args, more...)
			cmd := exec.CommandContext(ctx, "./crawler", append(args, seed, dir, "2")...)
			cmd.Env = env
			return cmd
		}
	}
	commands := []docCommand{
		{"crawler", crawler("", ""), nil},
		// Without requisites, the time it takes to write the archive;
		// with them, wikipedia's 18,845, on other hosts, which the
		// playground answers 404.
		{"crawler -warc x.warc -requisites none", crawler("-warc", ".warc", "-requisites", "none"), nil},
		{"crawler -warc x.warc.gz -requisites none", crawler("-warc", ".warc.gz", "-requisites", "none"), nil},
		{"crawler -warc x.warc.gz", crawler("-warc", ".warc.gz"), nil},
		{"crawler -graph x.csv", crawler("-graph", ".csv"), nil},
	}
	wget, err := exec.LookPath("wget")
	if err == nil {
		hostport := strings.TrimPrefix(proxy, "http://")
		commands = append(commands, docCommand{"wget", func(dir string) *exec.Cmd {
			return exec.CommandContext(ctx, wget, "-q", "-r", "-l", "2", "--accept", "html",
				"-e", "robots=on", "-e", "use_proxy=yes", "-e", "http_proxy="+hostport, "-P", dir, seed)
		}, wgetExits})
	} else {
		fmt.Fprintf(stdout, "(no wget here: the crawler is timed alone)\n\n")
	}

	samples := make([][]sample, len(commands))
	for i := range cfg.runs + 1 { // the first round warms the caches and is not counted
		for c, cmd := range commands {
			s, pages, err := timeRun(cfg.dir, cmd.make, cmd.ok...)
			if err != nil {
				return fmt.Errorf("%s: %w", cmd.name, err)
			}
			if i > 0 {
				samples[c] = append(samples[c], s)
			}
			if i == 1 {
				fmt.Fprintf(stderr, "crawlbench: %s saved %d pages\n", cmd.name, pages)
			}
		}
	}
	fmt.Fprintf(stdout, "## wikipedia at depth 2 (1,675 pages, 190 MB), -delay 0, from playground on loopback, into %s\n\n", filepath.Dir(cfg.dir))
	fmt.Fprintf(stdout, "| command | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|\n")
	for c, cmd := range commands {
		fmt.Fprintf(stdout, "| %s | %s |\n", cmd.name, timings(samples[c]))
	}
	fmt.Fprintln(stdout)
	ratio := func(name string, a, b []sample) {
		ba, ma := summarize(a)
		bb, mb := summarize(b)
		fmt.Fprintf(stdout, "%s: best wall %.2f, median wall %.2f, median CPU %.2f\n", name,
			ba.wall.Seconds()/bb.wall.Seconds(), ma.wall.Seconds()/mb.wall.Seconds(), ma.cpu().Seconds()/mb.cpu().Seconds())
	}
	ratio("-warc x.warc -requisites none / no -warc", samples[1], samples[0])
	ratio("-warc x.warc.gz -requisites none / no -warc", samples[2], samples[0])
	ratio("-warc x.warc.gz / -requisites none", samples[3], samples[2])
	ratio("-graph x.csv / no -graph", samples[4], samples[0])
	if len(commands) == 6 {
		ratio("crawler / wget", samples[0], samples[5])
	}
	fmt.Fprintln(stdout)
	return nil
}

func benchSynthetic(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	proxy, stopServer, err := startPlayground(ctx, "", "-synthetic", fmt.Sprint(cfg.synthetic))
	if err != nil {
		return err
	}
	defer stopServer()
	env := append(os.Environ(), "HTTP_PROXY="+proxy, "http_proxy="+proxy)
	s, pages, err := timeRun(cfg.dir, func(dir string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, "./crawler", "-q", "-delay", "0", "-order", "bfs", "http://cs50tse.cs.dartmouth.edu/tse/synth/0.html", dir, "10")
		cmd.Env = env
		return cmd
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## a synthetic site of %d pages, -order bfs -delay 0, from playground -synthetic on loopback\n\n", cfg.synthetic)
	fmt.Fprintf(stdout, "| pages saved | wall | CPU (user + sys) | pages/s | peak RSS |\n|---|---|---|---|---|\n")
	fmt.Fprintf(stdout, "| %d | %.1f s | %.1f s (%.1f + %.1f) | %.0f | %.1f MB |\n\n", pages, s.wall.Seconds(),
		s.cpu().Seconds(), s.user.Seconds(), s.sys.Seconds(), float64(pages)/s.wall.Seconds(), float64(s.rss)/1024)
	return nil
}

// benchStats measures what -stats costs in memory: it names each broken
// link and the pages that link to it, so it keeps something of every page
// the crawl has not decided yet, and on a large site crawled breadth first
// most of the site waits in the bag at once. The site is crawled to depth
// 6, where every page of a million is reached.
func benchStats(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	proxy, stopServer, err := startPlayground(ctx, "", "-synthetic", fmt.Sprint(cfg.statsPages))
	if err != nil {
		return err
	}
	defer stopServer()
	env := append(os.Environ(), "HTTP_PROXY="+proxy, "http_proxy="+proxy)
	flags := [][]string{nil, {"-stats"}}
	samples := make([][]sample, len(flags))
	var saved []int
	for i := range cfg.statsRuns {
		for f, more := range flags {
			var dir string
			s, pages, err := timeRun(cfg.dir, func(d string) *exec.Cmd {
				dir = d
				args := append([]string{"-q", "-delay", "0", "-order", "bfs", "-links", "reference"}, more...)
				cmd := exec.CommandContext(ctx, "./crawler", append(args, "http://cs50tse.cs.dartmouth.edu/tse/synth/0.html", dir, "6")...)
				cmd.Env = env
				return cmd
			})
			if dir != "" { // gigabytes, on a disk too
				err = errors.Join(err, removeRun(dir))
			}
			if err != nil {
				return fmt.Errorf("the synthetic site with %v: %w", more, err)
			}
			samples[f] = append(samples[f], s)
			if i == 0 {
				saved = append(saved, pages)
			}
		}
	}
	runs := "runs"
	if cfg.statsRuns == 1 {
		runs = "run"
	}
	fmt.Fprintf(stdout, "## -stats on a synthetic site of %s pages, -order bfs -links reference -delay 0, maxDepth 6, from playground -synthetic on loopback, into %s, %d %s each\n\n",
		commas(int64(cfg.statsPages)), filepath.Dir(cfg.dir), cfg.statsRuns, runs)
	fmt.Fprintf(stdout, "| command | pages saved | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|\n")
	for f, name := range []string{"crawler", "crawler -stats"} {
		fmt.Fprintf(stdout, "| %s | %d | %s |\n", name, saved[f], timings(samples[f]))
	}
	_, without := summarize(samples[0])
	_, with := summarize(samples[1])
	fmt.Fprintf(stdout, "\n-stats / no -stats: median peak RSS %.2f, median wall %.2f\n\n",
		float64(with.rss)/float64(without.rss), with.wall.Seconds()/without.wall.Seconds())
	return nil
}

// benchHosts times a polite crawl of a synthetic site spread over several
// hosts, fetched one page at a time and from every host at once: with a
// pause per host, the first takes about the pauses of all the hosts, the
// second those of the busiest.
func benchHosts(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	proxy, stopServer, err := startPlayground(ctx, "", "-synthetic", fmt.Sprint(cfg.hostsPages), "-hosts", fmt.Sprint(cfg.hosts))
	if err != nil {
		return err
	}
	defer stopServer()
	env := append(os.Environ(), "HTTP_PROXY="+proxy, "http_proxy="+proxy)
	lanes := []int{1, cfg.hosts}
	samples := make([][]sample, len(lanes))
	var saved []int
	for i := range cfg.runs + 1 { // the first round warms the caches and is not counted
		for l, n := range lanes {
			s, pages, err := timeRun(cfg.dir, func(dir string) *exec.Cmd {
				// -links reference, as when BENCHMARKS.md's figures were measured.
				cmd := exec.CommandContext(ctx, "./crawler", "-q", "-delay", cfg.hostsDelay.String(), "-parallel", fmt.Sprint(n),
					"-links", "reference", "-scope", "http://*.synth.test/", "http://h0.synth.test/tse/synth/0.html", dir, "10")
				cmd.Env = env
				return cmd
			})
			if err != nil {
				return fmt.Errorf("-parallel %d: %w", n, err)
			}
			if i > 0 {
				samples[l] = append(samples[l], s)
			}
			if i == 1 {
				saved = append(saved, pages)
			}
		}
	}
	// Each host has its robots.txt asked for (a 404 here) and its pages.
	perHost := (cfg.hostsPages + cfg.hosts - 1) / cfg.hosts
	floor := time.Duration(perHost) * cfg.hostsDelay
	fmt.Fprintf(stdout, "## a synthetic site of %d pages on %d hosts, -delay %v, from playground -synthetic -hosts on loopback\n\n", cfg.hostsPages, cfg.hosts, cfg.hostsDelay)
	fmt.Fprintf(stdout, "The busiest host's floor: %d requests %v apart, %.2f s.\n\n", perHost+1, cfg.hostsDelay, floor.Seconds())
	fmt.Fprintf(stdout, "| -parallel | pages saved | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|\n")
	for l, n := range lanes {
		fmt.Fprintf(stdout, "| %d | %d | %s |\n", n, saved[l], timings(samples[l]))
	}
	_, m1 := summarize(samples[0])
	_, mn := summarize(samples[1])
	fmt.Fprintf(stdout, "\n-parallel %d / -parallel 1: median wall %.2f; -parallel %d / the floor: %.2f\n\n",
		cfg.hosts, mn.wall.Seconds()/m1.wall.Seconds(), cfg.hosts, mn.wall.Seconds()/floor.Seconds())
	return nil
}

// timeRun runs the command made for a new directory under parent, after a
// sync, and returns its figures and how many HTML files it left. An exit
// status other than 0 is a failure unless ok lists it.
//
// On a tmpfs the directory, and the WARC file beside it, are removed at
// once: kept until the end, the rounds of four crawls held gigabytes of
// memory, and every crawl's system time grew threefold as memory filled.
// A tmpfs has no discard to make deleting slow.
func timeRun(parent string, make func(dir string) *exec.Cmd, ok ...int) (sample, int, error) {
	dir, err := os.MkdirTemp(parent, "run-")
	if err != nil {
		return sample{}, 0, err
	}
	if onTmpfs(parent) {
		defer func() {
			os.RemoveAll(dir)
			for _, suffix := range []string{".warc", ".warc.gz", ".csv"} {
				os.Remove(dir + suffix)
			}
		}()
	}
	s, err := measure(make(dir), ok...)
	if err != nil {
		return sample{}, 0, err
	}
	return s, countPages(dir), nil
}

// measure runs cmd, after a sync, and returns what it took. An exit
// status in ok is no failure.
func measure(cmd *exec.Cmd, ok ...int) (sample, error) {
	syscall.Sync()
	lowerPeak()
	var stderr strings.Builder
	if cmd.Stderr != nil {
		cmd.Stderr = io.MultiWriter(cmd.Stderr, &stderr)
	} else {
		cmd.Stderr = &stderr
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !slices.Contains(ok, exit.ExitCode()) {
			return sample{}, fmt.Errorf("%v: %s", err, stderr.String())
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return sample{
		wall: wall,
		user: time.Duration(ru.Utime.Nano()),
		sys:  time.Duration(ru.Stime.Nano()),
		rss:  ru.Maxrss,
	}, nil
}

// countPages counts the pages a crawl left: numbered files for the
// crawler, .html files for wget.
func countPages(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			n++
		}
		return nil
	})
	return n
}

// timings gives a table's last cells for ss: best wall, median wall,
// median CPU (user + sys) and median peak RSS.
func timings(ss []sample) string {
	best, med := summarize(ss)
	return fmt.Sprintf("%.2f s | %.2f s | %.2f s (%.2f + %.2f) | %.1f MB",
		best.wall.Seconds(), med.wall.Seconds(), med.cpu().Seconds(), med.user.Seconds(), med.sys.Seconds(), float64(med.rss)/1024)
}

// summarize returns the run with the best wall time and the medians.
func summarize(ss []sample) (best, median sample) {
	best = slices.MinFunc(ss, func(a, b sample) int { return int(a.wall - b.wall) })
	med := func(f func(sample) time.Duration) time.Duration {
		v := make([]time.Duration, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	rss := make([]int64, len(ss))
	for i, s := range ss {
		rss[i] = s.rss
	}
	slices.Sort(rss)
	return best, sample{
		wall: med(func(s sample) time.Duration { return s.wall }),
		user: med(func(s sample) time.Duration { return s.user }),
		sys:  med(func(s sample) time.Duration { return s.sys }),
		rss:  rss[len(rss)/2],
	}
}

// startPlayground starts ./playground on a free loopback port, over site
// or with the given flags, and returns its address and a way to stop it.
func startPlayground(ctx context.Context, site string, flags ...string) (string, func(), error) {
	args := append([]string{"-addr", "127.0.0.1:0", "-log", os.DevNull}, flags...)
	if site != "" {
		args = append(args, site)
	}
	cmd := exec.CommandContext(ctx, "./playground", args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("the playground did not start: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		stop()
		return "", nil, fmt.Errorf("the playground said %q", line)
	}
	go io.Copy(io.Discard, out)
	return strings.TrimSuffix(strings.TrimSpace(line[i:]), "/"), stop, nil
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.Lines(string(data)) {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
		}
	}
	return "unknown CPU"
}
