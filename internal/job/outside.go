package job

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// outsideDir checks that none of the files the crawl writes besides its
// pages (-stats-json, -warc) lies in pageDirectory or below it. A file
// there would stand among the pages: one named as a docID would stop the
// crawl, and any other would break a grader's diff -r and the indexer's
// reading of the directory. flag names each path.
func outsideDir(dir string, paths map[string]string) error {
	d, err := os.Stat(dir)
	if err != nil {
		return nil // pagedir.Open says what is wrong with pageDirectory
	}
	for flag, path := range paths {
		if path == "" {
			continue
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			continue
		}
		// The file may not exist yet: its folders, up to the root, are
		// what may be pageDirectory, whatever names lead to it.
		for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
			if fi, err := os.Stat(p); err == nil && os.SameFile(fi, d) {
				return fmt.Errorf("-%s %s is inside pageDirectory %s, where only pages belong: give a path outside it, such as %s", flag, path, dir, filepath.Join("..", filepath.Base(path)))
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				break
			}
			if filepath.Dir(p) == p {
				break
			}
		}
	}
	return nil
}
