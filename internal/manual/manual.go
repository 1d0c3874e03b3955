// Package manual renders a command's manual, written once as data in a
// small subset of Markdown (`literal`, *argument*, and [section](#anchor)
// for a section of README.md), four ways: the short usage of -h, the
// whole manual as a terminal's text, a man page in man(7) macros, and
// Markdown tables of the flags and of the exit statuses, for README.md.
// Each rendering reads the same text, so that a flag cannot be described
// in one place and not another.
package manual

import (
	"fmt"
	"strings"
)

// A Manual is a command's manual.
type Manual struct {
	Name    string // the command's name, as the man page's title has it
	Summary string // what it does, in a line: the man page's NAME
	// Usage is the synopses that the terminal's texts begin with, and
	// ManSynopsis the man page's, in man(7) macros.
	Usage, ManSynopsis string
	Description        []string // paragraphs
	Arguments          []Entry
	Flags              []Flag
	ExitStatus         []Entry
	Environment        []Entry
	Files              []Entry
	Examples           []Example
	// UsageExamples are the examples -h ends with.
	UsageExamples []Example
	SeeAlso       string
}

// An Entry is a term and what it means: an argument, an exit status, an
// environment variable or a file; Short, if set, says it in a line, for a
// table.
type Entry struct {
	Term, Text, Short string
}

// An Example is a sentence and the command lines it describes.
type Example struct {
	Text  string
	Lines []string
}

// A Flag is a flag as the manual describes it.
type Flag struct {
	Syntax string // as the manual writes it: "-delay D", "-q", "-robots=false"
	Short  string // its meaning in a line, for -h and README's table
	Text   string // its meaning in full, for the manual
	// Default is its default as the manual shows it: a `literal` value,
	// or a word such as "off" or "none", which the full text leaves out;
	// "" for none to show.
	Default string
	// Arg is whether it takes an argument, whose default -h shows.
	Arg bool
	// UsageDefault is the default as -h shows it, plainly.
	UsageDefault string
}

// NewFlag returns the entry of a flag named name, whose argument's syntax
// is arg ("" for a boolean flag), whose default is def as the flag's value
// is written ("" for none), and whose meaning is short in a line and text
// in full.
func NewFlag(name, arg, def, short, text string) Flag {
	f := Flag{Syntax: "-" + name, Short: short, Text: text, Arg: arg != "", UsageDefault: def}
	switch {
	case arg != "":
		f.Syntax += " " + arg
	case def == "true":
		f.Syntax += "=false" // a boolean flag on by default is given to turn it off
	}
	switch {
	case arg == "" && def == "":
		// no setting: -version, -h
	case arg == "" && def == "true":
		f.Default = "on"
	case arg == "":
		f.Default = "off"
	case def == "":
		f.Default = "none"
	default:
		f.Default = "`" + def + "`"
	}
	return f
}

// A span is a run of manual text: plain words, a `literal`, an *argument*
// or a [section](#anchor) of README.md.
type span struct {
	kind byte // 0 for text, '`', '*' or '['
	text string
}

// spans splits manual text into its runs. A marker without its closing
// half is text.
func spans(s string) []span {
	var out []span
	text := func(t string) {
		if n := len(out); n > 0 && out[n-1].kind == 0 {
			out[n-1].text += t
		} else if t != "" {
			out = append(out, span{0, t})
		}
	}
	for s != "" {
		i := strings.IndexAny(s, "`*[")
		if i < 0 {
			text(s)
			break
		}
		text(s[:i])
		s = s[i:]
		if sp, rest, ok := marked(s); ok {
			out, s = append(out, sp), rest
			continue
		}
		text(s[:1])
		s = s[1:]
	}
	return out
}

// marked reads the marked run s begins with, and returns it and what
// follows it, or false if s begins with no whole one.
func marked(s string) (span, string, bool) {
	switch s[0] {
	case '`':
		if j := strings.IndexByte(s[1:], '`'); j >= 0 {
			return span{'`', s[1 : 1+j]}, s[2+j:], true
		}
	case '*':
		// *argument*, not a lone '*' as in "x * y".
		if j := strings.IndexByte(s[1:], '*'); j > 0 && s[1] != ' ' && s[j] != ' ' {
			return span{'*', s[1 : 1+j]}, s[2+j:], true
		}
	case '[':
		if j := strings.Index(s, "](#"); j > 0 {
			if k := strings.IndexByte(s[j:], ')'); k > 0 {
				return span{'[', s[1:j]}, s[j+k+1:], true
			}
		}
	}
	return span{}, s, false
}

