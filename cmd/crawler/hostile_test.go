package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/refurl"
	"tse-crawler/internal/testbed/hostile"
)

// The tests here crawl the hostile site of package hostile, each case a
// way for a server, a page or the network to hurt a crawler, and pin down
// what the crawler must do about it (issue 10). Most call run in-process;
// those that send signals, must see stdout as a real file or pipe, or
// could leave the crawler hung for ever run it as a process, and kill it
// if it outlives a bound.

// waitAtMost waits for a started command for at most limit. A crawler
// still running then is killed, and the test fails: whatever it was
// waiting for, it was waiting too long. It returns how long it waited.
func waitAtMost(t *testing.T, cmd *exec.Cmd, limit time.Duration) time.Duration {
	t.Helper()
	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the crawler still ran after %v, and was killed", limit)
	}
	return time.Since(began)
}

// requestsFor returns the requests s received whose resolved path begins
// with prefix.
func requestsFor(s *hostile.Server, prefix string) []hostile.Request {
	var rs []hostile.Request
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Decoded, prefix) {
			rs = append(rs, r)
		}
	}
	return rs
}

// failedLines returns the FAILED lines of a progress log.
func failedLines(log string) []string {
	var lines []string
	for line := range strings.Lines(log) {
		if strings.Contains(line, " FAILED: ") {
			lines = append(lines, line)
		}
	}
	return lines
}

// normalized is how the crawler logs a link found on the page at base.
func normalized(base, link string) string {
	abs := refurl.Resolve(base, link)
	if norm, ok := refurl.Normalize(abs); ok {
		return norm
	}
	return abs
}

// keyed is normalized for a crawl whose -links is scanner: html mode
// resolves and keys a link as a browser does.
func keyed(scanner, base, link string) string {
	if scanner != "html" {
		return normalized(base, link)
	}
	abs, ok := browserurl.Resolve(base, link)
	if !ok {
		return link
	}
	if key, ok := browserurl.Normalize(abs); ok {
		return key
	}
	return abs
}

