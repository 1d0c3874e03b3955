package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Counts are the tests that passed, failed and were skipped.
type Counts struct {
	Passed, Failed, Skipped int
}

// An event is one line of go test -json (see go doc test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // of build-output, which has no Package
}

// A summary reads go test's event stream and prints each package's
// results once the package is done: packages run in parallel and their
// events interleave, so nothing is printed while a package runs.
type summary struct {
	w        io.Writer
	counts   Counts
	events   int
	packages map[string]*pkg
	order    []string // of packages, for those never finished
}

type pkg struct {
	tests  map[string]*test
	top    []*test
	build  []string // compiler output
	lines  []string // output of no test: ok, FAIL, a crash in TestMain
	failed int      // tests that failed
}

type test struct {
	name   string
	depth  int
	header string // "--- FAIL: name (0.00s)"
	items  []item // its output lines and subtests, in the order they came
	result string // pass, fail or skip; "" while it runs
}

// An item is a line of a test's output or, if child is set, a subtest.
type item struct {
	line  string
	child *test
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, packages: make(map[string]*pkg)}
}

// header matches the line that ends a test's output in go test -v.
var header = regexp.MustCompile(`^\s*--- (?:PASS|FAIL|SKIP): (.*) \(`)

// read reads the whole stream, printing as packages end. A line that is
// not an event, such as a go command's message, is printed as it is.
func (s *summary) read(r io.Reader) error {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			var e event
			if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
				fmt.Fprint(s.w, line)
			} else {
				s.events++
				s.handle(e)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	// A package whose test binary was killed may never end.
	for _, name := range s.order {
		if p := s.packages[name]; p != nil {
			s.finish(name, p, "fail")
		}
	}
	return nil
}

func (s *summary) pkg(name string) *pkg {
	p := s.packages[name]
	if p == nil {
		p = &pkg{tests: make(map[string]*test)}
		s.packages[name] = p
		s.order = append(s.order, name)
	}
	return p
}

func (s *summary) handle(e event) {
	if e.Action == "build-output" {
		// "tse-crawler/cmd/x [tse-crawler/cmd/x.test]" is built for the
		// package tse-crawler/cmd/x.
		name, _, _ := strings.Cut(e.ImportPath, " ")
		p := s.pkg(name)
		p.build = append(p.build, e.Output)
		return
	}
	if e.Package == "" {
		return
	}
	p := s.pkg(e.Package)
	if e.Test == "" {
		switch e.Action {
		case "output":
			if e.Output != "PASS\n" {
				p.lines = append(p.lines, e.Output)
			}
		case "pass", "fail", "skip":
			s.finish(e.Package, p, e.Action)
		}
		return
	}
	t := p.test(e.Test)
	switch e.Action {
	case "output":
		if strings.HasPrefix(e.Output, "=== ") {
			return // RUN, PAUSE, CONT and NAME only frame the output
		}
		if m := header.FindStringSubmatch(e.Output); m != nil {
			if h := p.tests[m[1]]; h != nil {
				h.header = strings.TrimSpace(e.Output)
				return
			}
		}
		t.items = append(t.items, item{line: e.Output})
	case "pass":
		t.result = e.Action
		s.counts.Passed++
	case "fail":
		t.result = e.Action
		s.counts.Failed++
		p.failed++
	case "skip":
		t.result = e.Action
		s.counts.Skipped++
	}
}

// test returns the named test, adding it under its parent if it is new.
func (p *pkg) test(name string) *test {
	if t := p.tests[name]; t != nil {
		return t
	}
	t := &test{name: name}
	p.tests[name] = t
	// A subtest's name may hold slashes of its own (TestX//dev/tty), so
	// the parent is the longest prefix that names a test.
	parent := (*test)(nil)
	for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
		if parent = p.tests[name[:i]]; parent != nil {
			break
		}
	}
	if parent == nil {
		p.top = append(p.top, t)
	} else {
		t.depth = parent.depth + 1
		parent.items = append(parent.items, item{child: t})
	}
	return t
}

// finish prints a package's results and forgets it.
func (s *summary) finish(name string, p *pkg, result string) {
	delete(s.packages, name)
	for _, line := range p.build {
		fmt.Fprint(s.w, line)
	}
	for _, t := range p.tests {
		if t.result == "" && result == "fail" {
			t.result = "fail"
			t.header = fmt.Sprintf("--- FAIL: %s (did not finish)", t.name)
			s.counts.Failed++
			p.failed++
		}
	}
	for _, t := range p.top {
		s.print(t)
	}
	for _, line := range p.lines {
		fmt.Fprint(s.w, line)
	}
	if result == "fail" && p.failed == 0 {
		s.counts.Failed++
	}
}

// print shows a test that failed or was skipped with all its output, as go
// test does, and one that passed only as the parent of such a subtest.
func (s *summary) print(t *test) {
	if !t.shown() {
		return
	}
	indent := strings.Repeat("    ", t.depth)
	h := t.header
	if h == "" {
		h = fmt.Sprintf("--- %s: %s", strings.ToUpper(t.result), t.name)
	}
	fmt.Fprintf(s.w, "%s%s\n", indent, h)
	for _, it := range t.items {
		switch {
		case it.child != nil:
			s.print(it.child)
		case t.result != "pass":
			fmt.Fprintf(s.w, "%s%s", indent, it.line)
		}
	}
}

// shown reports whether t failed, was skipped, or holds a subtest that was.
func (t *test) shown() bool {
	if t.result == "fail" || t.result == "skip" {
		return true
	}
	for _, it := range t.items {
		if it.child != nil && it.child.shown() {
			return true
		}
	}
	return false
}
