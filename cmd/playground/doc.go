// Playground serves a static copy of a web site on a local port, answering
// as the CS50 playground's nginx server does, so that crawls can be tested
// offline under the site's real URLs.
//
// Usage:
//
//	playground [-addr 127.0.0.1:8080] [-log FILE] [-vhosts] DIR
//	playground [-addr 127.0.0.1:8080] [-log FILE] -synthetic PAGES [-hosts N]
//	playground -version
//
// DIR holds the site (for the CS50 playground, the folder that holds tse/).
// Playground is both a web server (GET /tse/letters/index.html) and an
// HTTP forward proxy (GET http://cs50tse.cs.dartmouth.edu/tse/letters/index.html):
// the path picks the file either way, so
//
//	HTTP_PROXY=http://127.0.0.1:8080 crawler http://cs50tse.cs.dartmouth.edu/tse/letters/index.html data 2
//
// crawls the copy as if it were the real server. Paths are percent-decoded
// before lookup, /dir/ serves dir/index.html, /dir redirects to /dir/, the
// query is ignored, a missing file is a 404, and nothing outside DIR is
// served, not even through a symbolic link.
//
// With -vhosts, DIR holds one folder per host name, such as
// DIR/www.example.edu/, so that one playground stands for several servers.
// With -synthetic, it serves a site of PAGES pages made up on the fly, and
// with -hosts spreads them over N hosts, h0.synth.test and on.
//
// Once it listens (port 0 picks a free port), playground writes one line on
// stdout, the URL to give as HTTP_PROXY, so that a script can start it in
// the background and read the address:
//
//	rm -f playground.addr
//	./playground -addr 127.0.0.1:0 -log playground.log DIR >playground.addr &
//	until [ -s playground.addr ] || ! kill -0 $! 2>/dev/null; do sleep 0.1; done
//	HTTP_PROXY=$(cat playground.addr) crawler ...
//
// Everything else goes to stderr, the request log too unless -log names a
// file: one line per request with its start time, duration, status,
// method, URL and User-Agent. SIGINT or SIGTERM shuts it down. Exit status
// is 0 after a clean shutdown, 1 if it cannot listen or the server fails,
// and 2 for bad arguments.
package main
