//go:build linux

package progress

import (
	"os"

	"golang.org/x/sys/unix"
)

// IsTerminal reports whether f is a terminal: whether the TCGETS ioctl,
// which reads a terminal's settings, succeeds on it. Unlike a check for a
// character device, this is false for /dev/null, which is where a user who
// wants no output sends it. A nil or closed f is not a terminal.
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	// SyscallConn rather than f.Fd, because Fd puts the descriptor into
	// blocking mode as a side effect.
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var ierr error
	err = rc.Control(func(fd uintptr) { _, ierr = unix.IoctlGetTermios(int(fd), unix.TCGETS) })
	return err == nil && ierr == nil
}

// termWidth returns the width of the terminal f in columns, as the
// TIOCGWINSZ ioctl tells it, or 0 if it cannot: f is not a terminal, or
// one whose size was never set (a bare pseudo-terminal reports 0).
func termWidth(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var ws *unix.Winsize
	if rc.Control(func(fd uintptr) { ws, err = unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ) }) != nil || err != nil {
		return 0
	}
	return int(ws.Col)
}
