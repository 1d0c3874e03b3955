package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tse-crawler/internal/pagedir"
)

// TestMaxPagesArgs: -max-pages takes a whole number from 1; anything else
// is refused as a bad flag value is, before anything is written or sent.
func TestMaxPagesArgs(t *testing.T) {
	p := newProxy(t, testdataSite(t))
	for _, v := range []string{"0", "-1", "ten", "1.5", "", "1e3", "+"} {
		t.Run(strconv.Quote(v), func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := crawl(t.Context(), p.getenv, "-max-pages", v, zooSeed, dir, "2")
			if want := "-max-pages: give a whole number of pages from 1"; code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, want)
			}
			if entries, _ := os.ReadDir(dir); stdout != "" || p.requests.Load() != 0 || len(entries) != 0 {
				t.Errorf("stdout %q, %d requests, %d files written; want none", stdout, p.requests.Load(), len(entries))
			}
		})
	}
}

// TestMaxPagesJournaled: -max-pages names the crawl in its journal only
// when it is given, so that a journal without it, of a crawl without a
// limit or begun before -max-pages, resumes.
func TestMaxPagesJournaled(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the option line, or ""
	}{
		{nil, ""},
		{[]string{"-max-pages=1"}, `option max-pages "1"`},
		{[]string{"-max-pages", "250"}, `option max-pages "250"`},
	} {
		cfg, err := parseArgs(append(tt.args, zooSeed, "DIR", "2"))
		if err != nil {
			t.Fatal(err)
		}
		header := string(pagedir.JournalHeader(cfg.params()))
		if got := strings.Contains(header, "option max-pages"); got != (tt.want != "") || tt.want != "" && !strings.Contains(header, tt.want+"\n") {
			t.Errorf("%q: header\n%s\nwant %q", tt.args, header, tt.want)
		}
	}
}

// cappedLog returns the beginning of log, a crawl's without -max-pages,
// that the crawl with -max-pages most logs: up to the first page it takes
// after the most-th page it saves; and, if that leaves pages, how many
// pages are left in the bag then.
func cappedLog(log string, most int) (string, bool, int) {
	var capped string
	saved, taken, added := 0, 0, 1 // the seed goes in the bag unlogged
	for line := range strings.Lines(log) {
		word := strings.Fields(line)[1]
		switch word {
		case "Fetched:", "FAILED:", "Redirect:", "IgnRobots:":
			if saved == most {
				return capped, true, added - taken
			}
			taken++
		case "Added:":
			added++
		}
		if word == "Fetched:" {
			saved++
		}
		capped += line
	}
	return capped, false, 0
}

// TestMaxPages: a crawl with -max-pages N saves the first N pages of the
// crawl without it, logs the beginning of its log, and ends with exit 0;
// if pages were left waiting, it says so once on stderr, with how many,
// and so do the statistics. The same with -parallel 1 and 4.
func TestMaxPages(t *testing.T) {
	h := withUniversity(http.NotFoundHandler())
	for _, order := range []string{"lifo", "bfs", "priority"} {
		t.Run(order, func(t *testing.T) {
			t.Parallel()
			args := []string{"-order", order, "-scope", "http://*.example.edu/", universitySeed, "10"}
			whole := crawlAtParallel(t, h, 1, args)
			total := len(whole.dir) - 1 // .crawler
			for _, most := range []int{1, 5, total, total + 1} {
				var first parallelRun
				for _, n := range []int{1, 4} {
					got := crawlAtParallel(t, h, n, append([]string{"-max-pages", fmt.Sprint(most)}, args...))
					if n == 1 {
						first = got
						checkMaxPages(t, got, whole, most)
					} else if sameDir(got.dir, first.dir) != "" || got.stdout != first.stdout || got.stderr != first.stderr || got.stats != first.stats {
						t.Errorf("-max-pages %d -parallel %d: stdout\n%s\nstderr\n%s\nstatistics\n%s\nwant\n%s\n%s\n%s",
							most, n, got.stdout, got.stderr, got.stats, first.stdout, first.stderr, first.stats)
					}
				}
			}
		})
	}
}

