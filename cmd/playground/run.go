package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"tse-crawler/internal/playground"
	"tse-crawler/internal/synthsite"
)

const usage = `Usage: playground [-addr 127.0.0.1:8080] [-log FILE] [-vhosts] DIR
       playground [-addr 127.0.0.1:8080] [-log FILE] -synthetic PAGES

Playground serves the static site in DIR (the folder that holds tse/) the way
the CS50 playground's nginx server does, both as an origin server
(GET /tse/...) and as an HTTP forward proxy (GET http://any-host/tse/...).
Point a crawler at it with HTTP_PROXY=http://ADDR to crawl the copy under the
site's real URLs. Each request is logged, one line each, to stderr or FILE.

Flags:
  -addr ADDR   address to listen on (default 127.0.0.1:8080; port 0 picks a
               free port, and the address is printed on stdout)
  -log FILE    append the request log to FILE instead of stderr
  -vhosts      serve one site per host: DIR/www.example.edu/ for requests
               to www.example.edu, and so on
  -synthetic N serve, instead of DIR, a synthetic site of N pages made up on
               the fly: /tse/synth/0.html to /tse/synth/(N-1).html, about
               14 links a page, every page within six links of page 0
  -h           this help
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:8080", "")
	logFile := fs.String("log", "", "")
	vhosts := fs.Bool("vhosts", false, "")
	synthetic := fs.Int("synthetic", 0, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "playground: %v\nRun 'playground -h' for usage.\n", err)
		return 2
	}
	var site http.Handler
	name := fs.Arg(0)
	switch {
	case *synthetic < 0:
		fmt.Fprintf(stderr, "playground: -synthetic %d: give a number of pages, such as 100000\n", *synthetic)
		return 2
	case *synthetic > 0 && fs.NArg() == 0:
		site = synthsite.Site{Pages: *synthetic, Seed: 1}
		name = fmt.Sprintf("a synthetic site of %d pages", *synthetic)
	case fs.NArg() != 1:
		fmt.Fprintf(stderr, "playground: expected one argument, the site's directory, but got %d\nRun 'playground -h' for usage.\n", fs.NArg())
		return 2
	default:
		root, err := os.OpenRoot(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "playground: %v: give the directory that holds the site\n", err)
			return 2
		}
		defer root.Close()
		site = playground.Handler(root.FS())
		if *vhosts {
			site = playground.VirtualHosts(root.FS())
		}
	}
	logw := stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "playground: %v\n", err)
			return 1
		}
		defer f.Close()
		logw = f
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "playground: serving %s on http://%s/\n", name, ln.Addr())
	srv := &http.Server{
		Handler:           playground.Log(logw, site),
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		fmt.Fprintf(stderr, "playground: shutting down: %v\n", err)
		return 1
	}
	return 0
}
