package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedOutsideScope gives seeds outside the crawl's scope and checks
// that the message (exit 3) ends with the command that crawls the seed:
// the same flags, and a -scope of the seed's origin and directory. That
// command, read back by a POSIX shell and run, gets past the seed: with a
// page directory that does not exist it exits 4, before any request. A
// seed no such -scope takes in, a crawl that resumes and a bad maxDepth
// get no command.
func TestSeedOutsideScope(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		name string
		args []string // before maxDepth
		want string   // the command's arguments, "" for none
	}{
		{"https site", []string{"https://docs.example.test/guide/index.html", missing},
			"-scope https://docs.example.test/guide/ https://docs.example.test/guide/index.html " + missing + " 1"},
		{"site root", []string{"http://docs.example.test/", missing},
			"-scope http://docs.example.test/ http://docs.example.test/ " + missing + " 1"},
		{"flags kept, a query", []string{"-delay", "0", "-order", "bfs", "http://docs.example.test/guide/a%20b.html?x=1/y", missing},
			"-delay=0s -order=bfs -scope http://docs.example.test/guide/ 'http://docs.example.test/guide/a%20b.html?x=1/y' " + missing + " 1"},
		{"another -scope given", []string{"-scope", "http://a.test/", "http://docs.example.test/x/index.html", missing},
			"-scope=http://a.test/ -scope http://docs.example.test/x/ http://docs.example.test/x/index.html " + missing + " 1"},
		{"reference mode kept", []string{"-links", "reference", "http://docs.example.test/guide/index.html", missing},
			"-links=reference -scope http://docs.example.test/guide/ http://docs.example.test/guide/index.html " + missing + " 1"},
		{"html mode, a path a browser reads", []string{"-links", "html", `http://docs.example.test/a\b c.html`, missing},
			"-links=html -scope http://docs.example.test/a/ 'http://docs.example.test/a\\b c.html' " + missing + " 1"},
		{"a seed that escapes its directory", []string{"-links", "html", "-scope", "http://a.test/", "http://docs.example.test/a/..%2Fb.html", missing}, ""},
		{"a crawl that resumes", []string{"-resume", "http://docs.example.test/index.html", missing}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := crawl(t.Context(), proxyEnv(""), append(tt.args, "1")...)
			if code != exitSeedURL || stdout != "" {
				t.Fatalf("exit %d, stdout %q; want %d and nothing: %s", code, stdout, exitSeedURL, stderr)
			}
			_, command, found := strings.Cut(stderr, "\nTo crawl it, run: crawler ")
			if tt.want == "" {
				if found || !strings.Contains(stderr, "Run 'crawler -h' for usage.") {
					t.Errorf("stderr gives a command, or no pointer to -h:\n%s", stderr)
				}
				return
			}
			if command = strings.TrimSuffix(command, "\n"); command != tt.want {
				t.Fatalf("the command given is\n%s\nwant\n%s", command, tt.want)
			}
			out, err := exec.Command("sh", "-c", "set -- "+command+`; for a in "$@"; do printf '%s\0' "$a"; done`).Output()
			if err != nil {
				t.Fatalf("sh: %v", err)
			}
			words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			code, _, stderr = crawl(t.Context(), proxyEnv(""), words...)
			if code != exitPageDir {
				t.Errorf("the command given exits %d, want %d: %s", code, exitPageDir, stderr)
			}
		})
	}
	// A maxDepth that is wrong too: the command would fail, so none.
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"./crawler", "http://docs.example.test/index.html", missing, "x"}, new(bytes.Buffer), &stderr, proxyEnv(""))
	if code != exitSeedURL || strings.Contains(stderr.String(), "To crawl it") {
		t.Errorf("a bad maxDepth too: exit %d, want %d and no command: %s", code, exitSeedURL, &stderr)
	}
	// The name as typed, as in the command that resumes a crawl.
	stderr.Reset()
	code = run(t.Context(), []string{"./my crawler", "http://docs.example.test/index.html", missing, "1"}, new(bytes.Buffer), &stderr, proxyEnv(""))
	if want := "To crawl it, run: './my crawler' -scope http://docs.example.test/ "; code != exitSeedURL || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want %d and %q", code, &stderr, exitSeedURL, want)
	}
}
