// Package hostile serves a web site built to hurt a crawler: a page that
// answers 101 Switching Protocols and then says nothing, a robots.txt that
// does the same, an endless chain of redirects, links whose percent-encoded
// dots lead out of the crawl's scope, links full of terminal control bytes,
// a page that is always 503, a host that goes away in the middle of a crawl,
// a page whose 200 comes after 100 Continue and 103 Early Hints, pages
// followed on the wire by a second response nobody asked for, links and a
// redirect holding raw bytes that are not UTF-8 or not allowed in a URL, a
// site spread over four hosts, and a proxy killed in the middle of a crawl,
// its connections reset and one answer cut short. Tests point a crawler at
// it and check that the crawler survives.
//
// Like the project's playground, a [Server] is a forward proxy: with
// HTTP_PROXY set to its URL, a crawler fetches the CS50 site's real URLs
// (http://cs50tse.cs.dartmouth.edu/tse/...) from it, and no request ever
// leaves the machine. It also answers requests sent straight to it, on
// 127.0.0.1, as the CS50 host. Every request is recorded, with the path and
// query as sent and the path as the server resolves it, so that a test can
// check what the crawler asked for and when.
package hostile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The hosts the server plays.
const (
	// Host is the CS50 host, the crawler's default scope.
	Host = "cs50tse.cs.dartmouth.edu"
	// UpgradeRobotsHost is a host whose robots.txt answers 101 Switching
	// Protocols and then nothing; its other pages are ordinary.
	UpgradeRobotsHost = "upgrade-robots.test"
	// HostA, HostB and HostC carry HostsSeed's site with Host, each found
	// from the one before: A from Host, B from A, C from B. Each serves
	// robots.txt as Host does.
	HostA = "a.hostile.test"
	HostB = "b.hostile.test"
	HostC = "c.hostile.test"
)

// Site is the CS50 site's prefix, under which the cases are served.
const Site = "http://" + Host + "/tse/"

