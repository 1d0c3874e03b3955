package progress

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"
)

// syncBuffer is a bytes.Buffer that the test can read while the Line's
// goroutine may be writing to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// take returns what has been written since the last take.
func (b *syncBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}

func draw(s Status, elapsed time.Duration) string {
	return "\r" + Render(s, elapsed) + "\x1b[K"
}

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		s       Status
		elapsed time.Duration
		want    string
	}{
		{"start", Status{}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 0s"},
		{"seconds", Status{Saved: 1, Waiting: 3, Depth: 1, Pause: 250 * time.Millisecond}, 59 * time.Second,
			"saved 1 · 3 pages waiting · depth 1 · 59s · pause 250ms"},
		{"just over a minute", Status{Saved: 12, Waiting: 40, Depth: 2, Pause: time.Second}, 61 * time.Second,
			"saved 12 · 40 pages waiting · depth 2 · 1m01s · pause 1s"},
		{"hours", Status{Saved: 1234, Waiting: 567, Depth: 2, Pause: time.Minute}, 3*time.Hour + 2*time.Minute + 5*time.Second,
			"saved 1234 · 567 pages waiting · depth 2 · 3h02m · pause 1m00s"},
		{"doc example", Status{Saved: 1234, Waiting: 567, Depth: 2, Pause: time.Second}, 12*time.Minute + 34*time.Second,
			"saved 1234 · 567 pages waiting · depth 2 · 12m34s · pause 1s"},
		{"one page waiting", Status{Saved: 3, Waiting: 1, Depth: 1}, 0,
			"saved 3 · 1 page waiting · depth 1 · 0s · pause 0s"},
		{"elapsed truncated to seconds", Status{}, 59*time.Second + 999*time.Millisecond,
			"saved 0 · 0 pages waiting · depth 0 · 59s · pause 0s"},
		{"fractional pause", Status{Pause: 1500 * time.Millisecond}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 1.5s"},
		{"pause rounded to ms", Status{Pause: 1234567 * time.Microsecond}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 1.235s"},
		{"pause rounding up to a minute", Status{Pause: time.Minute - time.Microsecond}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 1m00s"},
		{"negative elapsed clamps", Status{}, -time.Second,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 0s"},
		{"hosts in parallel", Status{Saved: 12, Waiting: 40, Depth: 2, Pause: time.Second, Lanes: 4, Busy: 3}, 65 * time.Second,
			"saved 12 · 40 pages waiting · depth 2 · 1m05s · pause 1s · 3 hosts busy"},
		{"one host busy", Status{Lanes: 4, Busy: 1}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 0s · 1 host busy"},
		{"none busy", Status{Lanes: 2}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 0s · 0 hosts busy"},
		{"one lane: nothing to tell", Status{Lanes: 1, Busy: 1}, 0,
			"saved 0 · 0 pages waiting · depth 0 · 0s · pause 0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render(tt.s, tt.elapsed); got != tt.want {
				t.Errorf("Render(%+v, %v) = %q, want %q", tt.s, tt.elapsed, got, tt.want)
			}
		})
	}
}

// TestRenderWidth checks that large but realistic values leave the line
// under 80 columns, so that it never wraps on a standard terminal.
func TestRenderWidth(t *testing.T) {
	t.Parallel()
	s := Status{Saved: 9_999_999, Waiting: 99_999_999, Depth: 999, Pause: 59*time.Second + 999*time.Millisecond}
	got := Render(s, 999*time.Hour+59*time.Minute)
	if n := utf8.RuneCountInString(got); n >= 80 {
		t.Errorf("Render(%+v) = %q, %d columns, want under 80", s, got, n)
	}
	if strings.ContainsFunc(got, func(r rune) bool { return r < ' ' }) {
		t.Errorf("Render(%+v) = %q, contains control characters", s, got)
	}
	// The hosts busy come last, so that a line too wide for the terminal
	// loses them first.
	s.Lanes, s.Busy = 64, 64
	if got := fit(Render(s, 999*time.Hour+59*time.Minute), 80); got != Render(Status{Saved: s.Saved, Waiting: s.Waiting, Depth: s.Depth, Pause: s.Pause}, 999*time.Hour+59*time.Minute) {
		t.Errorf("fit to 80 columns gives %q, want the line without its hosts", got)
	}
}

func TestFit(t *testing.T) {
	t.Parallel()
	const line = "saved 12 · 40 pages waiting · depth 2 · 1m05s · pause 1s" // 56 columns
	tests := []struct {
		s    string
		cols int
		want string
	}{
		{line, 80, line},
		{line, 57, line}, // the last column stays free
		{line, 56, "saved 12 · 40 pages waiting · depth 2 · 1m05s"},
		{line, 53, "saved 12 · 40 pages waiting · depth 2 · 1m05s"},
		{line, 46, "saved 12 · 40 pages waiting · depth 2 · 1m05s"},
		{line, 45, "saved 12 · 40 pages waiting · depth 2"},
		{line, 40, "saved 12 · 40 pages waiting · depth 2"},
		{line, 28, "saved 12 · 40 pages waiting"},
		{line, 27, "saved 12"},
		{line, 20, "saved 12"},
		{line, 10, "saved 12"},
		{line, 9, "saved 12"},
		{line, 8, "saved 1"}, // too narrow for even one field: cut inside it
		{line, 2, "s"},
		{line, 1, ""},
		{line, 0, ""},
		// Cuts inside a field fall between runes, never inside one.
		{"····· · x", 10, "····· · x"},
		{"····· · x", 9, "·····"},
		{"····· · x", 4, "···"},
		{"ééé", 3, "éé"},
		{"", 10, ""},
	}
	for _, tt := range tests {
		got := fit(tt.s, tt.cols)
		if got != tt.want {
			t.Errorf("fit(%q, %d) = %q, want %q", tt.s, tt.cols, got, tt.want)
		}
	}
	// Every width, on Render's widest realistic line: a prefix of it, whole
	// runes, and short of the last column.
	wide := Render(Status{Saved: 9_999_999, Waiting: 99_999_999, Depth: 10, Pause: 59 * time.Second}, 999*time.Hour)
	for cols := range 100 {
		got := fit(wide, cols)
		if !strings.HasPrefix(wide, got) || !utf8.ValidString(got) || cols > 0 && utf8.RuneCountInString(got) >= cols {
			t.Errorf("fit(%q, %d) = %q", wide, cols, got)
		}
	}
}

// TestLineWidth checks that each draw is cut to the terminal's width as it
// is at that moment, and to 80 columns when it is unknown.
func TestLineWidth(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = time.Second
		var mu sync.Mutex
		cols := 20
		width := func() int {
			mu.Lock()
			defer mu.Unlock()
			return cols
		}
		resize := func(n int) {
			mu.Lock()
			cols = n
			mu.Unlock()
		}
		var out syncBuffer
		l := start(&out, width, tick, time.Now)
		defer l.Stop()
		s := Status{Saved: 1, Waiting: 3, Depth: 1, Pause: time.Second}
		l.Set(s)
		for _, tt := range []struct {
			cols int
			want string
		}{
			{20, "saved 1"},
			{40, "saved 1 · 3 pages waiting · depth 1"},
			{0, Render(s, 3*tick)}, // unknown: 80 columns, which it fits
			{5, "save"},
		} {
			resize(tt.cols)
			time.Sleep(tick)
			synctest.Wait()
			if got, want := out.take(), "\r"+tt.want+"\x1b[K"; got != want {
				t.Errorf("drawn at %d columns: %q, want %q", tt.cols, got, want)
			}
		}
		resize(12)
		if _, err := l.Write([]byte("crawler: x\n")); err != nil {
			t.Fatal(err)
		}
		if got, want := out.take(), "\r\x1b[Kcrawler: x\n\rsaved 1\x1b[K"; got != want {
			t.Errorf("Write at 12 columns: %q, want %q", got, want)
		}
	})
}

// TestLine follows one Line through its life on a fake clock and checks
// every byte it writes.
func TestLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = time.Second
		var out syncBuffer
		l := Start(&out, tick, time.Now)
		defer l.Stop()

		step := func(what, want string) {
			t.Helper()
			synctest.Wait() // let the redraw goroutine finish its tick
			if got := out.take(); got != want {
				t.Errorf("%s: wrote %q, want %q", what, got, want)
			}
		}
		write := func(p string) {
			t.Helper()
			if n, err := l.Write([]byte(p)); n != len(p) || err != nil {
				t.Errorf("Write(%q) = %d, %v, want %d, nil", p, n, err, len(p))
			}
		}

		time.Sleep(3 * tick)
		step("ticks before the first Set", "")

		write("crawler: before any status\n")
		step("Write before the first Set", "crawler: before any status\n")

		s1 := Status{Saved: 1, Waiting: 4, Depth: 0, Pause: time.Second}
		l.Set(s1)
		step("Set", "") // drawn at the next tick, not at once

		time.Sleep(tick)
		step("first tick after Set", draw(s1, 4*tick))
		time.Sleep(tick)
		step("tick with only time moving", draw(s1, 5*tick))

		s2 := Status{Saved: 2, Waiting: 7, Depth: 1, Pause: 2 * time.Second}
		l.Set(s2)
		step("second Set", "")
		time.Sleep(tick)
		step("tick after second Set", draw(s2, 6*tick))

		write("crawler: warning: x\n")
		step("Write of a whole line",
			"\r\x1b[K"+"crawler: warning: x\n"+draw(s2, 6*tick))

		write("FAILED: ")
		step("Write of a partial line", "\r\x1b[K"+"FAILED: ")
		time.Sleep(2 * tick)
		step("ticks during a partial line", "")
		write("404 Not Found\n")
		step("Write ending the line", "404 Not Found\n"+draw(s2, 8*tick))

		time.Sleep(tick)
		step("tick", draw(s2, 9*tick))

		l.Stop()
		step("Stop", "\r\x1b[K")
		time.Sleep(10 * tick)
		step("ticks after Stop", "")
		l.Set(s1)
		time.Sleep(tick)
		step("Set and tick after Stop", "")
		write("crawler: after stop\n")
		step("Write after Stop", "crawler: after stop\n")
		l.Stop()
		step("second Stop", "")
	})
}