// TestHostileUpgrade crawls pages whose server answers 101 Switching
// Protocols and then says nothing: a page, and a host's robots.txt. The
// -timeout must bound the wait, and a first Ctrl-C must end it.
func TestHostileUpgrade(t *testing.T) {
	t.Parallel()
	robotsHost := "http://" + hostile.UpgradeRobotsHost + "/"
	tests := []struct {
		name   string
		args   []string // before pageDirectory and maxDepth
		failed []string // pages that must be logged FAILED
		saved  string   // a page that must be saved nonetheless
		// never reports whether a request must never have been sent
		never func(hostile.Request) bool
	}{
		{
			name:   "page answers 101",
			args:   []string{hostile.UpgradeSeed},
			failed: []string{hostile.UpgradeHang},
			saved:  hostile.Site + "upgrade/ok.html",
		},
		{
			name:   "robots.txt answers 101",
			args:   []string{"-scope", hostile.Site, "-scope", robotsHost, hostile.UpgradeRobotsSeed},
			failed: []string{robotsHost + "a.html", robotsHost + "b.html"},
			saved:  hostile.UpgradeRobotsSeed,
			never: func(r hostile.Request) bool {
				return r.Host == hostile.UpgradeRobotsHost && r.Decoded != "/robots.txt"
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name+", -timeout 500ms", func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			dir := t.TempDir()
			args := slices.Concat([]string{"-delay", "0", "-timeout", "500ms"}, tt.args, []string{dir, "1"})
			cmd, stderr := crawlerProcess(s.URL, args...)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The crawl is expected to take a few seconds at most: a
			// handful of requests, none held past its 500ms timeout. The
			// bounds leave room for a busy machine; a crawl that a
			// hostile host held for ever would still run past them.
			took := waitAtMost(t, cmd, 2*time.Minute)
			t.Logf("the crawl took %v; expected a few seconds at most", took.Round(time.Millisecond))
			if code := cmd.ProcessState.ExitCode(); code != exitOK {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
			}
			if took > time.Minute {
				t.Errorf("the crawl took %v, want a few seconds", took.Round(time.Millisecond))
			}
			for _, u := range tt.failed {
				if !strings.Contains(stdout.String(), " FAILED: "+u+"\n") {
					t.Errorf("%s is not logged FAILED:\n%s", u, &stdout)
				}
			}
			if !strings.Contains(stdout.String(), " Fetched: "+tt.saved+"\n") {
				t.Errorf("%s is not logged Fetched:\n%s", tt.saved, &stdout)
			}
			for _, r := range s.Requests() {
				if tt.never != nil && tt.never(r) {
					t.Errorf("%s %s%s was requested; its robots.txt never came", r.Method, r.Host, r.Path)
				}
			}
		})
	}
	t.Run("SIGINT while a 101 hangs, -timeout 10m", func(t *testing.T) {
		t.Parallel()
		s := hostile.ServeTest(t, hostile.Options{})
		dir := t.TempDir()
		// With a pause of a second, the crawler is still at work, with
		// ok.html to fetch, whether the 101 holds it or not. The timeout
		// is far longer than the bounds below, so that a crawler that
		// stopped only at it fails them.
		cmd, stderr := crawlerProcess(s.URL, "-delay", "1s", "-timeout", "10m", hostile.UpgradeSeed, dir, "1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		if err := s.AwaitHeld(ctx, 1); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the crawler never reached the page that hangs: %v; stderr:\n%s", err, stderr)
		}
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		// Expected to stop within a fraction of a second; the bounds,
		// a hundred times that and more, leave room for a busy machine.
		took := waitAtMost(t, cmd, 2*time.Minute)
		t.Logf("the crawler stopped %v after SIGINT; expected well under a second", took.Round(time.Millisecond))
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("exit %d after one SIGINT, want 130; stderr:\n%s", code, stderr)
		}
		if took > time.Minute {
			t.Errorf("the crawler took %v to stop after SIGINT, want it prompt", took.Round(time.Millisecond))
		}
	})
}

// TestHostileRedirectLoop crawls an endless chain of redirects: at most 10
// are followed in a row, and the page the tenth leads to fails.
func TestHostileRedirectLoop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"lifo", []string{hostile.RedirectSeed}, exitOK},
		{"bfs", []string{"-order", "bfs", hostile.RedirectSeed}, exitOK},
		{"seed in the chain", []string{hostile.RedirectChain + "0.html"}, exitSeedFetch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			args := slices.Concat([]string{"-delay", "0"}, tt.args, []string{t.TempDir(), "1"})
			code, stdout, stderr := crawl(t.Context(), proxyEnv(s.URL), args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if n := len(requestsFor(s, "/tse/r/")); n > 11 {
				t.Errorf("%d requests for the chain, want at most 11 (the first page and 10 redirects)", n)
			}
			end := hostile.RedirectChain + "10.html"
			if got := failedLines(stdout); len(got) != 1 || !strings.HasSuffix(got[0], " FAILED: "+end+"\n") {
				t.Errorf("FAILED lines %q, want one, for %s", got, end)
			}
			if !strings.Contains(stderr, "too many redirects") {
				t.Errorf("stderr does not say \"too many redirects\":\n%s", stderr)
			}
		})
	}
}

