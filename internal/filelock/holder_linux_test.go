package filelock

import "testing"

// TestHolderIn finds the holder of a file in texts of /proc/locks: the
// flock on its device and inode, not a POSIX lock nor a process waiting,
// and on another device only a process that has the file open.
func TestHolderIn(t *testing.T) {
	file := fileID{0xfe, 0, 9986178}
	tests := []struct {
		name  string
		locks string
		opens map[int]bool
		want  int
	}{
		{"flock", "1: FLOCK  ADVISORY  WRITE 1234 fe:00:9986178 0 EOF\n", nil, 1234},
		{"among others", "1: POSIX  ADVISORY  WRITE 77 fe:00:9986178 0 EOF\n" +
			"2: FLOCK  ADVISORY  WRITE 88 fe:00:1 0 EOF\n" +
			"3: FLOCK  ADVISORY  WRITE 1234 fe:00:9986178 0 EOF\n", nil, 1234},
		{"waiter skipped", "1: FLOCK  ADVISORY  WRITE 1234 fe:00:9986178 0 EOF\n" +
			"1: -> FLOCK  ADVISORY  WRITE 99 fe:00:9986178 0 EOF\n", nil, 1234},
		{"waiter alone", "1: -> FLOCK  ADVISORY  WRITE 99 fe:00:9986178 0 EOF\n", nil, 0},
		{"shared", "1: FLOCK  ADVISORY  READ 55 fe:00:9986178 0 EOF\n", nil, 55},
		{"none", "1: FLOCK  ADVISORY  WRITE 1234 fe:00:42 0 EOF\n", nil, 0},
		{"other namespace", "1: FLOCK  ADVISORY  WRITE 0 fe:00:9986178 0 EOF\n", nil, 0},
		{"other device, file open", "1: FLOCK  ADVISORY  WRITE 8 00:2f:9986178 0 EOF\n", map[int]bool{8: true}, 8},
		{"other device, file not open", "1: FLOCK  ADVISORY  WRITE 8 00:2f:9986178 0 EOF\n", nil, 0},
		{"garbled", "1: FLOCK  ADVISORY  WRITE x fe:00:9986178 0 EOF\n1: FLOCK\n2: FLOCK  ADVISORY  WRITE 3 fe:zz:9986178 0 EOF\n", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := holderIn([]byte(tc.locks), file, func(pid int) bool { return tc.opens[pid] }); got != tc.want {
				t.Errorf("holder %d, want %d", got, tc.want)
			}
		})
	}
}
