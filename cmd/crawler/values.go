package main

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// The flag.Values of the command's flags. Each is bound to a field of a
// config, reads a value as the manual writes it, and writes it back in the
// same form, for the resume command and the manual's defaults. Their
// errors say what to give, where the flag package's own would say only
// "parse error".

// A durationValue is a flag that holds a time.Duration.
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string { return v.d.String() }

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("give a duration such as 1s, 1.5s or 500ms")
	}
	*v.d = d
	return nil
}

// A countValue is a flag that holds a whole number; want says what to give.
type countValue struct {
	n    *int
	want string
}

func (v countValue) String() string { return strconv.Itoa(*v.n) }

func (v countValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("give " + v.want)
	}
	*v.n = n
	return nil
}

// A limitValue is a flag that holds a whole number from 1, or 0, written
// "", while it is not given.
type limitValue struct {
	n    *int
	want string
}

func (v limitValue) String() string {
	if *v.n == 0 {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v limitValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return errors.New("give " + v.want)
	}
	*v.n = n
	return nil
}

// A sizeValue is a flag that holds a size in bytes, written as parseSize
// reads it.
type sizeValue struct{ n *int64 }

func (v sizeValue) String() string { return formatSize(*v.n) }

func (v sizeValue) Set(s string) error {
	n, err := parseSize(s)
	*v.n = n
	return err
}

// A stringValue is a flag that holds a string, whatever it is.
type stringValue struct{ s *string }

func (v stringValue) String() string     { return *v.s }
func (v stringValue) Set(s string) error { *v.s = s; return nil }

// A boolValue is a boolean flag: given alone, as -q, it is true.
type boolValue struct{ b *bool }

func (v boolValue) String() string   { return strconv.FormatBool(*v.b) }
func (v boolValue) IsBoolFlag() bool { return true }

func (v boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		// The flag package's own words, which it puts after "invalid
		// boolean value".
		return errors.New("parse error")
	}
	*v.b = b
	return nil
}

// A listValue is a flag that may be given many times, each value added to
// the list.
type listValue struct{ list *[]string }

func (v *listValue) String() string     { return strings.Join(*v.list, " ") }
func (v *listValue) Set(s string) error { *v.list = append(*v.list, s); return nil }

// parseSize reads a size in bytes, KiB, MiB or GiB: "500000", "512KiB",
// "10MiB". Units are binary, as their names say.
func parseSize(s string) (int64, error) {
	bad := errors.New("give a size such as 10MiB, 512KiB or 1000000 (bytes)")
	num, unit := s, ""
	if i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		num, unit = s[:i], s[i:]
	}
	shift := map[string]uint{"": 0, "B": 0, "KiB": 10, "MiB": 20, "GiB": 30}
	sh, ok := shift[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > math.MaxInt64>>sh {
		return 0, bad
	}
	return n << sh, nil
}

// formatSize writes n bytes as parseSize reads them, in the largest unit
// that holds it exactly.
func formatSize(n int64) string {
	for _, u := range []struct {
		name  string
		shift uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
