package warc

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// write creates a WARC file at path and writes the exchanges of the table
// from first to last into it.
func write(t testing.TB, path string, first, last int) {
	t.Helper()
	w := create(t, path)
	for i := first; i < last; i++ {
		if err := w.WriteExchange(fill(exchanges[i].x, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// types returns the types of a file's records, as one string.
func types(t *testing.T, recs []rec) string {
	t.Helper()
	return strings.Join(checkRecords(t, recs), " ")
}

// TestTorn: a crawl killed in the middle of a write leaves the file cut
// anywhere. Reopen must cut it back to its last whole exchange, wherever
// the cut is, and what it appends after must be read back whole.
func TestTorn(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			whole := filepath.Join(dir, name)
			// Three exchanges, the last with a chunked response.
			write(t, whole, 0, 2)
			w, err := Reopen(whole, info)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteExchange(fill(exchanges[1].x, 2)); err != nil {
				t.Fatal(err)
			}
			w.Close()
			data, err := os.ReadFile(whole)
			if err != nil {
				t.Fatal(err)
			}
			recs := readFile(t, whole)
			if got, want := types(t, recs), "warcinfo request response request response warcinfo request response"; got != want {
				t.Fatalf("records %s, want %s", got, want)
			}
			// Where each record starts, and the file ends.
			var starts []int
			for _, r := range recs {
				starts = append(starts, int(r.offset))
			}
			starts = append(starts, len(data))

			path := filepath.Join(dir, "cut-"+name)
			lastRecord := starts[len(starts)-2]
			for cut := range len(data) {
				// What a resumed crawl must keep: the whole exchanges
				// before the cut, and so the warcinfo records before
				// them too.
				var kept []string
				for i, r := range recs {
					if starts[i+1] > cut {
						break
					}
					kept = append(kept, r.must(t, "WARC-Type"))
				}
				if len(kept) > 0 && kept[len(kept)-1] == "request" {
					kept = kept[:len(kept)-1]
				}
				end, err := scan(bytes.NewReader(data[:cut]), int64(cut), strings.HasSuffix(name, ".gz"))
				if err != nil || end != int64(starts[len(kept)]) {
					t.Fatalf("cut at %d: scan gives %d, %v, want %d, the end of record %d", cut, end, err, starts[len(kept)], len(kept))
				}
				// Resuming, whose scan has just been checked, is slow
				// enough to be tried only on every cut inside the last
				// record, the one a crash tears, and between records.
				if cut < lastRecord && !slices.Contains(starts, cut) {
					continue
				}
				if err := os.WriteFile(path, data[:cut], 0o666); err != nil {
					t.Fatal(err)
				}
				w, err := Reopen(path, info)
				if err != nil {
					t.Fatalf("cut at %d: %v", cut, err)
				}
				if err := w.WriteExchange(fill(exchanges[0].x, 9)); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				resumed, err := parseWARC(got, strings.HasSuffix(name, ".gz"))
				if err != nil {
					t.Fatalf("cut at %d, resumed: %v", cut, err)
				}
				// Then its own warcinfo record and the exchange it
				// writes.
				want := strings.Join(append(kept, "warcinfo", "request", "response"), " ")
				if types := types(t, resumed); types != want {
					t.Fatalf("cut at %d, resumed: records %s, want %s", cut, types, want)
				}
				if n := starts[len(kept)]; !bytes.Equal(got[:n], data[:n]) {
					t.Fatalf("cut at %d: the %d bytes kept changed", cut, n)
				}
				if t.Failed() {
					t.FailNow()
				}
			}
		})
	}
}

// TestNotWARC: Reopen refuses a file in which something other than a torn
// record follows the whole ones, and leaves it as it was.
func TestNotWARC(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "crawl.warc")
	write(t, plain, 0, 1)
	gz := filepath.Join(dir, "crawl.warc.gz")
	write(t, gz, 0, 1)
	plainData, _ := os.ReadFile(plain)
	gzData, _ := os.ReadFile(gz)
	recs, err := parseWARC(gzData, true)
	if err != nil {
		t.Fatal(err)
	}
	// The last member, whole, and with a byte of its data changed.
	last := gzData[recs[len(recs)-1].offset:]
	damaged := slices.Clone(last)
	damaged[len(damaged)/2] ^= 0x55
	// A member that ends, with a right checksum, but holds only part of a
	// record.
	part := gzipped("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 10\r\n\r\nabc")
	record := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"

	tests := []struct {
		name string
		gz   bool
		data []byte
	}{
		{"plain: not a WARC file", false, []byte("<html>a page, not a WARC file</html>\n")},
		{"plain: garbage after the records", false, append(slices.Clone(plainData), "garbage"...)},
		{"plain: block not followed by CRLFs", false, append(slices.Clone(plainData), strings.Replace(record, "abc\r\n\r\n", "abcdefgh", 1)...)},
		{"plain: no Content-Length", false, append(slices.Clone(plainData), strings.Replace(record, "Content-Length: 3", "Content-Size: 3", 1)...)},
		{"plain: bad Content-Length", false, append(slices.Clone(plainData), strings.Replace(record, "Content-Length: 3", "Content-Length: -3", 1)...)},
		{"plain: header line with no colon", false, append(slices.Clone(plainData), strings.Replace(record, "WARC-Type: resource", "WARC-Type resource", 1)...)},
		{"plain: a gzip file", false, gzData},
		{"gz: a plain file", true, plainData},
		{"gz: damaged member", true, append(slices.Clone(gzData[:recs[len(recs)-1].offset]), damaged...)},
		{"gz: member with part of a record", true, append(slices.Clone(gzData), part...)},
		{"gz: member with two records", true, append(slices.Clone(gzData), gzipped(record+record)...)},
		{"gz: garbage after the members", true, append(slices.Clone(gzData), "garbage"...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "x.warc"
			if tt.gz {
				name += ".gz"
			}
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, tt.data, 0o666); err != nil {
				t.Fatal(err)
			}
			_, err := Reopen(path, info)
			if _, ok := errors.AsType[*NotWARCError](err); !ok {
				t.Errorf("Reopen: %v, want a NotWARCError", err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, tt.data) {
				t.Errorf("Reopen refused the file, but changed it")
			}
		})
	}
}

