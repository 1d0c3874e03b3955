package job

import (
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64 // 0 for an error
	}{
		{"1", 1}, {"1000", 1000}, {"1B", 1}, {"512KiB", 512 << 10}, {"10MiB", 10 << 20}, {"2GiB", 2 << 30},
		{"", 0}, {"0", 0}, {"-5", 0}, {"10MB", 0}, {"10mib", 0}, {"1.5MiB", 0}, {"MiB", 0}, {" 10", 0},
		{"99999999999GiB", 0}, {"99999999999999999999", 0},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err != nil) != (tt.want == 0) || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

// TestDurationString: a duration is written as it is given, without the
// zeros time.Duration's String ends in, and parses back.
func TestDurationString(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{24 * time.Hour, "24h"}, {time.Hour + 30*time.Minute, "1h30m"}, {time.Minute, "1m"},
		{90 * time.Second, "1m30s"}, {time.Hour + 5*time.Second, "1h0m5s"}, {500 * time.Millisecond, "500ms"},
		{time.Second, "1s"}, {0, "0s"}, {-time.Hour, "-1h"},
	} {
		d := tt.d
		got := DurationValue{D: &d}.String()
		if got != tt.want {
			t.Errorf("%v is written %q, want %q", tt.d, got, tt.want)
		}
		if back, err := time.ParseDuration(got); err != nil || back != tt.d {
			t.Errorf("%q parses to %v, %v", got, back, err)
		}
	}
}
