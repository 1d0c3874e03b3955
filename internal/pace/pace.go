// Package pace keeps a crawler polite: it spaces out the requests to each
// host so that at least a given pause separates the end of one request from
// the start of the next.
//
// The pause runs from the end of a request, not from the start of the
// crawler's next step, so whatever the crawler does between two requests
// (saving a page, scanning it for links) happens during the pause instead
// of adding to it.
package pace

import (
	"context"
	"sync"
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

// A Pacer spaces out the requests to each host. Its methods are safe for
// concurrent use, but a Pacer does not order concurrent waiters: two
// requests to the same host must not be in flight at once.
type Pacer struct {
	clock Clock
	delay time.Duration

	mu     sync.Mutex
	hosts  map[string]*host
	pauses Pauses
}

// Pauses sum up the pauses a Pacer has kept: the time from the end of each
// request to the start of the next to the same host.
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

type host struct {
	delay  time.Duration // this host's pause: never less than Pacer.delay
	end    time.Time     // when its last request ended; zero before the first
	hold   time.Time     // no request before this, whatever the pause says
	pauses Pauses        // this host's share of Pacer.pauses
}

// New returns a Pacer that leaves at least delay between requests to the
// same host. A nil clock means [System].
func New(delay time.Duration, clock Clock) *Pacer {
	if clock == nil {
		clock = System{}
	}
	return &Pacer{clock: clock, delay: delay, hosts: make(map[string]*host)}
}

func (p *Pacer) host(name string) *host {
	h := p.hosts[name]
	if h == nil {
		h = &host{delay: p.delay}
		p.hosts[name] = h
	}
	return h
}

// Wait blocks until a request to the named host may start: until the
// host's pause has passed since its last request ended, and any hold has
// run out. It returns at once for a host with no request yet. If ctx ends
// first, Wait returns the context's cause.
func (p *Pacer) Wait(ctx context.Context, hostname string) error {
	p.mu.Lock()
	h := p.host(hostname)
	now := p.clock.Now()
	var d time.Duration
	if !h.end.IsZero() {
		d = h.delay - now.Sub(h.end)
	}
	if !h.hold.IsZero() {
		d = max(d, h.hold.Sub(now))
	}
	p.mu.Unlock()
	if d > 0 {
		if err := p.clock.Sleep(ctx, d); err != nil {
			return err
		}
	} else if err := context.Cause(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	if !h.end.IsZero() {
		gap := p.clock.Now().Sub(h.end)
		p.pauses.add(gap)
		h.pauses.add(gap)
	}
	p.mu.Unlock()
	return nil
}

// add counts one more pause, of gap.
func (p *Pauses) add(gap time.Duration) {
	if p.Count == 0 || gap < p.Shortest {
		p.Shortest = gap
	}
	p.Count++
	p.Total += gap
}

// Pauses returns the pauses kept so far.
func (p *Pacer) Pauses() Pauses {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pauses
}

// HostPauses returns the pauses kept so far by host, for every host the
// Pacer has been told of, those with no pause yet included.
func (p *Pacer) HostPauses() map[string]Pauses {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := make(map[string]Pauses, len(p.hosts))
	for name, h := range p.hosts {
		m[name] = h.pauses
	}
	return m
}

// Now returns the time on the Pacer's clock, on which its pauses and holds
// are counted.
func (p *Pacer) Now() time.Time { return p.clock.Now() }

// Next returns the time from which a request to the named host may start
// without waiting: when its pause since its last request ends, or its hold
// runs out, whichever is later. It is the zero time for a host with
// neither, which may be asked at once. A crawler with several hosts to
// choose from can go to the one it would wait least for.
func (p *Pacer) Next(hostname string) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hosts[hostname]
	if h == nil {
		return time.Time{}
	}
	var t time.Time
	if !h.end.IsZero() {
		t = h.end.Add(h.delay)
	}
	if h.hold.After(t) {
		t = h.hold
	}
	return t
}

// Done records that a request to the named host has just ended, whether it
// succeeded or not. The host's next pause starts now.
func (p *Pacer) Done(hostname string) {
	p.mu.Lock()
	p.host(hostname).end = p.clock.Now()
	p.mu.Unlock()
}

// Hold keeps the next request to the named host from starting sooner than
// d from now, on top of the host's pause: a server's Retry-After, or a
// backoff after a failure.
func (p *Pacer) Hold(hostname string, d time.Duration) {
	p.mu.Lock()
	p.host(hostname).hold = p.clock.Now().Add(d)
	p.mu.Unlock()
}

// SetDelay sets the pause for one host, for example from its robots.txt.
// A pause shorter than the Pacer's own is raised to it.
func (p *Pacer) SetDelay(hostname string, d time.Duration) {
	p.mu.Lock()
	p.host(hostname).delay = max(d, p.delay)
	p.mu.Unlock()
}

// Delay returns the pause for the named host.
func (p *Pacer) Delay(hostname string) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.hosts[hostname]; h != nil {
		return h.delay
	}
	return p.delay
}
