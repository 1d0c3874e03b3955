package main

import "syscall"

// onTmpfs reports whether path is on a tmpfs, which holds its files in
// memory.
func onTmpfs(path string) bool {
	var st syscall.Statfs_t
	const tmpfsMagic = 0x01021994
	return syscall.Statfs(path, &st) == nil && st.Type == tmpfsMagic
}
