//go:build linux

package progress

import (
	"os"
	"syscall"
	"unsafe"
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
	var errno syscall.Errno
	err = rc.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd,
			uintptr(syscall.TCGETS), uintptr(unsafe.Pointer(&t)))
	})
	return err == nil && errno == 0
}
