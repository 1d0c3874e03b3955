package linkcache

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tse-crawler/internal/filelock"
)

// A clock is a time that a test sets, for a Cache's now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// warnings gathers what a Cache warns of.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) warn(msg string) {
	w.mu.Lock()
	w.msgs = append(w.msgs, msg)
	w.mu.Unlock()
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.msgs)
}

// open returns the loaded cache of path, trusting what is fine for a day.
func open(t *testing.T, path string, clk *clock, w *warnings) *Cache {
	t.Helper()
	c, err := New(path, 24*time.Hour, clk.now, w.warn)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	return c
}

// readEntries reads the file at path as the cache writes it.
func readEntries(t *testing.T, path string) map[string]Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, why := parse(data)
	if why != "" {
		t.Fatalf("%s %s:\n%s", path, why, data)
	}
	m := make(map[string]Entry)
	for _, e := range f.Links {
		m[e.URL] = e
	}
	return m
}

// names returns the names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range entries {
		ns = append(ns, e.Name())
	}
	return ns
}

// TestRoundTrip: what one check puts is in the file as soon as Put
// returns, and a later check trusts what was fine, with a stylesheet's
// imports, and nothing else.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	imports := []Import{{URL: "http://cdn/font.woff", Line: 2, Column: 7}}
	none := []Import{}
	put := []Entry{
		{URL: "http://a/ok", Status: "200"},
		{URL: "http://a/gone", Status: "404"},
		{URL: "http://b/slow", Status: "timeout"},
		{URL: "http://cdn/s.css", Status: "200", Stylesheet: true, Imports: &imports},
		{URL: "http://cdn/t.css", Status: "200", Stylesheet: true, Imports: &none},
		{URL: "http://cdn/u.css", Status: "200", Stylesheet: true},
	}
	for _, e := range put {
		c.Put(t.Context(), e)
		if _, ok := readEntries(t, path)[e.URL]; !ok {
			t.Fatalf("%s is not in the file once Put returned", e.URL)
		}
	}
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"links.json", "links.json.lock"}) {
		t.Errorf("the directory holds %q, want the file and its lock", got)
	}

	clk.add(time.Hour)
	later := open(t, path, clk, w)
	for _, tt := range []struct {
		url        string
		trusted    bool
		imports    []Import
		stylesheet bool
	}{
		{"http://a/ok", true, nil, false},
		{"http://a/gone", false, nil, false},
		{"http://b/slow", false, nil, false},
		{"http://cdn/s.css", true, imports, true},
		{"http://cdn/t.css", true, []Import{}, true},
		{"http://cdn/u.css", true, nil, true},
		{"http://never/asked", false, nil, false},
	} {
		t.Run(tt.url, func(t *testing.T) {
			e, ok := later.Fine(tt.url)
			if ok != tt.trusted {
				t.Fatalf("Fine: %v, want %v", ok, tt.trusted)
			}
			if !ok {
				return
			}
			if e.Stylesheet != tt.stylesheet || (e.Imports == nil) != (tt.imports == nil) || e.Imports != nil && !slices.Equal(*e.Imports, tt.imports) {
				t.Errorf("entry %+v, want stylesheet %v with imports %v", e, tt.stylesheet, tt.imports)
			}
			if want := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC); !e.Checked.Equal(want) {
				t.Errorf("checked %v, want %v", e.Checked, want)
			}
		})
	}
	if msgs := w.all(); len(msgs) > 0 {
		t.Errorf("warnings: %q", msgs)
	}
}

