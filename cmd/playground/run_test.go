package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no directory", nil, 2, "expected one argument"},
		{"two directories", []string{dir, dir}, 2, "expected one argument"},
		{"missing directory", []string{filepath.Join(dir, "nope")}, 2, "give the directory"},
		{"bad flag", []string{"-port", "80", dir}, 2, "-port"},
		{"bad address", []string{"-addr", "not an address", dir}, 1, "playground:"},
		{"unwritable log", []string{"-log", filepath.Join(dir, "no", "log"), dir}, 1, "playground:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), tt.args, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, &stderr, tt.code, tt.msg)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "Usage: playground") {
		t.Errorf("-h: exit %d, stdout %q; want 0 and the usage", code, &stdout)
	}
}

// TestServe starts the server on a free port, fetches a page through it
// as a proxy, and stops it by cancelling its context, as Ctrl-C does.
func TestServe(t *testing.T) {
	site := t.TempDir()
	if err := os.MkdirAll(filepath.Join(site, "tse"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "tse", "x.html"), []byte("<html>x</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(t.TempDir(), "requests.log")

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, outw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-log", logFile, site}, outw, &stderr)
		outw.Close()
	}()

	// The first line says where it listens.
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address: %v (stderr %q)", err, &stderr)
	}
	m := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line %q does not give the address", line)
	}
	go io.Copy(io.Discard, out)

	proxy, _ := url.Parse(m[1])
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://cs50tse.cs.dartmouth.edu/tse/x.html", nil)
	req.Header.Set("User-Agent", "playground-test/1")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "<html>x</html>" {
		t.Errorf("GET through the proxy: %s %q", res.Status, body)
	}
	client.CloseIdleConnections()

	cancel()
	if code := <-done; code != 0 {
		t.Errorf("after cancel: exit %d, stderr %q; want a clean 0", code, &stderr)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), ` 200 GET http://cs50tse.cs.dartmouth.edu/tse/x.html "playground-test/1"`) {
		t.Errorf("request log %q lacks the request", log)
	}
}
