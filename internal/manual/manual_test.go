package manual

import (
	"strings"
	"testing"
)

// TestSpans: manual text reads alike in each rendering, a marker
// without its closing half as text.
func TestSpans(t *testing.T) {
	tests := []struct {
		in                  string
		plain, roff, readme string
	}{
		{"a `-q` b", "a -q b", `a \fB\-q\fR b`, "a `-q` b"},
		{"the *seedURL*", "the seedURL", `the \fIseedURL\fR`, "the *seedURL*"},
		{"see [Usage](#usage).", `see "Usage" in README.md.`, `see \fIUsage\fR in README.md.`, "see [Usage](#usage)."},
		{"`a b` and `x|y`", "a b and x|y", `\fBa\~b\fR and \fBx|y\fR`, "`a b` and `x\\|y`"},
		{"a * b, 2*3", "a * b, 2*3", "a * b, 2*3", "a * b, 2*3"},
		{"`open", "`open", `\(gaopen`, "`open"},
		{`it's \x1b ~/x ^`, `it's \x1b ~/x ^`, `it\(aqs \ex1b \(ti/x \(ha`, `it's \x1b ~/x ^`},
	}
	for _, tt := range tests {
		if got := strings.TrimSuffix(Wrap(Plain(tt.in), 0, 80), "\n"); got != tt.plain {
			t.Errorf("Plain(%q) = %q, want %q", tt.in, got, tt.plain)
		}
		if got := Roff(tt.in); got != tt.roff {
			t.Errorf("Roff(%q) = %q, want %q", tt.in, got, tt.roff)
		}
		if got := MarkdownCell(tt.in); got != tt.readme {
			t.Errorf("MarkdownCell(%q) = %q, want %q", tt.in, got, tt.readme)
		}
	}
}

// TestRoffLines: no line of the man page begins as a request would.
func TestRoffLines(t *testing.T) {
	got := RoffLines(".crawler is " + strings.Repeat("x ", 40) + ".a \\(aqb")
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			t.Errorf("roff line %q would be read as a request", line)
		}
	}
}

// TestNewFlag: a flag's syntax and default as the manual shows them.
func TestNewFlag(t *testing.T) {
	tests := []struct {
		name, arg, def  string
		syntax, display string
	}{
		{"delay", "D", "1s", "-delay D", "`1s`"},
		{"warc", "FILE", "", "-warc FILE", "none"},
		{"robots", "", "true", "-robots=false", "on"},
		{"q", "", "false", "-q", "off"},
		{"version", "", "", "-version", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFlag(tt.name, tt.arg, tt.def, "short", "text")
			if f.Syntax != tt.syntax || f.Default != tt.display || f.Arg != (tt.arg != "") || f.UsageDefault != tt.def {
				t.Errorf("NewFlag = %+v, want syntax %q and default %q", f, tt.syntax, tt.display)
			}
		})
	}
}