// TestAge: only a 2xx asked less than the cache's age ago is trusted.
func TestAge(t *testing.T) {
	tests := []struct {
		status string
		age    time.Duration // how long ago it was asked
		maxAge time.Duration
		want   bool
	}{
		{"200", time.Hour, 24 * time.Hour, true},
		{"204", 0, 24 * time.Hour, true},
		{"200", 24*time.Hour - time.Second, 24 * time.Hour, true},
		{"200", 24 * time.Hour, 24 * time.Hour, false},
		{"200", 25 * time.Hour, 24 * time.Hour, false},
		{"200", time.Minute, 0, false},                          // -check-cache-age 0 trusts nothing
		{"200", -time.Hour, 24 * time.Hour, false},              // asked in the future: a clock that was wrong
		{"200", 40 * 24 * time.Hour, 60 * 24 * time.Hour, true}, // kept past 30 days for a longer age
		{"404", time.Minute, 24 * time.Hour, false},
		{"301", time.Minute, 24 * time.Hour, false},
		{"500", time.Minute, 24 * time.Hour, false},
		{"timeout", time.Minute, 24 * time.Hour, false},
		{"host-unreachable", time.Minute, 24 * time.Hour, false},
		{"rate-limited", time.Minute, 24 * time.Hour, false},
		{"2000", time.Minute, 24 * time.Hour, false},
		{"+20", time.Minute, 24 * time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.status+" "+tt.age.String()+" of "+tt.maxAge.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "links.json")
			clk, w := newClock(), new(warnings)
			c, err := New(path, tt.maxAge, clk.now, w.warn)
			if err != nil {
				t.Fatal(err)
			}
			clk.add(-tt.age)
			c.Put(t.Context(), Entry{URL: "http://x/", Status: tt.status})
			clk.add(tt.age)
			later, err := New(path, tt.maxAge, clk.now, w.warn)
			if err != nil {
				t.Fatal(err)
			}
			if err := later.Load(t.Context()); err != nil {
				t.Fatal(err)
			}
			if _, ok := later.Fine("http://x/"); ok != tt.want {
				t.Errorf("trusted: %v, want %v", ok, tt.want)
			}
		})
	}
}

// TestHorizon: an entry older than the cache keeps is dropped when the
// file is written.
func TestHorizon(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	c.Put(t.Context(), Entry{URL: "http://old/", Status: "200"})
	clk.add(keep + time.Hour)
	c = open(t, path, clk, w)
	c.Put(t.Context(), Entry{URL: "http://new/", Status: "200"})
	got := readEntries(t, path)
	if _, ok := got["http://old/"]; ok || len(got) != 1 {
		t.Errorf("the file holds %v, want http://new/ alone", got)
	}
}

// TestSetAside: a file that is torn, or not a link cache of this crawler,
// is told of, renamed aside with its bytes, never trusted nor removed,
// and a new file is written in its place.
func TestSetAside(t *testing.T) {
	good := `{"format": "tse-crawler link cache", "version": 1, "links": [{"url": "http://a/", "status": "200", "checked": "2025-03-01T11:00:00Z"}]}`
	tests := []struct {
		name, data, why string
	}{
		{"torn", good[:len(good)/2], "cut short"},
		{"empty", "", "cut short"},
		{"not JSON", "url,status\nhttp://a/,200\n", "is not a link cache"},
		{"foreign JSON", `{"name": "my-package", "version": "1.0.0", "links": {"http://a/": 200}}`, "is not a link cache"},
		{"another format", `{"format": "other tool", "version": 1, "links": []}`, `its format is "other tool"`},
		{"a later version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "version 2"},
		{"an entry without a time", strings.Replace(good, `, "checked": "2025-03-01T11:00:00Z"`, "", 1), "number 1"},
		{"an array", `[{"url": "http://a/", "status": "200"}]`, "is not a link cache"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "links.json")
			if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			// A name already taken is left as it is.
			taken := path + ".bad"
			if err := os.WriteFile(taken, []byte("mine"), 0o600); err != nil {
				t.Fatal(err)
			}
			clk, w := newClock(), new(warnings)
			c := open(t, path, clk, w)
			aside := path + ".bad.1"
			msgs := w.all()
			if len(msgs) != 1 || !strings.Contains(msgs[0], tt.why) || !strings.Contains(msgs[0], "set aside as "+aside) || !strings.Contains(msgs[0], "asks every link again") {
				t.Errorf("warnings %q, want one saying %q and that it was set aside as %s", msgs, tt.why, aside)
			}
			if _, ok := c.Fine("http://a/"); ok {
				t.Error("an entry of the file set aside is trusted")
			}
			for name, want := range map[string]string{aside: tt.data, taken: "mine"} {
				if got, err := os.ReadFile(name); err != nil || string(got) != want {
					t.Errorf("%s holds %q (%v), want %q", filepath.Base(name), got, err, want)
				}
			}
			if _, err := os.Lstat(path); err == nil {
				t.Error("the file is still there once set aside")
			}
			c.Put(t.Context(), Entry{URL: "http://b/", Status: "200"})
			if got := readEntries(t, path); len(got) != 1 {
				t.Errorf("the new file holds %v, want http://b/ alone", got)
			}
		})
	}
}

