package pagefetch_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
)

// A jobQueue is a Queue of jobs that each take a second and end a host's
// turn, with the pause of its scheduler after each.
type jobQueue struct {
	sched *pagefetch.Scheduler

	mu     sync.Mutex
	jobs   map[string][]string // by host
	urgent string              // a job the crawl waits for: "host/name"
	log    []string            // "at host/name", in the order run
	start  time.Time
}

func (q *jobQueue) add(host string, names ...string) {
	q.mu.Lock()
	q.jobs[host] = append(q.jobs[host], names...)
	q.mu.Unlock()
	q.sched.Meet(host)
}

func (q *jobQueue) Urgent() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	host, _, _ := cut(q.urgent)
	return host
}

func cut(job string) (host, name string, ok bool) { return strings.Cut(job, "/") }

func (q *jobQueue) Ready(host string, urgent, parked bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if h, _, _ := cut(q.urgent); urgent && h == host {
		return true
	}
	return !parked && len(q.jobs[host]) > 0
}

func (q *jobQueue) Run(ctx context.Context, host string, urgent, parked bool) bool {
	q.mu.Lock()
	var job string
	if h, _, _ := cut(q.urgent); urgent && h == host {
		job, q.urgent = q.urgent, ""
	} else if !parked && len(q.jobs[host]) > 0 {
		job = host + "/" + q.jobs[host][0]
		q.jobs[host] = q.jobs[host][1:]
	}
	q.mu.Unlock()
	if job == "" {
		return false
	}
	if err := q.sched.Wait(ctx, host); err != nil {
		return true
	}
	q.mu.Lock()
	q.log = append(q.log, fmt.Sprintf("%v %s", time.Since(q.start), job))
	q.mu.Unlock()
	time.Sleep(time.Second) // the request
	q.sched.Done(host)
	return true
}

// TestSchedule: workers fetch from hosts side by side, one job at a time
// per host, each host's pause kept; a free worker takes the host that may
// be asked soonest; the job the crawl waits for goes first, even to a
// parked host, which gets nothing else.
func TestSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := pagefetch.NewScheduler(2*time.Second, nil, 2)
		q := &jobQueue{sched: s, jobs: make(map[string][]string), start: time.Now()}
		s.Start(t.Context())
		s.Add(q)
		q.add("a", "1", "2", "3")
		q.add("b", "1", "2")
		q.add("c", "1")
		synctest.Wait()
		// Two workers: a and b at once; at 1s, c, whose pause has not
		// begun; a and b may go again at 3s.
		time.Sleep(3500 * time.Millisecond)
		s.Park("a")
		q.mu.Lock()
		q.urgent = "a/wanted"
		q.mu.Unlock()
		s.Signal()
		time.Sleep(20 * time.Second)
		s.Stop()
		// Jobs that start at one instant may run in either order.
		slices.Sort(q.log)
		want := []string{"0s a/1", "0s b/1", "1s c/1", "3s a/2", "3s b/2", "6s a/wanted"}
		if !slices.Equal(q.log, want) {
			t.Errorf("ran %q, want %q", q.log, want)
		}
		if n := s.Busy(); n != 0 {
			t.Errorf("%d hosts busy once stopped", n)
		}
	})
}
