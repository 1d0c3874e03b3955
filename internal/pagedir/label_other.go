//go:build !linux

package pagedir

// setLabel would store data in an extended attribute of the marker; this
// system has no portable way to, so a finished crawl is simply finished.
func (d *Dir) setLabel(data []byte) {}

// label returns nothing: see setLabel.
func (d *Dir) label() ([]byte, bool) { return nil, false }
