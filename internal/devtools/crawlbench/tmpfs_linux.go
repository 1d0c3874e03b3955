package main

import (
	"os"
	"runtime/debug"
	"syscall"
)

// onTmpfs reports whether path is on a tmpfs, which holds its files in
// memory.
func onTmpfs(path string) bool {
	var st syscall.Statfs_t
	const tmpfsMagic = 0x01021994
	return syscall.Statfs(path, &st) == nil && st.Type == tmpfsMagic
}

// lowerPeak makes this process's peak memory its present memory, as small
// as it can be made. Linux counts the peak of the process a command was
// started from in the command's own peak (it is kept when the command's
// program replaces the copy it began as), so a crawler run from a
// benchmark that once held more would report the benchmark's peak.
func lowerPeak() {
	debug.FreeOSMemory()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // since Linux 4.0; else the figures may be high
}