// The cases, by the URL of the page a crawl of each starts from.
const (
	// PlainSeed starts a small ordinary site of seven URLs under
	// /tse/plain/, with a redirect and a missing page: the crawl that an
	// outage interrupts and -resume finishes.
	PlainSeed = Site + "plain/index.html"

	// UpgradeSeed links to an ordinary page and to UpgradeHang, which
	// answers 101 Switching Protocols and then holds the connection open,
	// silent, until the server is closed. A crawl in the reference's LIFO
	// order comes to UpgradeHang first, with the ordinary page still to
	// fetch.
	UpgradeSeed = Site + "upgrade/index.html"
	UpgradeHang = Site + "upgrade/hang.html"
	// UpgradeRobotsSeed links to two pages of [UpgradeRobotsHost], whose
	// robots.txt hangs as UpgradeHang does.
	UpgradeRobotsSeed = Site + "upgrade/robots.html"

	// RedirectSeed links to RedirectChain+"0.html", which redirects (302)
	// to 1.html, which redirects to 2.html, and so on up to
	// RedirectChainEnd, which is a 404: long enough to be endless for any
	// crawler that gives up, and short enough that one that never does
	// still finishes.
	RedirectSeed     = Site + "redirect.html"
	RedirectChain    = Site + "r/"
	RedirectChainEnd = 1000

	// DotsSeed, directly under /tse/, links to [DotLinks] and to
	// DotsRedirect, which redirects to [DotsRedirectTarget].
	DotsSeed     = Site + "dots.html"
	DotsRedirect = Site + "go.html"

	// ControlSeed links to [ControlLinks], none of which exists.
	ControlSeed = Site + "control.html"

	// BusySeed links to BusyPage, which always answers 503.
	BusySeed = Site + "busy/index.html"
	BusyPage = Site + "busy/down.html"

	// DeadSeed links to two pages on [Options.DeadOrigin] and to an
	// ordinary page beside it.
	DeadSeed = Site + "dead/index.html"

	// InterimSeed links to InterimPage, whose answer begins with two
	// interim responses nothing asked for, [InterimPrelude]: 100 Continue,
	// then 103 Early Hints. Then, on the same connection, comes the final
	// 200, a page of [InterimBody] framed by Content-Length, with
	// Connection: close, and the connection closes.
	InterimSeed = Site + "interim/index.html"
	InterimPage = Site + "interim/hints.html"

	// TrailingSeed links to TrailingPage, a 200 framed by Content-Length,
	// and to TrailingChunked, a 200 in chunks with no trailer, each of
	// [TrailingBody]. Each is followed, in the same write, by
	// [TrailingExtra], a whole second response that nothing asked for, and
	// then the connection closes. Neither says Connection: close, so a
	// client may find the extra response on a connection it would reuse.
	TrailingSeed    = Site + "trailing/index.html"
	TrailingPage    = Site + "trailing/page.html"
	TrailingChunked = Site + "trailing/chunked.html"

	// RawSeed links to [RawLinks], written into the page as raw bytes, and
	// to RawRedirect, which redirects (302) to [RawRedirectTarget], raw
	// bytes too. Every other page under /tse/raw/ is an ordinary page with
	// no links, so that whichever way a crawler encodes those bytes, or
	// sends them raw, it fetches a page; the request's Decoded path tells
	// which one it asked for. As nginx does, the server takes a raw space
	// in a request target as part of it, not as its end.
	RawSeed     = Site + "raw/index.html"
	RawRedirect = Site + "raw/go.html"

	// HostsSeed starts a crawl of HostsPages pages on four hosts: Host,
	// [HostA], [HostB] and [HostC]. Each host has a tree of pages three
	// levels deep, each page but the lowest linking to three below it;
	// the top page of each host but C's also links to the next host's top
	// page, and every page below the top links back up to it. Each page
	// has one way down to it, so a crawl in any order reaches the same
	// pages at the same depth: all of them at depth HostsDepth, C's lowest
	// level lying that far from the seed. A crawl must be given each host
	// in its scope; see [HostsScopes].
	HostsSeed  = Site + "hosts/index.html"
	HostsDepth = 5
	HostsPages = 52
)

// HostsScopes are the -scope prefixes that take in HostsSeed's site.
var HostsScopes = []string{Site, "http://" + HostA + "/", "http://" + HostB + "/", "http://" + HostC + "/"}

// InterimPrelude is what InterimPage's answer begins with, byte for byte:
// the interim responses before its 200.
const InterimPrelude = "HTTP/1.1 100 Continue\r\n\r\n" +
	"HTTP/1.1 103 Early Hints\r\nLink: </tse/interim/style.css>; rel=preload\r\n\r\n"

// InterimBody is the body of InterimPage's final 200: what a crawler must
// save for it.
var InterimBody = document("<p>the page after 100 Continue and 103 Early Hints</p>")

// TrailingBody is the body of both TrailingPage and TrailingChunked.
var TrailingBody = document("<p>a page with a second response after it</p>")

// TrailingExtra is what follows TrailingPage's and TrailingChunked's
// answers on the wire: no part of them, and no part of any record of them.
const TrailingExtra = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra"

// RawLinks are the links of RawSeed, besides RawRedirect: raw bytes that
// are not UTF-8 (0xff 0xfe), a space, a raw UTF-8 é, a query holding a
// space and a raw 0xff, and queries holding '<' and '>', "'" and '"',
// which a browser escapes in a query (the last is written in an href
// quoted with "'", so that the reference's scanner, which decodes no
// character reference, sees it). Go's net/url escapes the first three in
// the path it sends, but sends a query as it is, space and all.
var RawLinks = []string{"\xff\xfe.html", "a b.html", "caf\xc3\xa9.html", "q.html?x y\xff", "q.html?<lt>", "q.html?'sq'", `q.html?"dq"`}

// RawRedirectTarget is where RawRedirect sends the crawler, written as it
// is into the Location header: a path holding é in Latin-1, a lone 0xe9
// byte, which is not UTF-8.
const RawRedirectTarget = "/tse/raw/\xe9t\xe9.html"

