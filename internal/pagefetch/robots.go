package pagefetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"tse-crawler/internal/refurl"
	"tse-crawler/internal/robots"
	"tse-crawler/internal/warc"
)

// A robotsEntry is what an origin's robots.txt came to, once known: rules,
// or the reason why nothing on the host may be crawled. Its lock, a token
// in a channel so that waiting for it ends with the context, is held while
// the file is fetched: two pages of one origin asked for at once cost one
// fetch, and other origins need not wait for it.
type robotsEntry struct {
	lock  chan struct{}
	known bool
	rules *robots.Rules
	err   error
	tape  []warc.Exchange // what reading it sent and received, if it was recorded
}

// maxRobotsRedirects is how many redirects are followed for a robots.txt,
// the least RFC 9309 asks for.
const maxRobotsRedirects = 5

// robotsFor returns the rules of u's host, fetching its robots.txt the
// first time. The fetch is paced like any other request, and its
// Crawl-delay or Request-rate, capped at a minute, becomes the host's
// pause if it is longer than the one it has. The caller's tape t, if any,
// is told which file it obeyed, or takes the exchanges of a read that
// came to no verdict.
func (f *Fetcher) robotsFor(ctx context.Context, u *url.URL, t *tape) (*robots.Rules, error) {
	origin := u.Scheme + "://" + u.Host
	e := f.Scheduler.robotsEntry(u.Host, origin)
	select {
	case e.lock <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	defer func() { <-e.lock }()
	if e.known {
		if t != nil && e.tape != nil {
			t.obeyed(origin, e.tape)
		}
		return e.rules, e.err
	}

	var own *tape
	if t != nil {
		own = new(tape)
	}
	rules, err := f.fetchRobots(ctx, origin+"/robots.txt", own)
	defer func() {
		if t == nil {
			return
		}
		if e.known {
			e.tape = own.recording().Exchanges
			t.obeyed(origin, e.tape)
			return
		}
		// Asked again next time: these exchanges are the page's own.
		for _, x := range own.recording().Exchanges {
			t.add(x)
		}
	}()
	if cause := context.Cause(ctx); cause != nil {
		return nil, cause // not the host's fault: ask again next time
	}
	var ue *UnreachableError
	if errors.Is(err, ErrNotLoopback) || errors.As(err, &ue) {
		// Not the host's answer either: fatal, or for the crawler to
		// judge (a dead host, or a lost network), and asked again if the
		// crawler asks again.
		return nil, err
	}
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is named below, once
		}
		err = fmt.Errorf("%w (%s/robots.txt: %w)", ErrRobotsUnavailable, origin, err)
	} else if d := rules.Delay(); d > 0 {
		if d > maxWait {
			f.warn(fmt.Sprintf("%s/robots.txt asks for %v between requests; waiting %v, the most this crawler waits", origin, d, maxWait))
			d = maxWait
		}
		f.Scheduler.SetDelay(u.Host, max(d, f.Scheduler.Delay(u.Host)))
	}
	e.known, e.rules, e.err = true, rules, err
	return rules, err
}

// fetchRobots reads one robots.txt as RFC 9309 §2.3.1 says: a success is
// parsed; a 4xx (but 429), or too many redirects, means there are no rules;
// a 429, a 5xx, a final 1xx or an unreachable server means no access at
// all, which is returned as an error once the retries are spent.
func (f *Fetcher) fetchRobots(ctx context.Context, robotsURL string, t *tape) (*robots.Rules, error) {
	target := robotsURL
	for hops := 0; ; hops++ {
		resp, err := f.get(ctx, http.MethodGet, target, robotsTxt, t)
		if err != nil {
			return nil, err
		}
		switch code := resp.code; {
		case code >= 200 && code < 300:
			return robots.Parse(resp.body, robots.ProductToken(f.UserAgent)), nil
		case isRedirect(code) && resp.location() != "":
			next := refurl.Resolve(target, resp.location())
			if hops == maxRobotsRedirects || !strings.HasPrefix(next, "http://") && !strings.HasPrefix(next, "https://") {
				return robots.AllowAll(), nil
			}
			target = next
		case code == http.StatusTooManyRequests || code >= 500:
			return nil, &StatusError{Code: code, Status: resp.status}
		case code < 200:
			// A final 1xx, such as 101 Switching Protocols, is none of
			// the classes RFC 9309 rules on. The server did not serve
			// the file, so its rules are unknown, as when it fails with
			// a 5xx; taking that as "no rules", like a 4xx, would crawl
			// a site whose robots.txt was never read.
			return nil, &StatusError{Code: code, Status: resp.status}
		default:
			return robots.AllowAll(), nil
		}
	}
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

func (f *Fetcher) warn(msg string) {
	if f.Warn != nil {
		f.Warn(msg)
	}
}
