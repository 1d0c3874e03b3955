package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// The link-heavy site is shaped like javadoc's API documentation, such as
// OpenJDK's, which issue 21 measured html mode on: modules of packages of
// classes, two folders deep, each class page with about 110 links in 28
// KB, most of them relative and climbing ("../../m1/p12/C3.html#m4()"),
// the others to the same package, the page's own anchors or another
// site. An index links to every package, and a package to its classes.
// It is written to disk and served by ./playground as an origin on
// 127.0.0.1, so that every URL has an address for its host, as a copy of
// a site served on loopback has.
const (
	heavyPackages = 100 // in ten modules
	heavyLinks    = 110 // on a class page
)

// heavyClassPath returns the path, under api/, of class c of package p.
func heavyClassPath(p, c int) string {
	return "m" + strconv.Itoa(p/10) + "/p" + strconv.Itoa(p) + "/C" + strconv.Itoa(c) + ".html"
}

// writeHeavySite writes the site, with the given number of classes in a
// package, into dir/api, and returns how many pages it has.
func writeHeavySite(dir string, classes int) (int, error) {
	write := func(path string, page []byte) error {
		name := filepath.Join(dir, "api", filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, page, 0o644)
	}
	index := []byte("<!DOCTYPE html>\n<html><head><title>API</title></head><body><ul>\n")
	for p := range heavyPackages {
		pkg := fmt.Appendf(nil, "<!DOCTYPE html>\n<html><head><title>p%d</title></head><body>\n"+
			`<a href="../../index.html">Overview</a><ul>`+"\n", p)
		for c := range classes {
			pkg = fmt.Appendf(pkg, `<li><a href="C%d.html" title="class in p%d">C%d</a></li>`+"\n", c, p, c)
			if err := write(heavyClassPath(p, c), heavyClassPage(p, c, classes)); err != nil {
				return 0, err
			}
		}
		summary := fmt.Sprintf("m%d/p%d/package-summary.html", p/10, p)
		if err := write(summary, append(pkg, "</ul></body></html>\n"...)); err != nil {
			return 0, err
		}
		index = fmt.Appendf(index, `<li><a href="%s">p%d</a></li>`+"\n", summary, p)
	}
	if err := write("index.html", append(index, "</ul></body></html>\n"...)); err != nil {
		return 0, err
	}
	return heavyPackages*(classes+1) + 1, nil
}

// heavyClassPage returns the page of class c of package p.
func heavyClassPage(p, c, classes int) []byte {
	rng := rand.New(rand.NewPCG(uint64(p), uint64(c)))
	b := fmt.Appendf(nil, "<!DOCTYPE html>\n<html lang=\"en\"><head><title>C%d</title>\n"+
		`<link rel="stylesheet" href="../../stylesheet.css"></head><body>`+"\n"+
		`<nav><a href="../../index.html">Overview</a> <a href="package-summary.html">Package</a> `+
		`<a href="#field-summary">Field</a> <a href="#method-summary">Method</a></nav>`+"\n<main>\n", c)
	for i := range heavyLinks - 4 {
		if i%8 == 0 {
			b = append(b, "</p>\n<p>"...)
		}
		b = append(b, "Returns the value of this element, as the class below describes it: the value the "+
			"element held when it was last set, or its default, with the exceptions that "...)
		q, d := rng.IntN(heavyPackages), rng.IntN(classes)
		b = append(b, `<a href="`...)
		switch r := rng.IntN(10); {
		case r < 5: // another package's class
			b = append(b, "../../"+heavyClassPath(q, d)...)
		case r < 8: // a class of the same package
			b = append(b, "C"+strconv.Itoa(d)+".html"...)
		case r < 9: // an anchor of this page
			b = append(b, "#m"+strconv.Itoa(d)+"(int)"...)
		default: // another site
			b = append(b, "https://docs.example.org/specs/jls/se17/html/jls-"+strconv.Itoa(d)+".html"...)
		}
		if rng.IntN(2) == 0 && !bytes.HasSuffix(b, []byte(")")) { // often a method of a class
			b = append(b, "#m"+strconv.Itoa(i)+"(java.lang.String,int)"...)
		}
		b = append(b, `" title="class in p`+strconv.Itoa(q)+`"><code>C`+strconv.Itoa(d)+"</code></a> and more.\n"...)
	}
	return append(b, "</p>\n</main></body></html>\n"...)
}

// benchModes times crawls of the link-heavy site in html mode and in
// reference mode, taking turns, and prints their figures side by side.
func benchModes(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	site := filepath.Join(cfg.dir, "heavy-site")
	pages, err := writeHeavySite(site, cfg.heavyClasses)
	if err != nil {
		return err
	}
	defer os.RemoveAll(site)
	origin, stopServer, err := startPlayground(ctx, site)
	if err != nil {
		return err
	}
	defer stopServer()
	modes := []string{"reference", "html"}
	samples := make([][]sample, len(modes))
	saved := make([]int, len(modes))
	for i := range cfg.runs + 1 { // the first round warms the caches and is not counted
		for m, mode := range modes {
			s, n, err := timeRun(cfg.dir, func(dir string) *exec.Cmd {
				return exec.CommandContext(ctx, "./crawler", "-q", "-delay", "0", "-order", "bfs", "-links", mode,
					"-scope", origin+"/api/", origin+"/api/index.html", dir, "10")
			})
			if err != nil {
				return fmt.Errorf("-links %s: %w", mode, err)
			}
			if i > 0 {
				samples[m] = append(samples[m], s)
			}
			saved[m] = n
		}
	}
	fmt.Fprintf(stdout, "## html mode against reference mode: a link-heavy site of %d pages, %d links a class page, -order bfs -delay 0, from playground on 127.0.0.1\n\n", pages, heavyLinks)
	fmt.Fprintf(stdout, "| -links | pages saved | best wall | median wall | median CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|\n")
	for m, mode := range modes {
		fmt.Fprintf(stdout, "| %s | %d | %s |\n", mode, saved[m], timings(samples[m]))
	}
	br, mr := summarize(samples[0])
	bh, mh := summarize(samples[1])
	fmt.Fprintf(stdout, "\nhtml / reference: best wall %.2f, median wall %.2f, median CPU %.2f\n\n",
		bh.wall.Seconds()/br.wall.Seconds(), mh.wall.Seconds()/mr.wall.Seconds(), mh.cpu().Seconds()/mr.cpu().Seconds())
	return nil
}
