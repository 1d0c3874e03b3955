package linediff_test

import (
	"testing"

	"tse-crawler/internal/testbed/linediff"
)

func TestFirst(t *testing.T) {
	for _, tt := range []struct {
		name, want, got, diff string
	}{
		{"same", "a\nb\n", "a\nb\n", "(no difference in lines)"},
		{"a line changed", "a\nb\nc", "a\nB\nc", "line 2:\n-b\n+B"},
		{"got is shorter", "a\nb", "a", "line 2:\n-b\n+"},
		{"got is longer", "a", "a\nb", "line 2:\n-\n+b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if d := linediff.First(tt.want, tt.got); d != tt.diff {
				t.Errorf("First = %q, want %q", d, tt.diff)
			}
		})
	}
}