// TestTornMeanwhile: a file another program tears while a check runs is
// set aside when the check writes it, not written over.
func TestTornMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	c.Put(t.Context(), Entry{URL: "http://a/", Status: "200"})
	if err := os.WriteFile(path, []byte(`{"format": "tse-crawler li`), 0o600); err != nil {
		t.Fatal(err)
	}
	c.Put(t.Context(), Entry{URL: "http://b/", Status: "200"})
	if got, _ := os.ReadFile(path + ".bad"); string(got) != `{"format": "tse-crawler li` {
		t.Errorf("set aside: %q", got)
	}
	if msgs := w.all(); len(msgs) != 1 || !strings.Contains(msgs[0], "what this check learned replaces it") {
		t.Errorf("warnings %q", msgs)
	}
	if got := readEntries(t, path); len(got) != 2 {
		t.Errorf("the file holds %v, want both links this check learned", got)
	}
}

// TestReplaced: the file is replaced whole, by a rename of a file written
// beside it: a name linked to the file before keeps what it held, and a
// file a crawler killed while it wrote left is removed, but nothing else.
func TestReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	c.Put(t.Context(), Entry{URL: "http://a/", Status: "200"})
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.json")
	if err := os.Link(path, old); err != nil {
		t.Fatal(err)
	}
	c.Put(t.Context(), Entry{URL: "http://b/", Status: "200"})
	if got, _ := os.ReadFile(old); string(got) != string(before) {
		t.Errorf("the file was written in place: its other name holds\n%s", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("the file's mode: %v (%v), want the one it had, 0640", fi.Mode(), err)
	}

	left := map[string]bool{".links.json.tmp-123": false, ".links.json.tmp-x": true, ".links.json.tmp-": true, ".other.json.tmp-1": true, "notes": true}
	for name := range left {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	open(t, path, clk, w)
	for name, stays := range left {
		if _, err := os.Lstat(filepath.Join(dir, name)); (err == nil) != stays {
			t.Errorf("%s there: %v, want %v", name, err == nil, stays)
		}
	}
	if msgs := w.all(); len(msgs) > 0 {
		t.Errorf("warnings: %q", msgs)
	}
}

// TestSymlink: a symbolic link at the file's name, or its lock's, is
// refused, and nothing is written through it; one that takes the file's
// place while a check runs is told of, and left as it is.
func TestSymlink(t *testing.T) {
	for _, name := range []string{"links.json", "links.json.lock"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "target")
			if err := os.WriteFile(target, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			clk, w := newClock(), new(warnings)
			_, err := New(filepath.Join(dir, "links.json"), time.Hour, clk.now, w.warn)
			if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), ": give") && !strings.Contains(err.Error(), ": remove") {
				t.Errorf("New: %v, want a refusal that names the link and the fix", err)
			}
			if got, _ := os.ReadFile(target); string(got) != "precious" {
				t.Errorf("the link's target holds %q", got)
			}
		})
	}
	t.Run("meanwhile", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "links.json")
		target := filepath.Join(dir, "target")
		if err := os.WriteFile(target, []byte("precious"), 0o600); err != nil {
			t.Fatal(err)
		}
		clk, w := newClock(), new(warnings)
		c := open(t, path, clk, w)
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
		c.Put(t.Context(), Entry{URL: "http://a/", Status: "200"})
		if msgs := w.all(); len(msgs) != 1 || !strings.Contains(msgs[0], "symbolic link") {
			t.Errorf("warnings %q, want one of the link", msgs)
		}
		if err := c.Flush(t.Context()); err == nil || !strings.Contains(err.Error(), "the next check asks it again") {
			t.Errorf("Flush: %v, want the link told of", err)
		}
		if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v", err)
		}
		if got, _ := os.ReadFile(target); string(got) != "precious" {
			t.Errorf("the link's target holds %q", got)
		}
	})
}