// TestHostileGzipBomb crawls pages that inflate past the 8 MiB that a
// body of unknown length grows to in memory before it spills to a file:
// one of exactly -max-size is saved whole, byte for byte, one a byte
// larger fails, and nothing else is left in the page directory, with or
// without -warc.
func TestHostileGzipBomb(t *testing.T) {
	t.Parallel()
	const limit = 9 << 20
	page := func(n int) []byte {
		head, tail := "<html><body>", "</body></html>\n"
		b := bytes.Repeat([]byte("<p>All work and no play.</p>\n"), n/29+1)
		return slices.Concat([]byte(head), b[:n-len(head)-len(tail)], []byte(tail))
	}
	fits := page(limit)
	zipped := map[string][]byte{
		"/tse/index.html": gzipped(t, []byte(`<a href="fits.html">f</a> <a href="over.html">o</a>`)),
		"/tse/fits.html":  gzipped(t, fits),
		"/tse/over.html":  gzipped(t, page(limit+1)),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		z, ok := zipped[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(z)
	}))
	t.Cleanup(srv.Close)
	for _, warc := range []bool{false, true} {
		t.Run(fmt.Sprint("warc ", warc), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"-q", "-delay", "0", "-max-size", "9MiB"}
			if warc {
				args = append(args, "-warc", filepath.Join(t.TempDir(), "x.warc"), "-requisites", "none")
			}
			args = append(args, "http://cs50tse.cs.dartmouth.edu/tse/index.html", dir, "1")
			if code, _, stderr := crawl(t.Context(), proxyEnv(srv.URL), args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if want := []string{pagedir.Marker, "1", "2"}; !slices.Equal(names, want) {
				t.Errorf("the page directory holds %q, want %q", names, want)
			}
			want := slices.Concat([]byte("http://cs50tse.cs.dartmouth.edu/tse/fits.html\n1\n"), fits, []byte("\n"))
			if got, err := os.ReadFile(filepath.Join(dir, "2")); err != nil || !bytes.Equal(got, want) {
				t.Errorf("page 2 is %d bytes (%v), want fits.html's %d, whole", len(got), err, len(want))
			}
		})
	}
}

