package pagefetch_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pace"
	"tse-crawler/internal/pace/pacetest"
	"tse-crawler/internal/pagefetch"
)

// The tests in synctest bubbles run the real clock (pace.System), whose
// time is fake inside the bubble: a time.Sleep in them stands for work that
// takes that long, and costs no wall time.

// elapsed returns how long f took.
func elapsed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

// wait calls p.Wait and fails the test on an error. It must be called from
// the test's goroutine.
func wait(t *testing.T, p *pagefetch.Scheduler, host string) {
	t.Helper()
	if err := p.Wait(t.Context(), host); err != nil {
		t.Fatalf("Wait(%q) error: %v", host, err)
	}
}

func TestFirstRequestNeverWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		for _, host := range []string{"a.example", "b.example", "a.example:8080"} {
			if d := elapsed(func() { wait(t, p, host) }); d != 0 {
				t.Errorf("first Wait(%q) took %v, want 0", host, d)
			}
		}
		// Waiting is not a request: without Done, the host is still free.
		if d := elapsed(func() { wait(t, p, "a.example") }); d != 0 {
			t.Errorf("second Wait without Done took %v, want 0", d)
		}
	})
}

func TestWaitAfterDone(t *testing.T) {
	const delay = time.Second
	tests := []struct {
		work time.Duration // between Done and Wait
		want time.Duration // how long Wait blocks
	}{
		{0, time.Second},
		{1 * time.Millisecond, 999 * time.Millisecond},
		{300 * time.Millisecond, 700 * time.Millisecond},
		{999 * time.Millisecond, 1 * time.Millisecond},
		{time.Second, 0},
		{2 * time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("work=", tt.work), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := pagefetch.NewScheduler(delay, nil, 1)
				wait(t, p, "h")
				time.Sleep(250 * time.Millisecond) // the request itself
				p.Done("h")
				time.Sleep(tt.work) // saving and scanning the page
				if got := elapsed(func() { wait(t, p, "h") }); got != tt.want {
					t.Errorf("Wait after %v of other work took %v, want %v", tt.work, got, tt.want)
				}
			})
		})
	}
}

// TestTotalTime checks that the pause runs from the end of one request to
// the start of the next: n requests of r each, with work w between the end
// of one and the Wait for the next, take n*r + (n-1)*max(delay, w).
func TestTotalTime(t *testing.T) {
	const delay = time.Second
	tests := []struct {
		n    int
		r, w time.Duration
		want time.Duration
	}{
		{1, 300 * time.Millisecond, 0, 300 * time.Millisecond},
		{3, 0, 0, 2 * time.Second},
		{4, 300 * time.Millisecond, 0, 4*300*time.Millisecond + 3*time.Second},
		{5, 100 * time.Millisecond, 400 * time.Millisecond, 5*100*time.Millisecond + 4*time.Second},
		// A request longer than the pause does not shorten the pause.
		{3, 2 * time.Second, 0, 3*2*time.Second + 2*time.Second},
		// Work longer than the pause makes it unnecessary.
		{3, 100 * time.Millisecond, 1500 * time.Millisecond, 3*100*time.Millisecond + 2*1500*time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d,r=%v,w=%v", tt.n, tt.r, tt.w), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := pagefetch.NewScheduler(delay, nil, 1)
				start := time.Now()
				for i := range tt.n {
					if i > 0 {
						time.Sleep(tt.w)
					}
					wait(t, p, "h")
					time.Sleep(tt.r)
					p.Done("h")
				}
				if got := time.Since(start); got != tt.want {
					t.Errorf("%d requests of %v with %v of work between took %v, want %v", tt.n, tt.r, tt.w, got, tt.want)
				}
			})
		})
	}
}

func TestZeroDelayNeverWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(0, nil, 1)
		d := elapsed(func() {
			for range 5 {
				wait(t, p, "h")
				p.Done("h")
			}
		})
		if d != 0 {
			t.Errorf("5 requests with no delay took %v, want 0", d)
		}
	})
}