// TestNewRefuses: a name that can never be the file is refused at once.
func TestNewRefuses(t *testing.T) {
	dir := t.TempDir()
	clk, w := newClock(), new(warnings)
	for _, tt := range []struct{ name, path, want string }{
		{"a directory", dir, "not a regular file"},
		{"in a missing directory", filepath.Join(dir, "none", "links.json"), "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.path, time.Hour, clk.now, w.warn); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: %v, want %q", err, tt.want)
			}
		})
	}
}

// TestShared: two checks sharing the file, at once or one after the
// other, keep what both learned, and of two outcomes of one URL the
// newer, whichever writes last.
func TestShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	first := open(t, path, clk, w)
	second := open(t, path, clk, w)
	first.Put(t.Context(), Entry{URL: "http://a/", Status: "200"})
	clk.add(time.Minute)
	second.Put(t.Context(), Entry{URL: "http://b/", Status: "200"})
	second.Put(t.Context(), Entry{URL: "http://c/", Status: "404"})
	// The first check's clock is behind: its outcome of c is older,
	// and the second's stays, though the first writes last.
	firstClock := &clock{t: clk.now().Add(-time.Hour)}
	first.now = firstClock.now
	first.Put(t.Context(), Entry{URL: "http://c/", Status: "200"})
	first.Put(t.Context(), Entry{URL: "http://d/", Status: "200"})
	got := readEntries(t, path)
	want := map[string]string{"http://a/": "200", "http://b/": "200", "http://c/": "404", "http://d/": "200"}
	if len(got) != len(want) {
		t.Errorf("the file holds %v, want %v", got, want)
	}
	for u, status := range want {
		if got[u].Status != status {
			t.Errorf("%s: %q, want %q", u, got[u].Status, status)
		}
	}
	later := open(t, path, clk, w)
	if _, ok := later.Fine("http://c/"); ok {
		t.Error("http://c/ is trusted, though its newer outcome failed")
	}
}

// TestFutureDated: an entry dated further ahead than clocks differ is
// never trusted, loses to any outcome learned now, and is dropped when
// the file is written.
func TestFutureDated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	ahead := func(d time.Duration) string { return clk.now().Add(d).Format(time.RFC3339) }
	data := `{"format": "tse-crawler link cache", "version": 1, "links": [
{"url":"http://a/","status":"404","checked":"` + ahead(365*24*time.Hour) + `"},
{"url":"http://b/","status":"200","checked":"` + ahead(365*24*time.Hour) + `"},
{"url":"http://c/","status":"200","checked":"` + ahead(time.Hour) + `"}
]}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	c := open(t, path, clk, w)
	for _, u := range []string{"http://a/", "http://b/"} {
		if _, ok := c.Fine(u); ok {
			t.Errorf("%s, dated a year ahead, is trusted", u)
		}
	}
	c.Put(t.Context(), Entry{URL: "http://a/", Status: "200"})
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := readEntries(t, path)
	if e := got["http://a/"]; e.Status != "200" || !e.Checked.Equal(clk.now()) {
		t.Errorf("http://a/ is %+v, want the outcome learned now", e)
	}
	if _, ok := got["http://b/"]; ok {
		t.Error("http://b/, dated a year ahead, is kept")
	}
	if _, ok := got["http://c/"]; !ok {
		t.Error("http://c/, dated an hour ahead, as another crawler's clock may be, is dropped")
	}
}

// TestFutureDatedShared: an entry dated a year ahead that one check read
// does not take the place of another check's outcome of the URL, learned
// meanwhile, when the first merges the file: it loses to it, and only it
// is dropped.
func TestFutureDatedShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	data := `{"format": "tse-crawler link cache", "version": 1, "links": [
{"url":"http://a/","status":"200","checked":"` + clk.now().AddDate(1, 0, 0).Format(time.RFC3339) + `"}
]}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	first := open(t, path, clk, w)
	second := open(t, path, clk, w)
	second.Put(t.Context(), Entry{URL: "http://a/", Status: "404"})
	clk.add(time.Minute)
	first.Put(t.Context(), Entry{URL: "http://b/", Status: "200"})
	if err := first.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := readEntries(t, path)
	if e := got["http://a/"]; e.Status != "404" {
		t.Errorf("http://a/ is %+v, want the second check's 404", e)
	}
	if e := got["http://b/"]; e.Status != "200" {
		t.Errorf("http://b/ is %+v, want the first check's 200", e)
	}
}