// TestReopenAfresh: Reopen makes the file if there is none, and begins an
// empty one, which a crawl killed before it wrote anything leaves.
func TestReopenAfresh(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			missing := filepath.Join(dir, name)
			empty := filepath.Join(dir, "empty-"+name)
			if err := os.WriteFile(empty, nil, 0o666); err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{missing, empty} {
				w, err := Reopen(path, info)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.WriteExchange(fill(exchanges[0].x, 0)); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if got, want := types(t, readFile(t, path)), "warcinfo request response"; got != want {
					t.Errorf("%s: records %s, want %s", path, got, want)
				}
			}
		})
	}
}

// TestRefused: Create makes a new file or none, and neither it nor Reopen
// writes through a link or to anything but a regular file.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.warc")
	if err := os.WriteFile(existing, []byte("not ours"), 0o666); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target.warc")
	dangling := filepath.Join(dir, "dangling.warc")
	if err := os.Symlink(target, dangling); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.warc")
	if err := os.Symlink(existing, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.warc")
	if err := os.Mkdir(sub, 0o777); err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{existing, dangling, link, sub} {
		t.Run("Create "+filepath.Base(path), func(t *testing.T) {
			_, err := Create(path, info)
			if e, ok := errors.AsType[*ExistsError](err); !ok || e.Path != path {
				t.Errorf("Create: %v, want an ExistsError for %s", err, path)
			}
		})
	}
	for _, path := range []string{dangling, link, sub} {
		t.Run("Reopen "+filepath.Base(path), func(t *testing.T) {
			if _, err := Reopen(path, info); err == nil {
				t.Errorf("Reopen: no error")
			}
		})
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the target of the dangling link was made: %v", err)
	}
	if got, _ := os.ReadFile(existing); string(got) != "not ours" {
		t.Errorf("the existing file now holds %q", got)
	}

	t.Run("Reopen hard link", func(t *testing.T) {
		ours := filepath.Join(dir, "ours.warc")
		write(t, ours, 0, 1)
		other := filepath.Join(dir, "other.warc")
		if err := os.Link(ours, other); err != nil {
			t.Skip("no hard links here:", err)
		}
		if runtime.GOOS == "windows" {
			t.Skip("the number of links is not known here")
		}
		if _, err := Reopen(ours, info); err == nil {
			t.Error("Reopen: no error")
		}
	})
	t.Run("missing directory", func(t *testing.T) {
		path := filepath.Join(dir, "no such dir", "crawl.warc")
		for _, open := range []func(string, Info) (*Writer, error){Create, Reopen} {
			_, err := open(path, info)
			if _, ok := errors.AsType[*ExistsError](err); err == nil || ok {
				t.Errorf("%v, want an error other than ExistsError", err)
			}
		}
	})
	t.Run("unwritable directory", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root may write anywhere")
		}
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(ro, "crawl.warc")
		for _, open := range []func(string, Info) (*Writer, error){Create, Reopen} {
			_, err := open(path, info)
			if !errors.Is(err, fs.ErrPermission) {
				t.Errorf("%v, want a permission error", err)
			}
		}
	})
}

