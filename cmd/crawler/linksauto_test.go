package main

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestLinksAuto checks the mode each command line reads links in: -links
// auto, the default, is the reference's for a crawl of the CS50 site and a
// browser's once -scope is given, and -links reference or html forces it.
// The journal names the mode used, never auto, and the resume command
// carries -links only as given.
func TestLinksAuto(t *testing.T) {
	const site = "http://www.example.edu/"
	tests := []struct {
		name   string
		args   []string // before seedURL pageDirectory maxDepth
		seed   string
		mode   string
		resume string // the -links the resume command carries, or ""
	}{
		{"default, no -scope", nil, zooSeed, "reference", ""},
		{"auto given, no -scope", []string{"-links", "auto"}, zooSeed, "reference", ""},
		{"default, -scope", []string{"-scope", site}, site + "index.html", "html", ""},
		{"auto given, -scope", []string{"-links=auto", "-scope", site}, site + "index.html", "html", ""},
		{"default, the CS50 prefix as -scope", []string{"-scope", "http://cs50tse.cs.dartmouth.edu/tse/"}, zooSeed, "html", ""},
		{"reference forced, -scope", []string{"-links", "reference", "-scope", site}, site + "index.html", "reference", "-links=reference"},
		{"html forced, no -scope", []string{"-links", "html"}, zooSeed, "html", "-links=html"},
		{"reference forced, no -scope", []string{"-links", "reference"}, zooSeed, "reference", "-links=reference"},
		{"default, -scope, a content region", []string{"-scope", site, "-links-from", "<main>"}, site + "index.html", "html", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseArgs(append(slices.Clone(tt.args), tt.seed, "dir", "1"))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Mode() != tt.mode {
				t.Errorf("mode %q, want %q", cfg.Mode(), tt.mode)
			}
			var journaled []string
			for _, o := range cfg.params().Options {
				if o[0] == "links" {
					journaled = append(journaled, o[1])
				}
			}
			if !slices.Equal(journaled, []string{tt.mode}) {
				t.Errorf("the journal's links %q, want [%q]", journaled, tt.mode)
			}
			var carried string
			for _, a := range resumeArgs(cfg) {
				if strings.HasPrefix(a, "-links=") {
					carried = a
				}
			}
			if carried != tt.resume {
				t.Errorf("the resume command carries %q, want %q", carried, tt.resume)
			}
		})
	}
	if _, err := parseArgs([]string{"-links", "browser", zooSeed, "dir", "1"}); err == nil || !strings.Contains(err.Error(), "use auto, reference or html") {
		t.Errorf("-links browser: %v, want a usage error naming auto, reference and html", err)
	}
}

// TestLinksAutoResume resumes, with -links left to auto, a crawl of a
// -scope begun in reference mode, as a crawl begun before auto was the
// default was: it goes on in reference mode, and ends as that crawl
// uninterrupted does, which is not what html mode gives on this site.
// The mode is said on stderr and in the statistics, and the crawl may not
// be resumed in html mode.
func TestLinksAutoResume(t *testing.T) {
	p := newStepProxy(t, browserSite)
	// Any host but the university's, which the proxy keeps for itself.
	scoped := []string{"-delay", "0", "-scope", "http://site.test/", "http://site.test/index.html", "2"}
	began := append([]string{"-q", "-links", "reference"}, scoped...)
	want, _ := uninterrupted(t, p, began)
	if html, _ := uninterrupted(t, p, scoped); sameDir(html, want) == "" {
		t.Fatal("html and reference mode crawl browserSite alike, so the test tells nothing")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	p.setHook(func(n int64, answered bool) {
		if n == 3 && answered {
			cancel(stopSignal{syscall.SIGINT})
		}
	})
	code, _, stderr := crawl(ctx, p.getenv, withDir(began, dir)...)
	p.setHook(nil)
	if code != 130 || !strings.Contains(stderr, "-links=reference") {
		t.Fatalf("interrupted crawl: exit %d, want 130 and a resume command with -links=reference: %s", code, stderr)
	}

	code, _, stderr = crawl(t.Context(), p.getenv, withDir(append([]string{"-resume", "-links", "html"}, scoped...), dir)...)
	if code != exitResume || !strings.Contains(stderr, `-links "reference", not "html"`) {
		t.Errorf("resumed with -links html: exit %d, want %d: %s", code, exitResume, stderr)
	}

	code, _, stderr = crawl(t.Context(), p.getenv, withDir(append([]string{"-resume", "-stats"}, scoped...), dir)...)
	if code != exitOK {
		t.Fatalf("resumed with -links auto: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"(-links reference), as when this crawl began", "links:     read as the CS50 reference does (-links reference)"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr of the resumed crawl does not say %q:\n%s", w, stderr)
		}
	}
	if diff := sameDir(snapshot(t, dir), want); diff != "" {
		t.Errorf("the resumed crawl is not the reference-mode one: %s", diff)
	}
	// Finished, it is the same crawl still: nothing to resume.
	code, _, stderr = crawl(t.Context(), p.getenv, withDir(append([]string{"-resume"}, scoped...), dir)...)
	if code != exitOK || !strings.Contains(stderr, "is finished") {
		t.Errorf("the finished crawl resumed with -links auto: exit %d: %s", code, stderr)
	}
}
