package filelock

import (
	"strconv"
	"testing"
)

func TestBusyMessage(t *testing.T) {
	for _, tc := range []struct {
		pid  int
		want string
	}{
		{1234, "pageDirectory data is in use by another crawler (process 1234): wait for it to end, or stop it (kill 1234), then run this command again"},
		{0, "pageDirectory data is in use by another crawler: wait for it to end, or stop it, then run this command again"},
	} {
		t.Run(strconv.Itoa(tc.pid), func(t *testing.T) {
			if got := (&BusyError{Name: "pageDirectory data", PID: tc.pid}).Error(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
