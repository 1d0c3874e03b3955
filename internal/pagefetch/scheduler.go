package pagefetch

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"tse-crawler/internal/pace"
)

// A Scheduler is the one place that knows the hosts a crawl asks, and the
// one way its requests are sent. For each host (host[:port], as a request
// names it) it keeps, under that one key:
//   - its pause (package pace), which every request waits for, from the end
//     of the host's last request;
//   - its turn: one request to a host is in flight at a time, whoever sends
//     it (a page, a page fetched ahead, a robots.txt, a requisite, a
//     link's check, a probe);
//   - whether the crawl has given it up ([Scheduler.MarkDown]), and whether
//     it is parked, until the crawl decides what its silence means;
//   - what its robots.txt files said, by origin;
//   - the requests sent to it, and when it was first met, which orders the
//     hosts so that choices are the same on every run.
//
// Its workers run the jobs of its queues ([Queue]), the one way a crawl's
// requests are sent: a worker takes, of the hosts some queue has work
// for, the one that may be asked soonest, the host of the job the crawl
// waits for first among those as soon; it waits there for the host's
// pause, unless something changes that may change its choice, and then
// runs the job the crawl waits for, if that host has it, else the first
// job for that host of the first queue that has one, in the order the
// queues were added. One worker is at a host at a time, so the number of
// workers bounds the hosts asked at once, and the requests in flight.
//
// A Scheduler is safe for concurrent use.
type Scheduler struct {
	delay   time.Duration
	clock   pace.Clock
	workers int

	requests atomic.Int64

	// sig is closed, and replaced, whenever anything changes that may
	// change a worker's choice. Its own lock is never held while calling
	// a queue, so that a queue may signal while it holds its own.
	sigMu sync.Mutex
	sig   chan struct{}

	// mu guards what follows. It is never held while calling a queue, or
	// while a request is in flight.
	mu      sync.Mutex
	hosts   map[string]*host
	order   []*host // the hosts in the order they were met
	queues  []Queue
	oneOffs *oneOffs // the jobs of Do, the first queue once there is one
	busy    int      // hosts a worker is at: running a job, or waiting for its pause
	timed   int      // workers waiting for a host's pause, which a host released may beat
	cancel  context.CancelFunc
	done    sync.WaitGroup
}

// A host is what the Scheduler knows of one host.
type host struct {
	name   string
	pace   pace.Host
	turn   chan struct{} // holds a token while a request to the host is in flight
	busy   bool          // a worker is at it
	parked bool
	down   error
	// limited is the wait the host asked link checks for, longer than
	// they keep, if it did (Fetcher.Check).
	limited *RateLimitedError
	sent    int64
	robots  map[string]*robotsEntry // by origin, scheme://host[:port]
	// inProcess is a host the client answers itself (InProcess).
	inProcess bool
}

// NewScheduler returns a Scheduler that leaves at least delay between the
// end of a request to a host and the start of the next, waits on clock
// (nil means [pace.System]), and runs jobs on workers workers, at least
// one, once it is started.
func NewScheduler(delay time.Duration, clock pace.Clock, workers int) *Scheduler {
	if clock == nil {
		clock = pace.System{}
	}
	return &Scheduler{delay: delay, clock: clock, workers: max(workers, 1), hosts: make(map[string]*host), sig: make(chan struct{})}
}

// Workers returns how many hosts the Scheduler asks at once, at most.
func (s *Scheduler) Workers() int { return s.workers }

// host returns the host named, making it if need be. s.mu is held.
func (s *Scheduler) host(name string) *host {
	h := s.hosts[name]
	if h == nil {
		h = &host{name: name, pace: pace.NewHost(s.delay), turn: make(chan struct{}, 1)}
		s.hosts[name] = h
		s.order = append(s.order, h)
	}
	return h
}

// lookup returns the host named, making it if need be.
func (s *Scheduler) lookup(name string) *host {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.host(name)
}

