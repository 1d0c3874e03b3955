package linkgraph

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// csvLine is what encoding/csv, which wrote the graph before, writes of
// fields, with CRLF line ends.
func csvLine(fields ...string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	w.Write(fields)
	w.Flush()
	return b.String()
}

var fieldSeeds = []string{"", "http://h/a.html", "a,b", `a"b`, `"`, " lead", "\u00a0nbsp", "\u3000ideographic", `\.`, `\.x`, "trail ", "é", "\xff", "a\tb", "\tlead"}

// TestAppendField: a field is written as encoding/csv writes it.
func TestAppendField(t *testing.T) {
	for _, s := range fieldSeeds {
		got := string(appendField(nil, s)) + "\r\n"
		if want := csvLine(s); got != want {
			t.Errorf("appendField(%q) = %q, encoding/csv writes %q", s, got, want)
		}
	}
}

// FuzzAppendField checks appendField against encoding/csv on any field
// without a line break, which escapeControls leaves none of.
func FuzzAppendField(f *testing.F) {
	for _, s := range fieldSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = escapeControls(s)
		got := string(appendField(nil, s)) + "\r\n"
		if want := csvLine(s); got != want {
			t.Fatalf("appendField(%q) = %q, encoding/csv writes %q", s, got, want)
		}
	})
}
