package shellword

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestJoin has a POSIX shell read back the words Join quotes.
func TestJoin(t *testing.T) {
	words := []string{
		"plain", "", " ", "a b", "it's", `"quoted"`, "$HOME", "`date`", "$(date)", `back\slash`,
		"*", "?", "[a]", "~", "~root", "=ls", "#hash", "a;b", "a&b", "a|b", "<a>", "!", "{a,b}",
		"tab\there", "line\nbreak", "-links-from=<!-- C -->", "http://h:8/a?b=c&d#e", "café", "'",
	}
	line := Join(words)
	out, err := exec.Command("sh", "-c", "set -- "+line+`; for a in "$@"; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, words) {
		t.Errorf("sh reads %s as\n%q, want\n%q", line, got, words)
	}
	if want := "plain '' ' ' 'a b'"; !strings.HasPrefix(line, want) {
		t.Errorf("Join quotes too much: %s, want it to begin %s", line, want)
	}
}