// errFull and errIO stand for ENOSPC and EIO, which not every system has.
var (
	errFull = errors.New("no space left on device")
	errIO   = errors.New("input/output error")
)

// fullDisk is a file that takes room bytes, then fails as a full disk
// does, in the middle of a write.
type fullDisk struct {
	data []byte
	room int
}

func (f *fullDisk) Write(p []byte) (int, error) {
	n := min(len(p), f.room)
	f.data = append(f.data, p[:n]...)
	f.room -= n
	if n < len(p) {
		return n, errFull
	}
	return n, nil
}

func (f *fullDisk) Truncate(size int64) error {
	f.data = f.data[:size]
	return nil
}

func (f *fullDisk) Close() error { return nil }

// TestFullDisk: a write that fails leaves the file with whole exchanges,
// and the error is returned, by that write and every later one.
func TestFullDisk(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			gz := strings.HasSuffix(name, ".gz")
			// writeAll writes a warcinfo record and two exchanges to a
			// disk with room for that many bytes, and returns the errors.
			writeAll := func(f *fullDisk) []error {
				w := newWriter(name, f, 0)
				errs := []error{w.begin(info)}
				for i := range 2 {
					errs = append(errs, w.WriteExchange(fill(exchanges[i].x, i)))
				}
				return errs
			}
			all := &fullDisk{room: 1 << 30}
			writeAll(all)
			recs, err := parseWARC(all.data, gz)
			if err != nil {
				t.Fatal(err)
			}
			// Disks that fill up at the start, the middle or the end of
			// each record.
			var rooms []int
			for i, r := range recs {
				end := len(all.data)
				if i+1 < len(recs) {
					end = int(recs[i+1].offset)
				}
				start := int(r.offset)
				rooms = append(rooms, start, start+1, (start+end)/2, end-1)
			}
			for _, room := range rooms {
				f := &fullDisk{room: room}
				errs := writeAll(f)
				// The first failure is the write that found the disk
				// full, and every later call returns its error.
				failed := slices.IndexFunc(errs, func(err error) bool { return err != nil })
				if failed < 0 {
					// Compressed, records with other IDs may take a byte
					// less.
					if room < len(f.data) {
						t.Errorf("room %d for %d bytes: no error", room, len(f.data))
					}
					continue
				}
				for _, err := range errs[failed:] {
					if !errors.Is(err, errFull) {
						t.Errorf("room %d: error %v, want errFull", room, err)
					}
				}
				// What is on the disk is the warcinfo record and the
				// exchanges written before the failure, whole.
				want := recs[:0]
				if failed > 0 {
					want = recs[:2*failed-1]
				}
				got, err := parseWARC(f.data, gz)
				if err != nil {
					t.Fatalf("room %d: %v", room, err)
				}
				if len(got) != len(want) {
					t.Errorf("room %d: %d records, want %d: those before the failure", room, len(got), len(want))
				}
				if len(got) > 0 {
					checkRecords(t, got)
				}
			}
		})
	}
}

