package pagefetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tse-crawler/internal/coding"
	"tse-crawler/internal/robots"
)

// What is being fetched decides how its body is read.
type kind int

const (
	page      kind = iota // must be non-empty HTML, within MaxSize
	robotsTxt             // anything, cut after its last whole line within robotsMax
	requisite             // anything, whatever the status, within MaxSize
	checked               // a link check: the status and the type; of the body, at most drainMax bytes, dropped
	sitemap               // of a 200, anything, cut one byte past SitemapMax
)

// SitemapMax is how much of a sitemap is read: sitemaps.org's limit, 50
// MB once uncompressed, which a file gzipped takes at most too.
const SitemapMax = 50 << 20

// robotsMax is how much of a robots.txt is parsed. RFC 9309 §2.5 asks
// crawlers to parse at least 500 KiB; anything after that may be ignored.
// A file of exactly this size is parsed whole.
const robotsMax = 500 << 10

// A response is what one request got: the status and the header, and for
// a page's 200 the body, decoded; for a requisite, the body whatever the
// status; for a check, no body.
type response struct {
	code   int
	status string
	header http.Header
	body   []byte
}

// location returns the response's Location, unresolved, or "".
func (r *response) location() string { return r.header.Get("Location") }

// page returns a Page of what r holds.
func (r *response) page() *Page {
	return &Page{Code: r.code, Status: r.status, Header: r.header, Body: r.body}
}

// MaxRetries is the most retries a command line may ask for, and the most
// get makes whatever Retries says. With the backoff doubling up to a
// minute, more only hammers a broken server: a permanent 503 with a huge
// -retries once made about 100,000 requests.
const MaxRetries = 10

// minBackoff is the least the first retry waits, whatever the host's
// pause. Backing off from the pause alone means not backing off at -delay
// 0, where a 429 storm got every attempt within a few milliseconds.
const minBackoff = 100 * time.Millisecond

// drainMax is the most of a body that is not a page that is read, so
// that its connection can be reused. A longer error page costs a new
// connection, which is cheaper than reading it.
const drainMax = 4 << 10

// get sends a request for rawURL with method, waiting for the host's pause
// first, and tries again after a transient failure (a connection error, a
// timeout, 408, 429 or 5xx, but not a HEAD's 501) up to f.Retries times,
// and never more than [MaxRetries]. Each retry waits the host's pause, or
// [minBackoff] if that is longer, doubled once per earlier attempt, or
// longer if the server's Retry-After says so (up to a minute). A response
// is returned for any status, including the last failing one; an error
// means no usable response came.
func (f *Fetcher) get(ctx context.Context, method, rawURL string, k kind, t *tape) (*response, error) {
	return f.getTried(ctx, method, rawURL, k, t, f.tries())
}

// tries says how get tries a request: how many retries at most, and
// whether it is a link check's, which does not wait for a server that
// asks, with Retry-After, for longer than maxWait, but gives up at once
// with a [*RateLimitedError].
type tries struct {
	retries int
	check   bool
}

// tries is how get tries a request unless told otherwise: f.Retries
// times again at most.
func (f *Fetcher) tries() tries { return tries{retries: min(f.Retries, MaxRetries)} }