func TestHostsAreIndependent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		p.Done("a")
		// Host a's pause does not delay host b, which has had no request.
		if d := elapsed(func() { wait(t, p, "b") }); d != 0 {
			t.Errorf("Wait(b) after Done(a) took %v, want 0", d)
		}
		time.Sleep(400 * time.Millisecond)
		p.Done("b")

		// Both pauses run at once, each from its own host's Done.
		start := time.Now()
		var wg sync.WaitGroup
		got := make(map[string]time.Duration)
		var mu sync.Mutex
		for _, host := range []string{"a", "b", "c"} {
			wg.Go(func() {
				if err := p.Wait(t.Context(), host); err != nil {
					t.Errorf("Wait(%q) error: %v", host, err)
				}
				mu.Lock()
				got[host] = time.Since(start)
				mu.Unlock()
			})
		}
		wg.Wait()
		want := map[string]time.Duration{
			"a": 600 * time.Millisecond,
			"b": time.Second,
			"c": 0,
		}
		for host, w := range want {
			if got[host] != w {
				t.Errorf("concurrent Wait(%q) took %v, want %v", host, got[host], w)
			}
		}
	})
}

// TestConcurrentHosts runs several hosts' request sequences in parallel;
// each takes (n-1) pauses, and they overlap.
func TestConcurrentHosts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		start := time.Now()
		var wg sync.WaitGroup
		for i := range 8 {
			host := fmt.Sprint("h", i)
			wg.Go(func() {
				for range 3 {
					if err := p.Wait(t.Context(), host); err != nil {
						t.Errorf("Wait(%q) error: %v", host, err)
					}
					p.Done(host)
				}
			})
		}
		wg.Wait()
		if got, want := time.Since(start), 2*time.Second; got != want {
			t.Errorf("8 hosts × 3 requests took %v, want %v", got, want)
		}
	})
}

func TestSetDelay(t *testing.T) {
	const delay = time.Second
	tests := []struct {
		name string
		set  []time.Duration // successive SetDelay calls on host "h"
		want time.Duration
	}{
		{"none", nil, delay},
		{"raise", []time.Duration{3 * time.Second}, 3 * time.Second},
		{"below the Scheduler's", []time.Duration{500 * time.Millisecond}, delay},
		{"zero", []time.Duration{0}, delay},
		{"negative", []time.Duration{-time.Second}, delay},
		{"equal", []time.Duration{delay}, delay},
		{"raise then lower", []time.Duration{5 * time.Second, 2 * time.Second}, 2 * time.Second},
		{"raise then below the Scheduler's", []time.Duration{5 * time.Second, time.Millisecond}, delay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := pagefetch.NewScheduler(delay, nil, 1)
				for _, d := range tt.set {
					p.SetDelay("h", d)
				}
				if got := p.Delay("h"); got != tt.want {
					t.Errorf("Delay(h) after SetDelay%v = %v, want %v", tt.set, got, tt.want)
				}
				if got := p.Delay("other"); got != delay {
					t.Errorf("Delay(other) after SetDelay on h = %v, want %v", got, delay)
				}
				// Wait uses the pause that Delay reports.
				p.Done("h")
				p.Done("other")
				if got := elapsed(func() { wait(t, p, "h") }); got != tt.want {
					t.Errorf("Wait(h) after SetDelay%v took %v, want %v", tt.set, got, tt.want)
				}
				if got := elapsed(func() { wait(t, p, "other") }); got != 0 {
					t.Errorf("Wait(other) after waiting for h took %v, want 0", got)
				}
			})
		})
	}
}

func TestSetDelayBeforeFirstRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		p.SetDelay("h", 10*time.Second)
		if d := elapsed(func() { wait(t, p, "h") }); d != 0 {
			t.Errorf("first Wait(h) after SetDelay took %v, want 0", d)
		}
	})
}

