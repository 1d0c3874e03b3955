package earlier

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// A cdxjLine is what the index needs of a line of a CDXJ index.
type cdxjLine struct {
	url      string
	when     time.Time // to the second, as CDXJ timestamps go
	revisit  bool      // mime warc/revisit
	status   int       // 0 if none, as for a revisit of a 304
	offset   int64
	length   int64
	filename string
	method   string // "" for GET; other methods' answers are not reusable
}

// parseCDXJ parses a line of a CDXJ index, as this crawler's wacz package,
// pywb and py-wacz write it: a SURT key, a timestamp of 14 digits (or
// fewer, which stand for the earliest moment they name) and a JSON
// object, whose offset, length and status may be numbers or strings. A
// line that is not one, such as the header line of a CDX file, is an
// error.
func parseCDXJ(line []byte) (cdxjLine, error) {
	var l cdxjLine
	_, rest, ok := bytes.Cut(line, []byte{' '})
	if !ok {
		return l, errors.New("no timestamp after the key")
	}
	ts, obj, ok := bytes.Cut(rest, []byte{' '})
	if !ok {
		return l, errors.New("no JSON after the timestamp")
	}
	when, err := parseTimestamp(string(ts))
	if err != nil {
		return l, err
	}
	var j struct {
		URL      string          `json:"url"`
		Mime     string          `json:"mime"`
		Status   json.RawMessage `json:"status"`
		Offset   json.RawMessage `json:"offset"`
		Length   json.RawMessage `json:"length"`
		Filename string          `json:"filename"`
		Method   string          `json:"method"`
	}
	if err := json.Unmarshal(obj, &j); err != nil {
		return l, fmt.Errorf("JSON: %w", err)
	}
	l.url, l.when, l.revisit, l.filename = j.URL, when, j.Mime == "warc/revisit", j.Filename
	if j.Method != "" && j.Method != "GET" {
		l.method = j.Method
	}
	if l.url == "" || l.filename == "" {
		return l, errors.New("no url or no filename")
	}
	if l.offset, err = number(j.Offset); err != nil || l.offset < 0 {
		return l, fmt.Errorf("offset %s", j.Offset)
	}
	if l.length, err = number(j.Length); err != nil || l.length < 0 {
		return l, fmt.Errorf("length %s", j.Length)
	}
	if len(j.Status) > 0 {
		n, err := number(j.Status)
		if err == nil && n >= 100 && n <= 999 {
			l.status = int(n)
		}
		// Anything else, such as "-", is no status.
	}
	return l, nil
}

// number parses a JSON number or a string of digits.
func number(raw json.RawMessage) (int64, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		s = string(raw)
	}
	return strconv.ParseInt(s, 10, 64)
}

// parseTimestamp parses a CDX timestamp: up to 14 digits, yyyyMMddhhmmss,
// of which those left out stand for the earliest moment.
func parseTimestamp(ts string) (time.Time, error) {
	const full = "20060102150405"
	const pad = "00000101000000"
	if len(ts) < 4 || len(ts) > len(full) {
		return time.Time{}, fmt.Errorf("timestamp %q", ts)
	}
	t, err := time.Parse(full, ts+pad[len(ts):])
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q", ts)
	}
	return t, nil
}
