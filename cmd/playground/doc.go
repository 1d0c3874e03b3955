// Playground serves a static copy of a web site on a local port, answering
// as the CS50 playground's nginx server does, so that crawls can be tested
// offline against the site's real URLs.
//
// Usage:
//
//	playground [-addr 127.0.0.1:8080] [-log FILE] [-vhosts] DIR
//	playground [-addr 127.0.0.1:8080] [-log FILE] -synthetic PAGES [-hosts N]
//	playground -version
//
// DIR is the folder that holds the site (for the CS50 playground, the one
// that holds tse/). Playground is both an ordinary web server
// (GET /tse/letters/index.html) and an HTTP forward proxy
// (GET http://cs50tse.cs.dartmouth.edu/tse/letters/index.html): the path
// picks the file either way, so
//
//	HTTP_PROXY=http://127.0.0.1:8080 crawler http://cs50tse.cs.dartmouth.edu/tse/letters/index.html data 2
//
// crawls the copy as if it were the real server. Paths are percent-decoded
// before lookup; /dir/ serves dir/index.html; /dir is redirected to /dir/
// on the requested host; the query is ignored; a missing file is a 404;
// nothing outside DIR is ever served, not even through a symbolic link.
//
// With -vhosts, DIR holds one folder per host name, and each request is
// served from its host's folder: DIR/www.example.edu/index.html for
// http://www.example.edu/index.html. A host with no folder is a 404. This
// lets one playground stand for several servers of one domain.
//
// With -synthetic, it serves a site of PAGES pages made up on the fly
// (package synthsite) instead of DIR; with -hosts N as well, the pages are
// spread over N hosts, h0.synth.test to h(N-1).synth.test, that link to
// each other, for crawls of several hosts at once.
//
// Each request is logged once answered, one line each: the start time in
// Unix seconds and in UTC, the time taken, the status, the method, the URL
// and the User-Agent. The log goes to stderr, or is appended to FILE.
//
// Playground listens on 127.0.0.1:8080 unless -addr says otherwise; port 0
// picks a free port. Once it listens, it writes exactly one line on stdout,
// the URL to give as HTTP_PROXY, such as http://127.0.0.1:41237, so that a
// script can start it in the background and read the address (removing
// the file first, so that one left by an earlier run is not read instead):
//
//	rm -f playground.addr
//	./playground -addr 127.0.0.1:0 -log playground.log DIR >playground.addr &
//	until [ -s playground.addr ] || ! kill -0 $! 2>/dev/null; do sleep 0.1; done
//	HTTP_PROXY=$(cat playground.addr) crawler ...
//
// Everything else goes to stderr: a line saying what is served where,
// errors, and the request log unless -log names a file. An address that
// cannot be listened on (a port in use, or one below 1024 without the
// privilege) is an error that suggests another port. -version prints the
// version, Go release and revision the binary was built from.
//
// SIGINT or SIGTERM shuts it down cleanly. Exit status is 0 after a clean
// shutdown, 1 if it cannot listen or the server fails, and 2 for bad
// arguments.
package main