func TestWaitCancelled(t *testing.T) {
	errStop := errors.New("stop crawling")
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		p.Done("h")
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(300*time.Millisecond, func() { cancel(errStop) })
		var err error
		d := elapsed(func() { err = p.Wait(ctx, "h") })
		if !errors.Is(err, errStop) {
			t.Errorf("Wait cancelled mid-pause = %v, want %v", err, errStop)
		}
		if d != 300*time.Millisecond {
			t.Errorf("Wait cancelled after 300ms returned after %v, want 300ms", d)
		}
	})
}

func TestWaitAlreadyCancelled(t *testing.T) {
	errStop := errors.New("stop crawling")
	tests := []struct {
		name   string
		cancel func(context.CancelCauseFunc)
		want   error
	}{
		{"cause", func(c context.CancelCauseFunc) { c(errStop) }, errStop},
		{"no cause", func(c context.CancelCauseFunc) { c(nil) }, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := pagefetch.NewScheduler(time.Second, nil, 1)
				ctx, cancel := context.WithCancelCause(t.Context())
				tt.cancel(cancel)
				p.Done("busy")
				for _, host := range []string{"new", "busy"} {
					var err error
					d := elapsed(func() { err = p.Wait(ctx, host) })
					if err != tt.want {
						t.Errorf("Wait(cancelled ctx, %q) = %v, want %v", host, err, tt.want)
					}
					if d != 0 {
						t.Errorf("Wait(cancelled ctx, %q) took %v, want 0", host, d)
					}
				}
			})
		})
	}
}

func TestDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		p.Done("h")
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		var err error
		d := elapsed(func() { err = p.Wait(ctx, "h") })
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Wait past the deadline = %v, want %v", err, context.DeadlineExceeded)
		}
		if d != 100*time.Millisecond {
			t.Errorf("Wait with a 100ms deadline took %v, want 100ms", d)
		}
	})
}

func TestFakeClock(t *testing.T) {
	const delay = time.Second
	tests := []struct {
		name  string
		work  time.Duration // fake time between Done and the next Wait
		sleep time.Duration // how long Wait should sleep; 0 for not at all
	}{
		{"no work", 0, time.Second},
		{"300ms of work", 300 * time.Millisecond, 700 * time.Millisecond},
		{"work as long as the pause", time.Second, 0},
		{"a 2s gap", 2 * time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := pacetest.New()
			p := pagefetch.NewScheduler(delay, clock, 1)
			wait(t, p, "h")
			if s := clock.TakeSleeps(); len(s) != 0 {
				t.Fatalf("first Wait slept %v, want no sleep", s)
			}
			clock.Advance(123 * time.Millisecond) // the request
			p.Done("h")
			clock.Advance(tt.work)
			wait(t, p, "h")
			s := clock.TakeSleeps()
			switch {
			case tt.sleep == 0 && len(s) != 0:
				t.Errorf("Wait after %v of work slept %v, want no sleep", tt.work, s)
			case tt.sleep != 0 && (len(s) != 1 || s[0] != tt.sleep):
				t.Errorf("Wait after %v of work slept %v, want [%v]", tt.work, s, tt.sleep)
			}
		})
	}
}

func TestFakeClockHosts(t *testing.T) {
	clock := pacetest.New()
	p := pagefetch.NewScheduler(time.Second, clock, 1)
	p.Done("a")
	clock.Advance(250 * time.Millisecond)
	wait(t, p, "b")
	if s := clock.TakeSleeps(); len(s) != 0 {
		t.Errorf("Wait(b) after Done(a) slept %v, want no sleep", s)
	}
	p.Done("b")
	wait(t, p, "a")
	if s := clock.TakeSleeps(); len(s) != 1 || s[0] != 750*time.Millisecond {
		t.Errorf("Wait(a) 250ms after Done(a) slept %v, want [750ms]", s)
	}
	// Waiting for a took 750ms of b's pause too.
	wait(t, p, "b")
	if s := clock.TakeSleeps(); len(s) != 1 || s[0] != 250*time.Millisecond {
		t.Errorf("Wait(b) 750ms after Done(b) slept %v, want [250ms]", s)
	}
}

