// Package pace keeps a crawler polite: it works out, for one host, when a
// request may start, so that at least a given pause separates the end of
// one request from the start of the next, and sums up the pauses kept.
//
// The pause runs from the end of a request, not from the start of the
// crawler's next step, so whatever the crawler does between two requests
// (saving a page, scanning it for links) happens during the pause instead
// of adding to it.
//
// A [Host] is a value with no lock and no map of its own: whoever asks
// hosts for a crawl keeps one for each host, beside the rest of what it
// knows of the host, and does the waiting, with a [Clock].
package pace

import (
	"context"
	"time"
)

// A Clock tells the time and waits. [System] is the wall clock; tests may
// substitute a fake, or run the real one inside a testing/synctest bubble.
type Clock interface {
	Now() time.Time
	// Sleep waits for d, or until ctx is done, in which case it returns
	// the context's cause.
	Sleep(ctx context.Context, d time.Duration) error
}

// System is the wall clock.
type System struct{}

func (System) Now() time.Time { return time.Now() }

func (System) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Pauses sum up the pauses kept: the time from the end of each request to
// the start of the next to the same host.
type Pauses struct {
	Count    int
	Total    time.Duration
	Shortest time.Duration
}

// Mean returns the mean pause, or 0 if there was none.
func (p Pauses) Mean() time.Duration {
	if p.Count == 0 {
		return 0
	}
	return p.Total / time.Duration(p.Count)
}

// Add adds up p and q.
func (p Pauses) Add(q Pauses) Pauses {
	switch {
	case q.Count == 0:
		return p
	case p.Count == 0:
		return q
	}
	return Pauses{Count: p.Count + q.Count, Total: p.Total + q.Total, Shortest: min(p.Shortest, q.Shortest)}
}

// add counts one more pause, of gap.
func (p *Pauses) add(gap time.Duration) {
	if p.Count == 0 || gap < p.Shortest {
		p.Shortest = gap
	}
	p.Count++
	p.Total += gap
}

// A Host is the pause of one host: how long it is, when the host's last
// request ended, and any hold on its next; and the pauses kept so far.
// The zero Host has no pause and has had no request.
type Host struct {
	delay  time.Duration // the pause
	end    time.Time     // when the last request ended; zero before the first
	hold   time.Time     // no request before this, whatever the pause says
	pauses Pauses
}

// NewHost returns a Host whose pause is delay.
func NewHost(delay time.Duration) Host { return Host{delay: delay} }

// Next returns the time from which a request may start without waiting:
// when the pause since the last request ends, or the hold runs out,
// whichever is later. It is the zero time for a host with neither, which
// may be asked at once.
func (h *Host) Next() time.Time {
	var t time.Time
	if !h.end.IsZero() {
		t = h.end.Add(h.delay)
	}
	if h.hold.After(t) {
		t = h.hold
	}
	return t
}

// Wait returns how long a request must wait, at now, before it may start.
func (h *Host) Wait(now time.Time) time.Duration {
	next := h.Next()
	if next.IsZero() || !next.After(now) {
		return 0
	}
	return next.Sub(now)
}

// Start records that a request starts at now, and counts the pause since
// the last request ended, if there was one.
func (h *Host) Start(now time.Time) {
	if !h.end.IsZero() {
		h.pauses.add(now.Sub(h.end))
	}
}

// Done records that a request ended at now, whether it succeeded or not:
// the next pause starts then.
func (h *Host) Done(now time.Time) { h.end = now }

// Hold keeps the next request from starting sooner than d after now, on
// top of the pause: a server's Retry-After, or a backoff after a failure.
func (h *Host) Hold(now time.Time, d time.Duration) { h.hold = now.Add(d) }

// SetDelay sets the pause, never below least.
func (h *Host) SetDelay(d, least time.Duration) { h.delay = max(d, least) }

// Delay returns the pause.
func (h *Host) Delay() time.Duration { return h.delay }

// Pauses returns the pauses kept so far.
func (h *Host) Pauses() Pauses { return h.pauses }
