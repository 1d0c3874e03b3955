package warc

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkWriteExchange writes the exchange of a 100 kB page, chunked, as
// a crawl of wikipedia meets them, to measure what -warc adds to a fetch.
func BenchmarkWriteExchange(b *testing.B) {
	var body strings.Builder
	for i := 0; body.Len() < 100_000; i++ {
		fmt.Fprintf(&body, "<p><a href=\"/wiki/Page_%d\">Page %d</a> says something of %d.</p>\n", i, i, i*i)
	}
	var resp strings.Builder
	resp.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n")
	for s := body.String(); len(s) > 0; {
		n := min(len(s), 8192)
		fmt.Fprintf(&resp, "%x\r\n%s\r\n", n, s[:n])
		s = s[n:]
	}
	resp.WriteString("0\r\n\r\n")
	x := fill(tx{Response: resp.String()}, 0)
	for _, name := range fileNames {
		b.Run(name, func(b *testing.B) {
			w, err := Create(filepath.Join(b.TempDir(), name), info)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			b.SetBytes(int64(len(x.Request)) + x.Response.Size())
			for b.Loop() {
				if err := w.WriteExchange(x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