// TestStopBeforeDraw checks that a Line that never drew leaves no output.
func TestStopBeforeDraw(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncBuffer
		l := Start(&out, time.Second, time.Now)
		l.Set(Status{Saved: 1})
		time.Sleep(time.Second / 2)
		l.Stop()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if got := out.take(); got != "" {
			t.Errorf("Stop before the first draw: wrote %q, want nothing", got)
		}
	})
}

// TestFakeClock checks that the elapsed time comes from the injected
// clock, not from the ticker.
func TestFakeClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		fake := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		now := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return fake
		}
		var out syncBuffer
		l := Start(&out, time.Second, now)
		defer l.Stop()
		l.Set(Status{})
		mu.Lock()
		fake = fake.Add(2*time.Hour + 5*time.Minute)
		mu.Unlock()
		time.Sleep(time.Second)
		synctest.Wait()
		if got, want := out.take(), draw(Status{}, 2*time.Hour+5*time.Minute); got != want {
			t.Errorf("redraw = %q, want %q", got, want)
		}
	})
}

func TestWritePassThrough(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
	}{
		{"whole lines", []string{"crawler: a\n", "crawler: b\n"}},
		{"partial line", []string{"crawler: no newline"}},
		{"pieces", []string{"FAILED", ": ", "timeout\n"}},
		{"empty", []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var out syncBuffer
				l := Start(&out, time.Second, nil)
				defer l.Stop()
				time.Sleep(3 * time.Second) // ticks, but no status yet
				for _, p := range tt.in {
					if n, err := l.Write([]byte(p)); n != len(p) || err != nil {
						t.Errorf("Write(%q) = %d, %v, want %d, nil", p, n, err, len(p))
					}
				}
				synctest.Wait()
				if got, want := out.take(), strings.Join(tt.in, ""); got != want {
					t.Errorf("wrote %q, want %q unchanged", got, want)
				}
			})
		})
	}
}

