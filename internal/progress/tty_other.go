//go:build !linux

package progress

import "os"

// IsTerminal reports whether f is a terminal, as a best effort: outside
// Linux it only checks that f is a character device. That is true of every
// terminal, but also of devices such as /dev/null, so a crawler whose stderr
// goes to /dev/null may draw a status line there, which is harmless. A nil
// or closed f is not a terminal.
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// termWidth returns 0, an unknown width, outside Linux: the line is then
// cut to 80 columns, which every terminal but a narrowed one has.
func termWidth(*os.File) int { return 0 }
