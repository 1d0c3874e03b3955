package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"tse-crawler/internal/warc"
)

// The Python docs crawled again with -since, served by nginx, which
// answers If-None-Match and If-Modified-Since as real servers do, from a
// copy of the docs that the case changes: a first crawl archives them
// in a .wacz; a second, with -since that package, is measured against
// it (the requests nginx logged as conditional, the body bytes it sent,
// the size of the package, the time); then ten pages change, three go
// and one is added, and a third crawl with -since the first package must
// record exactly those eleven whole and the three as 404s, and save the
// pages a fresh crawl of the changed site saves.

// benchSince runs the case, or says on stdout why it is skipped.
func benchSince(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	if _, err := os.Stat(filepath.Join(cfg.pythonDocs, "index.html")); err != nil {
		fmt.Fprintf(stdout, "(skipping -since: no %s; apt-get install python3.11-doc puts them there)\n\n", filepath.Join(cfg.pythonDocs, "index.html"))
		return nil
	}
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			fmt.Fprintf(stdout, "(skipping -since: no nginx; apt-get install nginx-light puts it there)\n\n")
			return nil
		}
		nginx = "/usr/sbin/nginx"
	}
	work, err := os.MkdirTemp(cfg.dir, "since-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	docs := filepath.Join(work, "site", "python")
	if err := os.MkdirAll(filepath.Dir(docs), 0o755); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "cp", "-RL", cfg.pythonDocs, docs).CombinedOutput(); err != nil {
		return fmt.Errorf("copying the Python docs: %v: %s", err, out)
	}
	ng, err := startNginx(ctx, nginx, work)
	if err != nil {
		return err
	}
	defer ng.stop()
	prefix := ng.origin + "/python/"
	seed := prefix + "index.html"

	type result struct {
		sample
		log     accessLog
		archive int64
		dir     string
		wacz    string
	}
	crawl := func(name string, more ...string) (result, error) {
		r := result{dir: filepath.Join(work, name), wacz: filepath.Join(work, name+".wacz")}
		if err := os.Mkdir(r.dir, 0o755); err != nil {
			return r, err
		}
		if err := ng.truncate(); err != nil {
			return r, err
		}
		args := append([]string{"-q", "-delay", "0", "-scope", prefix, "-warc", r.wacz}, more...)
		r.sample, err = measure(exec.CommandContext(ctx, "./crawler", append(args, seed, r.dir, "2")...))
		if err != nil {
			return r, fmt.Errorf("crawler %s: %w", strings.Join(more, " "), err)
		}
		if r.log, err = ng.read(); err != nil {
			return r, err
		}
		fi, err := os.Stat(r.wacz)
		if err != nil {
			return r, err
		}
		r.archive = fi.Size()
		fmt.Fprintf(stderr, "crawlbench: -since: %s: %d requests, %d pages\n", name, r.log.requests, countPages(r.dir))
		return r, nil
	}
	first, err := crawl("first")
	if err != nil {
		return err
	}
	second, err := crawl("second", "-since", first.wacz)
	if err != nil {
		return err
	}
	same, err := sameDirs(first.dir, second.dir)
	if err != nil {
		return err
	}

	fmt.Fprintf(stdout, "## -since: the Python 3.11 docs at depth 2 with -warc x.wacz, from nginx on 127.0.0.1, crawled again unchanged\n\n")
	fmt.Fprintf(stdout, "| crawl | requests | conditional | 304 | body bytes sent | package | wall | CPU (user + sys) | peak RSS |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		result
	}{{"first", first}, {"again, -since the first package", second}} {
		fmt.Fprintf(stdout, "| %s | %d | %d | %d | %d | %d | %.2f s | %.2f s (%.2f + %.2f) | %.1f MB |\n", r.name,
			r.log.requests, r.log.conditional, r.log.notModified, r.log.bodyBytes, r.archive,
			r.wall.Seconds(), r.cpu().Seconds(), r.user.Seconds(), r.sys.Seconds(), float64(r.rss)/1024)
	}
	fmt.Fprintf(stdout, "\nconditional requests: %.1f%% (goal: at least 95%%); body bytes: %.2f%% of the first crawl's (at most 5%%); package: %.2f%% of the first's (at most 10%%); wall time %.2f×; the pages %s\n\n",
		pct(second.log.conditional, second.log.requests), pct(second.log.bodyBytes, first.log.bodyBytes), pct(second.archive, first.archive),
		second.wall.Seconds()/first.wall.Seconds(), map[bool]string{true: "are the first crawl's, byte for byte", false: "DIFFER from the first crawl's"}[same])

	changed, gone, added, err := changeDocs(first.dir, ng.origin, filepath.Join(work, "site"))
	if err != nil {
		return err
	}
	third, err := crawl("third", "-since", first.wacz)
	if err != nil {
		return err
	}
	fresh, err := crawl("fresh")
	if err != nil {
		return err
	}
	same, err = sameDirs(third.dir, fresh.dir)
	if err != nil {
		return err
	}
	whole, err := wholeRecords(third.wacz, work)
	if err != nil {
		return err
	}
	wantWhole := append(slices.Clone(changed), added)
	slices.Sort(wantWhole)
	var gone404, other404 []string
	for _, u := range whole[404] {
		if slices.Contains(gone, u) {
			gone404 = append(gone404, u)
		} else {
			other404 = append(other404, u)
		}
	}
	fmt.Fprintf(stdout, "after %d pages changed, %d went and 1 was added, a crawl -since the first package: %d conditional requests of %d, %d not modified; "+
		"recorded whole with 200: %d (%s the changed and the added pages); as 404: the %d that went (%s), and %d others, which were 404 in the first crawl too; "+
		"the pages %s; %.2f s against %.2f s for a fresh crawl\n\n",
		len(changed), len(gone), third.log.conditional, third.log.requests, third.log.notModified,
		len(whole[200]), map[bool]string{true: "exactly", false: "NOT"}[slices.Equal(whole[200], wantWhole)],
		len(gone404), map[bool]string{true: "all", false: "NOT all"}[len(gone404) == len(gone)], len(other404),
		map[bool]string{true: "are a fresh crawl's, byte for byte", false: "DIFFER from a fresh crawl's"}[same],
		third.wall.Seconds(), fresh.wall.Seconds())
	return nil
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// An nginx is an nginx serving work/site on a loopback port, logging
// each request to work/access.log.
type nginx struct {
	origin string
	log    string
	cmd    *exec.Cmd
}

