package earlier

import (
	"testing"
	"time"
)

func TestParseCDXJ(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       cdxjLine
		bad        bool
	}{
		{"ours", `com,example)/ 20250301120000 {"url":"http://example.com/","mime":"text/html","status":"200","digest":"sha1:X","length":812,"offset":0,"filename":"data.warc.gz"}`,
			cdxjLine{url: "http://example.com/", when: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), status: 200, length: 812, filename: "data.warc.gz"}, false},
		{"py-wacz strings", `com,example)/a 20250301120001 {"url": "http://example.com/a", "status": "404", "offset": "1234", "length": "56", "filename": "rec-1.warc.gz"}`,
			cdxjLine{url: "http://example.com/a", when: time.Date(2025, 3, 1, 12, 0, 1, 0, time.UTC), status: 404, offset: 1234, length: 56, filename: "rec-1.warc.gz"}, false},
		{"revisit of a 304", `com,example)/ 20250308120000 {"url":"http://example.com/","mime":"warc/revisit","length":500,"offset":99,"filename":"data.warc.gz"}`,
			cdxjLine{url: "http://example.com/", when: time.Date(2025, 3, 8, 12, 0, 0, 0, time.UTC), revisit: true, length: 500, offset: 99, filename: "data.warc.gz"}, false},
		{"no status", `com,example)/ 2025 {"url":"http://example.com/","status":"-","length":1,"offset":2,"filename":"f"}`,
			cdxjLine{url: "http://example.com/", when: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), length: 1, offset: 2, filename: "f"}, false},
		{"post", `com,example)/?__wb_method=post 20250301120000 {"url":"http://example.com/","method":"POST","status":"200","length":1,"offset":2,"filename":"f"}`,
			cdxjLine{url: "http://example.com/", when: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), status: 200, length: 1, offset: 2, filename: "f", method: "POST"}, false},
		{"CDX header", " CDX N b a m s k r M S V g", cdxjLine{}, true},
		{"no JSON", "com,example)/ 20250301120000", cdxjLine{}, true},
		{"bad timestamp", `com,example)/ 2025x301120000 {"url":"u","offset":0,"length":0,"filename":"f"}`, cdxjLine{}, true},
		{"negative offset", `k 20250301120000 {"url":"u","offset":-1,"length":0,"filename":"f"}`, cdxjLine{}, true},
		{"no filename", `k 20250301120000 {"url":"u","offset":1,"length":0}`, cdxjLine{}, true},
		{"no offset", `k 20250301120000 {"url":"u","length":0,"filename":"f"}`, cdxjLine{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseCDXJ([]byte(tc.line))
			if (err != nil) != tc.bad {
				t.Fatalf("error %v, want one: %v", err, tc.bad)
			}
			if !tc.bad && got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// FuzzCDXJ checks that no line makes the parser fail other than by an
// error, and that what it accepts is a line the index can use.
func FuzzCDXJ(f *testing.F) {
	f.Add([]byte(`com,example)/ 20250301120000 {"url":"http://example.com/","mime":"text/html","status":"200","length":812,"offset":0,"filename":"data.warc.gz"}`))
	f.Add([]byte(`com,example)/a 20250301 {"url": "http://example.com/a", "status": 404, "offset": "1234", "length": "56", "filename": "rec.warc.gz"}`))
	f.Add([]byte(`k 2025 {"url":"u","mime":"warc/revisit","offset":1,"length":2,"filename":"f","method":"POST"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		l, err := parseCDXJ(line)
		if err != nil {
			return
		}
		if l.url == "" || l.filename == "" || l.offset < 0 || l.length < 0 || l.status != 0 && (l.status < 100 || l.status > 999) || l.when.IsZero() {
			t.Errorf("parseCDXJ(%q) = %+v", line, l)
		}
	})
}