// getTried is get, trying as try says.
func (f *Fetcher) getTried(ctx context.Context, method, rawURL string, k kind, t *tape, try tries) (*response, error) {
	retries := try.retries
	stale, whole := false, false
	for attempt := 0; ; attempt++ {
		resp, retryAfter, host, err := f.once(ctx, method, rawURL, k, t, whole)
		if errors.Is(err, errStale) && !stale {
			// Not the host's answer to this request: asked again, after
			// the host's pause, on a new connection, and not counted.
			stale = true
			attempt--
			continue
		}
		if (errors.Is(err, errEarlierUnread) || errors.Is(err, errNotConfirmed)) && !whole {
			f.warn(fmt.Sprintf("-since: %s is fetched again whole: %v", rawURL, err))
			whole = true
			attempt--
			continue
		}
		switch {
		case err == nil && !retryableStatus(resp.code):
			return resp, nil
		case err == nil && method == http.MethodHead && resp.code == http.StatusNotImplemented:
			// The server does not do HEAD, which asking again will not
			// change: the caller may ask with a GET.
			return resp, nil
		case err == nil && try.check && retryAfter > maxWait:
			// Waiting a minute, as a crawl does, would not be waiting
			// what the server asked, and would cost a minute a link.
			return nil, f.rateLimit(host, resp.code, retryAfter)
		case err != nil && !retryable(ctx, err):
			return nil, err
		case attempt >= retries && err != nil:
			return nil, f.recheck(ctx, rawURL, host, err, t)
		case attempt >= retries:
			return resp, nil
		}
		backoff := max(f.Scheduler.Delay(host), minBackoff)
		for range attempt {
			backoff = min(2*backoff, maxWait)
		}
		f.Scheduler.Hold(host, max(backoff, min(retryAfter, maxWait)))
	}
}

// recheck decides what the failure of the last attempt at rawURL, on
// host, means when a connection was made for it but no whole response
// came: the connection broke, or went silent. The page may be at fault,
// or the way to the host may have gone, as it does when a proxy dies with
// a request in flight. So it tries to connect to the host once more
// (connects): if no connection can be made now, the host is unreachable,
// which is no verdict on the page, and the [*UnreachableError] is
// returned; otherwise err is.
func (f *Fetcher) recheck(ctx context.Context, rawURL, host string, err error, t *tape) error {
	if _, ok := errors.AsType[*UnreachableError](err); ok || host == "" || context.Cause(ctx) != nil {
		return err
	}
	scheme, _, _ := strings.Cut(rawURL, "://")
	rerr := f.connects(ctx, strings.ToLower(scheme)+"://"+host, t)
	if ue, ok := errors.AsType[*UnreachableError](rerr); ok {
		ue.Err = fmt.Errorf("%w (after a connection to it broke: %v)", ue.Err, err)
		return ue
	}
	return err
}