// DotLinks are the links of DotsSeed. The server decodes them as nginx does
// (percent-decoding first, then removing dot segments), so the first three
// name /secret.html, outside /tse/, and the last /tse/no/p.html, which
// robots.txt disallows. A crawler that judges them by their raw text sees
// them all inside /tse/.
var DotLinks = []string{"%2e%2e/secret.html", ".%2E/secret.html", "..%2fsecret.html", "x/%2e%2e/no/p.html"}

// DotsRedirectTarget is where DotsRedirect sends the crawler: outside
// /tse/, once decoded.
const DotsRedirectTarget = "/tse/%2e%2e/redirect-secret.html"

// Disallowed is the path prefix robots.txt disallows on the CS50 host.
const Disallowed = "/tse/no/"

// ControlLinks are the links of ControlSeed: an OSC sequence that would
// set a terminal's title, a bell, backspaces, DEL, and a lone 0x9b byte
// (CSI in 8-bit terminals, and not UTF-8). A crawler that prints them to a
// terminal unescaped hands the page's author the terminal.
var ControlLinks = []string{"a\x1b]0;pwned\x07.html", "b\a.html", "c\b\b\b.html", "d\x7f.html", "e\x9b31m.html"}

// Options configure a [Server]. The zero value serves on a free port of
// 127.0.0.1.
type Options struct {
	// Addr is the address to listen on; "" means 127.0.0.1:0.
	Addr string
	// DeadOrigin is the scheme and host DeadSeed links to; "" means
	// http://dead.test.
	DeadOrigin string
	// DownAfter, if positive, makes the server go away after it has
	// answered that many requests other than for robots.txt: it stops
	// listening just before the last answer, so that every later
	// connection is refused, as if the host or the network had gone down.
	// Every answer then closes its connection, so no request can slip in
	// on a connection kept alive.
	DownAfter int
	// KillAfter, if positive, makes the server die the way a killed
	// process does once it has started to answer that many requests other
	// than for robots.txt: it stops listening, so that every later
	// connection is refused, and resets every connection it holds (its
	// peer sees ECONNRESET), those kept alive and idle included. The
	// answer it dies in is cut: its status line and its headers go out,
	// with the full Content-Length, but only half of its body. Until then
	// connections are kept alive as usual, unlike with DownAfter, which is
	// not to be set with it. A killed server stays dead: to bring it back,
	// start another on its Addr.
	KillAfter int
	// KillAt, if positive, kills the server as KillAfter does that long
	// after Start, whatever it is doing then.
	KillAt time.Duration
}

// A Request is one request the server received.
type Request struct {
	Time    time.Time // when it arrived
	Method  string
	Host    string // as asked for, lower-case, without the port
	Path    string // as sent, escapes, spaces and raw bytes all
	Query   string // as sent, after the '?'; "" if none
	Decoded string // the path as the server resolves it; "" if it cannot
}

// A Server serves the hostile site on a loopback address. Its methods are
// safe for concurrent use.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:port, to give to a
	// crawler as HTTP_PROXY.
	URL string
	// Addr is the address it listens on, to start another server on once
	// it is closed.
	Addr string

	opt    Options
	site   map[string]string            // the CS50 host's ordinary pages, by path
	trees  map[string]map[string]string // HostA's, HostB's and HostC's, by host and path
	ln     net.Listener
	srv    *http.Server
	served chan struct{} // closed when Serve returns
	timer  *time.Timer   // for KillAt
	dead   chan struct{} // closed when the server is killed

	mu       sync.Mutex
	log      []Request
	changed  chan struct{} // closed, and replaced, at each request and each held connection
	answered int           // requests answered, robots.txt aside, for DownAfter
	started  int           // requests begun to be answered, robots.txt aside, for KillAfter
	conns    map[net.Conn]bool
	hijacked map[net.Conn]bool
	lenient  map[string]*lenientConn // the connections served, by the client's address, for each request's target as sent
	closed   bool
	dying    bool // killed, or about to be: no request is answered any more
	killed   bool
}

