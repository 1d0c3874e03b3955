package job

import "testing"

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
