package pagefetch

import (
	"context"
	"sync"
	"time"
)

// A Schedule shares a fetcher's hosts among everything a crawl fetches
// from several hosts at once: the pages fetched ahead of the crawl, and
// the requisites of its pages. Its workers fetch side by side, one request
// to a host at a time, each host's pause kept by the fetcher's pacer. A
// free worker takes, of the hosts some queue has work for, the one that
// may be asked soonest, the host of the job the crawl waits for first
// among those as soon; it waits there for the host's pause, unless
// something changes that may change its choice, and then runs the first
// job for that host of the first queue that has one, in the order the
// queues were given.
//
// The schedule knows which hosts are busy, and which are parked: a fetch
// from them got no connection, or broke the loopback rule, and until the
// crawl decides what that means, only the job it waits for goes to such a
// host. A host the crawl gives up is the fetcher's to know
// ([Fetcher.MarkDown]): every request to it then fails at once.
type Schedule struct {
	next func(host string) time.Time // nil: every host may be asked at once

	cancel context.CancelFunc
	done   sync.WaitGroup

	// sig is closed, and replaced, whenever anything changes that may
	// change a worker's choice. Its own lock is never held while calling
	// a queue, so that a queue may signal while it holds its own.
	sigMu sync.Mutex
	sig   chan struct{}

	// mu guards what follows. It is never held while calling a queue.
	mu     sync.Mutex
	queues []Queue
	hosts  map[string]*schedHost
	order  []*schedHost // the hosts in the order they were met, so that choices are the same on every run
	busy   int          // hosts a worker is at: running a job, or waiting for its pause
}

// A schedHost is what the schedule knows of one host.
type schedHost struct {
	name   string
	busy   bool
	parked bool
}

// A Queue holds a caller's jobs, by host, for a [Schedule]. Its methods
// are called from the schedule's workers, never with the schedule's lock
// held; a queue tells the schedule of a new host with [Schedule.Meet],
// and of new work with [Schedule.Signal].
type Queue interface {
	// Urgent returns the host of the job the crawl waits for, or "".
	Urgent() string
	// Ready reports whether the queue has a job for host that may be run
	// now: the job the crawl waits for, if urgent is set; otherwise any
	// it is willing to run ahead, unless parked is set.
	Ready(host string, urgent, parked bool) bool
	// Run runs the queue's next job for host, which the calling worker
	// holds: it fetches through the schedule's fetcher. It returns false
	// if the queue had no job for the host after all.
	Run(ctx context.Context, host string, urgent, parked bool) bool
}

// NewSchedule starts workers workers that run the jobs of the queues it
// is given, until ctx ends or Stop is called. next tells when a host may
// be asked without waiting ([pace.Pacer.Next]); nil means at once.
func NewSchedule(ctx context.Context, next func(host string) time.Time, workers int) *Schedule {
	s := &Schedule{next: next, sig: make(chan struct{}), hosts: make(map[string]*schedHost)}
	ctx, s.cancel = context.WithCancel(ctx)
	for range workers {
		s.done.Add(1)
		go s.work(ctx)
	}
	return s
}

// Add gives the schedule a queue, after those it has: on a host, a worker
// runs the job the crawl waits for first, then the first job of the
// queues in the order they were added.
func (s *Schedule) Add(q Queue) {
	s.mu.Lock()
	s.queues = append(s.queues, q)
	s.mu.Unlock()
	s.Signal()
}

// Meet tells the schedule of a host some queue has or will have work for,
// so that it is considered, in the order hosts were met.
func (s *Schedule) Meet(host string) {
	s.mu.Lock()
	s.host(host)
	s.mu.Unlock()
	s.Signal()
}

// host returns the host named, making it if need be. s.mu is held.
func (s *Schedule) host(name string) *schedHost {
	h := s.hosts[name]
	if h == nil {
		h = &schedHost{name: name}
		s.hosts[name] = h
		s.order = append(s.order, h)
	}
	return h
}

// Signal wakes the workers: a queue has new work, or the crawl waits for
// another page.
func (s *Schedule) Signal() {
	s.sigMu.Lock()
	close(s.sig)
	s.sig = make(chan struct{})
	s.sigMu.Unlock()
}