// Plain renders manual text for a terminal. The spaces of a literal are
// NULs, which Wrap does not break a line at and turns back into spaces.
func Plain(s string) string {
	var b strings.Builder
	for _, sp := range spans(s) {
		switch sp.kind {
		case '[':
			fmt.Fprintf(&b, "%q in README.md", sp.text)
		case '`':
			b.WriteString(strings.ReplaceAll(sp.text, " ", "\x00"))
		default:
			b.WriteString(sp.text)
		}
	}
	return b.String()
}

// Wrap fills text into lines of at most width columns, each after indent
// spaces. A word longer than the line, such as a URL, gets a line of its
// own.
func Wrap(text string, indent, width int) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	col := 0
	for _, w := range strings.Fields(text) {
		switch {
		case col == 0:
			b.WriteString(pad)
			col = indent
		case col+1+len(w) > width:
			b.WriteString("\n" + pad)
			col = indent
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return strings.ReplaceAll(b.String(), "\x00", " ") + "\n"
}

// Capitalize makes a description a sentence, with a capital letter and a
// full stop, where it stands on its own rather than in a table.
func Capitalize(s string) string {
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	if s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// helpWidth is the width of the whole manual's text: a terminal's, less a
// column for terminals that wrap a line that fills them.
const helpWidth = 79

// flagEntries returns the flags as the whole manual and the man page list
// them: the flag's syntax, and its text with its default, if that is a
// value rather than a word such as "on", "off" or "none".
func (m *Manual) flagEntries() []Entry {
	var entries []Entry
	for _, f := range m.Flags {
		text := Capitalize(f.Text)
		if strings.HasPrefix(f.Default, "`") {
			text += " Default: " + f.Default + "."
		}
		entries = append(entries, Entry{Term: f.Syntax, Text: text})
	}
	return entries
}

// Text renders the whole manual as a terminal's text.
func (m *Manual) Text() string {
	var b strings.Builder
	b.WriteString(m.Usage + "\n")
	for _, p := range m.Description {
		b.WriteString(Wrap(Plain(p), 0, helpWidth) + "\n")
	}
	list := func(title string, entries []Entry) {
		b.WriteString(title + ":\n")
		for _, e := range entries {
			b.WriteString(textEntry(e))
		}
		b.WriteString("\n")
	}
	list("Arguments", m.Arguments)
	list("Flags", m.flagEntries())
	list("Exit status", m.ExitStatus)
	list("Environment", m.Environment)
	list("Files", m.Files)
	b.WriteString("Examples:\n")
	for i, ex := range m.Examples {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(Wrap(Plain(ex.Text), 2, helpWidth))
		for _, l := range ex.Lines {
			b.WriteString("    " + l + "\n")
		}
	}
	return b.String()
}

// textEntry renders an entry of the whole manual's text: the term, then
// its text indented under it, or beside it if the term is short.
func textEntry(e Entry) string {
	const indent = 8
	text := Wrap(Plain(Capitalize(e.Text)), indent, helpWidth)
	if len(e.Term) < indent-3 {
		return fmt.Sprintf("  %-*s%s", indent-2, e.Term, text[indent:])
	}
	return fmt.Sprintf("  %s\n%s", e.Term, text)
}

// usageColumn is where a flag's meaning starts in the short usage, after
// its syntax; a longer syntax pushes it right.
const usageColumn = 24

// Usage renders the short usage that -h prints: the synopses, each flag in
// a line, with its meaning in a line and its default if it takes an
// argument, then an example of each use, and where the whole manual is.
func (m *Manual) ShortUsage() string {
	var b strings.Builder
	b.WriteString(m.Usage + "\nFlags:\n")
	for _, f := range m.Flags {
		line := fmt.Sprintf("  %-*s  %s", usageColumn-4, f.Syntax, strings.ReplaceAll(Plain(f.Short), "\x00", " "))
		if f.Arg && f.UsageDefault != "" {
			line += " (default " + f.UsageDefault + ")"
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\nExamples:\n")
	for _, ex := range m.UsageExamples {
		b.WriteString("  " + ex.Text + "\n")
		for _, l := range ex.Lines {
			b.WriteString("    " + l + "\n")
		}
	}
	fmt.Fprintf(&b, "\nRun 'man %s' or '%s -help-all' for the whole manual.\n", m.Name, m.Name)
	return b.String()
}
