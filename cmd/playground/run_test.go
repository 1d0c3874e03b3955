package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tse-crawler/internal/buildinfo"
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
		{"bad address", []string{"-addr", "not an address", dir}, 2, "is not HOST:PORT"},
		{"no port", []string{"-addr", "127.0.0.1", dir}, 2, "such as 127.0.0.1:8080"},
		{"port too large", []string{"-addr", "127.0.0.1:65536", dir}, 2, "127.0.0.1:0 for a free port"},
		{"negative page count", []string{"-synthetic", "-1"}, 2, "give a number of pages"},
		{"no hosts", []string{"-synthetic", "10", "-hosts", "0"}, 2, "give a number of hosts"},
		{"hosts of a directory", []string{"-hosts", "3", dir}, 2, "for a -synthetic site"},
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
	for _, tt := range []struct{ arg, want string }{
		{"-h", "Usage: playground"},
		{"--help", "Usage: playground"},
		{"-version", "playground " + buildinfo.Version + " ("},
		{"--version", "playground " + buildinfo.Version + " ("},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), []string{tt.arg}, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), tt.want) || stderr.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and %q", tt.arg, code, &stdout, &stderr, tt.want)
		}
	}
}

// TestListenError checks the advice for each way listening can fail,
// with the errors net.Listen returns on Linux.
func TestListenError(t *testing.T) {
	bind := func(errno syscall.Errno) error {
		return &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", errno)}
	}
	tests := []struct {
		name, addr string
		err        error
		want       string
	}{
		{"in use", "127.0.0.1:8080", bind(syscall.EADDRINUSE),
			"cannot listen on 127.0.0.1:8080: address already in use: a server you started before may still be serving there, or give another port, such as -addr 127.0.0.1:8081, or -addr 127.0.0.1:0 for a free one"},
		{"last port in use", "127.0.0.1:65535", bind(syscall.EADDRINUSE),
			"cannot listen on 127.0.0.1:65535: address already in use: a server you started before may still be serving there, or give another port, such as -addr 127.0.0.1:8080, or -addr 127.0.0.1:0 for a free one"},
		{"all interfaces", ":8080", bind(syscall.EADDRINUSE),
			"cannot listen on :8080: address already in use: a server you started before may still be serving there, or give another port, such as -addr :8081, or -addr :0 for a free one"},
		{"IPv6", "[::1]:8080", bind(syscall.EADDRINUSE),
			"cannot listen on [::1]:8080: address already in use: a server you started before may still be serving there, or give another port, such as -addr [::1]:8081, or -addr [::1]:0 for a free one"},
		{"privileged port", "127.0.0.1:80", bind(syscall.EACCES),
			"cannot listen on 127.0.0.1:80: permission denied: give another port, such as -addr 127.0.0.1:8080, or -addr 127.0.0.1:0 for a free one"},
		{"denied above 1024", "127.0.0.1:9000", bind(syscall.EACCES),
			"cannot listen on 127.0.0.1:9000: permission denied: give another port, such as -addr 127.0.0.1:9001, or -addr 127.0.0.1:0 for a free one"},
		{"not this machine's", "192.0.2.1:8080", bind(syscall.EADDRNOTAVAIL),
			"cannot listen on 192.0.2.1:8080: cannot assign requested address: give an address of this machine, such as -addr 127.0.0.1:0"},
		{"no such host", "nowhere.invalid:8080", &net.OpError{Op: "listen", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nowhere.invalid", IsNotFound: true}},
			"cannot listen on nowhere.invalid:8080: lookup nowhere.invalid: no such host: give an address of this machine, such as -addr 127.0.0.1:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := listenError(tt.addr, tt.err).Error(); got != tt.want {
				t.Errorf("listenError(%q, %v) =\n%q, want\n%q", tt.addr, tt.err, got, tt.want)
			}
		})
	}
}

// TestAddressInUse holds a port and starts the playground on it.
func TestAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"-addr", addr, t.TempDir()}, &stdout, &stderr)
	want := fmt.Sprintf("playground: cannot listen on %s: address already in use: a server you started before may still be serving there, or give another port, such as -addr 127.0.0.1:%d, or -addr 127.0.0.1:0 for a free one\n", addr, n+1)
	if n == 65535 {
		want = strings.Replace(want, ":65536", ":8080", 1)
	}
	if code != exitError || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("a port in use: exit %d, stdout %q, stderr\n%q; want exit 1, nothing on stdout, and\n%q", code, &stdout, &stderr, want)
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

	// Scripts read the address from stdout, which holds that one line.
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address: %v (stderr %q)", err, &stderr)
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+\n$`).MatchString(line) {
		t.Fatalf("stdout's first line is %q, want the proxy URL http://127.0.0.1:PORT", line)
	}
	rest := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		rest <- b
	}()

	proxy, _ := url.Parse(strings.TrimSpace(line))
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
	if b := <-rest; len(b) != 0 {
		t.Errorf("stdout after the address: %q, want nothing", b)
	}
	if want := "playground: serving " + site + " on " + strings.TrimSpace(line) + "\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", &stderr, want)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), ` 200 GET http://cs50tse.cs.dartmouth.edu/tse/x.html "playground-test/1"`) {
		t.Errorf("request log %q lacks the request", log)
	}
}
