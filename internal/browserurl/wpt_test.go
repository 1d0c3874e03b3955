package browserurl

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A wptEntry is one test of WPT's urltestdata.json.
type wptEntry struct {
	Input   string  `json:"input"`
	Base    *string `json:"base"`
	Href    string  `json:"href"`
	Failure bool    `json:"failure"`
}

// wptEntries reads the vendored suite (testdata/wpt, see its README). The
// file mixes comments (strings) with entries (objects).
func wptEntries(t testing.TB) []wptEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "wpt", "urltestdata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("urltestdata.json: %v", err)
	}
	var entries []wptEntry
	for _, r := range raw {
		if len(r) > 0 && r[0] == '{' {
			var e wptEntry
			if err := json.Unmarshal(r, &e); err != nil {
				t.Fatalf("urltestdata.json: %v in %s", err, r)
			}
			entries = append(entries, e)
		}
	}
	return entries
}

// wptExceptions lists the entries, by base and input, on which the crawler
// knowingly disagrees with a browser, each with its reason. It is empty:
// every entry passes.
var wptExceptions = map[[2]string]string{}

func isHTTP(s string) bool {
	s = strings.ToLower(strings.TrimLeft(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "))
	return strings.HasPrefix(s, "http:") || strings.HasPrefix(s, "https:")
}

// TestWPT runs the WPT URL suite through html mode's URL handling:
//   - every entry with an http or https base, as a link (the input) on a
//     page at that base: [Resolve] must give the entry's href without its
//     fragment, or fail where the entry fails; and when the result is an
//     http or https URL, [Normalize] must keep it as the crawl's key,
//     unless its extension is one the crawler does not fetch;
//   - every entry with no base whose input is an http or https URL, as a
//     seed or a redirect's target: [Normalize] must give the href without
//     its fragment (or reject it, under the same rules).
func TestWPT(t *testing.T) {
	var links, absolute, passed int
	for _, e := range wptEntries(t) {
		base := ""
		if e.Base != nil {
			base = *e.Base
		}
		want, _, _ := strings.Cut(e.Href, "#")
		var got string
		var ok bool
		switch {
		case isHTTP(base):
			links++
			got, ok = Resolve(base, e.Input)
		case (base == "" || base == "about:blank") && isHTTP(e.Input):
			absolute++
			got, ok = serialize(e.Input)
		default:
			continue
		}
		key := [2]string{base, e.Input}
		reason, excepted := wptExceptions[key]
		var problem string
		switch {
		case e.Failure && ok:
			problem = "a browser rejects it, but it gives " + got
		case !e.Failure && !ok:
			problem = "a browser gives " + want + ", but it is rejected"
		case !e.Failure && got != want:
			problem = "a browser gives " + want + ", but it gives " + got
		case ok && isHTTP(got):
			norm, nok := Normalize(got)
			switch fetched := htmlExtension(pathOf(got)); {
			case fetched && (!nok || norm != got):
				problem = "resolves to " + got + ", which normalizes to " + norm + " rather than itself"
			case !fetched && nok:
				problem = "resolves to " + got + ", which is not a web page, but normalizes to " + norm
			}
		case ok:
			if norm, nok := Normalize(got); nok {
				problem = "resolves to " + got + ", which is not http, but normalizes to " + norm
			}
		}
		switch {
		case problem != "" && !excepted:
			t.Errorf("base %q, input %q: %s", base, e.Input, problem)
		case problem == "" && excepted:
			t.Errorf("base %q, input %q passes, but is listed as an exception (%s): remove it", base, e.Input, reason)
		case problem == "":
			passed++
		}
	}
	t.Logf("%d of %d entries pass (%d links on an http(s) page, %d absolute http(s) URLs); %d listed exceptions",
		passed, links+absolute, links, absolute, len(wptExceptions))
	if links < 150 || absolute < 50 {
		t.Errorf("only %d links and %d absolute URLs in the suite: is it the right file?", links, absolute)
	}
}
