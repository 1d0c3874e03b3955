package manual

import (
	"cmp"
	"fmt"
	"strings"
)

// roffEscape escapes text for roff: a backslash is \e, a hyphen-minus \-
// (else groff prints a hyphen, which breaks copied flags), and quotes and
// accents the forms that copy as typed.
var roffEscape = strings.NewReplacer(`\`, `\e`, "-", `\-`, "'", `\(aq`, "`", `\(ga`, "^", `\(ha`, "~", `\(ti`)

// RoffEscape escapes text for roff, as the man page writes it.
func RoffEscape(s string) string { return roffEscape.Replace(s) }

// Roff renders manual text for the man page.
func Roff(s string) string {
	var b strings.Builder
	for _, sp := range spans(s) {
		t := roffEscape.Replace(sp.text)
		switch sp.kind {
		case '`':
			// A literal is one word, which no line may break.
			b.WriteString(`\fB` + strings.ReplaceAll(t, " ", `\~`) + `\fR`)
		case '*':
			b.WriteString(`\fI` + t + `\fR`)
		case '[':
			b.WriteString(`\fI` + t + `\fR in README.md`)
		default:
			b.WriteString(t)
		}
	}
	return b.String()
}

// RoffLines breaks rendered roff text into source lines, for a readable
// diff of a man page, and guards each line that would begin with a
// control character.
func RoffLines(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(Wrap(s, 0, 72), "\n"), "\n") {
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			line = `\&` + line
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// RoffTerm renders a flag's syntax: the name and literal values in bold,
// a placeholder, in capitals, in italics.
func RoffTerm(syntax string) string {
	name, arg, ok := strings.Cut(syntax, " ")
	out := `\fB` + roffEscape.Replace(name) + `\fR`
	if ok {
		if strings.ToUpper(arg) == arg {
			out += ` \fI` + roffEscape.Replace(arg) + `\fR`
		} else {
			out += ` \fB` + roffEscape.Replace(arg) + `\fR`
		}
	}
	return out
}

// ManPage renders the manual as a man page, in man(7) macros, dated date,
// of version, whose first line, a comment, says it was made from source.
func (m *Manual) ManPage(source, date, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `.\" Generated from %s; do not edit.`+"\n", source)
	fmt.Fprintf(&b, ".TH %s 1 %s \"%s\" \"User Commands\"\n", strings.ToUpper(m.Name), date, version)
	// No hyphenation: a hyphen added in a URL or a flag would be copied.
	b.WriteString(".nh\n")
	b.WriteString(".SH NAME\n" + RoffLines(m.Name+` \- `+roffEscape.Replace(m.Summary)))
	b.WriteString(".SH SYNOPSIS\n" + m.ManSynopsis)
	b.WriteString(".SH DESCRIPTION\n")
	for i, p := range m.Description {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(RoffLines(Roff(p)))
	}
	list := func(entries []Entry, term func(string) string) {
		for _, e := range entries {
			b.WriteString(".TP\n" + term(e.Term) + "\n")
			b.WriteString(RoffLines(Roff(Capitalize(e.Text))))
		}
	}
	b.WriteString(".PP\nThe arguments are:\n")
	list(m.Arguments, italic)
	b.WriteString(".SH OPTIONS\n")
	list(m.flagEntries(), RoffTerm)
	b.WriteString(".SH \"EXIT STATUS\"\n")
	list(m.ExitStatus, bold)
	b.WriteString(".SH ENVIRONMENT\n")
	list(m.Environment, variables)
	b.WriteString(".SH FILES\n")
	list(m.Files, path)
	b.WriteString(".SH EXAMPLES\n" + m.roffExamples())
	b.WriteString(".SH \"SEE ALSO\"\n" + RoffLines(Roff(m.SeeAlso)))
	return b.String()
}

func italic(t string) string { return `\fI` + roffEscape.Replace(t) + `\fR` }
func bold(t string) string   { return `\fB` + roffEscape.Replace(t) + `\fR` }

// variables renders the names of environment variables, "A, a", each in
// bold.
func variables(t string) string {
	names := strings.Split(t, ", ")
	for i, n := range names {
		names[i] = bold(n)
	}
	return strings.Join(names, ", ")
}

// path renders a file's path, "pageDirectory/1, 2, ...": its first
// element, a placeholder, in italics, and the rest in bold.
func path(t string) string {
	dir, rest, _ := strings.Cut(t, "/")
	return italic(dir) + bold("/"+rest)
}

// roffExamples renders the examples for the man page: each sentence, then
// its command lines as they are, indented.
func (m *Manual) roffExamples() string {
	var b strings.Builder
	for i, ex := range m.Examples {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(RoffLines(Roff(ex.Text)))
		b.WriteString(".PP\n.RS 4\n.nf\n")
		for _, l := range ex.Lines {
			l = roffEscape.Replace(l)
			if strings.HasPrefix(l, ".") || strings.HasPrefix(l, `\(aq`) {
				l = `\&` + l
			}
			b.WriteString(l + "\n")
		}
		b.WriteString(".fi\n.RE\n")
	}
	return b.String()
}

// MarkdownCell renders manual text for a cell of a Markdown table, where
// '|' ends the cell even in a `literal`.
func MarkdownCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// FlagTable renders the table of flags, a line each: the longer texts are
// for the whole manual and the man page, which it says last, as note.
func (m *Manual) FlagTable(note string) string {
	var b strings.Builder
	b.WriteString("| flag | default | meaning |\n|---|---|---|\n")
	for _, f := range m.Flags {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", MarkdownCell("`"+f.Syntax+"`"), MarkdownCell(f.Default), MarkdownCell(f.Short))
	}
	b.WriteString("\n" + note + "\n")
	return b.String()
}

// ExitTable renders the table of exit statuses, each in a line if it has
// one, and says last, as note, where they are explained in full.
func (m *Manual) ExitTable(note string) string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n|---|---|\n")
	for _, e := range m.ExitStatus {
		fmt.Fprintf(&b, "| %s | %s |\n", e.Term, MarkdownCell(cmp.Or(e.Short, e.Text)))
	}
	b.WriteString("\n" + note + "\n")
	return b.String()
}
