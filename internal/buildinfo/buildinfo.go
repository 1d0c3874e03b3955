// Package buildinfo names the build a binary came from: the project's
// version, the Go release that compiled it, and the VCS revision the go
// command stamped into it, for -version and bug reports.
package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Version is the project's release, as User-Agent headers and -version
// announce it.
const Version = "0.4.0"

// String describes the running binary, for example
//
//	crawler 0.4.0 (go1.26.8, revision af9c0f7c4b1e, 2026-11-23T14:40:11Z)
//
// A binary built outside a git checkout, or by go test or go run, which
// stamp no revision, says "revision unknown"; one built from a tree with
// uncommitted changes adds "modified".
func String(program string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("%s %s (revision unknown)", program, Version)
	}
	return describe(program, info)
}

func describe(program string, info *debug.BuildInfo) string {
	settings := make(map[string]string)
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	parts := []string{info.GoVersion}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		parts = append(parts, "revision "+rev)
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, t)
		}
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "modified")
		}
	} else {
		parts = append(parts, "revision unknown")
	}
	return fmt.Sprintf("%s %s (%s)", program, Version, strings.Join(parts, ", "))
}
