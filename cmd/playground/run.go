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
	"strconv"
	"syscall"
	"time"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/playground"
	"tse-crawler/internal/testbed/synthsite"
)

const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

const usage = `Usage: playground [-addr 127.0.0.1:8080] [-log FILE] [-vhosts] DIR
       playground [-addr 127.0.0.1:8080] [-log FILE] -synthetic PAGES [-hosts N]

Playground serves the static site in DIR (the folder that holds tse/) the way
the CS50 playground's nginx server does, both as an origin server
(GET /tse/...) and as an HTTP forward proxy (GET http://any-host/tse/...).
Point a crawler at it with HTTP_PROXY=http://ADDR to crawl the copy under the
site's real URLs.

Once it listens, playground writes one line on stdout, the URL to give as
HTTP_PROXY (http://127.0.0.1:PORT), and nothing else there, so that a script
can read it:

  ./playground -addr 127.0.0.1:0 -log playground.log DIR >playground.addr &

Everything else goes to stderr: a line saying what it serves, errors, and the
request log, one line per request, unless -log gives a FILE. SIGINT or
SIGTERM stops it.

Flags:
  -addr ADDR   address to listen on (default 127.0.0.1:8080; port 0 picks a
               free port)
  -log FILE    append the request log to FILE instead of stderr
  -vhosts      serve one site per host: DIR/www.example.edu/ for requests
               to www.example.edu, and so on
  -synthetic N serve, instead of DIR, a synthetic site of N pages made up on
               the fly: /tse/synth/0.html to /tse/synth/(N-1).html, about
               14 links a page, every page within six links of page 0
  -hosts N     with -synthetic, spread the pages over N hosts, h0.synth.test
               to h(N-1).synth.test, page n on host n mod N, with links
               across hosts as absolute URLs (crawl with -scope
               'http://*.synth.test/')
  -version     the version, Go release and revision it was built from
  -h           this help

Exit status is 0 after a clean shutdown (and for -h and -version), 1 if it
cannot listen or the server fails, and 2 for bad arguments.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:8080", "")
	logFile := fs.String("log", "", "")
	vhosts := fs.Bool("vhosts", false, "")
	synthetic := fs.Int("synthetic", 0, "")
	hosts := fs.Int("hosts", 1, "")
	version := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		fmt.Fprintf(stderr, "playground: %v\nRun 'playground -h' for usage.\n", err)
		return exitUsage
	}
	if *version {
		fmt.Fprintln(stdout, buildinfo.String("playground"))
		return exitOK
	}
	if _, port, err := net.SplitHostPort(*addr); err != nil || !validPort(port) {
		fmt.Fprintf(stderr, "playground: -addr %q is not HOST:PORT: give one such as 127.0.0.1:8080, or 127.0.0.1:0 for a free port\n", *addr)
		return exitUsage
	}
	var site http.Handler
	name := fs.Arg(0)
	switch {
	case *synthetic < 0:
		fmt.Fprintf(stderr, "playground: -synthetic %d: give a number of pages, such as 100000\n", *synthetic)
		return exitUsage
	case *hosts < 1 || *hosts > 1 && *synthetic == 0:
		fmt.Fprintf(stderr, "playground: -hosts %d: give a number of hosts, 1 or more, for a -synthetic site\n", *hosts)
		return exitUsage
	case *synthetic > 0 && fs.NArg() == 0:
		site = synthsite.Site{Pages: *synthetic, Seed: 1, Hosts: *hosts}
		name = fmt.Sprintf("a synthetic site of %d pages", *synthetic)
		if *hosts > 1 {
			name += fmt.Sprintf(" on %d hosts, %s to %s", *hosts, synthsite.Host(0), synthsite.Host(*hosts-1))
		}
	case fs.NArg() != 1:
		fmt.Fprintf(stderr, "playground: expected one argument, the site's directory, but got %d\nRun 'playground -h' for usage.\n", fs.NArg())
		return exitUsage
	default:
		root, err := os.OpenRoot(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "playground: %v: give the directory that holds the site\n", err)
			return exitUsage
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
			return exitError
		}
		defer f.Close()
		logw = f
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", listenError(*addr, err))
		return exitError
	}
	proxy := "http://" + ln.Addr().String()
	fmt.Fprintf(stderr, "playground: serving %s on %s\n", name, proxy)
	// The address goes out last, so that a script that waits for it finds
	// the server listening and its messages written.
	fmt.Fprintln(stdout, proxy)
	srv := &http.Server{
		Handler:           playground.Log(logw, site),
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return exitError
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		fmt.Fprintf(stderr, "playground: shutting down: %v\n", err)
		return exitError
	}
	return exitOK
}

func validPort(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n <= 65535
}

// listenError explains why addr, which is HOST:PORT, cannot be listened
// on. A port that is taken or reserved is the usual cause, and the fix is
// another port, so the message names one.
func listenError(addr string, err error) error {
	host, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	cause := err
	var errno syscall.Errno
	var op *net.OpError
	switch {
	case errors.As(err, &errno):
		cause = errno
	case errors.As(err, &op):
		cause = op.Err
	}
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		next := n + 1
		if next > 65535 {
			next = 8080
		}
		// Most often, the server README.md starts, started again.
		return fmt.Errorf("cannot listen on %s: %v: a server you started before may still be serving there, or give another port, such as -addr %s, or -addr %s for a free one",
			addr, cause, net.JoinHostPort(host, strconv.Itoa(next)), net.JoinHostPort(host, "0"))
	case errors.Is(err, syscall.EACCES):
		// Ports below 1024 need privileges; the same digits above 8000
		// read as their unprivileged stand-in (80 becomes 8080).
		next := n + 1
		if n < 1024 {
			next = 8000 + n
		}
		return fmt.Errorf("cannot listen on %s: %v: give another port, such as -addr %s, or -addr %s for a free one",
			addr, cause, net.JoinHostPort(host, strconv.Itoa(next)), net.JoinHostPort(host, "0"))
	}
	return fmt.Errorf("cannot listen on %s: %v: give an address of this machine, such as -addr 127.0.0.1:0", addr, cause)
}
