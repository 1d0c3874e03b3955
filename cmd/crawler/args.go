package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"

	"tse-crawler/internal/job"
)

// config is what the command line asks for: a crawl's settings, to which
// the table of flags binds each flag.
type config struct {
	job.Settings
}

// A usageError is a bad command line; code is the exit status it calls for.
type usageError struct {
	code int
	msg  string
}

func (e *usageError) Error() string { return e.msg }

// A fixableError is a bad command line that another would mend: fix are
// its arguments, for run to print after the command's name.
type fixableError struct {
	usageError
	fix []string
}

func (e *fixableError) Unwrap() error { return &e.usageError }

// settingExit is the exit status of each setting the job can refuse.
var settingExit = map[job.Setting]int{job.Flags: exitUsage, job.SeedURL: exitSeedURL, job.MaxDepth: exitMaxDepth}

// parseArgs parses and checks the command line after the command's name,
// all but pageDirectory, which pagedir.Open checks as it creates the
// marker file. Its errors are *usageErrors, or flag.ErrHelp for -h.
func parseArgs(args []string) (*config, error) {
	cfg := new(config)
	if err := cfg.Parse(cfg.flagSet(), args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		se := err.(*job.SettingError)
		ue := usageError{settingExit[se.Setting], se.Error()}
		if se.Fix == nil {
			return nil, &ue
		}
		// The command that crawls the seed: the flags given, then the fix.
		var fix []string
		for _, f := range flags {
			if f.rule != notCarried {
				fix = append(fix, f.words(cfg)...)
			}
		}
		return nil, &fixableError{ue, append(fix, se.Fix...)}
	}
	return cfg, nil
}

// wantsVersion reports whether the command line asks for -version, which
// is answered whatever else the line holds, so that any command line, even
// a broken one, can say what built the crawler.
func wantsVersion(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, v, hasValue := strings.Cut(a, "=")
		if name != "-version" && name != "--version" {
			continue
		}
		if on, err := strconv.ParseBool(v); !hasValue || err == nil && on {
			return true
		}
	}
	return false
}
