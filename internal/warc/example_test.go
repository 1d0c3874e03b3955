package warc_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tse-crawler/internal/warc"
)

// A crawl writes each exchange as it makes it. The chunked response is
// recorded as it came, and its payload digest is that of "hello, world",
// the body without its chunk sizes.
func Example() {
	dir, err := os.MkdirTemp("", "warc-example")
	if err != nil {
		fmt.Println(err) // and so fail the example
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "crawl.warc")

	w, err := warc.Create(path, warc.Info{
		Software: "tse-crawler/1.0",
		Fields:   [][2]string{{"robots", "classic"}, {"maxDepth", "2"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = w.WriteExchange(warc.Exchange{
		TargetURI: "http://example.test/",
		Date:      time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		IP:        "192.0.2.1",
		Request:   []byte("GET / HTTP/1.1\r\nHost: example.test\r\n\r\n"),
		Response: strings.NewReader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}

	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := s.Text(); strings.HasPrefix(line, "WARC-Type:") || strings.HasPrefix(line, "WARC-Payload-Digest:") {
			fmt.Println(line)
		}
	}
	// Output:
	// WARC-Type: warcinfo
	// WARC-Type: request
	// WARC-Type: response
	// WARC-Payload-Digest: sha1:W7RD5QU26IVQWTSB3IY6Q2GVOITBEHEE
}
