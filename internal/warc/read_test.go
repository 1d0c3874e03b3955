package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRead: Read gives back every record the test reader finds, at the
// same offset, with the same fields and block; and refuses a torn file.
func TestRead(t *testing.T) {
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			write(t, path, 0, len(exchanges))
			want := readFile(t, path)
			var got []rec
			err := Read(path, func(r Record, block io.Reader) error {
				b, err := io.ReadAll(block)
				got = append(got, rec{offset: r.Offset, fields: r.Fields, block: b})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("Read gave %d records, want %d", len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.offset != w.offset || !bytes.Equal(g.block, w.block) || len(g.fields) != len(w.fields) {
					t.Errorf("record %d: offset %d, %d fields, %d bytes; want %d, %d, %d", i, g.offset, len(g.fields), len(g.block), w.offset, len(w.fields), len(w.block))
					continue
				}
				for k := range g.fields {
					if g.fields[k] != w.fields[k] {
						t.Errorf("record %d field %d: %q, want %q", i, k, g.fields[k], w.fields[k])
					}
				}
				if typ := (Record{Fields: g.fields}).Get("warc-type"); typ != w.must(t, "WARC-Type") {
					t.Errorf("record %d: Get gives type %q", i, typ)
				}
			}

			// A record not read to its end is skipped; an error of fn stops.
			stop := errors.New("stop")
			n := 0
			err = Read(path, func(Record, io.Reader) error {
				if n++; n == 3 {
					return stop
				}
				return nil
			})
			if err != stop || n != 3 {
				t.Errorf("Read after an error of fn: %v, %d calls", err, n)
			}

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data[:len(data)-3], 0o666); err != nil {
				t.Fatal(err)
			}
			err = Read(path, func(Record, io.Reader) error { return nil })
			if _, ok := errors.AsType[*NotWARCError](err); !ok {
				t.Errorf("Read of a torn file: %v, want a *NotWARCError", err)
			}
		})
	}
}

// TestReadAny: ReadAny reads the records of any WARC 1.0 or 1.1 writer,
// plain or a gzip member a record, whatever the data is called; it
// reports a torn last record and a .warc.gz compressed as one stream, each
// at its offset, after giving fn the records before it.
func TestReadAny(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.warc")
	write(t, path, 0, 3)
	plain, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The records, each as its bytes.
	var recs [][]byte
	var offsets []int64
	err = Read(path, func(r Record, _ io.Reader) error {
		offsets = append(offsets, r.Offset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, off := range offsets {
		end := int64(len(plain))
		if i+1 < len(offsets) {
			end = offsets[i+1]
		}
		recs = append(recs, plain[off:end])
	}
	v10 := func(rec []byte) []byte { return append([]byte(version10), rec[len(version):]...) }
	join := func(each func([]byte) []byte) []byte {
		var b []byte
		for _, r := range recs {
			b = append(b, each(r)...)
		}
		return b
	}
	member := func(rec []byte) []byte { return []byte(gzipped(string(rec))) }
	// The offsets of the records in a file of members.
	memberOffsets := func(each func([]byte) []byte) []int64 {
		var offs []int64
		var n int64
		for _, r := range recs {
			offs = append(offs, n)
			n += int64(len(each(r)))
		}
		return offs
	}
	last := len(recs) - 1
	tests := []struct {
		name     string
		data     []byte
		offsets  []int64 // of the records fn is given
		errAt    int64   // of the RecordError, or -1 for none
		torn     bool
		manyRecs bool // ErrMemberOfMany
	}{
		{"WARC/1.1", plain, offsets, -1, false, false},
		{"WARC/1.0", join(v10), offsets, -1, false, false},
		{"WARC/1.1 gzip", join(member), memberOffsets(member), -1, false, false},
		{"WARC/1.0 gzip", join(func(r []byte) []byte { return member(v10(r)) }), memberOffsets(func(r []byte) []byte { return member(v10(r)) }), -1, false, false},
		{"torn", plain[:len(plain)-10], offsets, offsets[last], true, false},
		{"torn gzip", join(member)[:len(join(member))-5], memberOffsets(member), memberOffsets(member)[last], true, false},
		{"torn in the header", plain[:offsets[last]+4], offsets[:last], offsets[last], true, false},
		{"one stream", []byte(gzipped(string(plain))), []int64{0}, 0, false, true},
		{"damaged", append(plain[:offsets[1]:offsets[1]], "GARBAGE"...), offsets[:1], offsets[1], false, false},
		{"WARC/2.0", []byte("WARC/2.0\r\n" + string(plain[len(version):])), nil, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int64
			err := ReadAny(bytes.NewReader(tt.data), int64(len(tt.data)), func(r Record, block io.Reader) error {
				if r.Get("WARC-Type") == "" {
					t.Errorf("record at %d has no type", r.Offset)
				}
				got = append(got, r.Offset)
				return nil
			})
			if !slices.Equal(got, tt.offsets) {
				t.Errorf("records at %v, want %v", got, tt.offsets)
			}
			re, ok := errors.AsType[*RecordError](err)
			switch {
			case tt.errAt < 0 && err != nil:
				t.Fatalf("ReadAny: %v", err)
			case tt.errAt < 0:
			case !ok:
				t.Fatalf("ReadAny: %v, want a *RecordError", err)
			case re.Offset != tt.errAt || re.Torn != tt.torn || errors.Is(err, ErrMemberOfMany) != tt.manyRecs:
				t.Errorf("ReadAny: %v: at %d, torn %v; want at %d, torn %v, ErrMemberOfMany %v", err, re.Offset, re.Torn, tt.errAt, tt.torn, tt.manyRecs)
			}
		})
	}

	// Read takes only what package warc writes: WARC/1.1.
	old := filepath.Join(t.TempDir(), "old.warc")
	if err := os.WriteFile(old, join(v10), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := Read(old, func(Record, io.Reader) error { return nil }); !errors.As(err, new(*NotWARCError)) {
		t.Errorf("Read of WARC/1.0: %v, want a *NotWARCError", err)
	}

	// A failure to read is no damage, and an error of fn is returned as
	// it is.
	err = ReadAny(failingDisk{plain, int64(len(plain) / 2)}, int64(len(plain)), func(Record, io.Reader) error { return nil })
	if _, ok := errors.AsType[*RecordError](err); ok || !errors.Is(err, errIO) {
		t.Errorf("ReadAny of a failing disk: %v, want the errIO of reading", err)
	}
	stop := errors.New("stop")
	if err := ReadAny(bytes.NewReader(plain), int64(len(plain)), func(Record, io.Reader) error { return stop }); err != stop {
		t.Errorf("ReadAny after an error of fn: %v", err)
	}
}

// TestReadAnyLongHeader: a record of more header lines than maxLine bytes
// in all is damage, not held whole, however short each line is.
func TestReadAnyLongHeader(t *testing.T) {
	data := "WARC/1.0\r\nWARC-Type: response\r\n" + strings.Repeat("X: a\r\n", maxLine/6+1) + "Content-Length: 0\r\n\r\n\r\n\r\n"
	err := ReadAny(strings.NewReader(data), int64(len(data)), func(Record, io.Reader) error { return nil })
	var re *RecordError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "record header longer than") {
		t.Errorf("ReadAny: %v, want a RecordError for a header too long", err)
	}
}
