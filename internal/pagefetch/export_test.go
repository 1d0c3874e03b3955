package pagefetch

import "tse-crawler/internal/warc"

// SpoolMemory returns the memory a recorded response is held in, as far as
// it is held in memory.
func SpoolMemory(src warc.Source) []byte { return src.(*spool).mem }
