// Package filelock keeps a second crawler out of what a crawl writes: its
// page directory, and its WARC file. Two crawlers appending to one journal
// or one WARC file would each number pages, and cut the file back, as if
// alone, and ruin both crawls.
//
// The lock is flock(2), exclusive, taken on a file the crawl keeps open
// from before it writes anything until it is done. It belongs to the open
// file, not to a name, so it stays with the file however it is renamed,
// and the kernel drops it when the last descriptor of the file is closed,
// which the death of the process does, even by kill -9: a lock is never
// left behind by a crawler that no longer runs. It is advisory, and binds
// only crawlers.
//
// On Linux, a refusal names the process holding the lock, which
// /proc/locks tells; elsewhere it says "another crawler". Where there is
// no flock, on systems without it and on some network file systems, Lock
// says so ([errors.ErrUnsupported]), and the caller goes on without a
// lock, as before there was one.
package filelock

import (
	"fmt"
)

// A BusyError is returned when another open file holds the lock: another
// crawler is using what is locked.
type BusyError struct {
	Name string // what is locked, as a message names it: "pageDirectory data"
	PID  int    // the process holding the lock, or 0 where the system does not say
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%s is in use by another crawler (process %d): wait for it to end, or stop it (kill %d), then run this command again", e.Name, e.PID, e.PID)
	}
	return fmt.Sprintf("%s is in use by another crawler: wait for it to end, or stop it, then run this command again", e.Name)
}
