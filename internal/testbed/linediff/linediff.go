// Package linediff shows tests where two texts part: golden files, logs,
// manuals and WARC summaries that must be the same byte for byte, and
// whose first differing line says more than the whole of both.
package linediff

import (
	"fmt"
	"strings"
)

// First returns the first line at which got differs from want, numbered
// from 1, with want's line after "-" and got's after "+", or a note that
// no line differs (the texts may still differ in their last newline).
func First(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n-%s\n+%s", i+1, wl, gl)
		}
	}
	return "(no difference in lines)"
}
