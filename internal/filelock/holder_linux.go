package filelock

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// holder returns the process that holds a flock on the file open as fd,
// as /proc/locks tells, or 0 if it does not.
func holder(fd int) int {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	// Dev is 32 bits on some architectures.
	dev, ino := uint64(st.Dev), uint64(st.Ino)
	return holderIn(data, fileID{unix.Major(dev), unix.Minor(dev), ino}, func(pid int) bool { return hasOpen(pid, dev, ino) })
}

// A fileID is a file as /proc/locks names it: its device's major and
// minor numbers and its inode.
type fileID struct {
	major, minor uint32
	ino          uint64
}

// holderIn returns the process that, by the /proc/locks text data, holds
// a flock on file: the lock whose device and inode are the file's, or
// else, as btrfs gives stat a device of a subvolume's own that
// /proc/locks does not, one on the same inode of another device whose
// process has the file open (opens says whether it has). It returns 0 if
// none is found; a process in another PID namespace shows as 0 too.
func holderIn(data []byte, file fileID, opens func(pid int) bool) int {
	var others []int // on the same inode of another device
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 fe:00:9986178 0 EOF"; a line
		// with "->" after the number is a process waiting for the lock.
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" {
			continue
		}
		pid, err := strconv.Atoi(f[4])
		id, ok := parseID(f[5])
		if err != nil || pid <= 0 || !ok || id.ino != file.ino {
			continue
		}
		if id == file {
			return pid
		}
		others = append(others, pid)
	}
	for _, pid := range others {
		if opens(pid) {
			return pid
		}
	}
	return 0
}

// parseID reads a file as /proc/locks names it: "fe:00:9986178", the
// device's numbers in hexadecimal and the inode in decimal.
func parseID(s string) (fileID, bool) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return fileID{}, false
	}
	major, err1 := strconv.ParseUint(parts[0], 16, 32)
	minor, err2 := strconv.ParseUint(parts[1], 16, 32)
	ino, err3 := strconv.ParseUint(parts[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return fileID{}, false
	}
	return fileID{uint32(major), uint32(minor), ino}, true
}

// hasOpen reports whether process pid has the file of device dev and
// inode ino open, as far as this process may look at its descriptors.
func hasOpen(pid int, dev, ino uint64) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		var st unix.Stat_t
		if unix.Stat(filepath.Join(dir, e.Name()), &st) == nil && uint64(st.Dev) == dev && uint64(st.Ino) == ino {
			return true
		}
	}
	return false
}
