package pace_test

import (
	"testing"
	"time"

	"tse-crawler/internal/pace"
)

// TestHost: a host's pause runs from the end of its last request, a hold
// can put the next one off further, and each start after an end is a
// pause kept.
func TestHost(t *testing.T) {
	t0 := time.Date(2021, 4, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	h := pace.NewHost(time.Second)
	steps := []struct {
		name string
		do   func()
		now  time.Duration
		wait time.Duration
	}{
		{"before any request", func() {}, 0, 0},
		{"after one ended", func() { h.Start(at(0)); h.Done(at(300 * time.Millisecond)) }, 500 * time.Millisecond, 800 * time.Millisecond},
		{"once the pause is over", func() {}, 2 * time.Second, 0},
		{"held", func() { h.Hold(at(2*time.Second), 3*time.Second) }, 2 * time.Second, 3 * time.Second},
		{"a longer pause", func() { h.SetDelay(10*time.Second, time.Second) }, 2 * time.Second, 8300 * time.Millisecond},
		{"never below the least", func() { h.SetDelay(time.Millisecond, time.Second) }, 2 * time.Second, 3 * time.Second},
	}
	for _, s := range steps {
		s.do()
		if got := h.Wait(at(s.now)); got != s.wait {
			t.Errorf("%s: Wait at %v = %v, want %v", s.name, s.now, got, s.wait)
		}
	}
	h.Start(at(6 * time.Second))
	if got := h.Pauses(); got.Count != 1 || got.Total != 5700*time.Millisecond {
		t.Errorf("Pauses() = %+v, want one of 5.7s", got)
	}
}

// TestPausesAdd: pauses of two hosts add up, the shortest of either the
// shortest, and none added changes nothing.
func TestPausesAdd(t *testing.T) {
	a := pace.Pauses{Count: 2, Total: 3 * time.Second, Shortest: time.Second}
	b := pace.Pauses{Count: 1, Total: 500 * time.Millisecond, Shortest: 500 * time.Millisecond}
	tests := []struct {
		p, q, want pace.Pauses
	}{
		{a, b, pace.Pauses{Count: 3, Total: 3500 * time.Millisecond, Shortest: 500 * time.Millisecond}},
		{a, pace.Pauses{}, a},
		{pace.Pauses{}, b, b},
	}
	for _, tt := range tests {
		if got := tt.p.Add(tt.q); got != tt.want {
			t.Errorf("%+v.Add(%+v) = %+v, want %+v", tt.p, tt.q, got, tt.want)
		}
	}
	if m := b.Add(a).Mean(); m != 3500*time.Millisecond/3 {
		t.Errorf("Mean = %v", m)
	}
}
