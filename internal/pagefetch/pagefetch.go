// Package pagefetch downloads pages for the crawler, as a careful HTTP
// client should:
//   - every request waits for its host's pause (package pace);
//   - each host's robots.txt is read before its first page, and a page it
//     disallows is never requested; its Crawl-delay and Request-rate can
//     lengthen the host's pause;
//   - connection errors, timeouts, 408, 429 and 5xx are retried with
//     exponential backoff, honouring Retry-After;
//   - a redirect is not followed but reported, so that the crawler can check
//     the target against its scope and its seen-set first;
//   - only a 200 with a non-empty HTML body no larger than a limit is a page.
//     Its transfer and content codings are removed; nothing else is changed;
//   - what a page needs to render, its requisites, is fetched as a browser
//     loads it (FetchRequisite): any status and any type is an answer.
package pagefetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/earlier"
	"tse-crawler/internal/refurl"
	"tse-crawler/internal/robots"
)

// ErrNotLoopback is returned, wrapped, for a connection to an address that
// is not a loopback address when the client only allows loopback. The
// crawler treats it as fatal: it means a pause shorter than a second was
// asked for a crawl that would reach a real server.
var ErrNotLoopback = errors.New("connection to a non-loopback address")

// ErrDisallowed is returned, wrapped, for a URL that the host's robots.txt
// does not allow. No request was sent for it.
var ErrDisallowed = errors.New("disallowed by robots.txt")

// ErrRobotsUnavailable is returned, wrapped with the reason, for every URL
// of a host whose robots.txt could not be read because the server failed
// (5xx, 429) or could not be reached: RFC 9309 then forbids crawling the
// host at all. No request was sent for the URL.
var ErrRobotsUnavailable = errors.New("robots.txt unavailable, so nothing on the host may be crawled")

// A PlainHTTPError is the failure of an https request to a server that
// answered in plain HTTP: the URL should have been http. Err is the
// error the request failed with.
type PlainHTTPError struct{ Err error }

func (e *PlainHTTPError) Error() string {
	return "the server answered in plain HTTP, not HTTPS: use http://"
}

func (e *PlainHTTPError) Unwrap() error { return e.Err }