// gzipped returns b, gzipped as fast as gzip can.
func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHostileDotSegments crawls links whose percent-encoded dot segments
// lead out of /tse/, or into a directory robots.txt disallows, once the
// server decodes them. Not one such request may be sent.
func TestHostileDotSegments(t *testing.T) {
	t.Parallel()
	for _, scanner := range []string{"reference", "html"} {
		t.Run(scanner, func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			code, stdout, stderr := crawl(t.Context(), proxyEnv(s.URL), "-delay", "0", "-links", scanner, hostile.DotsSeed, t.TempDir(), "1")
			if code != exitOK {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
			}
			for _, r := range s.Requests() {
				if r.Decoded == "/robots.txt" {
					continue
				}
				if r.Decoded == "" || !strings.HasPrefix(r.Decoded, "/tse/") || strings.HasPrefix(r.Decoded, hostile.Disallowed) {
					t.Errorf("%s %s was requested, which the server serves as %q", r.Method, r.Path, r.Decoded)
				}
			}
			want := []string{
				"IgnExtrn: " + keyed(scanner, hostile.DotsSeed, hostile.DotLinks[0]),
				"IgnExtrn: " + keyed(scanner, hostile.DotsSeed, hostile.DotLinks[1]),
				"IgnExtrn: " + keyed(scanner, hostile.DotsSeed, hostile.DotLinks[2]),
				"IgnRobots: " + keyed(scanner, hostile.DotsSeed, hostile.DotLinks[3]),
				"IgnExtrn: " + keyed(scanner, hostile.DotsRedirect, hostile.DotsRedirectTarget),
			}
			for _, w := range want {
				if !strings.Contains(stdout, " "+w+"\n") {
					t.Errorf("the log lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// TestHostileControlBytes crawls links full of terminal control bytes,
// each of which fails. stderr, which may be a terminal, must show them
// escaped; the progress log, written to a file or a pipe, keeps them as
// the reference crawler logs them, raw.
func TestHostileControlBytes(t *testing.T) {
	t.Parallel()
	for _, to := range []string{"file", "pipe"} {
		t.Run("stdout to a "+to, func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			cmd, stderr := crawlerProcess(s.URL, "-delay", "0", "-stats", hostile.ControlSeed, t.TempDir(), "1")
			var pipe bytes.Buffer
			var file *os.File
			if to == "file" {
				var err error
				if file, err = os.Create(filepath.Join(t.TempDir(), "stdout")); err != nil {
					t.Fatal(err)
				}
				defer file.Close()
				cmd.Stdout = file
			} else {
				cmd.Stdout = &pipe // os/exec copies it from a pipe
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitAtMost(t, cmd, 10*time.Second)
			if code := cmd.ProcessState.ExitCode(); code != exitOK {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
			}
			stdout := pipe.String()
			if file != nil {
				data, err := os.ReadFile(file.Name())
				if err != nil {
					t.Fatal(err)
				}
				stdout = string(data)
			}
			if bad := rawControls(stderr.Bytes()); bad != nil {
				t.Errorf("stderr holds raw control bytes %q:\n%q", bad, stderr)
			}
			if n := countLines(stderr.String(), "crawler: "); n < len(hostile.ControlLinks) {
				t.Errorf("stderr gives %d reasons, want one for each of the %d failed pages:\n%q", n, len(hostile.ControlLinks), stderr)
			}
			for _, link := range hostile.ControlLinks {
				if w := " FAILED: " + normalized(hostile.ControlSeed, link) + "\n"; !strings.Contains(stdout, w) {
					t.Errorf("the log lacks %q, raw:\n%q", w, stdout)
				}
			}
		})
	}
}

// rawControls returns the bytes of b that a terminal would act on: C0
// controls but newline and tab, DEL, C1 controls, bytes of no valid UTF-8
// sequence (a lone 0x9b is an 8-bit CSI), and bidirectional controls,
// which reorder what follows. It returns nil if there is none.
func rawControls(b []byte) []byte {
	var bad []byte
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f ||
			0x80 <= r && r <= 0x9f || unicode.Is(unicode.Bidi_Control, r) {
			bad = append(bad, b[:n]...)
		}
		b = b[n:]
	}
	return bad
}

// TestHostileOutage cuts the crawler off from its proxy: before the first
// request, and in the middle of a crawl. The crawl must stop with exit 8,
// mark no page FAILED for it, and finish with -resume once the proxy is
// back, as if it had never stopped.
func TestHostileOutage(t *testing.T) {
	t.Parallel()
	args := []string{"-delay", "0", hostile.PlainSeed, "3"}
	// The crawl as it goes with nothing in its way.
	full := hostile.ServeTest(t, hostile.Options{})
	wantDir := t.TempDir()
	code, wantLog, stderr := crawl(t.Context(), proxyEnv(full.URL), withDir(args, wantDir)...)
	if code != exitOK {
		t.Fatalf("uninterrupted crawl: exit %d: %s", code, stderr)
	}
	want := snapshot(t, wantDir)

	// checkOutage checks a crawl stopped by an outage of the proxy at addr.
	checkOutage := func(t *testing.T, addr string, code int, stdout, stderr string) {
		t.Helper()
		if code != exitOutage {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOutage, stderr)
		}
		for _, w := range []string{"http://" + addr, " -resume http://"} {
			if !strings.Contains(stderr, w) {
				t.Errorf("stderr lacks %q:\n%s", w, stderr)
			}
		}
		for _, line := range failedLines(stdout) {
			if !strings.Contains(wantLog, line) {
				t.Errorf("%q logged: the outage failed a page", line)
			}
		}
	}
	resume := func(t *testing.T, proxy, dir string) {
		t.Helper()
		code, _, stderr := crawl(t.Context(), proxyEnv(proxy), withDir(append([]string{"-resume"}, args...), dir)...)
		if code != exitOK {
			t.Fatalf("resumed crawl: exit %d: %s", code, stderr)
		}
		if diff := sameDir(snapshot(t, dir), want); diff != "" {
			t.Errorf("the resumed crawl is not the uninterrupted one: %s", diff)
		}
	}

	t.Run("proxy down from the start", func(t *testing.T) {
		t.Parallel()
		addr, err := hostile.FreeAddr()
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		code, stdout, stderr := crawl(t.Context(), proxyEnv("http://"+addr), withDir(args, dir)...)
		checkOutage(t, addr, code, stdout, stderr)
		if lines := failedLines(stdout); len(lines) > 0 {
			t.Errorf("FAILED lines %q, want none", lines)
		}
		assertOnlyMarker(t, dir)
		s := hostile.ServeTest(t, hostile.Options{Addr: addr})
		resume(t, s.URL, dir)
	})
	for _, after := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("proxy goes down after %d pages", after), func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{DownAfter: after})
			dir := t.TempDir()
			code, stdout, stderr := crawl(t.Context(), proxyEnv(s.URL), withDir(args, dir)...)
			checkOutage(t, s.Addr, code, stdout, stderr)
			checkWhole(t, snapshot(t, dir), want)
			s.Close()
			back := hostile.ServeTest(t, hostile.Options{Addr: s.Addr})
			resume(t, back.URL, dir)
		})
	}
}