// once sends one paced request with method and reads its response. It
// returns the server's Retry-After, if any, and the host it waited for.
// Unless whole is set, a GET of a page or a requisite that the earlier
// archive (f.Since) holds carries its validators, and a 304 is read as
// the earlier answer.
//
// Every read of the response, whatever its status, ends by the client's
// Timeout, counted from the end of the pause, and by ctx. The error is
// then a timeout (a [net.Error]) or the context's cause.
func (f *Fetcher) once(ctx context.Context, method, rawURL string, k kind, t *tape, whole bool) (_ *response, retryAfter time.Duration, host string, _ error) {
	req, err := f.newRequest(ctx, method, rawURL, f.WHATWG || k == requisite || k == checked)
	if err != nil {
		return nil, 0, "", err
	}
	req.Header.Set("User-Agent", f.UserAgent)
	// Asked for explicitly, so that net/http leaves the decoding to us and
	// a coding we did not ask for is noticed rather than saved.
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	if t != nil {
		// A record keeps the body as it came, coded, and a page saved
		// decoded would not be its payload; wget asks so too.
		req.Header.Set("Accept-Encoding", "identity")
	}
	switch k {
	case page:
		req.Header.Set("Accept", "text/html, application/xhtml+xml;q=0.9, */*;q=0.1")
	case requisite, checked, sitemap:
		req.Header.Set("Accept", "*/*")
	}
	var rv *revalidation
	if !whole {
		rv = f.revalidate(req, k)
	}
	host = req.URL.Host
	// The pause runs from the end of the request, body included, whether it
	// succeeded or not.
	done, err := f.Scheduler.paced(ctx, host, f.InProcess != nil && f.InProcess(req.URL))
	if err != nil {
		return nil, 0, host, err
	}
	defer done()
	reqCtx, cancel := f.attemptContext(ctx)
	defer cancel()
	f.Scheduler.sending(host)
	var trace connTrace
	traced := trace.with(reqCtx)
	limit := f.MaxSize
	switch k {
	case robotsTxt:
		limit = robotsMax + 1
	case sitemap:
		limit = SitemapMax + 1
	case checked:
		limit = drainMax
	}
	cp, withCapture := f.startCapture(traced, req, t, limit)
	if cp != nil {
		// Deferred before the body is closed, so run after: the record
		// holds every byte read, a body left unread included.
		if rv != nil {
			cp.revisit = rv.revisit()
		}
		defer cp.end(t, wireURI(req))
		traced = withCapture
	}
	res, err := f.Client.Do(req.WithContext(traced))
	if ue, ok := err.(*url.Error); ok && plainHTTP(ue.Err) {
		ue.Err = &PlainHTTPError{Err: ue.Err}
		return nil, 0, host, ue
	}
	if err != nil {
		return nil, 0, host, trace.unreachable(ctx, host, err, f.Client.Timeout)
	}
	if trace.stale() {
		res.Body.Close()
		return nil, 0, host, errStale
	}
	// net/http ends a body when its request's context ends, but not the
	// raw connection it hands back as the body of a 101 Switching
	// Protocols: no timeout or cancellation reaches that one, and a server
	// could hold a read of it forever. Other transports may be no better.
	// Closing the body is what makes a blocked Read return.
	stop := context.AfterFunc(reqCtx, func() { res.Body.Close() })
	defer func() {
		stop()
		res.Body.Close()
	}()
	answer := res // res is the connection's, which the deferred calls close
	if rv != nil {
		err := rv.confirmed(res)
		if cp != nil && (err != nil || !rv.asked && res.StatusCode == http.StatusNotModified) {
			// Not an answer about the earlier capture: recorded as it
			// came, not as a revisit of that capture.
			cp.revisit = nil
		}
		if err != nil {
			io.CopyN(io.Discard, res.Body, drainMax)
			return nil, 0, host, err // asked again without validators
		}
		if rv.asked && res.StatusCode == http.StatusNotModified {
			if answer, err = f.unchanged(res, rv); err != nil {
				return nil, 0, host, err
			}
		}
	}
	resp, retryAfter, err := f.read(ctx, reqCtx, answer, method, k)
	return resp, retryAfter, host, err
}

// read reads the response res to a request of kind k made with ctx and
// method, whose attempt ends with reqCtx, and returns what it got and the
// server's Retry-After. The body of an answer to a HEAD is never read.
func (f *Fetcher) read(ctx, reqCtx context.Context, res *http.Response, method string, k kind) (*response, time.Duration, error) {
	resp := &response{code: res.StatusCode, status: res.Status, header: res.Header}
	if res.StatusCode < 200 {
		// A final 1xx is never a page, and after a 101 what follows is
		// another protocol: not a byte of it is read.
		return resp, 0, nil
	}
	var retryAfter time.Duration
	if res.StatusCode != http.StatusOK {
		retryAfter = retryAfterHeader(res.Header.Get("Retry-After"), time.Now())
	}
	if method == http.MethodHead {
		return resp, retryAfter, nil // an answer to a HEAD has no body, whatever its headers say
	}
	if k == checked || res.StatusCode != http.StatusOK && k != requisite {
		io.CopyN(io.Discard, res.Body, drainMax)
		if cause := context.Cause(ctx); cause != nil {
			return nil, 0, cause // the crawl was stopped, maybe while draining
		}
		return resp, retryAfter, nil
	}
	var err error
	switch k {
	case page:
		resp.body, err = f.readPage(res)
	case robotsTxt:
		// One byte past the limit tells a file of exactly robotsMax bytes,
		// kept whole, from a longer one, and whether the line that the
		// limit cuts is whole after all. Truncate then keeps every whole
		// line within the limit, whatever ends them, and never a line
		// cut short, which could mean more or less than the file says.
		resp.body, err = f.readBody(res, robotsMax, false)
		resp.body = robots.Truncate(resp.body, robotsMax)
	case requisite:
		// Read whole, whatever the status, so that its record is: a
		// browser reads an error page's body too.
		resp.body, err = f.readBody(res, f.MaxSize, true)
	case sitemap:
		resp.body, err = f.readBody(res, SitemapMax, false)
	}
	if err != nil {
		var bad *bodyError
		if cause := context.Cause(reqCtx); cause != nil && !errors.As(err, &bad) {
			// The read failed because the body was closed under it, which
			// is no reason to give: the deadline or the cancellation is.
			err = fmt.Errorf("reading the body: %w", cause)
		}
		return nil, 0, err
	}
	return resp, retryAfter, nil
}

