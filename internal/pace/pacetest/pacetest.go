// Package pacetest provides a fake clock for tests of code that waits
// through a pace.Clock, as net/http/httptest provides fakes for net/http.
package pacetest

import (
	"context"
	"sync"
	"time"
)

// A Clock is a fake pace.Clock: its time moves only when something sleeps
// on it, by exactly the time asked, or when the test advances it. It
// records every sleep. Its methods are safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

// New returns a Clock set to noon on 1 April 2021, UTC.
func New() *Clock { return &Clock{now: time.Date(2021, 4, 1, 12, 0, 0, 0, time.UTC)} }

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep moves the time on by d at once, unless ctx is done, in which case it
// returns the context's cause and the time stands still.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return nil
}

// Advance moves the time on by d, as if the code under test had worked
// for that long.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TakeSleeps returns the sleeps since the last call, and forgets them.
func (c *Clock) TakeSleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sleeps
	c.sleeps = nil
	return s
}