// plainHTTP reports whether err is that of an https request answered in
// plain HTTP: net/http says so itself when it makes the TLS connection,
// and the TLS handshake's own error holds the answer's first bytes when
// the connection is made here (see recordingDialers).
func plainHTTP(err error) bool {
	if rh, ok := errors.AsType[tls.RecordHeaderError](err); ok && string(rh.RecordHeader[:]) == "HTTP/" {
		return true
	}
	return strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// ErrHostDown is returned, wrapped with the reason the host was given up,
// for every URL of a host that its caller found down ([Fetcher.MarkDown]):
// no request was sent for it.
var ErrHostDown = errors.New("host given up")

// A downError is what every fetch from a host given up fails with: the
// reason, which is also [ErrHostDown].
type downError struct{ err error }

func (e downError) Error() string   { return e.err.Error() }
func (e downError) Unwrap() []error { return []error{ErrHostDown, e.err} }

// ErrBadPort is returned, wrapped, for a URL whose port no connection can
// be made to: 0, or more than 65535. No request was sent for it. It is the
// URL's fault, not the network's, so it is never an [UnreachableError].
var ErrBadPort = errors.New("not a TCP port (1 to 65535)")

// CheckPort returns an error wrapping [ErrBadPort] for a URL's port
// (url.URL.Port's) that no connection can be made to; "" is the
// scheme's.
func CheckPort(port string) error {
	if port == "" {
		return nil
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %s is %w", port, ErrBadPort)
	}
	return nil
}

// A StatusError reports an HTTP response whose status is not 200 OK and not
// a redirect.
type StatusError struct {
	Code   int
	Status string // as the server sent it, for example "404 Not Found"
}

func (e *StatusError) Error() string { return "HTTP " + e.Status }

// A RedirectError reports a redirect (301, 302, 303, 307 or 308), which the
// fetcher does not follow.
type RedirectError struct {
	Code     int
	Location string // the target, resolved against the URL that was asked for (see Fetcher.WHATWG)
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("HTTP %d %s to %s", e.Code, http.StatusText(e.Code), e.Location)
}

// maxWait caps every pause a server can ask for: Retry-After, Crawl-delay
// and Request-rate. A crawl must not stall for hours on one header. A
// link check does not wait at all for a longer Retry-After, but gives the
// link up ([RateLimitedError]).
const maxWait = 60 * time.Second

// A Fetcher downloads pages. Client, Scheduler and UserAgent must be set;
// the other fields may be left zero, and none may change once it is in
// use.
//
// A Fetcher is safe for concurrent use. What it knows of each host, its
// pause, its turn, its robots.txt, whether it was given up, is its
// Scheduler's: requests to one host take turns, whoever sends them
// (FetchPage, its robots.txt and retries, Reach), so a host never has two
// in flight at once; requests to different hosts run side by side, each
// host with its own pause and its own robots.txt. A crawl sends every
// request from the Scheduler's workers, which bound how many hosts are
// asked at once.
type Fetcher struct {
	Client    *http.Client
	Scheduler *Scheduler
	UserAgent string

	// Robots makes the fetcher obey each host's robots.txt.
	Robots bool
	// InProcess, if set, says whether the Client's transport answers a
	// request for a URL itself (its path, as sent, may be in Opaque, in
	// origin or absolute form: "/a?q" or "//host/a?q"), from a folder
	// (package sitefolder): no server, so no robots.txt to read and no
	// pause to keep. Its host's other URLs are the web's, paced and
	// asked as any other's.
	InProcess func(*url.URL) bool
	// Retries is how many more times a transient failure is tried.
	Retries int
	// MaxSize is the largest body accepted, after decoding; 0 means no
	// limit. A larger body fails the fetch: it is never cut short.
	MaxSize int64
	// Warn, if set, is told when a server asks for something the fetcher
	// will not do, such as a pause longer than a minute.
	Warn func(msg string)
	// WHATWG says that the URLs given to FetchPage are WHATWG serializations,
	// as the crawler's html mode keys pages (package browserurl): each is then
	// requested with its path and query byte for byte, which net/url would
	// re-escape, and a redirect's Location is resolved as a browser
	// resolves it. The reference mode leaves it unset.
	WHATWG bool
	// Record makes every fetch return what it sent and received, as it
	// went over the connection, for a WARC file (a [Recording]); the
	// Client must then come from [NewClient] with ClientOptions.Capture.
	// Its requests ask for no content coding, as wget's do, so that the
	// payload of a page's record is the page as saved.
	Record bool
	// Spool, if set, makes a new file that has no name, open for reading
	// and writing, where a recorded response goes once it is larger than
	// a MiB, until the record is written and the response closed: beside
	// the WARC file, say. The fetcher closes it. Without Spool, every
	// response is kept in memory.
	Spool func() (*os.File, error)
	// Scratch, if set, makes a new file that has no name, for a body
	// whose length is not known until it ends (one that inflates, or
	// comes without a Content-Length) once it outgrows 8 MiB: the rest is
	// read into the file, and the whole then into memory of its exact
	// size, so that the body is never held twice while a buffer grows.
	// The fetcher closes the file. Without Scratch, bodies grow in memory.
	Scratch func() (*os.File, error)
	// Since, if set, is the archive of an earlier crawl: a GET of a page
	// or a requisite it holds carries the validators of its capture
	// there, and a 304 that confirms them is read as that capture's
	// answer, and recorded as a revisit of it; a 412, or a 304 that names
	// other validators, is asked again without them.
	Since *earlier.Archive

	spillAt int // the buffer's size from which a body spills to Scratch, if positive, else the constant spillAt: tests set less

	spools sync.Pool // the memory of the spools of responses recorded and written, to reuse
}

// Reason sums up why a fetch failed, in a few words, so that failures can
// be counted by kind: "HTTP 404", "timeout", "not HTML", "too large",
// "robots.txt unavailable", "host unreachable", "connection failed", "rate
// limited" and so on.
func Reason(err error) string {
	var se *StatusError
	var be *bodyError
	var ue *UnreachableError
	var pe *url.Error
	var ne net.Error
	switch {
	case errors.As(err, &ue):
		return "host unreachable"
	case errors.As(err, &pe) && pe.Op == "parse", errors.Is(err, ErrBadPort):
		return "bad URL" // net/url refuses it (a control byte, say), or no connection can be made to it: no request was sent
	case errors.As(err, &se):
		return fmt.Sprintf("HTTP %d", se.Code)
	case errors.Is(err, ErrRobotsUnavailable):
		return "robots.txt unavailable"
	case errors.As(err, new(*RateLimitedError)):
		return "rate limited"
	case errors.As(err, new(*PlainHTTPError)):
		return "plain HTTP, not HTTPS"
	case errors.As(err, &be):
		return be.reason
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.As(err, &ne):
		return "connection failed"
	}
	return "other"
}

// FetchPage returns the page at rawURL, a Page of [Kind] Saved, with the
// HTML as its Body. It fails with [ErrDisallowed] or
// [ErrRobotsUnavailable] (wrapped) without sending a request (Disallowed,
// Failed), with a [*RedirectError] for a redirect (Redirected, with its
// Target), with a [*StatusError] for any other status but 200, with an
// error saying why for an empty, oversized or non-HTML body, and with the
// context's cause if ctx ends first (Failed). Whatever the error, the
// Page holds the fetch's Recording, and what came of the last request.
func (f *Fetcher) FetchPage(ctx context.Context, rawURL string) (*Page, error) {
	t := f.newTape()
	p, err := f.fetchPage(ctx, rawURL, t)
	p.URL, p.Recording = rawURL, recorded(t.recording())
	return p, err
}

func (f *Fetcher) fetchPage(ctx context.Context, rawURL string, t *tape) (*Page, error) {
	if err := f.allowed(ctx, rawURL, f.WHATWG, t); err != nil {
		kind := Failed
		if errors.Is(err, ErrDisallowed) {
			kind = Disallowed
		}
		return &Page{Kind: kind}, err
	}
	resp, err := f.get(ctx, http.MethodGet, rawURL, page, t)
	if err != nil {
		return &Page{Kind: Failed}, err
	}
	p := resp.page()
	switch {
	case resp.code == http.StatusOK:
		p.Kind = Saved
		return p, nil
	case isRedirect(resp.code) && resp.location() != "":
		p.Kind, p.Target = Redirected, resolveLocation(rawURL, resp.location(), f.WHATWG)
		return p, &RedirectError{Code: resp.code, Location: p.Target}
	}
	p.Kind = Failed
	return p, &StatusError{Code: resp.code, Status: resp.status}
}

// recorded returns what a fetch recorded, or nil if it recorded nothing.
func recorded(rec Recording) *Recording {
	if rec.Exchanges == nil && rec.RobotsOrigin == "" {
		return nil
	}
	return &rec
}

// allowed returns nil if rawURL may be requested: it is an http or https
// URL with a port, on a host not given up, and, if f obeys robots.txt,
// its host's robots.txt, fetched first if need be, allows it as the
// request would send it (see requestPath for whatwg). Reading robots.txt
// is recorded on t.
func (f *Fetcher) allowed(ctx context.Context, rawURL string, whatwg bool, t *tape) error {
	u, path, query, err := f.target(rawURL, whatwg)
	if err != nil || !f.Robots || f.inProcess(u, path, query) {
		return err
	}
	rules, err := f.robotsFor(ctx, u, t)
	if err != nil {
		return err
	}
	return obeys(rules, rawURL, path, query)
}

// inProcess says whether the Client's transport answers itself the
// request for the path and query on u's origin, as target returns them.
// The URL it asks of is in absolute form, as newRequest sends a path
// that begins with "//", whose first segment would be read as a host.
func (f *Fetcher) inProcess(u *url.URL, path, query string) bool {
	return f.InProcess != nil && f.InProcess(&url.URL{Scheme: u.Scheme, Host: u.Host, Opaque: "//" + u.Host + path + query})
}

// target parses rawURL as a request would send it, and returns an error
// if it may not be sent whatever robots.txt says: it is not http or
// https, its port is refused, or its host was given up.
func (f *Fetcher) target(rawURL string, whatwg bool) (u *url.URL, path, query string, err error) {
	u, path, query, err = f.requestPath(rawURL, whatwg)
	if err != nil {
		return nil, "", "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, "", "", fmt.Errorf("cannot fetch a %s URL", u.Scheme)
	}
	if err := CheckPort(u.Port()); err != nil {
		return nil, "", "", err
	}
	if err := f.Scheduler.Down(u.Host); err != nil {
		return nil, "", "", err
	}
	return u, path, query, nil
}

// obeys returns nil if rules allow the request for rawURL, whose path
// and query are as sent, else an error wrapping [ErrDisallowed]. The
// rules must allow the path both as sent and as any server may resolve
// it (refurl.ServerPaths): "/x/%2e%2e/no/p.html" is /no/p.html to nginx,
// so "Disallow: /no/" forbids it.
func obeys(rules *robots.Rules, rawURL, path, query string) error {
	ok := rules.Allowed(path + query)
	for _, served := range refurl.ServerPaths(path) {
		ok = ok && rules.Allowed(served+query)
	}
	if !ok {
		return fmt.Errorf("%s: %w", rawURL, ErrDisallowed)
	}
	return nil
}

// Refused returns the Page that FetchPage would return for rawURL if it
// can tell without a request or a wait: robots.txt, read already,
// disallows the URL or forbids its host. Otherwise it returns nil, and
// FetchPage must be asked. A crawl of a page that links to a million
// pages robots.txt disallows decides each here, without a worker.
func (f *Fetcher) Refused(rawURL string) *Page {
	if !f.Robots {
		return nil
	}
	u, path, query, err := f.target(rawURL, f.WHATWG)
	if err != nil || f.inProcess(u, path, query) {
		return nil // FetchPage says why, or needs no robots.txt
	}
	origin := u.Scheme + "://" + u.Host
	e := f.Scheduler.knownRobots(u.Host, origin)
	if e == nil {
		return nil
	}
	select {
	case e.lock <- struct{}{}:
	default:
		return nil // being read
	}
	known, rules, err, xs := e.known, e.rules, e.err, e.tape
	<-e.lock
	if !known {
		return nil
	}
	if err == nil {
		if err = obeys(rules, rawURL, path, query); err == nil {
			return nil
		}
	}
	t := f.newTape()
	if t != nil && xs != nil {
		t.obeyed(origin, xs)
	}
	kind := Failed
	if errors.Is(err, ErrDisallowed) {
		kind = Disallowed
	}
	return &Page{URL: rawURL, Kind: kind, Err: err, Recording: recorded(t.recording())}
}

// resolveLocation resolves a redirect's Location against the URL that was
// asked for: as RFC 3986 says, or, with whatwg, as a browser does. A
// Location a browser cannot resolve is returned as it came, which names no
// page to html mode's normalizer, so the crawler logs it as external.
func resolveLocation(rawURL, location string, whatwg bool) string {
	if !whatwg {
		return refurl.Resolve(rawURL, location)
	}
	if u, ok := browserurl.Resolve(rawURL, location); ok {
		return u
	}
	return location
}

// pathAndQuery returns the path and the query, with its '?', of u as the
// request sends them; robots.txt rules are matched against the two together.
func pathAndQuery(u *url.URL) (path, query string) {
	path = u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		query = "?" + u.RawQuery
	}
	return path, query
}
