package coding

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	const page = "<p>a page</p>"
	var gz, zl, raw bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(page))
	w.Close()
	z := zlib.NewWriter(&zl)
	z.Write([]byte(page))
	z.Close()
	f, _ := flate.NewWriter(&raw, flate.DefaultCompression)
	f.Write([]byte(page))
	f.Close()
	tests := []struct {
		name, coding string
		body         []byte
		unsupported  bool
	}{
		{"none", "", []byte(page), false},
		{"identity", "identity", []byte(page), false},
		{"gzip", "gzip", gz.Bytes(), false},
		{"x-gzip", "x-gzip", gz.Bytes(), false},
		{"deflate as zlib", "deflate", zl.Bytes(), false},
		{"deflate raw", "deflate", raw.Bytes(), false},
		{"brotli", "br", []byte("\x0b\x02\x80x"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Reader(bytes.NewReader(tt.body), tt.coding)
			if _, ok := errors.AsType[*UnsupportedError](err); ok != tt.unsupported {
				t.Fatalf("Reader: %v, want unsupported %v", err, tt.unsupported)
			}
			if tt.unsupported {
				if !strings.Contains(err.Error(), `"br"`) {
					t.Errorf("error %q does not name the coding", err)
				}
				return
			}
			got, err := io.ReadAll(r)
			if err != nil || string(got) != page {
				t.Errorf("read %q, %v; want %q", got, err, page)
			}
		})
	}
}
