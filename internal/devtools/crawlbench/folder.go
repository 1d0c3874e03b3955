package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// The Python docs (python3.11-doc) link checked as a folder: crawler
// -check DIR, which serves it to itself in-process, against linkinator,
// which serves it on a port of its own, both without links to other
// hosts, so that only the folder is timed and no request leaves the
// machine.

// benchFolder times crawler -check DIR on the Python docs against
// linkinator DIR --recurse, or alone if there is no npx.
func benchFolder(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	docs := cfg.pythonDocs
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		fmt.Fprintf(stdout, "(skipping the folder check: no %s; apt-get install python3.11-doc puts it there)\n\n", filepath.Join(docs, "index.html"))
		return nil
	}
	var last lastLines
	commands := []docCommand{
		{"crawler -check -check-external=false DIR", func(string) *exec.Cmd {
			cmd := exec.CommandContext(ctx, "./crawler", "-check", "-check-external=false", docs)
			cmd.Stdout = last.writer(0)
			return cmd
		}, []int{9}}, // 9: a broken link, as whatsnew/changelog.html, which Debian leaves out, is
	}
	version, linkinator, why := findLinkinator(ctx)
	if linkinator != "" {
		name := "linkinator@" + version + " DIR --recurse"
		commands = append(commands, docCommand{name, func(string) *exec.Cmd {
			// Links to other hosts skipped, as -check-external=false
			// does; linkinator serves the folder on localhost.
			cmd := exec.CommandContext(ctx, linkinator, docs, "--recurse", "--skip", "^(?!http://localhost)", "--verbosity", "error")
			cmd.Stderr = last.writer(1)
			return cmd
		}, []int{1}}) // 1: a broken link
	} else {
		fmt.Fprintf(stdout, "(no linkinator: %s; the folder is checked by the crawler alone)\n\n", why)
	}
	samples, _, err := timeDocs(cfg, cfg.docsRuns, commands, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## the Python 3.11 docs as a folder (%s), link checked, links to other hosts left out\n\n", docs)
	fmt.Fprintf(stdout, "| command | what it says | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|\n")
	for c, cmd := range commands {
		fmt.Fprintf(stdout, "| %s | %s | %s |\n", cmd.name, last.get(c), timings(samples[c]))
	}
	fmt.Fprintln(stdout)
	if len(commands) == 2 {
		_, crawler := summarize(samples[0])
		_, l := summarize(samples[1])
		fmt.Fprintf(stdout, "crawler -check DIR / linkinator: median wall %.2f, median CPU %.2f\n\n",
			crawler.wall.Seconds()/l.wall.Seconds(), crawler.cpu().Seconds()/l.cpu().Seconds())
	}
	return nil
}

// findLinkinator installs linkinator with npx, if there is npx, in the
// latest release this node runs (8.1.0 needs node 22, 7.6.1 node 20), and
// returns its version and the path of its command, so that npx's own
// start is not timed; or why there is none.
func findLinkinator(ctx context.Context) (version, path, why string) {
	npx, err := exec.LookPath("npx")
	if err != nil {
		return "", "", "no npx here"
	}
	out, err := exec.CommandContext(ctx, "node", "--version").Output()
	if err != nil {
		return "", "", "node does not run: " + err.Error()
	}
	major, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0], "v"))
	switch {
	case major >= 22:
		version = "8.1.0"
	case major >= 20:
		version = "7.6.1"
	default:
		return "", "", fmt.Sprintf("node %s is older than linkinator's 20", strings.TrimSpace(string(out)))
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, npx, "-y", "-p", "linkinator@"+version, "-c", "command -v linkinator")
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		return "", "", fmt.Sprintf("npx could not install linkinator@%s: %v: %s", version, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return "", "", "npx did not say where linkinator is"
	}
	return version, lines[len(lines)-1], ""
}

// lastLines keeps the last line each command wrote on the stream it sums
// up on, for the table.
type lastLines struct {
	mu    sync.Mutex
	lines [2]string
}

func (l *lastLines) writer(i int) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		for line := range strings.Lines(string(p)) {
			if s := strings.TrimSpace(line); s != "" {
				l.lines[i] = s
			}
		}
		return len(p), nil
	})
}

func (l *lastLines) get(i int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.ReplaceAll(l.lines[i], "|", "\\|")
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
