package main

import (
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagedir"
)

// otherValues give each flag a resume carries a value other than its
// default, which a crawl of zooSeed takes.
var otherValues = map[string]string{
	"delay": "250ms", "timeout": "5s", "max-size": "3MiB", "q": "true", "links": "html",
	"order": "priority", "robots": "false", "retries": "7", "user-agent": "x/2",
	"scope": "http://cs50tse.cs.dartmouth.edu/tse/zoo/", "links-from": "<b>", "links-until": "</b>",
	"stats": "true", "stats-json": "out.json", "graph": "links.csv", "parallel": "9", "ahead-memory": "1MiB",
	"warc": "crawl.warc.gz", "since": "week1.wacz", "requisites": "none", "exclude": `/eel\.html$`, "sitemap": "auto",
	"max-pages": "7", "check": "true", "check-external": "false", "max-requisites": "5",
	"check-cache": "links.json", "check-cache-age": "1h",
}

// alongside are the flags a flag matters only with, given with it by
// TestResumeRules: -requisites and -max-requisites shape only a crawl with
// -warc.
var alongside = map[string][]string{"requisites": {"-warc=crawl.warc"}, "max-requisites": {"-warc=crawl.warc"}, "check-external": {"-check"}, "check-cache": {"-check"}, "check-cache-age": {"-check", "-check-cache=links.json"}}

// TestResumeRules checks each flag's rule against the journal's
// parameters, which decide whether a crawl resumes: another value of a
// flag that must match names another crawl, and of any other flag, the
// same one.
func TestResumeRules(t *testing.T) {
	for _, f := range flags {
		v, ok := otherValues[f.name]
		if !ok {
			continue // not carried, as TestResumeArgsEveryFlag checks
		}
		def, err := parseArgs(append(slices.Clone(alongside[f.name]), zooSeed, "DIR", "2"))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := parseArgs(append(alongside[f.name], "-"+f.name+"="+v, zooSeed, "DIR", "2"))
		if err != nil {
			t.Fatal(err)
		}
		diffs := def.params().Diff(cfg.params())
		if must := f.rule == mustMatch; must != (diffs != nil) {
			t.Errorf("-%s=%s: the journal's parameters differ by %q; want a difference %v", f.name, v, diffs, must)
		}
	}
}

// TestRequisitesJournaled: -requisites names the crawl only with -warc,
// and only when it is not all, so that a journal without it, of a crawl
// without -warc or of one begun before requisites were fetched, resumes.
func TestRequisitesJournaled(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the option line, or ""
	}{
		{nil, ""},
		{[]string{"-requisites=none"}, ""},
		{[]string{"-warc=x.warc"}, ""},
		{[]string{"-warc=x.warc", "-requisites=all"}, ""},
		{[]string{"-warc=x.warc", "-requisites=scope"}, `option requisites "scope"`},
		{[]string{"-warc=x.warc", "-requisites=none"}, `option requisites "none"`},
	} {
		cfg, err := parseArgs(append(tt.args, zooSeed, "DIR", "2"))
		if err != nil {
			t.Fatal(err)
		}
		header := string(pagedir.JournalHeader(cfg.params()))
		if got := strings.Contains(header, "option requisites"); got != (tt.want != "") || tt.want != "" && !strings.Contains(header, tt.want+"\n") {
			t.Errorf("%q: header\n%s\nwant %q", tt.args, header, tt.want)
		}
	}
	if _, err := parseArgs([]string{"-requisites=some", zooSeed, "DIR", "2"}); err == nil || !strings.Contains(err.Error(), "give all") {
		t.Errorf("-requisites=some: %v, want a usage error", err)
	}
}

// TestEarlierJournals checks that crawls started by earlier releases can
// be resumed: the headers they wrote, read back, name the crawl that the
// same command line now names. The names and values of the options must
// not change, though their order may.
func TestEarlierJournals(t *testing.T) {
	const seed = "seed \"http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html\"\nmaxDepth 2\n"
	tests := []struct {
		args    []string // before seedURL pageDirectory maxDepth
		options string   // the header's option lines, as the release wrote them
	}{
		{nil, `option links "reference"
option order "lifo"
option robots "true"
option max-size "10485760"
option scope "http://cs50tse.cs.dartmouth.edu/tse/"
option links-from ""
option links-until ""
`},
		{[]string{"-delay=0", "-q", "-parallel=8", "-links=html", "-scope=HTTP://CS50TSE.cs.dartmouth.edu:80/tse/zoo/", "-scope=http://*.example.edu/"}, `option links "html"
option order "lifo"
option robots "true"
option max-size "10485760"
option scope "http://cs50tse.cs.dartmouth.edu/tse/zoo/ http://*.example.edu/"
option links-from ""
option links-until ""
`},
		{[]string{"-max-size=2048MiB", "-robots=false", "-order=bfs", "-links-from=<a>", "-links-until=</a>", "-warc=x.warc"}, `option links "reference"
option order "bfs"
option robots "false"
option max-size "2147483648"
option scope "http://cs50tse.cs.dartmouth.edu/tse/"
option links-from "<a>"
option links-until "</a>"
option warc "x.warc"
`},
	}
	for _, tt := range tests {
		cfg, err := parseArgs(append(tt.args, zooSeed, "DIR", "2"))
		if err != nil {
			t.Fatal(err)
		}
		header := "tse-crawler journal 1\n" + seed + tt.options + "begin\n"
		was, _, err := pagedir.ReadJournal(strings.NewReader(header))
		if err != nil {
			t.Fatal(err)
		}
		if diffs := was.Diff(cfg.params()); diffs != nil {
			t.Errorf("%q: the journal an earlier release wrote names another crawl: %q", tt.args, diffs)
		}
	}
}
