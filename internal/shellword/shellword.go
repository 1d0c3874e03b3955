// Package shellword writes words as a POSIX shell reads them back, for the
// commands the crawler prints for a user to paste: the one that resumes a
// crawl, or that crawls what the user most likely meant.
package shellword

import "strings"

// Join joins args into a line a POSIX shell reads back as args, quoting
// only the words that need it.
func Join(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = Quote(a, false)
	}
	return strings.Join(quoted, " ")
}

// Quote returns s as one word of a POSIX shell: as it is if no character
// in it means anything to the shell and always is false, else in single
// quotes. A leading "=" is quoted too, which zsh would expand.
func Quote(s string, always bool) string {
	if !always && s != "" && s[0] != '=' && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