// FuzzScan: what Reopen keeps of any file, it keeps whole. If scan takes a
// file, the part before the cut is whole records, the last of them no
// request, and the test reader reads them all.
func FuzzScan(f *testing.F) {
	dir := f.TempDir()
	for _, name := range fileNames {
		path := filepath.Join(dir, name)
		write(f, path, 0, 2)
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		gz := strings.HasSuffix(name, ".gz")
		f.Add(data, gz)
		f.Add(data[:len(data)*2/3], gz)
	}
	f.Add([]byte("WARC/1.1\r\nContent-Length: 0\r\n\r\n\r\n\r\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, gz bool) {
		end, err := scan(bytes.NewReader(data), int64(len(data)), gz)
		if err != nil {
			return
		}
		if end < 0 || end > int64(len(data)) {
			t.Fatalf("scan gives %d, outside the %d bytes", end, len(data))
		}
		recs, err := parseWARC(data[:end], gz)
		if err != nil {
			t.Fatalf("scan keeps %d bytes, which do not read as whole records: %v", end, err)
		}
		if len(recs) > 0 && slices.Contains(recs[len(recs)-1].values("WARC-Type"), "request") {
			t.Fatalf("scan keeps a request with no response")
		}
	})
}

// failingDisk fails every read after the first n bytes, as a bad disk
// does.
type failingDisk struct {
	data []byte
	n    int64
}

func (d failingDisk) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > d.n {
		return 0, errIO
	}
	return copy(p, d.data[off:]), nil
}

// TestScanIOError: a file that cannot be read is not called damaged.
func TestScanIOError(t *testing.T) {
	for _, name := range fileNames {
		path := filepath.Join(t.TempDir(), name)
		write(t, path, 0, 2)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = scan(failingDisk{data, int64(len(data) / 2)}, int64(len(data)), strings.HasSuffix(name, ".gz"))
		if _, ok := errors.AsType[*ioError](err); !ok || !errors.Is(err, errIO) {
			t.Errorf("%s: scan: %v, want the errIO of reading", name, err)
		}
	}
}

// TestReopenAt: a crawl that knows where its last committed record ended
// cuts the file back there, whole records after it included, and refuses
// a size that is not the end of a record.
func TestReopenAt(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			w := create(t, path)
			if err := w.WriteExchange(fill(exchanges[0].x, 0)); err != nil {
				t.Fatal(err)
			}
			committed := w.Size()
			if err := w.WriteExchange(fill(exchanges[1].x, 1)); err != nil {
				t.Fatal(err)
			}
			w.Close()
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(before)) <= committed {
				t.Fatalf("file of %d bytes, the first exchange ending at %d", len(before), committed)
			}
			for _, bad := range []int64{committed - 1, committed + 1, int64(len(before)) + 1} {
				if _, err := ReopenAt(path, bad, info); !errors.As(err, new(*NotWARCError)) {
					t.Errorf("ReopenAt %d: error %v, want a NotWARCError", bad, err)
				}
				if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
					t.Fatalf("ReopenAt %d, refused, changed the file", bad)
				}
			}
			w, err = ReopenAt(path, committed, info)
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			if got, want := types(t, readFile(t, path)), "warcinfo request response warcinfo"; got != want {
				t.Errorf("records %s, want %s", got, want)
			}
			w, err = ReopenAt(path, 0, info)
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			if got, want := types(t, readFile(t, path)), "warcinfo"; got != want {
				t.Errorf("after ReopenAt 0: records %s, want %s", got, want)
			}
		})
	}
}