// checkMaxPages checks got, a crawl with -max-pages most, against whole,
// the crawl without it.
func checkMaxPages(t *testing.T, got, whole parallelRun, most int) {
	t.Helper()
	log, reached, waiting := cappedLog(whole.stdout, most)
	want := map[string]string{pagedir.Marker: ""}
	for id := 1; id <= most && id < len(whole.dir); id++ {
		want[fmt.Sprint(id)] = whole.dir[fmt.Sprint(id)]
	}
	if diff := sameDir(got.dir, want); diff != "" {
		t.Errorf("-max-pages %d: the page directory is not the first pages of the crawl without it: %s", most, diff)
	}
	if got.stdout != log {
		t.Errorf("-max-pages %d: the log is not the beginning of the crawl's without it:\n%s", most, got.stdout)
	}
	line := fmt.Sprintf("crawler: -max-pages %d reached: %d pages saved, %d waiting\n", most, most, waiting)
	if most == 1 {
		line = strings.Replace(line, "pages saved", "page saved", 1)
	}
	if n := strings.Count(got.stderr, "-max-pages"); reached && (n != 2 || strings.Count(got.stderr, line) != 1) || !reached && n != 0 {
		t.Errorf("-max-pages %d: stderr\n%s\nwant %q once, and the statistics' word of it", most, got.stderr, line)
	}
	text := fmt.Sprintf("  limit:     -max-pages reached, %d pages left waiting\n", waiting)
	if waiting == 1 {
		text = strings.Replace(text, "pages left", "page left", 1)
	}
	if reached && !strings.Contains(got.stderr, text) {
		t.Errorf("-max-pages %d: the statistics lack %q:\n%s", most, text, got.stderr)
	}
	var st struct {
		Reached bool `json:"max_pages_reached"`
		Waiting int  `json:"waiting"`
	}
	if err := json.Unmarshal([]byte(got.stats), &st); err != nil || st.Reached != reached || st.Waiting != waiting {
		t.Errorf("-max-pages %d: the JSON statistics say %+v (%v), want max_pages_reached %v, waiting %d", most, st, err, reached, waiting)
	}
}

// maxPagesCrawls are the crawls with -max-pages that the resume tests
// interrupt: one host, and three fetched four at a time, in a queue,
// where pages are fetched ahead under the limit, and in a stack, where
// only the page the crawl waits for is.
var maxPagesCrawls = []struct {
	name string
	args []string
}{
	{"zoo", []string{"-delay", "0", "-max-pages", "5", zooSeed, "10"}},
	{"university bfs", []string{"-delay", "0", "-parallel", "4", "-order", "bfs", "-max-pages", "6", "-scope", "http://*.example.edu/", universitySeed, "10"}},
	{"university lifo", []string{"-delay", "0", "-parallel", "4", "-max-pages", "6", "-scope", "http://*.example.edu/", universitySeed, "10"}},
}

// uninterruptedLog is uninterrupted, with the crawl's log, which it
// checks ends at -max-pages, with pages left waiting.
func uninterruptedLog(t *testing.T, p *stepProxy, args []string) (map[string]string, string, int64) {
	t.Helper()
	dir := t.TempDir()
	p.setHook(nil)
	code, stdout, stderr := crawl(t.Context(), p.getenv, withDir(args, dir)...)
	if code != exitOK || !strings.Contains(stderr, " reached: ") {
		t.Fatalf("uninterrupted crawl: exit %d, stderr %s; want 0, and -max-pages reached", code, stderr)
	}
	return snapshot(t, dir), stdout, p.n.Load()
}

// TestMaxPagesResumeEveryStep interrupts a crawl with -max-pages at every
// step, as Ctrl-C would: -resume finishes it as the uninterrupted crawl,
// the same page directory, and the two runs' logs, one after the other,
// are its log.
func TestMaxPagesResumeEveryStep(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range maxPagesCrawls {
		t.Run(tc.name, func(t *testing.T) {
			want, wantLog, steps := uninterruptedLog(t, p, tc.args)
			for step := int64(1); step <= steps; step++ {
				for _, answered := range []bool{false, true} {
					t.Run(fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered]), func(t *testing.T) {
						dir := t.TempDir()
						_, log, _ := interruptAt(t, p, withDir(tc.args, dir), step, answered)
						code, rest, stderr := crawl(t.Context(), p.getenv, withDir(append([]string{"-resume"}, tc.args...), dir)...)
						if code != exitOK {
							t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
						}
						if diff := sameDir(snapshot(t, dir), want); diff != "" {
							t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
						}
						if log+rest != wantLog {
							t.Errorf("the two runs' logs are not the uninterrupted crawl's:\n%s-- resumed --\n%s", log, rest)
						}
					})
				}
			}
		})
	}
}