// ServeTest starts a server for a test, and closes it when the test ends;
// a server that cannot start fails the test.
func ServeTest(tb testing.TB, opt Options) *Server {
	tb.Helper()
	s, err := Start(opt)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Start starts a server.
func Start(opt Options) (*Server, error) {
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:0"
	}
	if opt.DeadOrigin == "" {
		opt.DeadOrigin = "http://dead.test"
	}
	ln, err := net.Listen("tcp", opt.Addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		URL:      "http://" + ln.Addr().String(),
		Addr:     ln.Addr().String(),
		opt:      opt,
		site:     pages(opt),
		trees:    trees(),
		ln:       ln,
		served:   make(chan struct{}),
		dead:     make(chan struct{}),
		changed:  make(chan struct{}),
		conns:    make(map[net.Conn]bool),
		lenient:  make(map[string]*lenientConn),
		hijacked: make(map[net.Conn]bool),
	}
	s.srv = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ConnState:         s.track,
	}
	go func() {
		defer close(s.served)
		s.srv.Serve(lenientListener{ln})
	}()
	if opt.KillAt > 0 {
		s.timer = time.AfterFunc(opt.KillAt, s.kill)
	}
	return s, nil
}

// FreeAddr returns a loopback address on which nothing listens: a proxy
// that is down. Another program could take it meanwhile, which on a test
// machine it practically never does.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	return addr, ln.Close()
}

// Close stops the server and closes every connection, including those
// held open after a 101, which http.Server no longer tracks once they are
// hijacked. It does not wait for handlers, none of which blocks. A killed
// server may be closed as well; it stays dead.
func (s *Server) Close() {
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Lock()
	s.closed = true
	for c := range s.hijacked {
		c.Close()
	}
	clear(s.hijacked)
	s.mu.Unlock()
	s.srv.Close()
	<-s.served
}

// Killed returns a channel that is closed when the server is killed (see
// [Options.KillAfter] and [Options.KillAt]), once every connection it held
// is reset.
func (s *Server) Killed() <-chan struct{} {
	return s.dead
}

// Requests returns every request received so far, in order of arrival.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Held returns how many connections the server holds open, silent, after
// answering 101 Switching Protocols.
func (s *Server) Held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.hijacked)
}