// failWriter accepts the first n bytes it is given, then fails.
type failWriter struct{ n int }

var errFull = errors.New("full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, errFull
}

// TestWriteError checks that Write counts only bytes of p, not the escape
// sequences around them, when the underlying writer fails part way.
func TestWriteError(t *testing.T) {
	const msg = "crawler: warning: x\n"
	tests := []struct {
		name   string
		accept int // bytes the writer takes from the combined write
		want   int
		err    error
	}{
		{"fails in the erase", 3, 0, errFull},
		{"fails in the message", len("\r\x1b[K") + 5, 5, errFull},
		// The message is out; only the decoration after it failed.
		{"fails in the redraw", len("\r\x1b[K") + len(msg) + 2, len(msg), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := &failWriter{n: 1 << 20}
				l := Start(w, time.Second, nil)
				defer l.Stop()
				l.Set(Status{})
				time.Sleep(time.Second) // draw the line, so Write must erase it
				synctest.Wait()
				w.n = tt.accept
				n, err := l.Write([]byte(msg))
				if n != tt.want || !errors.Is(err, tt.err) {
					t.Errorf("Write(%q) = %d, %v, want %d, %v", msg, n, err, tt.want, tt.err)
				}
			})
		})
	}
}

// TestConcurrent runs Set and Write from several goroutines against a real
// ticker; run it with -race. It checks that every message comes out whole
// and that the status line is only ever drawn or erased at the start of a
// line.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	l := Start(&out, 20*time.Microsecond, nil) // tick often, but let writers run
	const writers, msgs = 8, 200
	var want []string
	var wg sync.WaitGroup
	for g := range writers {
		for i := range msgs {
			want = append(want, fmt.Sprintf("crawler: warning: writer %d message %d", g, i))
		}
		wg.Go(func() {
			for i := range msgs {
				l.Set(Status{Saved: i, Waiting: g, Depth: g % 3, Pause: time.Second})
				// Whole lines only, as the crawler writes them: pieces of
				// lines from different goroutines interleave whatever
				// the Line does (TestLine covers pieces).
				fmt.Fprintf(l, "crawler: warning: writer %d message %d\n", g, i)
			}
		})
	}
	wg.Wait()
	l.Stop()
	raw := out.take()

	// Every draw and erase: a carriage return, status text, erase to end.
	ctl := regexp.MustCompile("\r[^\r\n\x1b]*\x1b\\[K")
	end := 0
	for _, m := range ctl.FindAllStringIndex(raw, -1) {
		if at := m[0]; at != 0 && at != end && raw[at-1] != '\n' {
			t.Fatalf("status line drawn mid-line at byte %d: %q", at, raw[max(at-40, 0):m[1]])
		}
		end = m[1]
	}
	if !strings.HasSuffix(raw, "\r\x1b[K") {
		t.Errorf("output ends %q, want the line erased by Stop", raw[max(len(raw)-40, 0):])
	}
	text := ctl.ReplaceAllString(raw, "")
	got := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got %d messages, want %d, whole; output:\n%q", len(got), len(want), text[:min(len(text), 500)])
	}
}