// startNginx starts nginx, in the foreground and as one process, on a
// free loopback port, and waits until it answers.
func startNginx(ctx context.Context, exe, work string) (*nginx, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	ng := &nginx{origin: "http://" + addr, log: filepath.Join(work, "access.log")}
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
	include /etc/nginx/mime.types;
	log_format bench '$status $body_bytes_sent "$http_if_none_match" "$http_if_modified_since" $request_uri';
	access_log %[1]s/access.log bench;
	client_body_temp_path %[1]s/tmp;
	proxy_temp_path %[1]s/tmp;
	fastcgi_temp_path %[1]s/tmp;
	uwsgi_temp_path %[1]s/tmp;
	scgi_temp_path %[1]s/tmp;
	server {
		listen %[2]s;
		root %[1]s/site;
	}
}
`, work, addr)
	path := filepath.Join(work, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	ng.cmd = exec.CommandContext(ctx, exe, "-p", work, "-e", filepath.Join(work, "error.log"), "-c", path)
	if err := ng.cmd.Start(); err != nil {
		return nil, err
	}
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return ng, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	ng.stop()
	errLog, _ := os.ReadFile(filepath.Join(work, "error.log"))
	return nil, fmt.Errorf("nginx does not answer on %s: %s", addr, errLog)
}

func (ng *nginx) stop() {
	ng.cmd.Process.Kill()
	ng.cmd.Wait()
}

// truncate empties the access log, which nginx appends to.
func (ng *nginx) truncate() error {
	err := os.Truncate(ng.log, 0)
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// An accessLog sums up nginx's access log.
type accessLog struct {
	requests, conditional, notModified, bodyBytes int64
}

func (ng *nginx) read() (accessLog, error) {
	f, err := os.Open(ng.log)
	if err != nil {
		return accessLog{}, err
	}
	defer f.Close()
	var a accessLog
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// status bytes "if-none-match" "if-modified-since" uri
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 {
			continue
		}
		a.requests++
		if fields[0] == "304" {
			a.notModified++
		}
		n, _ := strconv.ParseInt(fields[1], 10, 64)
		a.bodyBytes += n
		if fields[2] != `"-"` || !strings.HasPrefix(fields[3], `"-"`) {
			a.conditional++
		}
	}
	return a, sc.Err()
}

// changeDocs changes the site under root, from which the crawl in dir
// was made, with its origin: ten pages at depth 1 change, three at depth
// 2 go, and a new page is linked from the first that changed. It returns
// the URLs of each.
func changeDocs(dir, origin, root string) (changed, gone []string, added string, err error) {
	for id := 1; ; id++ {
		data, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(id)))
		if os.IsNotExist(err) {
			break
		}
		if err != nil {
			return nil, nil, "", err
		}
		lines := strings.SplitN(string(data), "\n", 3)
		u, depth := lines[0], lines[1]
		switch {
		case depth == "1" && len(changed) < 10 && strings.HasSuffix(u, ".html"):
			changed = append(changed, u)
		case depth == "2" && len(gone) < 3 && strings.HasSuffix(u, ".html"):
			gone = append(gone, u)
		}
	}
	if len(changed) < 10 || len(gone) < 3 {
		return nil, nil, "", fmt.Errorf("the crawl in %s has too few pages to change", dir)
	}
	file := func(u string) string {
		return filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(u, origin+"/")))
	}
	added = changed[0][:strings.LastIndex(changed[0], "/")+1] + "bench-added.html"
	if err := os.WriteFile(file(added), []byte("<!DOCTYPE html>\n<html><head><title>Added</title></head><body><p>A page added since.</p></body></html>\n"), 0o644); err != nil {
		return nil, nil, "", err
	}
	for i, u := range changed {
		more := "\n<!-- changed since -->\n"
		if i == 0 {
			more = "\n<a href=\"bench-added.html\">added</a>\n"
		}
		f, err := os.OpenFile(file(u), os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			_, err = f.WriteString(more)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return nil, nil, "", err
		}
	}
	for _, u := range gone {
		if err := os.Remove(file(u)); err != nil {
			return nil, nil, "", err
		}
	}
	slices.Sort(changed)
	slices.Sort(gone)
	return changed, gone, added, nil
}

// sameDirs reports whether two page directories hold the same files,
// byte for byte.
func sameDirs(a, b string) (bool, error) {
	ea, err := os.ReadDir(a)
	if err != nil {
		return false, err
	}
	eb, err := os.ReadDir(b)
	if err != nil {
		return false, err
	}
	if len(ea) != len(eb) {
		return false, nil
	}
	for i, e := range ea {
		if e.Name() != eb[i].Name() {
			return false, nil
		}
		da, err := os.ReadFile(filepath.Join(a, e.Name()))
		if err != nil {
			return false, err
		}
		db, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil {
			return false, err
		}
		if !bytes.Equal(da, db) {
			return false, nil
		}
	}
	return true, nil
}

// wholeRecords returns the target URIs of the response records of the
// package at path, by status, each list sorted, but for robots.txt. The
// package's WARC file is copied out to scratch to be read.
func wholeRecords(path, scratch string) (map[int][]string, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	rc, err := zr.Open("archive/data.warc.gz")
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	file := filepath.Join(scratch, "data.warc.gz")
	out, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(out, rc)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	defer os.Remove(file)
	whole := make(map[int][]string)
	err = warc.Read(file, func(rec warc.Record, block io.Reader) error {
		uri := rec.Get("WARC-Target-URI")
		if rec.Get("WARC-Type") != "response" || strings.HasSuffix(uri, "/robots.txt") {
			return nil
		}
		line, _ := bufio.NewReader(block).ReadString('\n')
		if _, rest, ok := strings.Cut(line, " "); ok {
			code, _ := strconv.Atoi(rest[:min(3, len(rest))])
			whole[code] = append(whole[code], uri)
		}
		return nil
	})
	for _, list := range whole {
		slices.Sort(list)
	}
	return whole, err
}
