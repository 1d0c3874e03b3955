package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestMain lets the test binary stand for go test: run starts it again
// with TESTSUM_FAKE set, and it prints that file and exits as told.
func TestMain(m *testing.M) {
	if name := os.Getenv("TESTSUM_FAKE"); name != "" {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Stdout.Write(data)
		fmt.Fprint(os.Stderr, os.Getenv("TESTSUM_STDERR"))
		if os.Getenv("TESTSUM_FAIL") != "" {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testdata/events.json is go test -json over packages made to cover
// each case (a failed subtest, a parallel one, a skip under a failure and
// under a pass, a panic, a build error, a package without tests, an
// example, a subtest named with slashes), then a package cut short and a
// line that is no event.
func TestSummaryGolden(t *testing.T) {
	in, err := os.Open("testdata/events.json")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	s := newSummary(&out)
	if err := s.read(in); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&out, "%+v\n", s.counts)
	const golden = "testdata/events.golden"
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("summary differs from %s (go test -update to accept):\n%s", golden, &out)
	}
}

func TestCounts(t *testing.T) {
	tests := []struct {
		name   string
		events string
		want   Counts
	}{
		{"nothing", "", Counts{}},
		{"a pass, a fail and a skip", `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"run","Package":"p","Test":"TestC"}
{"Action":"skip","Package":"p","Test":"TestC"}
{"Action":"fail","Package":"p"}
`, Counts{Passed: 1, Failed: 1, Skipped: 1}},
		{"subtests count too", `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestA/x"}
{"Action":"pass","Package":"p","Test":"TestA/x"}
{"Action":"run","Package":"p","Test":"TestA/y"}
{"Action":"skip","Package":"p","Test":"TestA/y"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p"}
`, Counts{Passed: 2, Skipped: 1}},
		{"a package without tests is no skip", `{"Action":"skip","Package":"p"}
`, Counts{}},
		{"a package that fails in no test is one failure", `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p"}
`, Counts{Passed: 1, Failed: 1}},
		{"a test cut short fails", `{"Action":"run","Package":"p","Test":"TestA"}
`, Counts{Failed: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			s := newSummary(&out)
			if err := s.read(strings.NewReader(tt.events)); err != nil {
				t.Fatal(err)
			}
			if s.counts != tt.want {
				t.Errorf("counts = %+v, want %+v; output:\n%s", s.counts, tt.want, &out)
			}
		})
	}
}

// TestRun runs the test binary as the command, standing for go test.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	passing := write("pass.json", `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}
{"Action":"pass","Package":"p"}
`)
	failing := write("fail.json", `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:1: broke\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.1s\n"}
{"Action":"fail","Package":"p"}
`)
	plain := write("plain.txt", "ok  \tp\t0.1s\n")
	tests := []struct {
		name         string
		file, stderr string
		fail         bool
		code         int
		stdout       string
		counts       string
	}{
		{"all pass", passing, "", false, exitOK, "ok  \tp\t0.1s\ngo test: 1 passed, 0 failed, 0 skipped\n", "1 0 0\n"},
		{"a test fails", failing, "", true, exitError,
			"--- FAIL: TestA (0.00s)\n    a_test.go:1: broke\nFAIL\tp\t0.1s\ngo test: 0 passed, 1 failed, 0 skipped\n", "0 1 0\n"},
		{"the command fails alone", passing, "go: bad flag\n", true, exitError,
			"ok  \tp\t0.1s\n", "1 1 0\n"},
		{"no -json", plain, "", false, exitOK,
			"ok  \tp\t0.1s\ntestsum: no test events: give go test the -json flag\ngo test: 0 passed, 0 failed, 0 skipped\n", "0 0 0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TESTSUM_FAKE", tt.file)
			t.Setenv("TESTSUM_STDERR", tt.stderr)
			fail := ""
			if tt.fail {
				fail = "1"
			}
			t.Setenv("TESTSUM_FAIL", fail)
			t.Setenv("GORACE", "atexit_sleep_ms=0") // the race detector's exit takes a second
			counts := filepath.Join(t.TempDir(), "counts")
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), []string{"-counts", counts, os.Args[0]}, &stdout, &stderr, nil)
			if code != tt.code || !strings.HasPrefix(stdout.String(), tt.stdout) || stderr.String() != tt.stderr {
				t.Errorf("exit %d, stdout\n%s\nstderr %q; want exit %d, stdout beginning\n%s\nstderr %q",
					code, &stdout, &stderr, tt.code, tt.stdout, tt.stderr)
			}
			if got, _ := os.ReadFile(counts); string(got) != tt.counts {
				t.Errorf("counts file holds %q, want %q", got, tt.counts)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), nil, &stdout, &stderr, nil); code != exitUsage || !strings.Contains(stderr.String(), "give the go test command") {
		t.Errorf("no command: exit %d, stderr %q", code, &stderr)
	}
	stderr.Reset()
	if code := run(t.Context(), []string{filepath.Join(t.TempDir(), "no-such-command")}, &stdout, &stderr, nil); code != exitError || !strings.Contains(stderr.String(), "give a command that can run") {
		t.Errorf("a missing command: exit %d, stderr %q", code, &stderr)
	}
}
