package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"no VCS", nil, "crawler " + Version + " (go1.26.8, revision unknown)"},
		{"clean", []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "af9c0f7c4b1e2d3f4a5b6c7d8e9f00112233445566"},
			{Key: "vcs.time", Value: "2026-11-23T14:40:11Z"},
			{Key: "vcs.modified", Value: "false"},
		}, "crawler " + Version + " (go1.26.8, revision af9c0f7c4b1e, 2026-11-23T14:40:11Z)"},
		{"modified", []debug.BuildSetting{
			{Key: "vcs.revision", Value: "af9c0f7"},
			{Key: "vcs.modified", Value: "true"},
		}, "crawler " + Version + " (go1.26.8, revision af9c0f7, modified)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := describe("crawler", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: tt.settings})
			if got != tt.want {
				t.Errorf("describe = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	got := String("crawler")
	if !strings.HasPrefix(got, "crawler "+Version+" (go") {
		t.Errorf("String = %q, want the version and the Go release", got)
	}
}