// TestHostileDeadHost crawls two loopback hosts, one of which cannot be
// connected to, with no proxy: the crawl goes on without the dead one.
func TestHostileDeadHost(t *testing.T) {
	t.Parallel()
	dead, err := hostile.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s := hostile.ServeTest(t, hostile.Options{DeadOrigin: "http://" + dead})
	seed := "http://" + s.Addr + "/tse/dead/index.html"
	dir := t.TempDir()
	code, stdout, stderr := crawl(t.Context(), proxyEnv(""),
		"-delay", "0", "-scope", "http://"+s.Addr+"/", "-scope", "http://"+dead+"/", seed, dir, "1")
	if code != exitOK {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
	}
	for _, u := range []string{"http://" + dead + "/a.html", "http://" + dead + "/b.html"} {
		if !strings.Contains(stdout, " FAILED: "+u+"\n") {
			t.Errorf("%s is not logged FAILED:\n%s", u, stdout)
		}
	}
	if w := " Fetched: http://" + s.Addr + "/tse/dead/alive.html\n"; !strings.Contains(stdout, w) {
		t.Errorf("the log lacks %q:\n%s", w, stdout)
	}
	if n := countLines(stderr, dead); n != 1 {
		t.Errorf("stderr names the dead host %s on %d lines, want 1:\n%s", dead, n, stderr)
	}
}

// countLines counts the lines of s that hold sub.
func countLines(s, sub string) int {
	n := 0
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			n++
		}
	}
	return n
}

// TestHostileRefusedBeforeRequest gives settings that cannot work, and
// checks that the crawler refuses them with exit 2 before it sends a
// single request or touches pageDirectory. The seed is on the test
// server's own loopback address, which no proxy is used for, so a crawler
// that ignored a bad HTTP_PROXY would be seen asking it, and no test can
// reach a real host.
func TestHostileRefusedBeforeRequest(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-dir", "x.json")
	tests := []struct {
		name  string
		proxy string
		flags []string
		msg   string // a phrase stderr must hold
	}{
		{"HTTP_PROXY that does not parse", "http://[::1", nil, "HTTP_PROXY"},
		{"HTTP_PROXY with a port out of range", "http://127.0.0.1:99999", nil, "HTTP_PROXY"},
		{"-retries 1000000", "", []string{"-retries", "1000000"}, "-retries"},
		{"-stats-json in a missing directory", "", []string{"-stats-json", missing}, "-stats-json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := hostile.ServeTest(t, hostile.Options{})
			dir := t.TempDir()
			args := slices.Concat([]string{"-delay", "0", "-scope", "http://" + s.Addr + "/"}, tt.flags,
				[]string{"http://" + s.Addr + "/tse/plain/index.html", dir, "1"})
			code, stdout, stderr := crawl(t.Context(), proxyEnv(tt.proxy), args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			if !strings.HasPrefix(stderr, "crawler: ") || !strings.Contains(stderr, tt.msg) {
				t.Errorf("stderr %q does not hold %q", stderr, tt.msg)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if rs := s.Requests(); len(rs) != 0 {
				t.Errorf("%d requests sent, want none: %+v", len(rs), rs)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%s holds %v, want nothing", dir, entries)
			}
			if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s was created", missing)
			}
		})
	}
}