func TestFakeClockCancelled(t *testing.T) {
	errStop := errors.New("stop")
	clock := pacetest.New()
	p := pagefetch.NewScheduler(time.Second, clock, 1)
	p.Done("h")
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errStop)
	if err := p.Wait(ctx, "h"); !errors.Is(err, errStop) {
		t.Errorf("Wait(cancelled ctx) = %v, want %v", err, errStop)
	}
	if now := clock.Now(); !now.Equal(pacetest.New().Now()) {
		t.Errorf("cancelled Wait moved the clock to %v", now)
	}
}

func TestSystemSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c pace.System
		if d := elapsed(func() {
			if err := c.Sleep(t.Context(), 1500*time.Millisecond); err != nil {
				t.Errorf("Sleep error: %v", err)
			}
		}); d != 1500*time.Millisecond {
			t.Errorf("Sleep(1.5s) took %v, want 1.5s", d)
		}
		if got, want := c.Now(), time.Now(); !got.Equal(want) {
			t.Errorf("System.Now() = %v, want %v", got, want)
		}
	})
}

// TestPauses: the Scheduler sums up the pauses it kept, per host, from the end
// of one request to the start of the next; a first request is no pause.
func TestPauses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		ctx := t.Context()
		if got := p.Pauses(); got.Count != 0 || got.Mean() != 0 {
			t.Errorf("Pauses() before any request = %+v, mean %v", got, got.Mean())
		}
		p.Wait(ctx, "a") // first: no pause
		p.Done("a")
		p.Wait(ctx, "b") // first for b: no pause
		p.Done("b")
		time.Sleep(3 * time.Second) // more than the pause already
		p.Wait(ctx, "a")            // a pause of 3s, kept without waiting
		p.Done("a")
		p.Wait(ctx, "a") // waits the full second
		p.Done("a")
		got := p.Pauses()
		if got.Count != 2 || got.Total != 4*time.Second || got.Shortest != time.Second || got.Mean() != 2*time.Second {
			t.Errorf("Pauses() = %+v, mean %v; want 2 pauses, 4s in all, the shortest 1s, a mean of 2s", got, got.Mean())
		}
		want := map[string]pace.Pauses{
			"a": {Count: 2, Total: 4 * time.Second, Shortest: time.Second},
			"b": {},
		}
		if got := p.HostPauses(); !maps.Equal(got, want) {
			t.Errorf("HostPauses() = %+v, want %+v", got, want)
		}
	})
}

// TestNext: Next says when a host may be asked again without waiting, so
// that a caller with several hosts can go to the one ready soonest, and a
// Wait at that time does not sleep.
func TestNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := pagefetch.NewScheduler(time.Second, nil, 1)
		if got := p.Next("new"); !got.IsZero() {
			t.Errorf("Next(new) = %v, want the zero time", got)
		}
		start := time.Now()
		wait(t, p, "h")
		time.Sleep(200 * time.Millisecond) // the request
		p.Done("h")
		if got, want := p.Next("h"), start.Add(1200*time.Millisecond); !got.Equal(want) {
			t.Errorf("Next(h) after a request = %v, want %v", got, want)
		}
		p.Hold("h", 3*time.Second)
		if got, want := p.Next("h"), start.Add(3200*time.Millisecond); !got.Equal(want) {
			t.Errorf("Next(h) with a hold = %v, want %v", got, want)
		}
		time.Sleep(time.Until(p.Next("h")))
		if d := elapsed(func() { wait(t, p, "h") }); d != 0 {
			t.Errorf("Wait at Next took %v, want 0", d)
		}
	})
}
