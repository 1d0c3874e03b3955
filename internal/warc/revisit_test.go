package warc

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestRevisit checks how an exchange that revisits an earlier record is
// recorded: a 304 as a server-not-modified revisit, whole; a 200 with the
// earlier payload as an identical-payload-digest revisit of its head
// alone; anything else as a response, whole.
func TestRevisit(t *testing.T) {
	earlier := time.Date(2024, 12, 1, 10, 0, 0, 0, time.UTC)
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: \"v1\""
	notModified := "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n"
	same, changed := response(head, page), response(head, page+"<p>new</p>\n")
	digest := sha1b32([]byte(page))
	hexDigest := "sha1:" + hex.EncodeToString(sha1Sum([]byte(page)))
	tests := []struct {
		name     string
		response string
		digest   string // the earlier record's
		id       string
		typ      string // of the record written
		profile  string
		block    string
		payload  string // WARC-Payload-Digest, "" for none
	}{
		{"not modified", notModified, digest, "<urn:uuid:0b0e5a1c-9c2e-4c5f-8d3a-2f1e4b6a7c80>", "revisit", profileNotModified, "", ""},
		{"not modified, no earlier id", notModified, "", "", "revisit", profileNotModified, "", ""},
		{"same payload", same, digest, "<urn:uuid:0b0e5a1c-9c2e-4c5f-8d3a-2f1e4b6a7c80>", "revisit", profileIdentical, head + fmt.Sprintf("\r\nContent-Length: %d\r\n\r\n", len(page)), digest},
		{"same payload, digest in base 16", same, hexDigest, "", "revisit", profileIdentical, head + fmt.Sprintf("\r\nContent-Length: %d\r\n\r\n", len(page)), digest},
		{"same payload, digest by another algorithm", same, "sha256:AAAA", "", "response", "", same, digest},
		{"changed payload", changed, digest, "", "response", "", changed, sha1b32([]byte(page + "<p>new</p>\n"))},
		{"gone", response("HTTP/1.1 404 Not Found", "gone"), digest, "", "response", "", response("HTTP/1.1 404 Not Found", "gone"), sha1b32([]byte("gone"))},
	}
	for _, name := range fileNames {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			w := create(t, path)
			for i, tt := range tests {
				x := fill(tx{Response: tt.response}, i)
				x.Revisit = &Revisit{TargetURI: x.TargetURI, Date: earlier, RecordID: tt.id, PayloadDigest: tt.digest, Container: "week1.wacz"}
				if err := w.WriteExchange(x); err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readFile(t, path)
			for i, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					r := recs[2+2*i]
					if got := r.must(t, "WARC-Type"); got != tt.typ {
						t.Fatalf("WARC-Type %s, want %s", got, tt.typ)
					}
					if string(r.block) != tt.block {
						t.Errorf("block %q, want %q", r.block, tt.block)
					}
					got, _ := r.get(t, "WARC-Payload-Digest")
					if got != tt.payload {
						t.Errorf("WARC-Payload-Digest %q, want %q", got, tt.payload)
					}
					if tt.typ != "revisit" {
						if _, ok := r.get(t, "WARC-Refers-To-Target-URI"); ok {
							t.Error("a response record names a record it refers to")
						}
						return
					}
					want := map[string]string{
						"WARC-Profile":              tt.profile,
						"WARC-Refers-To":            tt.id,
						"WARC-Refers-To-Target-URI": fill(tx{}, i).TargetURI,
						"WARC-Refers-To-Date":       "2024-12-01T10:00:00.000000Z",
						"WARC-Truncated":            map[string]string{profileIdentical: "length"}[tt.profile],
						"WARC-Refers-To-Container":  "file://week1.wacz",
					}
					for field, value := range want {
						if got, _ := r.get(t, field); got != value {
							t.Errorf("%s %q, want %q", field, got, value)
						}
					}
				})
			}
		})
	}
}