// attemptContext returns the context of one attempt: ctx, ended also by
// the client's Timeout. The Fetcher keeps its own deadline rather than
// leave it to the client, whose deadline does not reach every body.
func (f *Fetcher) attemptContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if d := f.Client.Timeout; d > 0 {
		return context.WithTimeoutCause(ctx, d, &timeoutError{d})
	}
	return context.WithCancel(ctx)
}

// A timeoutError ends an attempt that took longer than the client's
// Timeout. It is a [net.Error], so that it is retried and counted as a
// timeout like any other.
type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("no complete response within the %v timeout", e.d)
}
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return true }

// retryableStatus reports whether a status is worth another try.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
}

// retryable reports whether a failed request is worth another try: any
// network failure or timeout, but not a cancelled crawl, a refused
// connection to a remote address, a certificate that cannot be trusted, or
// a body that was wrong rather than cut short.
func retryable(ctx context.Context, err error) bool {
	if context.Cause(ctx) != nil || errors.Is(err, ErrNotLoopback) {
		return false
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return false
	}
	var bad *bodyError
	if errors.As(err, &bad) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF)
}

// retryAfterHeader reads a Retry-After value: a number of seconds or an
// HTTP date. It returns 0 for none or nonsense. The wait is as the server
// asked, however long, up to what a Duration holds: its callers cap it.
func retryAfterHeader(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, int64(math.MaxInt64/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// A bodyError is a response body that cannot be a page. Trying again would
// give the same answer.
type bodyError struct {
	reason string // for statistics: "not HTML", "too large", ...
	msg    string
}

func (e *bodyError) Error() string { return e.msg }

func bodyErrorf(reason, format string, args ...any) error {
	return &bodyError{reason, fmt.Sprintf(format, args...)}
}

// readPage reads the body of a 200 response as a page: HTML, not empty,
// and no larger than f.MaxSize once decoded.
func (f *Fetcher) readPage(res *http.Response) ([]byte, error) {
	ctype := res.Header.Get("Content-Type")
	if ctype != "" && !htmlType(ctype) {
		return nil, bodyErrorf("not HTML", "not HTML: Content-Type %s", ctype)
	}
	body, err := f.readBody(res, f.MaxSize, true)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return nil, bodyErrorf("empty body", "empty body")
	}
	if ctype == "" {
		if sniffed := http.DetectContentType(body); !strings.HasPrefix(sniffed, "text/html") {
			return nil, bodyErrorf("not HTML", "not HTML: no Content-Type, and the body looks like %s", sniffed)
		}
	}
	return body, nil
}

// htmlType reports whether a Content-Type names HTML or XHTML.
func htmlType(ctype string) bool {
	mt, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		mt, _, _ = strings.Cut(ctype, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// charsetOf returns the charset parameter of a Content-Type, unquoted, or
// "". Of one that package mime rejects, such as one with a parameter twice
// or a stray ';', it reads what it can, as browsers do: the first charset
// counts.
func charsetOf(ctype string) string {
	if _, params, err := mime.ParseMediaType(ctype); err == nil {
		return params["charset"]
	}
	_, params, _ := strings.Cut(ctype, ";")
	for _, p := range strings.Split(params, ";") {
		if name, value, ok := strings.Cut(p, "="); ok && strings.EqualFold(strings.TrimSpace(name), "charset") {
			return strings.Trim(strings.TrimSpace(value), `"`)
		}
	}
	return ""
}

// readBody reads a response body with its content coding removed. If limit is positive and the body is
// longer, it fails when strict is set, and otherwise stops reading one byte
// past the limit and returns those limit+1 bytes, so that the caller can
// tell a body of exactly limit bytes from a longer one, and see what
// follows the limit.
//
// A body that fills a buffer of spillAt bytes or more goes on in a file
// from f.Scratch, if there is one, rather than into a larger buffer; once
// its end is known, it is read back into an array of exactly its size,
// and the file closed. If no file can be made or written, the body stays
// in memory: it is held whole all the same.
func (f *Fetcher) readBody(res *http.Response, limit int64, strict bool) ([]byte, error) {
	coding := strings.ToLower(strings.TrimSpace(res.Header.Get("Content-Encoding")))
	if strict && limit > 0 && res.ContentLength > limit && (coding == "" || coding == "identity") {
		return nil, bodyErrorf("too large", "body of %d bytes is larger than the limit of %d", res.ContentLength, limit)
	}
	r, err := decoder(res.Body, coding)
	if err != nil {
		return nil, err
	}
	var b []byte
	if n := res.ContentLength; n > 0 && coding == "" {
		// Room for the whole body and the read that finds its end, so the
		// buffer never grows, and a large page is never held twice while
		// it is copied to a larger buffer. A lying Content-Length can make
		// us reserve no more than the limit, which a page may take anyway,
		// or, with none, a few MiB.
		most := int64(8 << 20)
		if limit > 0 {
			most = limit
		}
		b = make([]byte, 0, min(n, most)+bytes.MinRead)
	}
	at := spillAt
	if f.spillAt > 0 {
		at = f.spillAt
	}
	scratch := f.Scratch
	var sp spill
	defer sp.close()
	for {
		if len(b) == cap(b) {
			if sp.f == nil && scratch != nil && cap(b) >= at {
				if sp.f, err = scratch(); err != nil {
					scratch = nil // the body stays in memory
				}
			}
			switch {
			case sp.f == nil:
				b = append(b, 0)[:len(b)] // grow, as append does
			case sp.write(b) == nil:
				b = b[:0] // in the file: the buffer takes what follows
			default:
				// The file takes no more: the body comes back into
				// memory, with room to grow, and stays there.
				if b, err = sp.gather(b, 2*(sp.size+int64(len(b)))); err != nil {
					return nil, err
				}
				scratch = nil
			}
		}
		end := cap(b)
		if limit > 0 {
			held := sp.size + int64(len(b))
			if held > limit {
				break
			}
			end = len(b) + int(min(int64(end-len(b)), limit+1-held)) // never read far past the limit
		}
		n, err := r.Read(b[len(b):end])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the body: %w", err)
		}
	}
	size := sp.size + int64(len(b))
	if strict && limit > 0 && size > limit {
		return nil, bodyErrorf("too large", "body is larger than the limit of %d bytes", limit)
	}
	if sp.f != nil {
		return sp.gather(b, size)
	}
	return b, nil
}

// decoder undoes a content coding (package coding); one it cannot undo
// is no page.
func decoder(body io.Reader, c string) (io.Reader, error) {
	r, err := coding.Reader(body, c)
	if _, ok := errors.AsType[*coding.UnsupportedError](err); ok {
		return nil, bodyErrorf("unsupported coding", "%v", err)
	}
	return r, err
}