func TestIsTerminal(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	regular, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	closed, err := os.Create(filepath.Join(t.TempDir(), "closed"))
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()

	tests := []struct {
		name string
		f    *os.File
	}{
		{"pipe read end", r},
		{"pipe write end", w},
		{"regular file", regular},
		{"closed file", closed},
		{"nil", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if IsTerminal(tt.f) {
				t.Errorf("IsTerminal(%s) = true, want false", tt.name)
			}
		})
	}

	// /dev/null is a character device, but not a terminal: the reason
	// for the ioctl. Only the Linux version can tell the difference.
	t.Run("/dev/null", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("IsTerminal outside Linux cannot tell /dev/null from a terminal")
		}
		f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			t.Skip(err)
		}
		defer f.Close()
		if IsTerminal(f) {
			t.Errorf("IsTerminal(%s) = true, want false", os.DevNull)
		}
	})

	// /dev/tty opens only when the test has a controlling terminal, and
	// then it is one.
	t.Run("/dev/tty", func(t *testing.T) {
		f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
		if err != nil {
			t.Skipf("no controlling terminal: %v", err)
		}
		defer f.Close()
		if !IsTerminal(f) {
			t.Errorf("IsTerminal(/dev/tty) = false, want true")
		}
	})
}

func TestWantedDecision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		stdoutSame, stderrTerm, quiet bool
		want                          bool
	}{
		{stdoutSame: true, stderrTerm: true, quiet: false, want: false}, // the log is on this terminal
		{stdoutSame: true, stderrTerm: true, quiet: true, want: true},   // -q: the terminal is free
		{stdoutSame: false, stderrTerm: true, quiet: false, want: true}, // log redirected
		{stdoutSame: false, stderrTerm: true, quiet: true, want: true},
		{stdoutSame: true, stderrTerm: false, quiet: false, want: false}, // never into a file or pipe
		{stdoutSame: true, stderrTerm: false, quiet: true, want: false},
		{stdoutSame: false, stderrTerm: false, quiet: false, want: false},
		{stdoutSame: false, stderrTerm: false, quiet: true, want: false},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("same=%t,term=%t,quiet=%t", tt.stdoutSame, tt.stderrTerm, tt.quiet)
		t.Run(name, func(t *testing.T) {
			if got := wanted(tt.stdoutSame, tt.stderrTerm, tt.quiet); got != tt.want {
				t.Errorf("wanted(%t, %t, %t) = %t, want %t",
					tt.stdoutSame, tt.stderrTerm, tt.quiet, got, tt.want)
			}
		})
	}
}

