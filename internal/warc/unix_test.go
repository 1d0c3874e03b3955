//go:build unix

package warc

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestResumeFIFO: Reopen refuses a FIFO, without waiting for a writer to
// open it.
func TestResumeFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.warc")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Reopen(fifo, info); err == nil {
		t.Error("Reopen: no error")
	}
}