// take waits until no other request to host is in flight, then takes the
// host's turn, which the caller gives back by receiving from h.turn. It
// returns the context's cause if ctx ends first.
func (s *Scheduler) take(ctx context.Context, name string) (*host, error) {
	h := s.lookup(name)
	select {
	case h.turn <- struct{}{}:
		return h, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// Wait blocks until a request to the named host may start: until the
// host's pause has passed since its last request ended, and any hold has
// run out. It returns at once for a host with no request yet. If ctx ends
// first, Wait returns the context's cause. It does not take the host's
// turn: its caller holds it, or the host has no other request.
func (s *Scheduler) Wait(ctx context.Context, name string) error {
	s.mu.Lock()
	h := s.host(name)
	d := h.pace.Wait(s.clock.Now())
	s.mu.Unlock()
	if d > 0 {
		if err := s.clock.Sleep(ctx, d); err != nil {
			return err
		}
	} else if err := context.Cause(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	h.pace.Start(s.clock.Now())
	s.mu.Unlock()
	return nil
}

// Done records that a request to the named host has just ended, whether
// it succeeded or not. The host's next pause starts now.
func (s *Scheduler) Done(name string) {
	s.mu.Lock()
	s.host(name).pace.Done(s.clock.Now())
	s.mu.Unlock()
}

// paced waits for host's turn, then for its pause, and returns what ends
// the request: the host's pause, from that moment, recorded before its
// turn is given up. A request the client answers itself (inProcess)
// takes the turn alone: it neither waits for the pause nor starts one.
// It returns the context's cause if ctx ends first.
func (s *Scheduler) paced(ctx context.Context, name string, inProcess bool) (done func(), err error) {
	h, err := s.take(ctx, name)
	if err != nil {
		return nil, err
	}
	if inProcess {
		return func() { <-h.turn }, nil
	}
	if err := s.Wait(ctx, name); err != nil {
		<-h.turn
		return nil, err
	}
	return func() {
		s.Done(name)
		<-h.turn
	}, nil
}

// Hold keeps the next request to the named host from starting sooner than
// d from now, on top of the host's pause: a server's Retry-After, or a
// backoff after a failure.
func (s *Scheduler) Hold(name string, d time.Duration) {
	s.mu.Lock()
	s.host(name).pace.Hold(s.clock.Now(), d)
	s.mu.Unlock()
}

// SetDelay sets the pause for one host, for example from its robots.txt.
// A pause shorter than the Scheduler's own is raised to it.
func (s *Scheduler) SetDelay(name string, d time.Duration) {
	s.mu.Lock()
	s.host(name).pace.SetDelay(d, s.delay)
	s.mu.Unlock()
}

// InProcess marks the named host as one whose folder the client answers
// itself (package sitefolder). It is never given up, since no network
// stands in the way: a link on its host that the client sends to the
// network, and finds unreachable, must not take the folder down with it.
func (s *Scheduler) InProcess(name string) {
	s.mu.Lock()
	s.host(name).inProcess = true
	s.mu.Unlock()
}

// Delay returns the pause for the named host.
func (s *Scheduler) Delay(name string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[name]; h != nil {
		return h.pace.Delay()
	}
	return s.delay
}

// Next returns the time from which a request to the named host may start
// without waiting: when its pause since its last request ends, or its hold
// runs out, whichever is later. It is the zero time for a host with
// neither, which may be asked at once.
func (s *Scheduler) Next(name string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[name]; h != nil {
		return h.pace.Next()
	}
	return time.Time{}
}

// Pauses returns the pauses kept so far, of every host.
func (s *Scheduler) Pauses() pace.Pauses {
	s.mu.Lock()
	defer s.mu.Unlock()
	var p pace.Pauses
	for _, h := range s.order {
		p = p.Add(h.pace.Pauses())
	}
	return p
}

// HostPauses returns the pauses kept so far by host, for every host the
// Scheduler has been told of, those with no pause yet included.
func (s *Scheduler) HostPauses() map[string]pace.Pauses {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]pace.Pauses, len(s.hosts))
	for name, h := range s.hosts {
		m[name] = h.pace.Pauses()
	}
	return m
}

// sending counts a request to host.
func (s *Scheduler) sending(name string) {
	s.requests.Add(1)
	s.mu.Lock()
	s.host(name).sent++
	s.mu.Unlock()
}

// Requests returns how many HTTP requests have been sent, robots.txt
// files and retries included.
func (s *Scheduler) Requests() int64 { return s.requests.Load() }

// HostRequests returns how many HTTP requests have been sent to each host
// that has had any, robots.txt files and retries included.
func (s *Scheduler) HostRequests() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]int64)
	for name, h := range s.hosts {
		if h.sent > 0 {
			m[name] = h.sent
		}
	}
	return m
}

// MarkDown gives up host (host[:port]), for err: from now on every fetch
// from it fails at once, with err and [ErrHostDown], and no request, and
// no queue's job for it is run but the one the crawl waits for. A crawler
// gives up a host that takes no connection while another still answers.
// A host InProcess is never given up.
func (s *Scheduler) MarkDown(name string, err error) {
	s.mu.Lock()
	if h := s.host(name); !h.inProcess {
		h.down = downError{err}
	}
	s.mu.Unlock()
	s.Signal()
}

// Down returns the error every fetch from host fails with if it was given
// up ([Scheduler.MarkDown]), or nil.
func (s *Scheduler) Down(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[name]; h != nil {
		return h.down
	}
	return nil
}

// now returns the time on the Scheduler's clock, on which its pauses
// and holds are counted.
func (s *Scheduler) now() time.Time { return s.clock.Now() }

