// Package progress shows a live one-line status of a crawl on a terminal:
// pages saved, pages waiting in the bag, current depth, elapsed time and
// the current pause.
//
// The line is drawn in place with a carriage return and an erase-to-end-of-
// line escape, so it is only safe where nothing else writes to the same
// terminal behind its back, and only while it fits on one row: a line
// that wraps leaves its first rows behind at every redraw. So each draw
// cuts it to the terminal's width, read again each time (a window can be
// resized at any moment), and leaves the last column free, where some
// terminals would move the cursor to the next row. A [Line] can keep the messages written through
// it whole, but the crawl's progress log goes to stdout and does not pass
// through it. [Wanted] therefore asks for a line only when stderr is a
// terminal and the log is not going to that same terminal. The line never
// goes to a file or a pipe, where its control characters would be noise.
package progress

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Status is where a crawl stands, as the line shows it. The crawler fills
// it in before each fetch, all but the pause, which is the fetcher's to
// tell.
type Status struct {
	Saved   int           // pages saved so far
	Waiting int           // pages waiting in the bag
	Depth   int           // depth of the page being crawled
	URL     string        // the page being crawled: not shown, but Pause is its host's
	Pause   time.Duration // the pause before the next request to its host
	Lanes   int           // how many hosts may be fetched at once, if more than one is
	Busy    int           // how many are: shown if Lanes is more than one
}

// The escape sequences, kept to the two that every terminal emulator in use
// understands: a carriage return moves to column 0 and CSI K (erase in line)
// clears from the cursor to the end of the line.
const (
	erase   = "\r\x1b[K"
	drawPre = "\r"
	drawEnd = "\x1b[K"
)

// A Line is a live status line on a terminal. Its methods are safe for
// concurrent use. Create one with [Start]; the zero Line is not usable.
type Line struct {
	w     io.Writer
	width func() int // the terminal's columns, 0 if unknown; nil: never cut
	now   func() time.Time
	start time.Time

	ticker *time.Ticker
	done   chan struct{} // closed by the first Stop to end the redraw loop
	exited chan struct{} // closed by the redraw loop as it returns

	// mu serializes every write to w, so a redraw can never land in the
	// middle of a message, and guards the fields below.
	mu      sync.Mutex
	status  Status
	set     bool // a status has been Set: there is something to draw
	drawn   bool // the line is on the screen now and must be erased first
	midLine bool // the last Write did not end its line: do not draw over it
	stopped bool
}

// Start begins showing s on w (a terminal), redrawing it every interval so
// that the elapsed time moves even while the crawler waits. now is the clock
// (time.Now in production; tests pass a fake or run inside synctest); nil
// means time.Now. Elapsed time counts from the call to Start.
//
// If w is an [*os.File], each draw is cut to its width as a terminal, or to
// 80 columns if the width cannot be read; any other w gets the whole line.
//
// Nothing is drawn until the first [Line.Set], so a crawl that fails at once
// leaves no trace of the line. Start panics if interval is not positive, as
// [time.NewTicker] does. The caller must call [Line.Stop] to end the redraw
// goroutine.
func Start(w io.Writer, interval time.Duration, now func() time.Time) *Line {
	var width func() int
	if f, ok := w.(*os.File); ok {
		width = func() int { return termWidth(f) }
	}
	return start(w, width, interval, now)
}

// start is Start with the terminal's width given, so that tests can set it.
func start(w io.Writer, width func() int, interval time.Duration, now func() time.Time) *Line {
	if now == nil {
		now = time.Now
	}
	l := &Line{
		w:      w,
		width:  width,
		now:    now,
		start:  now(),
		ticker: time.NewTicker(interval),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	go l.loop()
	return l
}

// loop redraws the line at every tick until Stop.
func (l *Line) loop() {
	defer close(l.exited)
	for {
		select {
		case <-l.ticker.C:
			l.redraw()
		case <-l.done:
			return
		}
	}
}

// redraw draws the line, even if only the elapsed time has changed.
// A failed write is ignored: the line is decoration, and the next tick will
// try again; messages written through Write still report their errors.
func (l *Line) redraw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped || !l.set || l.midLine {
		return
	}
	var buf bytes.Buffer
	l.appendDraw(&buf)
	l.w.Write(buf.Bytes())
	l.drawn = true
}

// appendDraw appends the escape sequence that draws the line. l.mu is held.
func (l *Line) appendDraw(buf *bytes.Buffer) {
	text := Render(l.status, l.now().Sub(l.start))
	if l.width != nil {
		cols := l.width()
		if cols <= 0 {
			cols = defaultWidth
		}
		text = fit(text, cols)
	}
	buf.WriteString(drawPre)
	buf.WriteString(text)
	buf.WriteString(drawEnd)
}

// defaultWidth is the width assumed of a terminal that does not tell its
// own: the classic one, and what a terminal emulator opens with.
const defaultWidth = 80

// fit cuts s, a line of Render's, to fewer than cols columns, so that it
// leaves the last column free. It keeps whole fields when it can, since a
// number cut short would be wrong rather than merely missing, and cuts
// inside the first field only when even that is too wide. Every rune of
// Render's text takes one column, so runes are columns here; counting
// runes rather than bytes keeps "·" (two bytes) whole.
func fit(s string, cols int) string {
	limit := cols - 1
	if limit <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	fields := strings.Split(s, separator)
	kept := fields[0]
	for _, f := range fields[1:] {
		if utf8.RuneCountInString(kept)+utf8.RuneCountInString(separator+f) > limit {
			break
		}
		kept += separator + f
	}
	if n := utf8.RuneCountInString(kept); n <= limit {
		return kept
	}
	// The first field alone is too wide: cut it at a rune boundary.
	n := 0
	for i := range kept {
		if n == limit {
			return kept[:i]
		}
		n++
	}
	return kept
}