// TestKill9MaxPages kills the crawler process with SIGKILL at every step
// of a crawl with -max-pages: -resume finishes it as the uninterrupted
// crawl, the same page directory, stopped at the same page. What a killed
// run logged is the beginning of the uninterrupted crawl's log, and what
// the resumed run logs is its end, from a page on (a page journaled
// before its lines reached stdout is in neither).
func TestKill9MaxPages(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	p := newStepProxy(t, testdataSite(t))
	for _, tc := range maxPagesCrawls {
		t.Run(tc.name, func(t *testing.T) {
			want, wantLog, steps := uninterruptedLog(t, p, tc.args)
			for step := int64(1); step <= steps; step++ {
				for _, answered := range []bool{false, true} {
					t.Run(fmt.Sprintf("request %d %s", step, map[bool]string{false: "in flight", true: "answered"}[answered]), func(t *testing.T) {
						kill9MaxPages(t, p, tc.args, step, answered, want, wantLog)
					})
				}
			}
		})
	}
}

// kill9MaxPages kills the crawl of args at a step, and checks that -resume
// finishes it as the uninterrupted crawl, which left want and wantLog.
func kill9MaxPages(t *testing.T, p *stepProxy, args []string, step int64, answered bool, want map[string]string, wantLog string) {
	dir := t.TempDir()
	cmd, stderr := crawlerProcess(p.URL, withDir(args, dir)...)
	var log bytes.Buffer
	cmd.Stdout = &log
	err := interruptCmd(t, p, cmd, step, answered, (*os.Process).Kill)
	checkKilled(t, err, stderr, answered, dir, want)
	code, rest, errs := crawl(t.Context(), p.getenv, withDir(append([]string{"-resume"}, args...), dir)...)
	if code != exitOK {
		t.Fatalf("resumed crawl: exit %d: %s", code, errs)
	}
	if diff := sameDir(snapshot(t, dir), want); diff != "" {
		t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
	}
	if !strings.HasPrefix(wantLog, log.String()) {
		t.Errorf("the killed run's log is not the beginning of the uninterrupted crawl's:\n%s", &log)
	}
	if start := len(wantLog) - len(rest); !strings.HasSuffix(wantLog, rest) || start > 0 && wantLog[start-1] != '\n' {
		t.Errorf("the resumed run's log is not the end of the uninterrupted crawl's, from a line on:\n%s", rest)
	}
}

// TestMaxPagesResumeRefused: a crawl with -max-pages resumes only with the
// same -max-pages, and one without only without it (exit 7), the
// directory left as it was.
func TestMaxPagesResumeRefused(t *testing.T) {
	p := newStepProxy(t, testdataSite(t))
	for _, tt := range []struct {
		name         string
		began, again []string // flags, before the arguments
	}{
		{"another limit", []string{"-max-pages", "5"}, []string{"-max-pages", "6"}},
		{"no limit", []string{"-max-pages", "5"}, nil},
		{"a limit", nil, []string{"-max-pages", "5"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancelCause(t.Context())
			defer cancel(nil)
			p.setHook(func(n int64, done bool) {
				if n == 3 && !done {
					cancel(stopSignal{syscall.SIGINT})
				}
			})
			args := append(slices.Clone(tt.began), "-delay", "0", zooSeed, dir, "10")
			if code, _, stderr := crawl(ctx, p.getenv, args...); code != 130 {
				t.Fatalf("exit %d, want 130: %s", code, stderr)
			}
			p.setHook(nil)
			before := snapshot(t, dir)
			args = append(slices.Clone(tt.again), "-delay", "0", "-resume", zooSeed, dir, "10")
			code, stdout, stderr := crawl(t.Context(), p.getenv, args...)
			if code != exitResume || !strings.Contains(stderr, "-max-pages") || stdout != "" {
				t.Errorf("exit %d, stderr %q; want %d and a word of -max-pages", code, stderr, exitResume)
			}
			if diff := sameDir(snapshot(t, dir), before); diff != "" {
				t.Errorf("a refused resume changed the directory: %s", diff)
			}
			// With the flags it began with, it resumes.
			args = append(slices.Clone(tt.began), "-delay", "0", "-resume", zooSeed, dir, "10")
			if code, _, stderr := crawl(t.Context(), p.getenv, args...); code != exitOK {
				t.Errorf("resumed with the flags it began with: exit %d: %s", code, stderr)
			}
		})
	}
}