// limit notes that host asked link checks, with e, for a longer wait than
// they keep, and reports whether it had asked before.
func (s *Scheduler) limit(name string, e *RateLimitedError) (asked bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.host(name)
	asked = h.limited != nil
	h.limited = e
	return asked
}

// limited returns the wait host asked link checks for, if it has not
// passed yet, or nil.
func (s *Scheduler) limited(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hosts[name]
	if h == nil || h.limited == nil || !s.clock.Now().Before(h.limited.Until) {
		return nil
	}
	return h.limited
}

// Park parks host: only the job the crawl waits for goes to it from now
// on. The crawl parks a host whose fetch got no connection, or broke the
// loopback rule, until it decides what that means.
func (s *Scheduler) Park(name string) {
	s.mu.Lock()
	s.host(name).parked = true
	s.mu.Unlock()
}

// A Queue holds a caller's jobs, by host, for a [Scheduler]. Its methods
// are called from the Scheduler's workers, never with the Scheduler's lock
// held; a queue tells the Scheduler of a new host with [Scheduler.Meet],
// and of new work with [Scheduler.Signal].
type Queue interface {
	// Urgent returns the host of the job the crawl waits for, or "".
	Urgent() string
	// Ready reports whether the queue has a job for host that may be run
	// now: the job the crawl waits for, if urgent is set; otherwise any
	// it is willing to run ahead, unless parked is set.
	Ready(host string, urgent, parked bool) bool
	// Run runs the queue's next job for host, which the calling worker
	// holds: it fetches through a [Fetcher] of the Scheduler. It returns
	// false if the queue had no job for the host after all.
	Run(ctx context.Context, host string, urgent, parked bool) bool
}

// Start starts the workers, which run the jobs of the queues added until
// ctx ends or Stop is called.
func (s *Scheduler) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return
	}
	ctx, s.cancel = context.WithCancel(ctx)
	for range s.workers {
		s.done.Add(1)
		go s.work(ctx)
	}
}

// Stop ends the workers, cancelling what they are fetching, waits for
// them, and forgets the queues. The Scheduler may be started again; what
// it knows of the hosts it keeps.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	s.done.Wait()
	s.mu.Lock()
	s.cancel, s.queues, s.oneOffs = nil, nil, nil
	s.mu.Unlock()
}

// Add gives the Scheduler a queue, after those it has: on a host, a worker
// runs the job the crawl waits for first, then the first job of the queues
// in the order they were added.
func (s *Scheduler) Add(q Queue) {
	s.mu.Lock()
	s.queues = append(s.queues, q)
	s.mu.Unlock()
	s.Signal()
}

// Meet tells the Scheduler of a host some queue has or will have work for,
// so that it is considered, in the order hosts were met; the workers are
// woken if it is new to them.
func (s *Scheduler) Meet(name string) {
	s.mu.Lock()
	_, known := s.hosts[name]
	s.host(name)
	s.mu.Unlock()
	if !known {
		s.Signal()
	}
}

// Signal wakes the workers: a queue has new work, or the crawl waits for
// another page.
func (s *Scheduler) Signal() {
	s.sigMu.Lock()
	close(s.sig)
	s.sig = make(chan struct{})
	s.sigMu.Unlock()
}

// changed returns the channel that the next change closes.
func (s *Scheduler) changed() <-chan struct{} {
	s.sigMu.Lock()
	defer s.sigMu.Unlock()
	return s.sig
}

// Busy returns how many hosts a worker is at: fetching from, or waiting
// for its pause.
func (s *Scheduler) Busy() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}