// separator is what Render puts between fields.
const separator = " · "

// Set records the latest status; it is drawn at the next redraw (not
// immediately, so a fast crawl does not spend its time drawing). Set after
// [Line.Stop] has no visible effect.
func (l *Line) Set(s Status) {
	l.mu.Lock()
	l.status = s
	l.set = true
	l.mu.Unlock()
}

// Write writes p, other output meant for the same terminal, without
// garbling it: it erases the status line, writes p, and draws the line again
// after it, all in one write to the underlying writer so the terminal does
// not flicker. It is an [io.Writer] so the crawler can hand it to code that
// writes to stderr.
//
// Write never adds or holds back bytes of p. If p does not end with a
// newline, the rest of its line is still to come, so Write leaves the status
// line off the screen (and the ticker does not draw it) until a later Write
// ends the line; a partial line is thus never drawn over, and a line written
// in pieces comes out whole, provided that no other goroutine writes between
// the pieces (each call is atomic, a sequence of calls is not). Before the
// first [Line.Set] and after [Line.Stop], Write passes p straight through.
//
// Write returns the number of bytes of p written and any error from the
// underlying writer.
func (l *Line) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped || !l.set || len(p) == 0 {
		return l.w.Write(p)
	}
	var buf bytes.Buffer
	if l.drawn {
		buf.WriteString(erase)
	}
	prefix := buf.Len()
	buf.Write(p)
	l.midLine = p[len(p)-1] != '\n'
	if !l.midLine {
		l.appendDraw(&buf)
	}
	n, err := l.w.Write(buf.Bytes())
	// After a failed write the screen is unknown. Assuming the line is not
	// drawn risks leaving stale status text before the next message;
	// assuming it is risks erasing a partial line of output. Output wins.
	l.drawn = err == nil && !l.midLine
	if err != nil && n < prefix+len(p) {
		return max(n-prefix, 0), err
	}
	return len(p), nil // a failed redraw is not a failed Write: p is out
}

// Stop erases the line and stops redrawing; when it returns, the line will
// not write to w again except through [Line.Write], which then passes its
// bytes straight through. Stop is idempotent.
func (l *Line) Stop() {
	l.mu.Lock()
	first := !l.stopped
	if first {
		l.stopped = true
		if l.drawn {
			l.w.Write([]byte(erase)) // nothing useful to do on error
			l.drawn = false
		}
	}
	l.mu.Unlock()
	if first {
		l.ticker.Stop()
		close(l.done)
	}
	// Wait outside the lock: the loop may be blocked on l.mu in redraw.
	<-l.exited
}

// Render returns the text of the line for s and the elapsed time, without
// control characters, for example
//
//	saved 1234 · 567 pages waiting · depth 2 · 12m34s · pause 1s
//
// and, while hosts are fetched in parallel, how many are busy: a request in
// flight or its pause running, as in "· 3 hosts busy".
//
// "pages waiting" are the interrupt message's words for the same pages.
// The text stays under 80 columns for realistic values; a [Line] cuts it
// to a narrower terminal. Durations are compact: the elapsed time in whole seconds (59s, 12m34s, 3h02m), with
// fixed-width fields after the first unit so that the line does not jitter
// as the clock moves; the pause to the millisecond below a minute (250ms,
// 1.5s).
func Render(s Status, elapsed time.Duration) string {
	waiting := "pages"
	if s.Waiting == 1 {
		waiting = "page"
	}
	line := fmt.Sprintf("saved %d · %d %s waiting · depth %d · %s · pause %s",
		s.Saved, s.Waiting, waiting, s.Depth,
		compact(elapsed.Truncate(time.Second)), compact(s.Pause))
	if s.Lanes > 1 {
		hosts := "hosts"
		if s.Busy == 1 {
			hosts = "host"
		}
		line += fmt.Sprintf(" · %d %s busy", s.Busy, hosts)
	}
	return line
}

// compact formats d in at most two units. Below a minute it keeps
// milliseconds, which only a pause can have: Render truncates the elapsed
// time to whole seconds first.
func compact(d time.Duration) string {
	d = max(d, 0)
	if d < time.Minute {
		d = d.Round(time.Millisecond) // may round up to a whole minute
	}
	switch {
	case d < time.Minute:
		return d.String()
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", d/time.Minute, d%time.Minute/time.Second)
	default:
		return fmt.Sprintf("%dh%02dm", d/time.Hour, d%time.Hour/time.Minute)
	}
}

// Wanted reports whether the crawler should show a status line: stderr is
// a terminal, and the log is not going to it: quiet is set, or stdout is not
// the same file as stderr (compared with [os.SameFile] on their Stat
// results; a file that cannot be stat'ed counts as different).
func Wanted(stdout, stderr *os.File, quiet bool) bool {
	return wanted(sameFile(stdout, stderr), IsTerminal(stderr), quiet)
}

// wanted is the decision of Wanted, apart from the system calls, so that it
// can be tested without a terminal.
func wanted(stdoutSame, stderrTerm, quiet bool) bool {
	return stderrTerm && (quiet || !stdoutSame)
}

// sameFile reports whether a and b are the same file. A nil file or one
// that cannot be stat'ed is not the same as anything.
func sameFile(a, b *os.File) bool {
	if a == nil || b == nil {
		return false
	}
	ai, err := a.Stat()
	if err != nil {
		return false
	}
	bi, err := b.Stat()
	if err != nil {
		return false
	}
	return os.SameFile(ai, bi)
}