// TestWanted checks Wanted and sameFile with files a test can make. None of
// them is a terminal, so Wanted is always false; TestWantedDecision covers
// the terminal cases.
func TestWanted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, err := os.Create(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a2, err := os.Open(a.Name()) // a second *os.File on the same file
	if err != nil {
		t.Fatal(err)
	}
	defer a2.Close()
	b, err := os.Create(filepath.Join(dir, "b"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()

	tests := []struct {
		name           string
		stdout, stderr *os.File
		same           bool
	}{
		{"same file", a, a, true},
		{"same file, two opens", a, a2, true},
		{"different files", a, b, false},
		{"same pipe", w, w, true},
		{"file and pipe", a, w, false},
		{"nil stdout", nil, a, false},
		{"nil both", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameFile(tt.stdout, tt.stderr); got != tt.same {
				t.Errorf("sameFile = %t, want %t", got, tt.same)
			}
			for _, quiet := range []bool{false, true} {
				if Wanted(tt.stdout, tt.stderr, quiet) {
					t.Errorf("Wanted(quiet=%t) = true, want false: stderr is not a terminal", quiet)
				}
			}
		})
	}
}

func ExampleRender() {
	s := Status{Saved: 1234, Waiting: 567, Depth: 2, Pause: time.Second}
	fmt.Println(Render(s, 12*time.Minute+34*time.Second))
	// Output: saved 1234 · 567 pages waiting · depth 2 · 12m34s · pause 1s
}
