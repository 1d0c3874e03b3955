package job

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The flag.Values of the command's flags. Each is bound to a field of a
// Settings, reads a value as the manual writes it, and writes it back in the
// same form, for the resume command and the manual's defaults. Their
// errors say what to give, where the flag package's own would say only
// "parse error".

// A DurationValue is a flag that holds a time.Duration.
type DurationValue struct{ D *time.Duration }

// String writes the duration as a person would, without the zeros
// time.Duration's String ends in: 24h, not 24h0m0s; 1m, not 1m0s.
func (v DurationValue) String() string {
	s := v.D.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

func (v DurationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("give a duration such as 1s, 1.5s or 500ms")
	}
	*v.D = d
	return nil
}

// A CountValue is a flag that holds a whole number; Want says what to give.
type CountValue struct {
	N    *int
	Want string
}

func (v CountValue) String() string { return strconv.Itoa(*v.N) }

func (v CountValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("give " + v.Want)
	}
	*v.N = n
	return nil
}

// A LimitValue is a flag that holds a whole number from 1, or 0, written
// "", while it is not given.
type LimitValue struct {
	N    *int
	Want string
}

func (v LimitValue) String() string {
	if *v.N == 0 {
		return ""
	}
	return strconv.Itoa(*v.N)
}

func (v LimitValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return errors.New("give " + v.Want)
	}
	*v.N = n
	return nil
}

// A SizeValue is a flag that holds a size in bytes, written as parseSize
// reads it.
type SizeValue struct{ N *int64 }

func (v SizeValue) String() string { return formatSize(*v.N) }

func (v SizeValue) Set(s string) error {
	n, err := parseSize(s)
	*v.N = n
	return err
}

// A StringValue is a flag that holds a string, whatever it is.
type StringValue struct{ S *string }

func (v StringValue) String() string     { return *v.S }
func (v StringValue) Set(s string) error { *v.S = s; return nil }

// A BoolValue is a boolean flag: given alone, as -q, it is true.
type BoolValue struct{ B *bool }

func (v BoolValue) String() string   { return strconv.FormatBool(*v.B) }
func (v BoolValue) IsBoolFlag() bool { return true }

func (v BoolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New(boolValues) // see badBool
	}
	*v.B = b
	return nil
}

// A ListValue is a flag that may be given many times, each value added to
// the list.
type ListValue struct{ List *[]string }

func (v *ListValue) String() string     { return strings.Join(*v.List, " ") }
func (v *ListValue) Set(s string) error { *v.List = append(*v.List, s); return nil }

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

// boolValues says what a boolean flag takes: what strconv.ParseBool
// reads.
const boolValues = "give true or false (or 1, 0, t, f)"

// badBool finds the first boolean flag in args given a value it cannot
// take, as in "-robots=no", and says what to give; it returns "" if there
// is none. The flag package's own message would begin "invalid boolean
// value" and end in whatever Set said.
func badBool(fs *flag.FlagSet, args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return ""
		}
		name, v, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			return ""
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if _, err := strconv.ParseBool(v); hasValue && err != nil {
				if strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsGraphic(r) || r == ' ' }) {
					v = strconv.Quote(v)
				}
				return fmt.Sprintf("-%s=%s: %s", name, v, boolValues)
			}
			continue
		}
		if !hasValue {
			i++ // the flag's value
		}
	}
	return ""
}

// boolWithSpace finds a boolean flag given its value after a space, as in
// "-robots false seedURL ...", which the flag package reads as -robots and
// a first argument "false", and says how to write it; it returns "" if
// there is none. Only words count, true and false or yes, no, on and off
// as a user may guess: "-q 1" may well be a mistake of another kind.
func boolWithSpace(fs *flag.FlagSet, args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return ""
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			return ""
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if !hasValue && i+1 < len(args) {
				v := args[i+1]
				if len(v) > 1 {
					if _, err := strconv.ParseBool(v); err == nil {
						return fmt.Sprintf("%s %s: a boolean flag takes its value after \"=\": write %s=%s", a, v, a, v)
					}
				}
				switch strings.ToLower(v) {
				case "yes", "on":
					return fmt.Sprintf("%s %s: a boolean flag takes true or false after \"=\": write %s=true", a, v, a)
				case "no", "off":
					return fmt.Sprintf("%s %s: a boolean flag takes true or false after \"=\": write %s=false", a, v, a)
				}
			}
			continue
		}
		if !hasValue {
			i++ // the flag's value
		}
	}
	return ""
}