// TestConcurrentPuts: many Puts at once each find their entry in the file
// once every Put has returned.
func TestConcurrentPuts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() { c.Put(t.Context(), Entry{URL: "http://h/" + string(rune('a'+i)), Status: "200"}) })
	}
	wg.Wait()
	if got := readEntries(t, path); len(got) != 32 {
		t.Errorf("the file holds %d entries, want 32", len(got))
	}
}

// TestBatched: the file is written once a batch of outcomes waits, a
// fiftieth of what it holds, so that writing it whole costs in all a
// small multiple of its size, not its size for each link; what a kill
// would lose is fewer than a batch, and Flush writes the rest.
func TestBatched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	const n = 3000
	for i := range n {
		c.Put(t.Context(), Entry{URL: fmt.Sprintf("http://h/%d", i), Status: "200"})
		if i%211 != 0 {
			continue
		}
		if got, most := len(readEntries(t, path)), i+1; got > most || got < most-(1+got/batchShare) {
			t.Fatalf("after %d outcomes the file holds %d", most, got)
		}
	}
	if c.writes > 300 {
		t.Errorf("%d outcomes wrote the file %d times, want at most 300", n, c.writes)
	}
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := len(readEntries(t, path)); got != n {
		t.Errorf("once flushed, the file holds %d entries, want %d", got, n)
	}
}

// TestLocked: while another crawler holds the lock, a check waits for it,
// as long as its context lets it, and tells why it gave up; what it
// learned is written once the lock is free.
func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	other, err := openLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := filelock.LockFile(other, "it"); err != nil {
		t.Skipf("no flock here: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	c.Put(ctx, Entry{URL: "http://a/", Status: "200"})
	err = c.Flush(ctx)
	if err == nil || !strings.Contains(err.Error(), "in use by another crawler") {
		t.Errorf("Flush while locked: %v, want the lock told of", err)
	}
	if _, serr := os.Lstat(path); serr == nil {
		t.Error("the file was written while another held the lock")
	}
	other.Close()
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := readEntries(t, path); got["http://a/"].Status != "200" {
		t.Errorf("the file holds %v", got)
	}
}

// TestWritten: the file is JSON that names its format and version, with
// a line for each link, sorted, as a person, grep or a script reads it.
func TestWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.json")
	clk, w := newClock(), new(warnings)
	c := open(t, path, clk, w)
	c.Put(t.Context(), Entry{URL: "http://b/", Status: "404"})
	c.Put(t.Context(), Entry{URL: "http://a/", Status: "200"})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format": "tse-crawler link cache", "version": 1, "links": [
{"url":"http://a/","status":"200","checked":"2025-03-01T12:00:00Z"},
{"url":"http://b/","status":"404","checked":"2025-03-01T12:00:00Z"}
]}
`
	if string(data) != want {
		t.Errorf("the file:\n%s\nwant:\n%s", data, want)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Error(err)
	}
}