// AwaitHeld waits until the server holds at least n connections after a
// 101 (see [Server.Held]), or ctx ends, in which case it returns ctx's
// error.
func (s *Server) AwaitHeld(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		held, changed := len(s.hijacked), s.changed
		s.mu.Unlock()
		if held >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// Await waits until the server has received a request for which match
// reports true, or ctx ends, in which case it returns ctx's error.
func (s *Server) Await(ctx context.Context, match func(Request) bool) error {
	seen := 0
	for {
		s.mu.Lock()
		log, changed := slices.Clone(s.log[seen:]), s.changed
		seen = len(s.log)
		s.mu.Unlock()
		for _, r := range log {
			if match(r) {
				return nil
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// record notes a request as it arrives, and returns it.
func (s *Server) record(r *http.Request) Request {
	host := strings.ToLower(r.Host)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	req := Request{Time: time.Now(), Method: r.Method, Host: host}
	req.Path, req.Query = splitTarget(s.sentTarget(r))
	req.Decoded, _ = Resolve(req.Path)
	s.mu.Lock()
	s.log = append(s.log, req)
	s.wake()
	s.mu.Unlock()
	return req
}

// wake wakes every Await and AwaitHeld. s.mu must be held.
func (s *Server) wake() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// ServeHTTP answers a request for any of the server's hosts.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := s.record(r)
	if s.opt.DownAfter > 0 {
		w.Header().Set("Connection", "close")
		if req.Decoded != "/robots.txt" {
			s.mu.Lock()
			s.answered++
			last := s.answered == s.opt.DownAfter
			s.mu.Unlock()
			if last {
				s.ln.Close() // from now on, connection refused
			}
		}
	}
	switch dying, last := s.killTurn(req); {
	case dying:
		s.drop(w)
		return
	case last:
		// The answer goes out cut, and the server dies with it.
		cut := &cutWriter{ResponseWriter: w}
		defer s.kill()
		defer cut.flush()
		w = cut
	}
	if req.Decoded == "" {
		page(w, r, http.StatusBadRequest, "")
		return
	}
	switch {
	case req.Host == UpgradeRobotsHost:
		s.upgradeRobots(w, r, req)
	case req.Host == Host || isLoopback(req.Host):
		s.cs50(w, r, req)
	case s.trees[req.Host] != nil:
		s.tree(w, r, req)
	default:
		// What a proxy says of a host it cannot reach: an HTTP answer, so
		// to the crawler a failed page, not an outage.
		page(w, r, http.StatusBadGateway, "")
	}
}

func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// upgradeRobots serves UpgradeRobotsHost.
func (s *Server) upgradeRobots(w http.ResponseWriter, r *http.Request, req Request) {
	if req.Decoded == "/robots.txt" {
		s.switchProtocols(w)
		return
	}
	page(w, r, http.StatusOK, "<p>a page behind a robots.txt that never comes</p>")
}

// cs50 serves the CS50 host: the cases, and what lies outside /tse/ for a
// crawler that gets there.
func (s *Server) cs50(w http.ResponseWriter, r *http.Request, req Request) {
	p := req.Decoded
	if p == "/robots.txt" {
		robotsTxt(w)
		return
	}
	if !strings.HasPrefix(p, "/tse/") {
		// A crawler that got out of its scope finds what it should not.
		page(w, r, http.StatusOK, "<p>secret: outside /tse/</p>")
		return
	}
	if n, ok := chainStep(p); ok {
		if n >= RedirectChainEnd {
			page(w, r, http.StatusNotFound, "")
			return
		}
		redirect(w, r, http.StatusFound, "/tse/r/"+strconv.Itoa(n+1)+".html")
		return
	}
	if body, ok := s.site[p]; ok {
		page(w, r, http.StatusOK, body)
		return
	}
	switch p {
	case "/tse/upgrade/hang.html":
		s.switchProtocols(w)
	case "/tse/plain/old.html":
		redirect(w, r, http.StatusMovedPermanently, "/tse/plain/d.html")
	case "/tse/go.html":
		redirect(w, r, http.StatusFound, DotsRedirectTarget)
	case "/tse/busy/down.html":
		page(w, r, http.StatusServiceUnavailable, "")
	case "/tse/interim/hints.html":
		head := InterimPrelude + okHead("Content-Length: "+strconv.Itoa(len(InterimBody)), "Connection: close")
		s.raw(w, r, head, InterimBody, "")
	case "/tse/trailing/page.html":
		s.raw(w, r, okHead("Content-Length: "+strconv.Itoa(len(TrailingBody))), TrailingBody, TrailingExtra)
	case "/tse/trailing/chunked.html":
		s.raw(w, r, okHead("Transfer-Encoding: chunked"), chunked(TrailingBody), TrailingExtra)
	case "/tse/raw/go.html":
		redirect(w, r, http.StatusFound, RawRedirectTarget)
	default:
		if strings.HasPrefix(p, "/tse/raw/") {
			page(w, r, http.StatusOK, "<p>a page with a raw name</p>")
			return
		}
		page(w, r, http.StatusNotFound, "")
	}
}

// tree serves HostA, HostB and HostC.
func (s *Server) tree(w http.ResponseWriter, r *http.Request, req Request) {
	if req.Decoded == "/robots.txt" {
		robotsTxt(w)
		return
	}
	if body, ok := s.trees[req.Host][req.Decoded]; ok {
		page(w, r, http.StatusOK, body)
		return
	}
	page(w, r, http.StatusNotFound, "")
}

// robotsTxt answers with the CS50 host's robots.txt.
func robotsTxt(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "User-agent: *\nDisallow: "+Disallowed+"\n")
}

// pages returns the ordinary pages of the CS50 host, by path: HTML bodies,
// served with a 200.
func pages(opt Options) map[string]string {
	m := map[string]string{
		"/tse/plain/index.html": links("a.html", "b.html", "c.html"),
		"/tse/plain/a.html":     links("b.html", "d.html", "missing.html"),
		"/tse/plain/b.html":     links("index.html", "old.html"),
		"/tse/plain/c.html":     links("a.html", "../plain/c.html"),
		"/tse/plain/d.html":     "<p>the end</p>",

		"/tse/upgrade/index.html":  links("ok.html", "hang.html"),
		"/tse/upgrade/ok.html":     "<p>ok</p>",
		"/tse/upgrade/robots.html": links("http://"+UpgradeRobotsHost+"/a.html", "http://"+UpgradeRobotsHost+"/b.html"),

		"/tse/redirect.html":   links("r/0.html"),
		"/tse/dots.html":       links(slices.Concat(DotLinks, []string{"go.html"})...),
		"/tse/control.html":    links(ControlLinks...),
		"/tse/busy/index.html": links("down.html"),
		"/tse/dead/index.html": links(opt.DeadOrigin+"/a.html", opt.DeadOrigin+"/b.html", "alive.html"),
		"/tse/dead/alive.html": "<p>alive</p>",
		"/tse/no/p.html":       "<p>robots.txt disallows this page</p>",

		"/tse/interim/index.html":  links("hints.html"),
		"/tse/trailing/index.html": links("page.html", "chunked.html"),
		"/tse/raw/index.html":      links(slices.Concat(RawLinks, []string{"go.html"})...),
	}
	maps.Copy(m, hostTree("/tse/hosts/", "http://"+HostA+"/index.html"))
	return m
}

// trees returns the pages of HostA, HostB and HostC, by host and path.
func trees() map[string]map[string]string {
	return map[string]map[string]string{
		HostA: hostTree("/", "http://"+HostB+"/index.html"),
		HostB: hostTree("/", "http://"+HostC+"/index.html"),
		HostC: hostTree("/", ""),
	}
}

// hostTree returns one host's part of HostsSeed's site, by path: a top
// page, dir+"index.html", that links to next (if not "") and to three
// pages, each of which links to three more. Every page below the top
// links back up to it, which in any order of crawl is seen already.
func hostTree(dir, next string) map[string]string {
	m := make(map[string]string)
	var top []string
	for i := 1; i <= 3; i++ {
		mid := []string{"index.html"}
		for j := 1; j <= 3; j++ {
			low := fmt.Sprintf("%d/%d.html", i, j)
			mid = append(mid, low)
			m[dir+low] = links("../index.html")
		}
		top = append(top, fmt.Sprintf("%d.html", i))
		m[dir+top[i-1]] = links(mid...)
	}
	if next != "" {
		top = append(top, next)
	}
	m[dir+"index.html"] = links(top...)
	return m
}

// chainStep reports whether p is a step of the redirect chain, and which.
func chainStep(p string) (int, bool) {
	num, ok := strings.CutPrefix(p, "/tse/r/")
	if !ok {
		return 0, false
	}
	num, ok = strings.CutSuffix(num, ".html")
	n, err := strconv.Atoi(num)
	return n, ok && err == nil && n >= 0
}

// links returns a page that links to each href, written into the page as
// it is, control bytes and all: only ampersands are escaped, and quotes,
// but in an href that holds '"' and no "'", which is quoted with "'".
func links(hrefs ...string) string {
	var b strings.Builder
	b.WriteString("<ul>\n")
	for _, h := range hrefs {
		quote, attr := `"`, strings.NewReplacer(`&`, "&amp;", `"`, "&quot;").Replace(h)
		if strings.Contains(h, `"`) && !strings.Contains(h, "'") {
			quote, attr = "'", strings.ReplaceAll(h, "&", "&amp;") // the '"' as it is
		}
		fmt.Fprintf(&b, "<li><a href=%s%s%s>%s</a></li>\n", quote, attr, quote, html.EscapeString(strings.ToValidUTF8(attr, "?")))
	}
	b.WriteString("</ul>")
	return b.String()
}

// page answers with an HTML page: body, or for an error a small page that
// names the status, as nginx's are.
func page(w http.ResponseWriter, r *http.Request, code int, body string) {
	if body == "" {
		body = "<h1>" + strconv.Itoa(code) + " " + http.StatusText(code) + "</h1>"
	}
	doc := document(body)
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		io.WriteString(w, doc)
	}
}

// document returns the HTML document of a page whose body holds body.
func document(body string) string {
	return "<!DOCTYPE html>\n<html><head><title>hostile</title></head><body>\n" + body + "\n</body></html>\n"
}

// redirect answers with a redirect to location, written as it is.
func redirect(w http.ResponseWriter, r *http.Request, code int, location string) {
	w.Header().Set("Location", location)
	page(w, r, code, "<p>moved</p>")
}

// switchProtocols answers 101 Switching Protocols, although nothing asked
// for an upgrade, and then keeps the connection open and silent until the
// server is closed. A client that waits for the body without a deadline of
// its own waits for ever: net/http hands it the bare connection.
func (s *Server) switchProtocols(w http.ResponseWriter) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	s.mu.Lock()
	if s.closed || s.dying {
		dying := s.dying
		s.mu.Unlock()
		if dying {
			reset(conn)
		} else {
			conn.Close()
		}
		return
	}
	buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: hostile\r\nConnection: Upgrade\r\n\r\n")
	if err := buf.Flush(); err != nil {
		conn.Close()
		s.mu.Unlock()
		return
	}
	// Held only once the 101 is sent, so that AwaitHeld returns when the
	// client can have nothing left to wait for but the silence.
	s.hijacked[conn] = true
	s.wake()
	s.mu.Unlock()
	// The handler returns; the connection stays open, in s.hijacked, for
	// Close to close.
}

// raw answers with bytes that net/http would not send as they are, written
// straight on the connection in one write: head, the status lines and
// headers; body, unless r is a HEAD; and tail. Then it closes the
// connection. If the server dies in this answer, half the body goes, and
// nothing after it, and the connection is reset.
func (s *Server) raw(w http.ResponseWriter, r *http.Request, head, body, tail string) {
	_, cut := w.(*cutWriter)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	if r.Method == http.MethodHead {
		body = ""
	}
	if cut {
		body, tail = body[:len(body)/2], ""
	}
	conn.Write([]byte(head + body + tail))
	if cut {
		reset(conn)
		return
	}
	conn.Close()
}

// okHead returns the status line and header of a 200 for an HTML page,
// with the given header fields.
func okHead(fields ...string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + strings.Join(fields, "\r\n") + "\r\n\r\n"
}

// chunked returns body in the chunked transfer coding: two chunks, then
// the last, empty one, with no trailer.
func chunked(body string) string {
	half := len(body) / 2
	return fmt.Sprintf("%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", half, body[:half], len(body)-half, body[half:])
}

// track keeps the set of connections http.Server serves, for kill to
// reset; it is the server's ConnState hook. A hijacked connection leaves
// the set: the handler that took it sees to it. One accepted just as the
// server died is reset at once.
func (s *Server) track(c net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch state {
	case http.StateNew:
		if s.killed {
			reset(c)
			return
		}
		s.conns[c] = true
		if lc, ok := c.(*lenientConn); ok {
			s.lenient[c.RemoteAddr().String()] = lc
		}
	case http.StateHijacked, http.StateClosed:
		delete(s.conns, c)
		delete(s.lenient, c.RemoteAddr().String())
	}
}

// killTurn counts req toward Options.KillAfter. It reports whether the
// server is dying, so that req must go unanswered, and whether req is the
// one it dies in; for that one, it stops listening at once, so that no
// connection is accepted while the answer goes out.
func (s *Server) killTurn(req Request) (dying, last bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.dying:
		return true, false
	case s.opt.KillAfter <= 0 || req.Decoded == "/robots.txt":
		return false, false
	}
	s.started++
	if s.started < s.opt.KillAfter {
		return false, false
	}
	s.dying = true
	s.ln.Close() // from now on, connection refused
	return false, true
}