// work runs jobs until ctx ends.
func (s *Scheduler) work(ctx context.Context) {
	defer s.done.Done()
	for ctx.Err() == nil {
		changed := s.changed()
		h, urgent, wait, retry := s.choose(s.clock.Now())
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
		if wait > 0 && !urgent {
			// Held while it waits, so that no other worker waits for the
			// same host; but anything that changes may change the choice.
			// The job the crawl waits for is run at once, and waits for
			// the pause itself if it sends a request at all: a page that
			// robots.txt disallows costs none.
			s.mu.Lock()
			s.timed++
			s.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-changed:
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
			s.mu.Lock()
			s.timed--
			s.mu.Unlock()
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
func (s *Scheduler) run(ctx context.Context, h *host, urgent bool) {
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

// release gives a host back once a worker is done with it, and, if
// signal is set, tells the workers that wait for another host's pause,
// which this one may beat: an idle worker has nothing to gain from it,
// since the worker that releases the host chooses again itself.
func (s *Scheduler) release(h *host, signal bool) {
	s.mu.Lock()
	h.busy = false
	s.busy--
	timed := s.timed
	s.mu.Unlock()
	if signal && timed > 0 {
		s.Signal()
	}
}

// A candidate is what choose knows of a free host.
type candidate struct {
	name   string
	parked bool // parked, or given up: only the job the crawl waits for goes there
	next   time.Time
}

// choose takes the host a worker should go to, and says whether the job
// it runs there is the one the crawl waits for, and how long it must wait
// before it may ask the host; it returns nil if no queue has work for a
// free host, and retry if another worker took the host it chose. The host
// of the page the crawl waits for comes first, among hosts that may be
// asked as soon; otherwise the host that may be asked soonest, so that a
// worker never waits for one host's pause while another's has run out.
func (s *Scheduler) choose(now time.Time) (h *host, urgent bool, wait time.Duration, retry bool) {
	s.mu.Lock()
	queues := s.queues
	free := make([]candidate, 0, len(s.order))
	for _, h := range s.order {
		if !h.busy {
			free = append(free, candidate{h.name, h.parked || h.down != nil, h.pace.Next()})
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
	for _, c := range free {
		wanted := want[c.name]
		if !ready(queues, c.name, wanted, c.parked) {
			continue
		}
		at := c.next
		if at.Before(now) {
			at = now
		}
		if best == "" || at.Before(bestAt) || at.Equal(bestAt) && wanted && !bestWanted {
			best, bestAt, bestWanted = c.name, at, wanted
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

// robotsEntry returns the entry of origin's robots.txt, on host, making it
// if need be.
func (s *Scheduler) robotsEntry(name, origin string) *robotsEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.host(name)
	e := h.robots[origin]
	if e == nil {
		if h.robots == nil {
			h.robots = make(map[string]*robotsEntry)
		}
		e = &robotsEntry{lock: make(chan struct{}, 1)}
		h.robots[origin] = e
	}
	return e
}

// knownRobots returns the robots.txt entry of origin, on host name, or
// nil if none was made: no request has asked for it yet.
func (s *Scheduler) knownRobots(name, origin string) *robotsEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[name]; h != nil {
		return h.robots[origin]
	}
	return nil
}

// Do runs fn as a job for host, on one of the Scheduler's workers, as the
// job the crawl waits for, and waits for it: a request the crawl itself
// must make, such as asking a host whether it answers, goes through the
// workers like any other. It returns the context's cause if ctx ends
// before a worker has taken the job; a job taken runs to its end, its
// context ended with ctx. The Scheduler must be started.
func (s *Scheduler) Do(ctx context.Context, host string, fn func(ctx context.Context)) error {
	j := &oneOff{host: host, ctx: ctx, fn: fn, done: make(chan struct{})}
	s.mu.Lock()
	if s.oneOffs == nil {
		s.oneOffs = &oneOffs{s: s}
		s.queues = append([]Queue{s.oneOffs}, s.queues...)
	}
	q := s.oneOffs
	s.host(host)
	s.mu.Unlock()
	q.add(j)
	s.Signal()
	select {
	case <-j.done:
		return nil
	case <-ctx.Done():
		if q.remove(j) {
			return context.Cause(ctx)
		}
		<-j.done // taken: it ends with ctx
		return nil
	}
}

// A oneOff is a job given to [Scheduler.Do].
type oneOff struct {
	host string
	ctx  context.Context
	fn   func(ctx context.Context)
	done chan struct{}
}

// oneOffs are the jobs given to [Scheduler.Do] and not yet taken: the
// first queue of the Scheduler, as the crawl waits for each.
type oneOffs struct {
	s    *Scheduler
	mu   sync.Mutex
	jobs []*oneOff
}

func (q *oneOffs) add(j *oneOff) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	q.mu.Unlock()
}

// remove removes j, unless a worker has taken it, and reports whether it
// did.
func (q *oneOffs) remove(j *oneOff) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, k := range q.jobs {
		if k == j {
			q.jobs = append(q.jobs[:i], q.jobs[i+1:]...)
			return true
		}
	}
	return false
}

// Urgent implements [Queue]: the host of the first job.
func (q *oneOffs) Urgent() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) == 0 {
		return ""
	}
	return q.jobs[0].host
}

// Ready implements [Queue]: any job for host, parked or not, since the
// crawl waits for each.
func (q *oneOffs) Ready(host string, _, _ bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, j := range q.jobs {
		if j.host == host {
			return true
		}
	}
	return false
}

// Run implements [Queue]: it runs the first job for host.
func (q *oneOffs) Run(ctx context.Context, host string, _, _ bool) bool {
	q.mu.Lock()
	var j *oneOff
	for i, k := range q.jobs {
		if k.host == host {
			j = k
			q.jobs = append(q.jobs[:i], q.jobs[i+1:]...)
			break
		}
	}
	q.mu.Unlock()
	if j == nil {
		return false
	}
	defer close(j.done)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(j.ctx, func() { cancel(context.Cause(j.ctx)) })()
	j.fn(ctx)
	return true
}
