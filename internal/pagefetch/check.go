package pagefetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"tse-crawler/internal/browserurl"
)

// Check checks that rawURL answers, as a link checker does: any status is
// an answer, and a redirect is not followed but returned, for the caller
// to follow. rawURL must be a WHATWG serialization (see [browserurl.Key]),
// which is sent byte for byte whatever f.WHATWG says.
//
// Without body, it sends a HEAD, which costs the server no body. Many
// servers answer a HEAD wrongly, refusing it (405, 501), failing it where
// a GET succeeds, or never answering it at all, so a HEAD answered with
// any status from 400 up, or that gets a broken answer, is asked again
// with a GET, whose body is read no further than needed to reuse the
// connection, and dropped. So is a HEAD that times out, its retries spent,
// but with one GET alone, not retried: a server that answers neither is
// not waited for twice over. A HEAD that finds the host unreachable or is
// cut short by ctx is not asked again: a GET would fare no better. With
// body, it sends a GET alone and reads the body whole, within MaxSize, so
// that the caller can look into it, say for the ids a fragment may name.
//
// A server that answers with a Retry-After asking for a longer wait than
// the fetcher keeps (a minute) is not waited for: the check fails with a
// [*RateLimitedError] at once, and so does every check of the host until
// that wait has passed, without a request; Warn is told the first time a
// host asks. A shorter Retry-After is waited for, as any fetch does.
//
// It is paced, retried and checked against robots.txt as
// [Fetcher.FetchRequisite] is, and fails as it does: with [ErrDisallowed]
// or [ErrRobotsUnavailable] (wrapped) without a request, with an
// [*UnreachableError] when no connection could be made, or a proxy says
// that it cannot reach the host (see proxyFailed), with an error
// saying so for a body over MaxSize, and with the context's cause if ctx
// ends first. A check is not recorded, but a robots.txt it reads is, with
// [Fetcher.Record], for the pages of its origin.
func (f *Fetcher) Check(ctx context.Context, rawURL string, body bool) (*Page, error) {
	// The tape is the one any fetch takes, so that the robots.txt read
	// for the check is recorded for the pages that obey it; the check's
	// own exchanges are let go.
	t := f.newTape()
	c, err := f.check(ctx, rawURL, body, t)
	for _, x := range t.recording().Exchanges {
		if cl, ok := x.Response.(io.Closer); ok {
			cl.Close()
		}
	}
	return c, err
}

func (f *Fetcher) check(ctx context.Context, rawURL string, body bool, t *tape) (*Page, error) {
	if err := f.heldOff(rawURL); err != nil {
		return nil, err
	}
	if err := f.allowed(ctx, rawURL, true, t); err != nil {
		return nil, f.proxyFailed(ctx, rawURL, err)
	}
	method, k := http.MethodGet, requisite
	if !body {
		method, k = http.MethodHead, checked
	}
	try := f.tries()
	try.check = true
	resp, err := f.getTried(ctx, method, rawURL, k, t, try)
	if method == http.MethodHead && getInstead(ctx, resp, err) {
		if timedOut(err) {
			// The HEAD had its retries, each up to the timeout: the GET
			// is one more request, not as many again.
			try.retries = 0
		}
		method = http.MethodGet
		resp, err = f.getTried(ctx, method, rawURL, k, t, try)
	}
	if err != nil {
		return nil, f.proxyFailed(ctx, rawURL, err)
	}
	p := resp.page()
	p.URL = rawURL
	if isRedirect(resp.code) && resp.location() != "" {
		if u, ok := browserurl.Resolve(rawURL, resp.location()); ok {
			p.Target = u
		}
	}
	return p, nil
}

// getInstead reports whether a HEAD that got resp, or failed with err,
// is to be asked again with a GET: when the server answered it with a
// status from 400 up (405 and 501 among them), gave a broken answer, or
// none in time, which some servers do to a HEAD alone, but not when the
// HEAD found no way to the server, was told to wait longer than a check
// does, or the check was stopped.
func getInstead(ctx context.Context, resp *response, err error) bool {
	if err == nil {
		return resp.code >= 400
	}
	if context.Cause(ctx) != nil || errors.Is(err, ErrNotLoopback) {
		return false
	}
	if _, ok := errors.AsType[*UnreachableError](err); ok {
		return false
	}
	if _, ok := errors.AsType[*RateLimitedError](err); ok {
		return false
	}
	_, untrusted := errors.AsType[*tls.CertificateVerificationError](err)
	return !untrusted
}

// proxyFailed returns err, the failure of a check of rawURL, as an
// [*UnreachableError] if a proxy stands between and said that it could not
// reach the host: by answering robots.txt with 502 Bad Gateway or 504
// Gateway Timeout, which a proxy answers for a host it cannot reach, or by
// closing the connection without an answer. Such a failure is the way's,
// not the host's robots.txt nor the link's, and one report of the host
// says so. Any other err is returned as it is. A 502 for the link itself,
// not an error, is the link's status, which a proxy may pass on.
func (f *Fetcher) proxyFailed(ctx context.Context, rawURL string, err error) error {
	if context.Cause(ctx) != nil || errors.Is(err, ErrDisallowed) || errors.Is(err, ErrNotLoopback) {
		return err
	}
	if _, ok := errors.AsType[*UnreachableError](err); ok {
		return err
	}
	req, rerr := f.newRequest(ctx, http.MethodHead, rawURL, false)
	if rerr != nil || f.directDial(req) != nil {
		return err
	}
	if se, ok := errors.AsType[*StatusError](err); ok {
		if !errors.Is(err, ErrRobotsUnavailable) || se.Code != http.StatusBadGateway && se.Code != http.StatusGatewayTimeout {
			return err
		}
	} else if !hungUp(err) {
		return err
	}
	return &UnreachableError{Host: req.URL.Host, Err: err}
}

// hungUp reports whether a request failed because the connection was
// closed or reset before an answer came.
func hungUp(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED)
}

// timedOut reports whether a request failed for want of an answer within
// the timeout.
func timedOut(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// A RateLimitedError is a link check given up because the server asked,
// with Retry-After, for a longer wait than a check keeps, or because it
// did for an earlier check, and the wait has not passed yet.
type RateLimitedError struct {
	Host string // host[:port]
	Code int    // the status that asked, such as 429 or 503
	// Wait is the wait the server asked for, to the second, and Until
	// when it ends, on the Scheduler's clock.
	Wait  time.Duration
	Until time.Time
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("%s answered %d %s asking for no request for %v (Retry-After), more than the %v a link check waits",
		e.Host, e.Code, http.StatusText(e.Code), e.Wait, maxWait)
}

// rateLimit notes that host asked, answering code, for no request for
// wait, more than maxWait, and returns the error every check of it fails
// with until then. The first time a host asks, Warn is told.
func (f *Fetcher) rateLimit(host string, code int, wait time.Duration) error {
	e := &RateLimitedError{Host: host, Code: code, Wait: wait.Round(time.Second), Until: f.Scheduler.now().Add(wait)}
	if asked := f.Scheduler.limit(host, e); !asked {
		f.warn(fmt.Sprintf("%v: its links are reported rate-limited, without a request, for that long; run the check again once it has passed", e))
	}
	return e
}

// heldOff returns the error of the host of rawURL if it asked for no
// request for longer than a check waits, and the wait has not passed;
// nil otherwise.
func (f *Fetcher) heldOff(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil // the request fails as it would have
	}
	return f.Scheduler.limited(u.Host)
}