// kill kills the server: it stops listening, and resets every connection
// it holds. A killed process's connections end with a FIN, and with a
// reset only once the peer sends on them; resetting them at once is the
// harsher case, and the one a client cannot mistake for the end of a
// response. A server closed or killed already is left as it is.
func (s *Server) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.killed {
		return
	}
	s.dying, s.killed = true, true
	s.ln.Close()
	for c := range s.conns {
		reset(c)
	}
	for c := range s.hijacked {
		reset(c)
	}
	clear(s.conns)
	clear(s.hijacked)
	s.wake()
	close(s.dead)
}

// drop leaves a request unanswered, and resets its connection: a server
// that is dying answers nothing more.
func (s *Server) drop(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		reset(conn)
	}
}

// reset closes c so that its peer sees ECONNRESET rather than the end of
// the stream: with SO_LINGER set to 0, closing a socket sends a RST, and
// throws away whatever it had yet to send.
func reset(c net.Conn) {
	if lc, ok := c.(*lenientConn); ok {
		c = lc.Conn
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// A cutWriter passes on a response's status line and headers whole, but
// only the first half of its body, as its Content-Length gives it: the
// answer the server dies in. Writes are taken whole, so that the handler
// goes on as if all were sent.
type cutWriter struct {
	http.ResponseWriter
	wrote bool // the header is written
	left  int  // how much of the body is still to be passed on
}

func (c *cutWriter) WriteHeader(code int) {
	if !c.wrote {
		c.wrote = true
		n, _ := strconv.Atoi(c.Header().Get("Content-Length"))
		c.left = n / 2
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	n := min(len(p), c.left)
	c.left -= n
	if _, err := c.ResponseWriter.Write(p[:n]); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap lets http.ResponseController reach the connection, to hijack it.
func (c *cutWriter) Unwrap() http.ResponseWriter {
	return c.ResponseWriter
}

// flush puts on the wire what was written, if anything was, before the
// connection is reset: a handler that hijacked it wrote nothing here.
func (c *cutWriter) flush() {
	if c.wrote {
		http.NewResponseController(c.ResponseWriter).Flush()
	}
}

// Resolve returns the path a server such as nginx serves for the path of a
// request as sent: it percent-decodes every escape, "%2F" and "%2E"
// included, then merges runs of '/' and removes "." and ".." segments. It
// fails, as nginx does with a 400, for a bad escape or a path that climbs
// above the root.
func Resolve(escaped string) (string, error) {
	if !strings.HasPrefix(escaped, "/") {
		return "", errors.New("path does not begin with /")
	}
	decoded := make([]byte, 0, len(escaped))
	for i := 0; i < len(escaped); i++ {
		c := escaped[i]
		if c == '%' {
			if i+2 >= len(escaped) {
				return "", errors.New("bad escape")
			}
			n, err := strconv.ParseUint(escaped[i+1:i+3], 16, 8)
			if err != nil {
				return "", errors.New("bad escape")
			}
			c = byte(n)
			i += 2
		}
		decoded = append(decoded, c)
	}
	var segs []string
	for seg := range strings.SplitSeq(string(decoded[1:]), "/") {
		switch seg {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return "", errors.New("path climbs above the root")
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, seg)
		}
	}
	out := "/" + strings.Join(segs, "/")
	// A path that names a directory keeps its final slash.
	last := decoded[bytes.LastIndexByte(decoded, '/')+1:]
	if len(segs) > 0 && (len(last) == 0 || string(last) == "." || string(last) == "..") {
		out += "/"
	}
	return out, nil
}