// changed returns the channel that the next change closes.
func (s *Schedule) changed() <-chan struct{} {
	s.sigMu.Lock()
	defer s.sigMu.Unlock()
	return s.sig
}

// Park parks host: only the job the crawl waits for goes to it from now
// on. The crawl parks a host whose fetch got no connection, or broke the
// loopback rule, until it decides what that means.
func (s *Schedule) Park(host string) {
	s.mu.Lock()
	s.host(host).parked = true
	s.mu.Unlock()
}

// Busy returns how many hosts a worker is at: fetching from, or waiting
// for its pause.
func (s *Schedule) Busy() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}

// Stop ends the workers, cancelling what they are fetching, and waits for
// them.
func (s *Schedule) Stop() {
	s.cancel()
	s.done.Wait()
}

// work runs jobs until ctx ends.
func (s *Schedule) work(ctx context.Context) {
	defer s.done.Done()
	for ctx.Err() == nil {
		changed := s.changed()
		h, urgent, wait, retry := s.choose(time.Now())
		if retry {
			continue
		}
		if h == nil {
			select {
			case <-changed:
			case <-ctx.Done():
			}
			continue
		}
		if wait > 0 {
			// Held while it waits, so that no other worker waits for the
			// same host; but anything that changes may change the choice.
			t := time.NewTimer(wait)
			select {
			case <-changed:
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
			// Not a change another worker need hear of: it would wake
			// the one waiting for another host, to no end.
			s.release(h, false)
			continue
		}
		s.run(ctx, h, urgent)
		s.release(h, true)
	}
}

// run runs a job for h: the one the crawl waits for if urgent, else the
// first job of the first queue that has one.
func (s *Schedule) run(ctx context.Context, h *schedHost, urgent bool) {
	s.mu.Lock()
	parked, queues := h.parked, s.queues
	s.mu.Unlock()
	if urgent {
		for _, q := range queues {
			if q.Urgent() == h.name && q.Run(ctx, h.name, true, parked) {
				return
			}
		}
	}
	for _, q := range queues {
		if q.Run(ctx, h.name, false, parked) {
			return
		}
	}
}

// release gives a host back once a worker is done with it, and tells
// the other workers if signal is set.
func (s *Schedule) release(h *schedHost, signal bool) {
	s.mu.Lock()
	h.busy = false
	s.busy--
	s.mu.Unlock()
	if signal {
		s.Signal()
	}
}

// choose takes the host a worker should go to, and says whether the job
// it runs there is the one the crawl waits for, and how long it must wait
// before it may ask the host; it returns nil if no queue has work for a
// free host, and retry if another worker took the host it chose. The host of the page the crawl waits for comes first, among
// hosts that may be asked as soon; otherwise the host that may be asked
// soonest, so that a worker never waits for one host's pause while
// another's has run out.
func (s *Schedule) choose(now time.Time) (h *schedHost, urgent bool, wait time.Duration, retry bool) {
	s.mu.Lock()
	queues := s.queues
	free := make([]schedHost, 0, len(s.order))
	for _, h := range s.order {
		if !h.busy {
			free = append(free, *h)
		}
	}
	s.mu.Unlock()
	want := make(map[string]bool, len(queues))
	for _, q := range queues {
		if u := q.Urgent(); u != "" {
			want[u] = true
		}
	}
	var best string
	var bestAt time.Time
	bestWanted := false
	for _, h := range free {
		wanted := want[h.name]
		if !ready(queues, h.name, wanted, h.parked) {
			continue
		}
		var at time.Time
		if s.next != nil {
			at = s.next(h.name)
		}
		if at.Before(now) {
			at = now
		}
		if best == "" || at.Before(bestAt) || at.Equal(bestAt) && wanted && !bestWanted {
			best, bestAt, bestWanted = h.name, at, wanted
		}
	}
	if best == "" {
		return nil, false, 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h = s.hosts[best]
	if h.busy {
		return nil, false, 0, true // another worker took it meanwhile
	}
	h.busy = true
	s.busy++
	return h, bestWanted, bestAt.Sub(now), false
}

// ready reports whether one of queues has work for host.
func ready(queues []Queue, host string, urgent, parked bool) bool {
	for _, q := range queues {
		if q.Ready(host, urgent, parked) {
			return true
		}
	}
	return false
}
