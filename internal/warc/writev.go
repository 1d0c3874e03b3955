//go:build darwin || linux || openbsd

package warc

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// writeParts writes parts, one after the other, to f with as few writev
// calls as it takes, so that an exchange's records reach the file in one
// system call, and a page's body goes from the memory it was read into
// straight to the file, copied nowhere else. It returns how many bytes
// were written, all of them unless err is set.
func writeParts(f file, parts [][]byte) (int64, error) {
	sc, ok := f.(syscall.Conn)
	if !ok {
		return writeEach(f, parts)
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return writeEach(f, parts)
	}
	var total int64
	for len(parts) > 0 {
		var n int
		var werr error
		err := rc.Write(func(fd uintptr) bool {
			for {
				// At most IOV_MAX parts a call, which no system puts
				// below 1024; an exchange has six.
				n, werr = unix.Writev(int(fd), parts[:min(len(parts), 1024)])
				if werr != unix.EINTR {
					return true
				}
			}
		})
		if err == nil {
			err = werr
		}
		n = max(n, 0)
		total += int64(n)
		parts = advance(parts, n)
		if err != nil {
			return total, err
		}
		if n == 0 && len(parts) > 0 {
			return total, io.ErrShortWrite // a write that makes no progress
		}
	}
	return total, nil
}

// advance drops the first n bytes of parts.
func advance(parts [][]byte, n int) [][]byte {
	for len(parts) > 0 && n >= len(parts[0]) {
		n -= len(parts[0])
		parts = parts[1:]
	}
	if len(parts) > 0 {
		parts[0] = parts[0][n:]
	}
	return parts
}