// TestHostileBusy crawls a page that always answers 503, with many retries
// and no pause: the retries must be counted, and spaced by the backoff's
// floor. A backoff that doubles may take longer than the test waits, so
// the crawl is stopped after a few seconds if it has not ended; what was
// requested until then must still keep to the rules.
func TestHostileBusy(t *testing.T) {
	t.Parallel()
	s := hostile.ServeTest(t, hostile.Options{})
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	stop := time.AfterFunc(3*time.Second, func() { cancel(stopSignal{syscall.SIGINT}) })
	defer stop.Stop()
	code, stdout, stderr := crawl(ctx, proxyEnv(s.URL), "-delay", "0", "-retries", "10", hostile.BusySeed, t.TempDir(), "1")
	switch code {
	case exitOK:
		if w := " FAILED: " + hostile.BusyPage + "\n"; !strings.Contains(stdout, w) {
			t.Errorf("the log lacks %q:\n%s", w, stdout)
		}
	case 130:
		t.Logf("still retrying after 3s; checking the requests made until then")
	default:
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
	}
	reqs := requestsFor(s, "/tse/busy/down.html")
	if len(reqs) < 2 || len(reqs) > 11 {
		t.Errorf("%d requests for the 503 page, want 2 to 11 (the first and up to 10 retries)", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		if gap := reqs[i].Time.Sub(reqs[i-1].Time); gap < 90*time.Millisecond {
			t.Errorf("retry %d came %v after the request before it, want at least 100ms", i, gap.Round(time.Millisecond))
		}
	}
}

// TestHostileMarkerNotAFile puts something that is not a plain file of
// its own where the crawler's .crawler marker goes. The crawler must
// refuse the directory (exit 4) at once, write nothing through it, and
// send no request.
func TestHostileMarkerNotAFile(t *testing.T) {
	t.Parallel()
	s := hostile.ServeTest(t, hostile.Options{})
	const precious = "not the crawler's\n"
	tests := []struct {
		name string
		// link makes marker a link to target, which it creates if the
		// test says it exists
		link   func(target, marker string) error
		exists bool
	}{
		{"symbolic link to a file", os.Symlink, true},
		{"symbolic link to nothing", os.Symlink, false},
		{"hard link", os.Link, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(t.TempDir(), "target")
			if tt.exists {
				if err := os.WriteFile(target, []byte(precious), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := tt.link(target, filepath.Join(dir, pagedir.Marker)); err != nil {
				t.Skipf("skipping: %v", err)
			}
			code, _, stderr := crawl(t.Context(), proxyEnv(s.URL), "-delay", "0", hostile.PlainSeed, dir, "1")
			if code != exitPageDir {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitPageDir, stderr)
			}
			data, err := os.ReadFile(target)
			switch {
			case tt.exists && (err != nil || string(data) != precious):
				t.Errorf("%s now holds %q, %v; want it untouched", target, data, err)
			case !tt.exists && !errors.Is(err, os.ErrNotExist):
				t.Errorf("%s was created through the link", target)
			}
		})
	}
	t.Run("FIFO", func(t *testing.T) {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, pagedir.Marker), 0o644); err != nil {
			t.Skipf("skipping: %v", err)
		}
		// A process of its own, for opening a FIFO to write can block until
		// a reader comes, and only a process can be killed out of that.
		cmd, stderr := crawlerProcess(s.URL, "-delay", "0", hostile.PlainSeed, dir, "1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitAtMost(t, cmd, 2*time.Minute) // expected to end at once, on a busy machine too
		if code := cmd.ProcessState.ExitCode(); code != exitPageDir {
			t.Errorf("exit %d, want %d; stderr:\n%s", code, exitPageDir, stderr)
		}
	})
	if rs := s.Requests(); len(rs) != 0 {
		t.Errorf("%d requests sent, want none: %+v", len(rs), rs)
	}
}
