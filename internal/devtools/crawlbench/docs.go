package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The documentation that two Debian packages install, crawled as copies
// of real sites, served by ./playground at 127.0.0.1 from the folder that
// holds them: python3.11-doc's HTML (/usr/share/doc/python3.11/html, 530
// pages), archived with -warc and its requisites, and openjdk-17-doc's API
// docs (/usr/share/doc/openjdk-17-jre-headless/api, 10,136 pages, link
// heavy), crawled in html mode, in reference mode, and by wget. A link out
// of the folder, as a few of their scripts are, is answered 404.

// A docCommand is one command of a docs case: a crawler's or wget's, and
// the exit statuses other than 0 that are no failure of it.
type docCommand struct {
	name string
	make func(dir string) *exec.Cmd
	ok   []int
}

// wgetExits are wget's exit statuses that are no failure: 8, an error
// answered by a server, as when a link 404s, as some do on every site here.
var wgetExits = []int{8}

// serveDocs serves the folder that holds docs, a package's documentation,
// with ./playground, and returns its origin, the docs' URL prefix and the
// function that stops it; or, if docs has no index.html, says on stdout
// that the case is skipped and returns a nil stop.
func serveDocs(ctx context.Context, docs, name, pkg string, stdout io.Writer) (origin, prefix string, stop func(), err error) {
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		fmt.Fprintf(stdout, "(skipping %s: no %s; apt-get install %s puts them there)\n\n", name, filepath.Join(docs, "index.html"), pkg)
		return "", "", nil, nil
	}
	origin, stop, err = startPlayground(ctx, filepath.Dir(docs))
	if err != nil {
		return "", "", nil, err
	}
	return origin, origin + "/" + filepath.Base(docs) + "/", stop, nil
}

// benchPythonDocs times a crawl of the Python docs at depth 2 into a
// gzipped WARC file, with its requisites and without, and with the
// -baseline crawler if there is one.
func benchPythonDocs(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	origin, prefix, stop, err := serveDocs(ctx, cfg.pythonDocs, "the Python docs", "python3.11-doc", stdout)
	if err != nil || stop == nil {
		return err
	}
	defer stop()
	crawl := func(exe string, more ...string) func(dir string) *exec.Cmd {
		return func(dir string) *exec.Cmd {
			args := append([]string{"-q", "-delay", "0", "-scope", prefix, "-warc", dir + ".warc.gz"}, more...)
			return exec.CommandContext(ctx, exe, append(args, prefix+"index.html", dir, "2")...)
		}
	}
	commands := []docCommand{
		{"crawler -warc x.warc.gz", crawl("./crawler"), nil},
		{"crawler -warc x.warc.gz -requisites none", crawl("./crawler", "-requisites", "none"), nil},
	}
	if cfg.baseline != "" {
		commands = append(commands, docCommand{"baseline -warc x.warc.gz", crawl(cfg.baseline), nil})
	}
	samples, saved, err := timeDocs(cfg, cfg.runs, commands, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## the Python 3.11 docs at depth 2, -delay 0, -scope %s, from playground on 127.0.0.1\n\n", strings.Replace(prefix, origin, "ORIGIN", 1))
	printDocs(stdout, commands, samples, saved)
	_, all := summarize(samples[0])
	_, none := summarize(samples[1])
	fmt.Fprintf(stdout, "with requisites / -requisites none: median CPU %.2f\n", all.cpu().Seconds()/none.cpu().Seconds())
	if cfg.baseline != "" {
		_, base := summarize(samples[2])
		fmt.Fprintf(stdout, "crawler / baseline, with requisites: median CPU %.2f\n", all.cpu().Seconds()/base.cpu().Seconds())
	}
	fmt.Fprintln(stdout)
	return nil
}

// benchJavadoc times a crawl of the OpenJDK API docs, breadth first, in
// html mode and in reference mode, against wget, and the -baseline crawler
// in html mode if there is one.
func benchJavadoc(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	origin, prefix, stop, err := serveDocs(ctx, cfg.javadoc, "the OpenJDK docs", "openjdk-17-doc", stdout)
	if err != nil || stop == nil {
		return err
	}
	defer stop()
	crawl := func(exe, mode string) func(dir string) *exec.Cmd {
		return func(dir string) *exec.Cmd {
			return exec.CommandContext(ctx, exe, "-q", "-order", "bfs", "-delay", "0", "-links", mode,
				"-scope", prefix, prefix+"index.html", dir, "10")
		}
	}
	commands := []docCommand{
		{"crawler -links html", crawl("./crawler", "html"), nil},
		{"crawler -links reference", crawl("./crawler", "reference"), nil},
	}
	if cfg.baseline != "" {
		commands = append(commands, docCommand{"baseline -links html", crawl(cfg.baseline, "html"), nil})
	}
	wget, err := exec.LookPath("wget")
	if err == nil {
		commands = append(commands, docCommand{"wget -r -l 10 --accept html", func(dir string) *exec.Cmd {
			return exec.CommandContext(ctx, wget, "-q", "-r", "-l", "10", "--accept", "html", "-P", dir, prefix+"index.html")
		}, wgetExits})
	} else {
		fmt.Fprintf(stdout, "(no wget here: the OpenJDK docs are crawled without it)\n\n")
	}
	samples, saved, err := timeDocs(cfg, cfg.docsRuns, commands, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## the OpenJDK 17 API docs, -order bfs -delay 0 -scope %s, depth 10, from playground on 127.0.0.1\n\n", strings.Replace(prefix, origin, "ORIGIN", 1))
	printDocs(stdout, commands, samples, saved)
	ratio := func(name string, a, b []sample) {
		_, ma := summarize(a)
		_, mb := summarize(b)
		fmt.Fprintf(stdout, "%s: median wall %.2f, median CPU %.2f\n", name, ma.wall.Seconds()/mb.wall.Seconds(), ma.cpu().Seconds()/mb.cpu().Seconds())
	}
	ratio("html / reference", samples[0], samples[1])
	if wget == "" {
		fmt.Fprintln(stdout)
		return nil
	}
	w := samples[len(samples)-1]
	ratio("wget / html", w, samples[0])
	if cfg.baseline != "" {
		ratio("wget / baseline html", w, samples[2])
	}
	fmt.Fprintln(stdout)
	return nil
}

// timeDocs runs the commands in turn, after a round that warms the caches,
// runs times each, and returns their figures and the pages each saved.
func timeDocs(cfg config, runs int, commands []docCommand, stderr io.Writer) ([][]sample, []int, error) {
	samples := make([][]sample, len(commands))
	saved := make([]int, len(commands))
	for i := range runs + 1 {
		for c, cmd := range commands {
			s, pages, err := timeRun(cfg.dir, cmd.make, cmd.ok...)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", cmd.name, err)
			}
			if i > 0 {
				samples[c] = append(samples[c], s)
			}
			if i == 1 {
				saved[c] = pages
				fmt.Fprintf(stderr, "crawlbench: %s saved %d pages\n", cmd.name, pages)
			}
		}
	}
	return samples, saved, nil
}

// printDocs prints the table of a docs case.
func printDocs(stdout io.Writer, commands []docCommand, samples [][]sample, saved []int) {
	fmt.Fprintf(stdout, "| command | files saved | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|\n")
	for c, cmd := range commands {
		fmt.Fprintf(stdout, "| %s | %d | %s |\n", cmd.name, saved[c], timings(samples[c]))
	}
	fmt.Fprintln(stdout)
}
