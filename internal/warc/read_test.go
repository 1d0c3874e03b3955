package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
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
